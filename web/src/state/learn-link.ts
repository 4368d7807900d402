// The Learn view as the link says it: `view=learn&task=reverse&seed=1`, and the size of the model
// (`layers`, `heads`, `dmodel`, `mlp`, `lr`), and `autoplay=1` to start training on opening (for an
// embed; never when the reader asks for reduced motion). `trained=N` trains the model to step N on
// opening (the same seed gives the same model), and `weights=` (with `trained`) holds the model
// itself, saved and base64url-coded, so the trained heads open at once. Like the lesson's keys these are not the reader's
// state: undo and storage never see them. They count only beside `view=`; `seed` and `heads` are
// also the playground's own keys, which the view's take the place of while it is open. The trainer checks the config again; this only keeps
// a link's numbers within what the view offers.

/** The keys the Learn view's link uses. */
const KEYS = ['view', 'task', 'seed', 'layers', 'heads', 'dmodel', 'mlp', 'lr', 'autoplay', 'trained', 'weights'];
// With the Real model view's (real-link.ts): one view is open at a time, and `view=` says which.
const KEY =
  /^(view|task|seed|layers|heads|dmodel|mlp|lr|autoplay|trained|weights|sentence|open|generate|model|tokenizer|vocab|merges|config)=/;

/** The most steps a link retrains, and the longest model a link holds (base64url characters). */
export const MAX_TRAINED = 100_000;
export const MAX_WEIGHTS = 48_000;

/**
 * The Learn view's keys out of a link's text, as written (learn.js reads them with parseLearn, so
 * the page's first load carries only this), and the rest; null without `view=`. The page writes
 * them after its own, so where both have `seed` or `heads` the view's come last.
 */
export function takeLearn(text: string): { keys: string | null; rest: string } {
  if (!/(^|&)view=/.test(text)) return { keys: null, rest: text };
  const parts = text.split('&');
  return { keys: parts.filter((p) => KEY.test(p)).join('&'), rest: parts.filter((p) => !KEY.test(p)).join('&') };
}

export interface LearnPlace {
  task: string;
  seed: number;
  layers?: number;
  heads?: number;
  dModel?: number;
  mlp?: string;
  lr?: number;
  /** Train as soon as the model is made. */
  autoplay?: boolean;
  /** Steps to train on opening; with `weights`, the steps that model was trained. */
  trained?: number;
  /** A saved model, base64url. */
  weights?: string;
}

/**
 * What the view's form offers for each key that is a choice: a link may name nothing else (a
 * width of 7 would pass a range and leave the form blank). Looked up as own properties only, so
 * no text of a link reaches an object's prototype.
 */
const CHOICES: Record<string, readonly string[]> = {
  task: ['find_match', 'copy', 'reverse', 'sort', 'induction'],
  layers: ['1', '2', '3', '4'],
  heads: ['1', '2', '3', '4'],
  dmodel: ['8', '16', '32', '64'],
  mlp: ['none', 'relu', 'gelu'],
  autoplay: ['0', '1'],
};
/** The widths the form offers (CHOICES.dmodel; written out, so the page's first load drops both). */
export const D_MODELS: readonly number[] = [8, 16, 32, 64];
/** Keys a link may hold twice: the playground's own `seed` and `heads`, then the view's (which win). */
const TWICE = ['seed', 'heads'];

function offered(key: string, value: string): boolean {
  return !Object.prototype.hasOwnProperty.call(CHOICES, key) || CHOICES[key].includes(value);
}

/** The place the Learn keys (takeLearn's) name, or null if they are not a valid one. */
export function parseLearn(keys: string): LearnPlace | null {
  const params = new URLSearchParams(keys);
  const one: Record<string, string> = {};
  for (const key of KEYS) {
    const all = params.getAll(key);
    // A key said twice says two things (which task?): refused, as the playground's own keys are.
    if (all.length > 1 && !TWICE.includes(key)) return null;
    if (all.length) one[key] = all[all.length - 1];
    if (all.length && !offered(key, one[key])) return null;
  }
  const { task = 'reverse', seed = '1', layers, heads, dmodel, mlp, lr, autoplay, trained, weights } = one;
  const ok =
    one.view === 'learn' &&
    /^[0-9]{1,9}$/.test(seed) &&
    (!lr || (/^0?\.[0-9]{1,6}$/.test(lr) && Number(lr) > 0 && Number(lr) <= 0.1)) &&
    (!trained || (/^[0-9]{1,6}$/.test(trained) && Number(trained) <= MAX_TRAINED)) &&
    (!weights || (/^[A-Za-z0-9_-]+$/.test(weights) && weights.length <= MAX_WEIGHTS && trained !== undefined));
  if (!ok) return null;
  const place: LearnPlace = { task, seed: Number(seed) };
  if (layers) place.layers = Number(layers);
  if (heads) place.heads = Number(heads);
  if (dmodel) place.dModel = Number(dmodel);
  if (mlp) place.mlp = mlp;
  if (lr) place.lr = Number(lr);
  if (autoplay === '1') place.autoplay = true;
  if (trained && Number(trained) > 0) place.trained = Number(trained);
  if (weights) place.weights = weights;
  return place;
}

export function serialiseLearn(p: LearnPlace | null): string {
  if (!p) return '';
  const size = [
    p.layers && 'layers=' + p.layers,
    p.heads && 'heads=' + p.heads,
    p.dModel && 'dmodel=' + p.dModel,
    p.mlp && 'mlp=' + p.mlp,
    p.lr && 'lr=' + p.lr,
    p.autoplay && 'autoplay=1',
    p.trained && 'trained=' + p.trained,
    p.weights && 'weights=' + p.weights,
  ];
  return ['view=learn', 'task=' + p.task, 'seed=' + p.seed, ...size].filter(Boolean).join('&');
}
