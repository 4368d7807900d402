// The Real model view as the link says it: `view=real&sentence=…` (the text the model reads; the
// view's example when absent), `open=2.3` (layer 2, head 3, opened in the playground) and
// `generate=N` (the tokens Generate added: the model picks the likeliest each time, so the same N
// gives the same text again), and `model=URL` with `tokenizer=`, `vocab=`, `merges=`, `config=`
// beside it (a model on a server, as an embed names one: the view shows its size and loads it
// when the reader asks). Like the Learn view's keys these are not the reader's state: undo
// and storage never see them, and they count only beside `view=` (learn-link.ts takes them).
import { CAPS } from './state';

export interface RealPlace {
  /** Null: the example sentence in the page's language. */
  sentence: string | null;
  /** The head opened in the playground, counted from 1 as the page shows them. */
  open?: { layer: number; head: number };
  generate?: number;
  /** A model on a server and the files beside it: absolute http(s) URLs. */
  urls?: Partial<Record<UrlKey, string>> & { model: string };
}

const URL_KEYS = ['model', 'tokenizer', 'vocab', 'merges', 'config'] as const;
type UrlKey = (typeof URL_KEYS)[number];
/** An absolute http(s) URL of at most 2,048 characters: nothing else is fetched from a link. */
const isUrl = (s: string) => s.length <= 2048 && /^https?:\/\/[^\s]+$/i.test(s);

/** The most tokens a link asks Generate for: GPT-2's context holds 1,024 with <|endoftext|> first.
 * A model of a shorter context (the page's own holds 128) stops when it is full. */
export const MAX_GENERATE = 1023;
const KEYS = ['view', 'sentence', 'open', 'generate', ...URL_KEYS];

/** The place the view's keys name, or null if they are not a valid one. */
export function parseReal(keys: string): RealPlace | null {
  const params = new URLSearchParams(keys);
  const one: Record<string, string> = {};
  for (const key of KEYS) {
    const all = params.getAll(key);
    if (all.length > 1) return null; // which sentence? refused, as the playground's own keys are
    if (all.length) one[key] = all[0];
  }
  const { view, sentence, open, generate } = one;
  const at = open === undefined ? null : /^([1-9][0-9]?)\.([1-9][0-9]?)$/.exec(open);
  const ok =
    view === 'real' &&
    (sentence === undefined || sentence.length <= CAPS.text) &&
    (open === undefined || at !== null) &&
    (generate === undefined || (/^[0-9]{1,4}$/.test(generate) && Number(generate) <= MAX_GENERATE));
  const urls = URL_KEYS.filter((k) => one[k] !== undefined);
  if (!ok || urls.some((k) => !isUrl(one[k])) || (urls.length && one.model === undefined)) return null;
  const place: RealPlace = { sentence: sentence ?? null };
  if (one.model) place.urls = Object.fromEntries(urls.map((k) => [k, one[k]])) as RealPlace['urls'];
  if (at) place.open = { layer: Number(at[1]), head: Number(at[2]) };
  if (generate && Number(generate) > 0) place.generate = Number(generate);
  return place;
}

export function serialiseReal(p: RealPlace): string {
  const params = new URLSearchParams({ view: 'real' });
  if (p.sentence !== null) params.set('sentence', p.sentence);
  if (p.open) params.set('open', `${p.open.layer}.${p.open.head}`);
  if (p.generate) params.set('generate', String(p.generate));
  for (const k of URL_KEYS) {
    const url = p.urls?.[k];
    if (url) params.set(k, url);
  }
  return params.toString();
}
