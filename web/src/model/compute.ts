// From the reader's state to the engine's results. This module turns what was typed into the
// engine's inputs (tokens → vectors, cell texts → numbers, hidden pairs → a mask) and calls the
// engine; it computes no step of attention itself. Errors come back as values, each saying where
// it belongs on the page and what it is; the page words them (app/names.ts). Names the page
// translates (a built-in feature, a compared configuration) come from `names`, so this module
// runs under node with no catalog (tests/js/compute.test.mjs).
import type {
  AttentionOptions,
  Engine,
  EngineError,
  EntropyRow,
  LexiconRef,
  Mat,
  MultiHead,
  MultiHeadOptions,
  StepOptions,
  Steps,
} from '../engine/types';
import { CAPS, type CompareKind, type Cells, type State } from '../state/state';
import type { Shapes } from '../engine/messages';
import { readCells, type ReadCells } from './cells';
import { sides } from './compare';

/** Where an error is shown: next to the input it concerns. */
export type Where = 'text' | 'queryText' | 'x' | 'qx' | 'q' | 'k' | 'v' | 'steps' | 'heads';

/** The matrices a typed cell can be in: the words' vectors, the query words' vectors, Q, K, V. */
export type MatrixName = 'x' | 'qx' | 'q' | 'k' | 'v';

/** What went wrong, and where on the page it is shown. */
export type PageError =
  | { where: Where; kind: 'engine'; error: EngineError; shapes: Shapes; fromText: boolean }
  | {
      where: Where;
      kind: 'cell';
      matrix: MatrixName;
      row: number;
      col: number;
      rowLabel: string;
      text: string;
      cell: 'empty' | 'not_a_number' | 'too_large';
    }
  | { where: Where; kind: 'tooManyTokens'; count: number; max: number };

/** The names the page shows in its language. */
export interface Names {
  /** A feature of the built-in word lists ("fruit", "colour", …). */
  feature(name: string): string;
  /** One side of a comparison: what `kind` compares, as configured in `o`. */
  side(kind: CompareKind, o: StepOptions): string;
}

/** Names as the engine and the state spell them (for tests, and before a catalog is loaded). */
export const PLAIN_NAMES: Names = {
  feature: (name) => name,
  side: (kind, o) => (kind === 'off' ? '' : kind === 'temperature' ? `T = ${o.temperature}` : String(o[kind])),
};

/** The word vectors as shown in the words grid. */
export interface Words {
  tokens: string[]; // (n)
  unknown: boolean[]; // (n)
  edited: boolean[]; // (n)
  features: string[]; // (d)
  cells: Cells; // (n, d)
  invalid: Set<string>;
}

/** One attention computation and the options that produced it (for explainCell/explainOutput). */
export interface Run {
  steps: Steps;
  options: AttentionOptions;
}

export interface Model {
  queryLabels: string[]; // (n)
  keyLabels: string[]; // (m)
  dkNames: string[]; // (d_k)
  dvNames: string[]; // (d_v)
  a: Run;
  b: Run | null; // the compared configuration
  sideA: string;
  sideB: string;
  difference: Mat | null; // (n, m) b's weights − a's, when comparing
  multiA: MultiHead | null;
  multiB: MultiHead | null;
  multiOptions: MultiHeadOptions | null; // what multiA was computed from, to explain its cells
  head: number;
  plane: { values: Mat; outputs: Mat }; // what project2d takes: the page asks for the plane when it shows it
  planeValueLabels: string[];
  planeOutputLabels: string[];
  arrows: boolean; // value i and output i are the same token
  /** The learned word vectors the words came from, whose nearest words explain a word's vector
   * (its numbers have no names); null for any other word list. */
  learned: { id: number } | null;
}

/** What the steps, the pipeline and a lesson's answers read of a model: the runs and their names. */
export type Figure = Pick<Model, 'queryLabels' | 'keyLabels' | 'dkNames' | 'dvNames' | 'a' | 'b' | 'sideA' | 'sideB'>;

/** What the heads' views read: the first configuration's heads and the one on screen. */
export type HeadsFigure = Pick<Model, 'multiA' | 'head' | 'queryLabels' | 'keyLabels'>;

export interface Computed {
  model: Model | null; // null when an input is wrong
  words: Words | null;
  queryWords: Words | null;
  errors: PageError[];
}

/** The numbers of a typed matrix; each cell that is not one is an error shown at the matrix. */
function parseCells(cells: Cells, matrix: MatrixName, errors: PageError[], rowNames: string[]): ReadCells {
  const r = readCells(cells);
  for (const { row, col, cell } of r.bad) {
    if (cell.kind === 'number') continue;
    errors.push({
      where: matrix,
      kind: 'cell',
      matrix,
      row,
      col,
      rowLabel: rowNames[row] ?? '',
      text: cells[row][col],
      cell: cell.kind,
    });
  }
  return r;
}

function embedWords(
  engine: Engine,
  text: string,
  lexicon: LexiconRef,
  edits: Map<string, string[]>,
  textWhere: Where,
  matrix: 'x' | 'qx',
  names: Names,
  errors: PageError[],
): { words: Words; x: number[][] } | null {
  const e = engine.embed(text, lexicon);
  if (!e.ok) {
    errors.push({ where: textWhere, kind: 'engine', error: e.error, shapes: {}, fromText: true });
    return null;
  }
  // Every view draws n² numbers: above CAPS.tokens an update would hold the page for more than
  // a tenth of a second, so the text is refused with the count rather than drawn slowly.
  if (e.tokens.length > CAPS.tokens) {
    errors.push({ where: textWhere, kind: 'tooManyTokens', count: e.tokens.length, max: CAPS.tokens });
    return null;
  }
  const d = e.vectors.cols;
  const tokens = e.tokens.map((tok) => tok.text);
  const edited: boolean[] = [];
  const invalid = new Set<string>();
  const x: number[][] = []; // (n, d)
  // The engine's numbers are used as they are; only a row the reader typed is read as text.
  const cells: Cells = tokens.map((tok, i) => {
    const edit = edits.get(tok);
    const typed = !!edit && edit.length === d;
    edited.push(typed);
    if (typed) {
      const read = readCells([edit]);
      for (const { col, cell } of read.bad) {
        if (cell.kind === 'number') continue;
        errors.push({ where: matrix, kind: 'cell', matrix, row: i, col, rowLabel: tok, text: edit[col], cell: cell.kind });
        invalid.add(i + ',' + col);
      }
      x.push(read.values[0]);
      return edit.slice();
    }
    const row = Array.from(e.vectors.data.subarray(i * d, (i + 1) * d));
    x.push(row);
    return row.map(String);
  });
  // The built-in word lists' features are named in the page's language; a file's keep their names.
  const features = typeof lexicon === 'string' ? e.features.map((f) => names.feature(f)) : e.features;
  return { words: { tokens, unknown: e.unknown, edited, features, cells, invalid }, x };
}

function stepOptions(s: State, n: number, m: number): StepOptions {
  let mask: StepOptions['mask'] = s.mask === 'custom' ? 'none' : s.mask;
  if (s.mask === 'custom') {
    const grid = Array.from({ length: n }, () => new Array<boolean>(m).fill(true)); // (n, m)
    for (const [i, j] of s.hidden) if (i < n && j < m) grid[i][j] = false;
    mask = grid;
  }
  return { similarity: s.similarity, scale: s.scale, temperature: s.temperature, mask, normalization: s.normalization };
}

function whereOf(input: string, mode: State['mode'], words: boolean): Where {
  if (input === 'queries') return mode === 'vectors' ? 'q' : words ? 'qx' : 'x';
  if (input === 'keys') return mode === 'vectors' ? 'k' : 'x';
  if (input === 'values') return mode === 'vectors' ? 'v' : 'x';
  if (input === 'x') return 'x';
  if (['heads', 'dK', 'dV', 'projection', 'seed'].includes(input)) return 'heads';
  return 'steps';
}

const range = (k: number, from = 1) => Array.from({ length: k }, (_, i) => String(i + from));

export function compute(engine: Engine, s: State, lexicon: LexiconRef, names: Names = PLAIN_NAMES): Computed {
  const learned = s.mode === 'words' && s.lexicon === 'learned' && typeof lexicon === 'object' ? lexicon : null;
  const errors: PageError[] = [];
  const out: Computed = { model: null, words: null, queryWords: null, errors };
  const edits = new Map(s.edits);

  // 1. The inputs as numbers.
  let queries: number[][], keys: number[][], values: number[][]; // (n, d_k), (m, d_k), (m, d_v)
  let queryLabels: string[], keyLabels: string[], dkNames: string[], dvNames: string[];
  let multi = false;
  if (s.mode === 'words') {
    const xs = embedWords(engine, s.text, lexicon, edits, 'text', 'x', names, errors);
    out.words = xs?.words ?? null;
    let qs: ReturnType<typeof embedWords> = null;
    if (s.setup === 'query') {
      qs = embedWords(engine, s.queryText, lexicon, edits, 'queryText', 'qx', names, errors);
      out.queryWords = qs?.words ?? null;
    }
    if (errors.length || !xs) return out;
    keys = values = xs.x;
    keyLabels = xs.words.tokens;
    dkNames = dvNames = xs.words.features;
    if (qs) {
      queries = qs.x;
      queryLabels = qs.words.tokens;
    } else {
      queries = xs.x;
      queryLabels = keyLabels;
      multi = s.projection === 'random' || s.heads > 1;
    }
  } else {
    queries = parseCells(s.q, 'q', errors, s.qLabels).values;
    keys = parseCells(s.k, 'k', errors, s.kLabels).values;
    values = parseCells(s.v, 'v', errors, s.kLabels).values;
    if (errors.length) return out;
    queryLabels = s.qLabels;
    keyLabels = s.kLabels;
    dkNames = s.dkNames.length === (queries[0]?.length ?? 0) ? s.dkNames : range(queries[0]?.length ?? 0);
    dvNames = s.dvNames.length === (values[0]?.length ?? 0) ? s.dvNames : range(values[0]?.length ?? 0);
  }
  const n = queries.length,
    m = keys.length;
  const base = stepOptions(s, n, m);
  const [optA, optB] = sides(s, base, s.compare);
  const sideA = names.side(s.compare, optA),
    sideB = names.side(s.compare, optB);
  const shapes = {
    queryCols: queries[0]?.length ?? 0,
    keyCols: keys[0]?.length ?? 0,
    keyRows: m,
    valueRows: values.length,
    heads: multi ? s.heads : undefined,
    dK: multi ? s.dK : undefined,
  };
  const fail = (e: EngineError) => {
    // In words mode the reader sees Q, K and V as the word vectors X (but for a separate query).
    const seen =
      s.mode === 'words' && ['queries', 'keys', 'values'].includes(e.input) && !(s.setup === 'query' && e.input === 'queries')
        ? { ...e, input: 'x' }
        : e;
    errors.push({ where: whereOf(e.input, s.mode, s.setup === 'query'), kind: 'engine', error: seen, shapes, fromText: false });
    return out;
  };

  // 2. The engine.
  let a: Run,
    b: Run | null = null;
  let multiA: MultiHead | null = null,
    multiB: MultiHead | null = null;
  let head = 0;
  let multiOptions: MultiHeadOptions | null = null;
  if (multi) {
    const options = (o: StepOptions): MultiHeadOptions => ({
      x: queries,
      heads: s.heads,
      dK: s.dK,
      projection: s.projection,
      seed: s.seed,
      ...o,
    });
    const run = (o: StepOptions) => engine.multiHead(options(o));
    multiOptions = options(optA);
    const ra = run(optA);
    if (!ra.ok) return fail(ra.error);
    multiA = ra;
    head = Math.min(s.head, ra.heads.length - 1);
    const steps = ra.heads[head];
    const asRun = (st: Steps, o: StepOptions): Run => ({
      steps: st,
      options: { queries: st.queries, keys: st.keys, values: st.values, ...o },
    });
    a = asRun(steps, optA);
    if (s.compare !== 'off') {
      const rb = run(optB);
      if (!rb.ok) return fail(rb.error);
      multiB = rb;
      b = asRun(rb.heads[head], optB);
    }
    dkNames = range(steps.dK);
    dvNames = range(steps.dV);
  } else {
    const oa: AttentionOptions = { queries, keys, values, ...optA };
    const ra = engine.attention(oa);
    if (!ra.ok) return fail(ra.error);
    a = { steps: ra, options: oa };
    if (s.compare !== 'off') {
      const ob: AttentionOptions = { queries, keys, values, ...optB };
      const rb = engine.attention(ob);
      if (!rb.ok) return fail(rb.error);
      b = { steps: rb, options: ob };
    }
  }

  // 3. The compared weights, right − left, for the difference card.
  let difference: Mat | null = null;
  if (b) {
    const d = engine.difference(a.steps.weights, b.steps.weights);
    if (!d.ok) return fail(d.error);
    difference = d.difference;
  }

  // 4. Where each token moves: for multi-head, from x_i to the final output o_i.
  const arrows =
    (s.mode === 'words' && s.setup === 'self') ||
    (s.mode === 'vectors' && n === m && queryLabels.every((q, i) => q === keyLabels[i]));
  const pv = multiA ? multiA.x : a.steps.values;
  const po = multiA ? multiA.output : a.steps.output;

  out.model = {
    queryLabels,
    keyLabels,
    dkNames,
    dvNames,
    a,
    b,
    sideA,
    sideB,
    difference,
    multiA,
    multiB,
    multiOptions,
    head,
    plane: { values: pv, outputs: po },
    planeValueLabels: keyLabels,
    planeOutputLabels: queryLabels,
    arrows,
    learned,
  };
  return out;
}

export type { EntropyRow };

/** The d_k the "Why √d_k" table compares. */
export const ENTROPY_DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/**
 * The same words projected to several d_k, each run scaled and unscaled by the engine: the mean
 * of each run's row entropies (engine.entropyByDk). `x` (n, d_model) is what the multi-head run
 * was given. A run that fails ends the table: it shows what could be computed, nothing.
 */
export function entropyByDk(engine: Engine, s: State, x: MultiHead['x'], head: number): EntropyRow[] {
  const r = engine.entropyByDk({
    x,
    heads: s.heads,
    head,
    dKs: ENTROPY_DKS,
    seed: s.seed,
    similarity: s.similarity,
    mask: s.mask === 'causal' ? 'causal' : 'none',
  });
  return r.ok ? r.rows : [];
}

/**
 * entropyByDk() for the "Why √d_k" table, kept while the words and the settings it depends on
 * stay the same: each call is twenty engine runs.
 */
export class EntropySweep {
  private key = '';
  private rows: EntropyRow[] = [];

  rowsFor(engine: Engine, s: State, model: Model): EntropyRow[] {
    const m = model.multiA;
    if (!m) return [];
    const key = [Array.from(m.x.data).join(), s.heads, model.head, s.seed, s.similarity, s.mask].join('|');
    if (key !== this.key) {
      this.key = key;
      this.rows = entropyByDk(engine, s, m.x, model.head);
    }
    return this.rows;
  }
}
