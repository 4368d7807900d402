// "Why this number?" as data: for the cell the reader points at, the engine's arithmetic and the
// facts of the run that decide which sentences explain it (how similarity was measured, how the
// scores were scaled, masked and normalised). The view words and lays it out; every number here
// is the engine's.
import type { CellExplanation, Engine, OutputExplanation, ProjectionExplanation } from '../engine/types';
import type { Focus } from '../state/state';
import type { Model, Run } from './compute';

/** What an explanation asks of the engine: the arithmetic of one score, output or projection. */
export type Explainer = Pick<Engine, 'explainCell' | 'explainOutput' | 'explainProjection' | 'nearestWords'>;

/** The multi-head views whose cells are explained: a head's Q, K, V; the joined heads; the output. */
export type MultiKind = 'q' | 'k' | 'v' | 'concat' | 'final';

/** A score, scaled score, masked score or weight: the steps from q·k to the weight. */
export interface ScoreWhy {
  kind: 'score';
  view: 'scores' | 'scaled' | 'masked' | 'weights';
  q: string;
  k: string;
  e: CellExplanation;
  cosine: boolean;
  scale: 'sqrt' | 'temperature' | 'none';
  dK: number;
  masked: boolean;
  softmax: boolean;
  /** Sum normalisation of a row whose scores add up to zero (its weights are all 0). */
  zeroSum: boolean;
}

/** An output entry: the weighted sum of a value feature. */
export interface OutputWhy {
  kind: 'output';
  q: string;
  f: string;
  e: OutputExplanation;
}

/** An entry of the inputs (X, Q, K, V): a number the reader typed or a word's vector holds. */
export interface InputWhy {
  kind: 'input';
  view: string;
  row: string;
  f: string;
  /** For a word of the learned vectors: the words nearest it, by cosine. */
  neighbours: Array<{ word: string; cosine: number }>;
}

export type Why = ScoreWhy | OutputWhy | InputWhy;

/** A cell of the difference heatmap: right − left, then the right-hand weight's own arithmetic. */
export interface DifferenceWhy {
  q: string;
  k: string;
  left: string;
  right: string;
  wa: number;
  wb: number;
  difference: number;
  weight: Why | null;
}

/** A cell of a multi-head view. */
export type MultiWhy =
  | { kind: 'concat'; token: string; column: number; head: number; inHead: number; value: number }
  | { kind: 'final'; token: string; f: string; e: ProjectionExplanation }
  | { kind: 'projected'; token: string; column: number; head: number; w: 'W_Q' | 'W_K' | 'W_V'; e: ProjectionExplanation };

const SCORE_VIEWS = new Set(['scores', 'scaled', 'masked', 'weights']);
const NEIGHBOURS = 6;

/** The focused cell's explanation, or null where there is none (out of range, or the engine failed). */
export function explainFocus(engine: Explainer, model: Model, focus: Focus | null): Why | null {
  if (!focus) return null;
  const run: Run | null = focus.side === 'b' ? model.b : model.a;
  if (!run) return null;
  const { row: i, col: j, view } = focus;
  const q = model.queryLabels[i] ?? '',
    k = model.keyLabels[j] ?? '';
  const o = run.options;
  if (SCORE_VIEWS.has(view)) {
    if (i >= run.steps.n || j >= run.steps.m) return null;
    const e = engine.explainCell(o, i, j);
    if (!e.ok) return null;
    return {
      kind: 'score',
      view: view as ScoreWhy['view'],
      q,
      k,
      e,
      cosine: o.similarity !== 'dot',
      scale: o.scale === 'sqrt' || o.scale === 'temperature' ? o.scale : 'none',
      dK: run.steps.dK,
      masked: o.mask !== 'none',
      softmax: o.normalization === 'softmax',
      zeroSum: run.steps.rowStats[i]?.problem === 'zero_sum',
    };
  }
  if (view === 'output') {
    if (i >= run.steps.n || j >= run.steps.dV) return null;
    const e = engine.explainOutput(o, i, j);
    if (!e.ok) return null;
    return { kind: 'output', q, f: model.dvNames[j] ?? String(j + 1), e };
  }
  // K, V and the word vectors X are rows of keys (X's are the queries too in self-attention).
  const row = (view === 'q' ? model.queryLabels[i] : model.keyLabels[i]) ?? '';
  const f = (view === 'v' ? model.dvNames[j] : model.dkNames[j]) ?? String(j + 1);
  const near = model.learned && (view === 'x' || view === 'q') ? engine.nearestWords(row, model.learned, NEIGHBOURS) : null;
  return { kind: 'input', view, row, f, neighbours: near?.ok ? near.neighbours : [] };
}

/** A cell of the difference heatmap, whose value the heatmap shows (`difference`, the engine's). */
export function explainDifference(
  engine: Explainer,
  model: Model,
  i: number,
  j: number,
  difference: number,
): DifferenceWhy | null {
  const a = model.a.steps.weights,
    b = model.b?.steps.weights;
  if (!b || i >= a.rows || j >= a.cols) return null;
  return {
    q: model.queryLabels[i] ?? '',
    k: model.keyLabels[j] ?? '',
    left: model.sideA,
    right: model.sideB,
    wa: a.data[i * a.cols + j],
    wb: b.data[i * b.cols + j],
    difference,
    weight: explainFocus(engine, model, { view: 'weights', row: i, col: j, side: 'b' }),
  };
}

/**
 * A cell of a multi-head view, from the engine's result for the head on screen: a projected
 * entry as x times a column of W_Q, W_K or W_V; a joined entry as the head output it copies; a
 * final entry as the joined row times a column of W_O. `feature`: the final column's name.
 */
export function explainMulti(
  engine: Explainer,
  model: Model,
  kind: MultiKind,
  i: number,
  j: number,
  feature: string,
): MultiWhy | null {
  const multi = model.multiA,
    options = model.multiOptions;
  if (!multi || !options) return null;
  const token = (kind === 'k' || kind === 'v' ? model.keyLabels[i] : model.queryLabels[i]) ?? '';
  if (kind === 'concat') {
    if (i >= multi.concat.rows || j >= multi.concat.cols) return null;
    const value = multi.concat.data[i * multi.concat.cols + j];
    return { kind, token, column: j + 1, head: multi.columnHead[j] + 1, inHead: multi.columnInHead[j] + 1, value };
  }
  const e = engine.explainProjection({ ...options, head: model.head }, kind, i, j);
  if (!e.ok) return null;
  if (kind === 'final') return { kind, token, f: feature || String(j + 1), e };
  const w = kind === 'q' ? 'W_Q' : kind === 'k' ? 'W_K' : 'W_V';
  return { kind: 'projected', token, column: j + 1, head: model.head + 1, w, e };
}
