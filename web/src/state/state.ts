// Everything the reader can set, in one typed table. PROPS drives both serialise() and parse()
// (link.ts), so a new setting is one line here. This module imports nothing: it is the state's
// shape, its defaults, its caps and the codec of each key.
//
// Matrix cells are kept as the text the reader typed (a half-typed "-" or a stray letter must
// not be lost); the page parses them when it builds the engine's inputs.

export const MODES = ['words', 'vectors'] as const;
export const SETUPS = ['self', 'query'] as const;
export const LEXICONS = ['builtin', 'fruit', 'file', 'learned'] as const;
export const SIMILARITIES = ['dot', 'cosine'] as const;
export const SCALES = ['sqrt', 'none', 'temperature'] as const;
export const MASKS = ['none', 'causal', 'custom'] as const;
export const NORMALIZATIONS = ['softmax', 'sum'] as const;
export const PROJECTIONS = ['identity', 'random'] as const;
export const COMPARES = ['off', 'similarity', 'scale', 'normalization', 'temperature'] as const;
export const PRESETS = ['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead'] as const;
export const VIEWS = ['x', 'q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output'] as const;

export type Mode = (typeof MODES)[number];
export type Setup = (typeof SETUPS)[number];
export type LexiconName = (typeof LEXICONS)[number];
export type CompareKind = (typeof COMPARES)[number];
export type PresetId = (typeof PRESETS)[number];
export type ViewId = (typeof VIEWS)[number];

/** A matrix as typed: rows of cell texts. */
export type Cells = string[][];

/** The cell the reader points at: a view and a row and column in it. */
export interface Focus {
  view: ViewId;
  row: number;
  col: number;
  side: 'a' | 'b'; // which side of a comparison
}

export interface State {
  preset: PresetId | '';
  mode: Mode;
  // words
  text: string;
  setup: Setup; // self-attention (Q = K = V = X) or a separate query against the keys
  queryText: string;
  lexicon: LexiconName;
  edits: Array<[string, string[]]>; // word → its vector as typed, replacing the lexicon's
  // vectors
  q: Cells; // (n, d_k)
  k: Cells; // (m, d_k)
  v: Cells; // (m, d_v)
  qLabels: string[]; // (n)
  kLabels: string[]; // (m)
  dkNames: string[]; // (d_k)
  dvNames: string[]; // (d_v)
  // steps
  similarity: (typeof SIMILARITIES)[number];
  scale: (typeof SCALES)[number];
  temperature: number;
  mask: (typeof MASKS)[number];
  hidden: Array<[number, number]>; // custom mask: the (query, key) pairs that are hidden
  normalization: (typeof NORMALIZATIONS)[number];
  // multi-head (words, self-attention)
  projection: (typeof PROJECTIONS)[number];
  heads: number;
  dK: number; // 0: d_model / heads
  seed: number;
  head: number; // the head whose steps are shown
  // view
  compare: CompareKind;
  temperatureB: number;
  numbers: boolean;
  focus: Focus | null;
  lang: string; // a catalog tag ("en", "zh-CN"), or '' for the browser's language
}

/** Caps on what a serialised state may hold (docs/api.md lists them under "Limits"). */
export const CAPS = {
  text: 2000,
  tokens: 64, // words (and pieces of words) the page draws: the same as a matrix's rows
  fileBytes: 32 * 2 ** 20, // a word-vector file or paste; larger ones are refused before reading
  rows: 128, // queries or keys of Q, K, V (pasted; the page draws them on canvases above 32 × 32)
  cols: 64,
  cell: 24,
  label: 40,
  edits: 64,
  hidden: 4096,
  heads: 16,
  dK: 1024,
  seed: 2 ** 32 - 1,
  temperatureMin: 0.01,
  temperatureMax: 1000,
  link: 100_000, // characters of a link's state
};

export function defaults(): State {
  return {
    preset: '',
    mode: 'words',
    text: 'the cat sat on the mat',
    setup: 'self',
    queryText: 'flying',
    lexicon: 'learned', // a sentence of the reader's own; the examples keep their hand-set words (presets.ts)
    edits: [],
    q: [
      ['1', '0'],
      ['0', '1'],
    ],
    k: [
      ['1', '0'],
      ['0', '1'],
      ['1', '1'],
    ],
    v: [
      ['1', '0'],
      ['0', '1'],
      ['1', '1'],
    ],
    qLabels: ['q1', 'q2'],
    kLabels: ['k1', 'k2', 'k3'],
    dkNames: ['1', '2'],
    dvNames: ['1', '2'],
    similarity: 'dot',
    scale: 'sqrt',
    temperature: 1,
    mask: 'none',
    hidden: [],
    normalization: 'softmax',
    projection: 'identity',
    heads: 1,
    dK: 0,
    seed: 1,
    head: 0,
    compare: 'off',
    temperatureB: 5,
    numbers: true,
    focus: null,
    lang: '', // '': the browser's language
  };
}

// --- codecs: one value ⇄ one string, reading returns undefined for anything invalid ----------

export interface Codec<T> {
  write(value: T): string;
  read(text: string): T | undefined;
}

export function oneOf<T extends string>(names: readonly T[]): Codec<T> {
  return {
    write: (v) => v,
    read: (s) => ((names as readonly string[]).includes(s) ? (s as T) : undefined),
  };
}

function text(max: number): Codec<string> {
  return { write: (v) => v, read: (s) => (s.length <= max ? s : undefined) };
}

function integer(min: number, max: number): Codec<number> {
  return {
    write: (v) => String(v),
    read: (s) => {
      if (!/^\d{1,10}$/.test(s)) return undefined;
      const v = Number(s);
      return v >= min && v <= max ? v : undefined;
    },
  };
}

function real(min: number, max: number): Codec<number> {
  return {
    write: (v) => String(v),
    read: (s) => {
      if (!/^\d{1,6}(\.\d{1,6})?$/.test(s)) return undefined;
      const v = Number(s);
      return v >= min && v <= max ? v : undefined;
    },
  };
}

export const bool: Codec<boolean> = {
  write: (v) => (v ? '1' : '0'),
  read: (s) => (s === '1' ? true : s === '0' ? false : undefined),
};

function json<T>(valid: (x: unknown) => x is T): Codec<T> {
  return {
    write: (v) => JSON.stringify(v),
    read: (s) => {
      let x: unknown;
      try {
        x = JSON.parse(s);
      } catch {
        return undefined;
      }
      return valid(x) ? x : undefined;
    },
  };
}

const isText =
  (max: number) =>
  (x: unknown): x is string =>
    typeof x === 'string' && x.length <= max;

function isList<T>(x: unknown, max: number, item: (y: unknown) => y is T): x is T[] {
  return Array.isArray(x) && x.length <= max && x.every(item);
}

const isLabels = (x: unknown): x is string[] => isList(x, CAPS.rows, isText(CAPS.label));
const isRow = (x: unknown): x is string[] => isList(x, CAPS.cols, isText(CAPS.cell));
const isCells = (x: unknown): x is Cells =>
  isList(x, CAPS.rows, isRow) && x.length > 0 && x.every((r) => r.length === x[0].length);
const isEdit = (x: unknown): x is [string, string[]] =>
  Array.isArray(x) && x.length === 2 && isText(CAPS.label)(x[0]) && isRow(x[1]);
const isEdits = (x: unknown): x is Array<[string, string[]]> => isList(x, CAPS.edits, isEdit);
const isIndex = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < 1024;
const isPair = (x: unknown): x is [number, number] => Array.isArray(x) && x.length === 2 && isIndex(x[0]) && isIndex(x[1]);
const isPairs = (x: unknown): x is Array<[number, number]> => isList(x, CAPS.hidden, isPair);
const isFocus = (x: unknown): x is Focus => {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
  const f = x as Record<string, unknown>;
  return (
    Object.keys(f).length === 4 &&
    (VIEWS as readonly unknown[]).includes(f.view) &&
    isIndex(f.row) &&
    isIndex(f.col) &&
    (f.side === 'a' || f.side === 'b')
  );
};
const isFocusOrNull = (x: unknown): x is Focus | null => x === null || isFocus(x);
const isPreset = (x: unknown): x is PresetId | '' => x === '' || (PRESETS as readonly unknown[]).includes(x);

export interface Prop<K extends keyof State> {
  key: K;
  codec: Codec<State[K]>;
}
function prop<K extends keyof State>(key: K, codec: Codec<State[K]>): Prop<K> {
  return { key, codec };
}

/** The table. The order is the order of the serialised keys. */
export const PROPS: ReadonlyArray<Prop<keyof State>> = [
  prop('preset', { write: (v) => v, read: (s) => (isPreset(s) ? s : undefined) }),
  prop('mode', oneOf(MODES)),
  prop('text', text(CAPS.text)),
  prop('setup', oneOf(SETUPS)),
  prop('queryText', text(CAPS.text)),
  prop('lexicon', oneOf(LEXICONS)),
  prop('edits', json(isEdits)),
  prop('q', json(isCells)),
  prop('k', json(isCells)),
  prop('v', json(isCells)),
  prop('qLabels', json(isLabels)),
  prop('kLabels', json(isLabels)),
  prop('dkNames', json(isLabels)),
  prop('dvNames', json(isLabels)),
  prop('similarity', oneOf(SIMILARITIES)),
  prop('scale', oneOf(SCALES)),
  prop('temperature', real(CAPS.temperatureMin, CAPS.temperatureMax)),
  prop('mask', oneOf(MASKS)),
  prop('hidden', json(isPairs)),
  prop('normalization', oneOf(NORMALIZATIONS)),
  prop('projection', oneOf(PROJECTIONS)),
  prop('heads', integer(1, CAPS.heads)),
  prop('dK', integer(0, CAPS.dK)),
  prop('seed', integer(0, CAPS.seed)),
  prop('head', integer(0, CAPS.heads - 1)),
  prop('compare', oneOf(COMPARES)),
  prop('temperatureB', real(CAPS.temperatureMin, CAPS.temperatureMax)),
  prop('numbers', bool),
  prop('focus', json(isFocusOrNull)),
  prop('lang', { write: (v) => v, read: (s) => (/^[a-z]{2}(-[A-Z]{2})?$/.test(s) ? s : undefined) }),
] as ReadonlyArray<Prop<keyof State>>;

// Version 2: a sentence without an example is read with the vectors learned from real text. A
// version-1 link was written when the built-in words were the default: it keeps them (link.ts).
export const VERSION = '2';
export const OLD_VERSION = '1';
/** The key that carries VERSION (not `v`, which is the value matrix). */
export const VERSION_KEY = 'ver';
