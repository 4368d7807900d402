// From the reader's state to the engine's results. This module turns what was typed into the
// engine's inputs (tokens → vectors, cell texts → numbers, hidden pairs → a mask) and calls the
// engine; it computes no step of attention itself. Errors come back as values, each saying where
// it belongs on the page.
import type {
  AttentionOptions, Engine, EngineError, LexiconRef, Mat, MultiHead, StepOptions, Steps,
} from '../engine/types';
import { CAPS, type CompareKind, type Cells, type State } from '../state/state';
import { t, num, int, isKey } from '../i18n';
import { engineMessage } from '../engine/messages';
import { readCells, type ReadCells } from './cells';

/** Where an error is shown: next to the input it concerns. */
export type Where = 'text' | 'queryText' | 'x' | 'qx' | 'q' | 'k' | 'v' | 'steps' | 'heads';

export interface PageError {
  where: Where;
  message: string;
}

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
  multiA: MultiHead | null;
  multiB: MultiHead | null;
  head: number;
  plane: { values: Mat; outputs: Mat }; // what project2d takes: the page asks for the plane when it shows it
  planeValueLabels: string[];
  planeOutputLabels: string[];
  arrows: boolean; // value i and output i are the same token
}

export interface Computed {
  model: Model | null; // null when an input is wrong
  words: Words | null;
  queryWords: Words | null;
  errors: PageError[];
}

/** The numbers of a typed matrix; each cell that is not one is an error in `where`. */
function parseCells(cells: Cells, name: string, where: Where, errors: PageError[], rowNames: string[]): ReadCells {
  const r = readCells(cells);
  for (const { row, col, cell } of r.bad) {
    const at = { matrix: name, row: int(row + 1), rowLabel: rowNames[row] ?? '', col: int(col + 1), text: cells[row][col] };
    const key = cell.kind === 'empty' ? 'error.emptyCell' : cell.kind === 'too_large' ? 'error.cellTooLarge' : 'error.cell';
    errors.push({ where, message: t(key, at) });
  }
  return r;
}

function embedWords(engine: Engine, text: string, lexicon: LexiconRef, edits: Map<string, string[]>,
  textWhere: Where, where: Where, name: string, errors: PageError[]): { words: Words; x: number[][] } | null {
  const e = engine.embed(text, lexicon);
  if (!e.ok) {
    errors.push({ where: textWhere, message: engineMessage(e.error, engine.limits, {}, true) });
    return null;
  }
  // Every view draws n² numbers: above CAPS.tokens an update would hold the page for more than
  // a tenth of a second, so the text is refused with the count rather than drawn slowly.
  if (e.tokens.length > CAPS.tokens) {
    errors.push({ where: textWhere, message: t('error.tooManyTokens', { count: int(e.tokens.length), max: int(CAPS.tokens) }) });
    return null;
  }
  const d = e.vectors.cols;
  const tokens = e.tokens.map((tok) => tok.text);
  const edited: boolean[] = [];
  const cells: Cells = tokens.map((tok, i) => {
    const edit = edits.get(tok);
    edited.push(!!edit && edit.length === d);
    if (edit && edit.length === d) return edit.slice();
    return Array.from(e.vectors.data.subarray(i * d, (i + 1) * d), (x) => String(x));
  });
  const read = parseCells(cells, name, where, errors, tokens);
  const x = read.values, invalid = read.invalid;
  // The built-in word lists' features are named in the page's language; a file's keep their names.
  const features = typeof lexicon === 'string' ? e.features.map(featureLabel) : e.features;
  return { words: { tokens, unknown: e.unknown, edited, features, cells, invalid }, x };
}

function featureLabel(name: string): string {
  const key = 'feature.' + name;
  return isKey(key) ? t(key) : name;
}

function stepOptions(s: State, n: number, m: number): StepOptions {
  let mask: StepOptions['mask'] = s.mask === 'custom' ? 'none' : s.mask;
  if (s.mask === 'custom') {
    const grid = Array.from({ length: n }, () => new Array<boolean>(m).fill(true)); // (n, m)
    for (const [i, j] of s.hidden) if (i < n && j < m) grid[i][j] = false;
    mask = grid;
  }
  return { similarity: s.similarity, scale: s.scale, temperature: s.temperature, mask,
    normalization: s.normalization };
}

function other<T>(pair: readonly [T, T], x: T): T {
  return x === pair[0] ? pair[1] : pair[0];
}

/** The two configurations a comparison shows, and their names. */
function sides(s: State, base: StepOptions, kind: CompareKind): [StepOptions, StepOptions, string, string] {
  const name = (o: StepOptions): string => {
    switch (kind) {
      case 'similarity': return t(o.similarity === 'dot' ? 'similarity.dot' : 'similarity.cosine');
      case 'scale': return t(o.scale === 'sqrt' ? 'scale.sqrt' : o.scale === 'none' ? 'scale.none' : 'scale.temperature') +
        (o.scale === 'temperature' ? ' = ' + num(o.temperature ?? 1) : '');
      case 'normalization': return t(o.normalization === 'softmax' ? 'normalization.softmax' : 'normalization.sum');
      case 'temperature': return 'T = ' + num(o.temperature ?? 1);
      default: return '';
    }
  };
  let a = base, b = base;
  if (kind === 'similarity') b = { ...base, similarity: other(['dot', 'cosine'] as const, base.similarity) };
  if (kind === 'scale') b = { ...base, scale: base.scale === 'none' ? 'sqrt' : 'none' };
  if (kind === 'normalization') b = { ...base, normalization: other(['softmax', 'sum'] as const, base.normalization) };
  if (kind === 'temperature') {
    a = { ...base, scale: 'temperature', temperature: s.temperature };
    b = { ...base, scale: 'temperature', temperature: s.temperatureB };
  }
  return [a, b, name(a), name(b)];
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

export function compute(engine: Engine, s: State, lexicon: LexiconRef): Computed {
  const errors: PageError[] = [];
  const out: Computed = { model: null, words: null, queryWords: null, errors };
  const edits = new Map(s.edits);

  // 1. The inputs as numbers.
  let queries: number[][], keys: number[][], values: number[][]; // (n, d_k), (m, d_k), (m, d_v)
  let queryLabels: string[], keyLabels: string[], dkNames: string[], dvNames: string[];
  let multi = false;
  if (s.mode === 'words') {
    const xs = embedWords(engine, s.text, lexicon, edits, 'text', 'x', t('view.x'), errors);
    out.words = xs?.words ?? null;
    let qs: ReturnType<typeof embedWords> = null;
    if (s.setup === 'query') {
      qs = embedWords(engine, s.queryText, lexicon, edits, 'queryText', 'qx', t('words.queryVectors'), errors);
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
    queries = parseCells(s.q, t('vectors.q'), 'q', errors, s.qLabels).values;
    keys = parseCells(s.k, t('vectors.k'), 'k', errors, s.kLabels).values;
    values = parseCells(s.v, t('vectors.v'), 'v', errors, s.kLabels).values;
    if (errors.length) return out;
    queryLabels = s.qLabels;
    keyLabels = s.kLabels;
    dkNames = s.dkNames.length === (queries[0]?.length ?? 0) ? s.dkNames : range(queries[0]?.length ?? 0);
    dvNames = s.dvNames.length === (values[0]?.length ?? 0) ? s.dvNames : range(values[0]?.length ?? 0);
  }
  const n = queries.length, m = keys.length;
  const base = stepOptions(s, n, m);
  const [optA, optB, sideA, sideB] = sides(s, base, s.compare);
  const shapes = { queryCols: queries[0]?.length ?? 0, keyCols: keys[0]?.length ?? 0, keyRows: m, valueRows: values.length,
    heads: multi ? s.heads : undefined, dK: multi ? s.dK : undefined };
  const fail = (e: EngineError) => {
    // In words mode the reader sees Q, K and V as the word vectors X (but for a separate query).
    const seen = s.mode === 'words' && ['queries', 'keys', 'values'].includes(e.input) &&
      !(s.setup === 'query' && e.input === 'queries') ? { ...e, input: 'x' } : e;
    errors.push({ where: whereOf(e.input, s.mode, s.setup === 'query'), message: engineMessage(seen, engine.limits, shapes) });
    return out;
  };

  // 2. The engine.
  let a: Run, b: Run | null = null;
  let multiA: MultiHead | null = null, multiB: MultiHead | null = null;
  let head = 0;
  if (multi) {
    const run = (o: StepOptions) => engine.multiHead({ x: queries, heads: s.heads, dK: s.dK,
      projection: s.projection, seed: s.seed, ...o });
    const ra = run(optA);
    if (!ra.ok) return fail(ra.error);
    multiA = ra;
    head = Math.min(s.head, ra.heads.length - 1);
    const steps = ra.heads[head];
    const asRun = (st: Steps, o: StepOptions): Run =>
      ({ steps: st, options: { queries: st.queries, keys: st.keys, values: st.values, ...o } });
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

  // 3. Where each token moves: for multi-head, from x_i to the final output o_i.
  const arrows = (s.mode === 'words' && s.setup === 'self') ||
    (s.mode === 'vectors' && n === m && queryLabels.every((q, i) => q === keyLabels[i]));
  const pv = multiA ? multiA.x : a.steps.values;
  const po = multiA ? multiA.output : a.steps.output;

  out.model = {
    queryLabels, keyLabels, dkNames, dvNames, a, b, sideA, sideB, multiA, multiB, head,
    plane: { values: pv, outputs: po },
    planeValueLabels: keyLabels, planeOutputLabels: queryLabels, arrows,
  };
  return out;
}

/** The d_k the "Why √d_k" table compares. */
export const ENTROPY_DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512] as const;

export interface EntropyRow {
  dK: number;
  scaled: number; // mean row entropy with ÷√d_k, in nats
  unscaled: number; // and without scaling
}

/**
 * The same words projected to several d_k, each run scaled and unscaled by the engine: the mean
 * of the engine's row entropies per run (a summary for display; every entropy is the engine's).
 * `x` (n, d_model) is what the multi-head run was given.
 */
export function entropyByDk(engine: Engine, s: State, x: MultiHead['x'], head: number): EntropyRow[] {
  const rows: EntropyRow[] = [];
  const mean = (r: MultiHead) => {
    const stats = r.heads[head]?.rowStats ?? [];
    let total = 0;
    for (const st of stats) total += st.entropy;
    return stats.length ? total / stats.length : NaN;
  };
  for (const dK of ENTROPY_DKS) {
    if (dK * s.heads > engine.limits.maxDim) break;
    const run = (scale: 'sqrt' | 'none') => engine.multiHead({ x, heads: s.heads, dK, projection: 'random', seed: s.seed,
      similarity: s.similarity, scale, mask: s.mask === 'causal' ? 'causal' : 'none', normalization: 'softmax' });
    const a = run('sqrt'), b = run('none');
    if (!a.ok || !b.ok) break;
    rows.push({ dK, scaled: mean(a), unscaled: mean(b) });
  }
  return rows;
}
