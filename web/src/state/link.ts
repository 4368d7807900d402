// The state as text and back: what a link after `#` carries, what storage and undo keep. Both
// directions are pure (string in, state out; state in, string out) and know nothing of the DOM,
// so they are unit-tested in node (tests/js/page-state.test.mjs).
//
// A link that names a preset starts from that preset: `ver=2&preset=fruit` alone is the Fruit
// example (as a blog author writes it by hand, or the web component's preset attribute), and
// the keys after it change what differs. serialise() writes every key that differs from the
// defaults or from the preset, so the link reads back the same either way.
import { CAPS, PROPS, VERSION, OLD_VERSION, VERSION_KEY, defaults, type Prop, type PresetId, type State } from './state';
import { preset } from './presets';
import { translator, type Translate } from '../i18n';

/**
 * The state as `ver=2&key=value&…`, only the keys that differ from the defaults or from its
 * preset. (The preset in the page's language will do: a label it translates never equals the
 * default, so it is always written.)
 */
export function serialise(state: State, t: Translate): string {
  const plain = plainIn(state.lang);
  const base = state.preset ? preset(state.preset, t) : plain;
  const params = new URLSearchParams();
  params.set(VERSION_KEY, VERSION);
  for (const p of PROPS) {
    const value = p.codec.write(state[p.key] as never);
    if (value !== p.codec.write(plain[p.key] as never) || value !== p.codec.write(base[p.key] as never)) params.set(p.key, value);
  }
  return params.toString();
}

export interface Parsed {
  state: State;
  /** Keys that were unknown or invalid, in order; empty when the text was accepted whole. */
  rejected: string[];
}

/**
 * The state a serialised text describes: the keys it names, over the preset it names or else the
 * defaults. Anything unknown or invalid is rejected as a whole: the result is then the defaults,
 * and `rejected` names what was wrong, so a broken link never gives a half-applied state.
 */
export function parse(serialised: string, maxLength = CAPS.link): Parsed {
  const state = defaults();
  if (serialised.length > maxLength) return { state, rejected: ['(too long)'] };
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(serialised.replace(/^#/, ''));
  } catch {
    return { state, rejected: ['(unreadable)'] };
  }
  const byKey = new Map<string, Prop<keyof State>>(PROPS.map((p) => [p.key, p]));
  const rejected: string[] = [];
  const read = new Map<keyof State, unknown>();
  let old = false;
  for (const [key, value] of params) {
    if (key === VERSION_KEY) {
      old = value === OLD_VERSION;
      if (value !== VERSION && !old) rejected.push(VERSION_KEY);
      continue;
    }
    const p = byKey.get(key);
    const v = p ? p.codec.read(value) : undefined;
    if (!p || v === undefined || read.has(p.key)) rejected.push(key.slice(0, 40));
    else read.set(p.key, v);
  }
  if (rejected.length) return { state, rejected };
  const named = read.get('preset') as PresetId | '' | undefined;
  const lang = read.get('lang') as string | undefined;
  const start = named ? preset(named, translator(presetLanguage(lang))) : plainIn(lang ?? '');
  // A version-1 link's sentence was read with the built-in words unless it named another list.
  if (old && !named) start.lexicon = 'builtin';
  for (const [key, value] of read) (start as unknown as Record<string, unknown>)[key] = value;
  return { state: start, rejected };
}

/**
 * The defaults as a link in `lang` means them: the default sentence in the link's language (in
 * English when it names none), so a link's words never depend on the reader's browser.
 */
function plainIn(lang: string): State {
  return lang ? { ...defaults(), text: translator(lang)('default.sentence') } : defaults();
}

/** The language a link's preset is labelled in: the link's, else the browser's, as the page picks. */
function presetLanguage(lang: string | undefined): string {
  return lang || (typeof navigator === 'undefined' ? '' : navigator.language);
}
