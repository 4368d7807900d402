// The engine's API as the page uses it (cpp/wasm/api.js is the source of truth). The page only
// calls these functions and displays what they return: it never computes attention itself.

/** A row-major matrix. */
export interface Mat {
  rows: number;
  cols: number;
  data: Float64Array;
}

/** What the engine accepts for a matrix. */
export type MatrixInput = number[][] | Mat;

export interface EngineError {
  code: string;
  message: string;
  input: string; // "queries", "keys", "values", "mask", "temperature", "text", …
  row: number; // 0-based, −1 when it does not apply
  col: number;
}

export interface Failure {
  ok: false;
  error: EngineError;
}

export type Similarity = 'dot' | 'cosine';
export type Scale = 'sqrt' | 'none' | 'temperature';
export type Normalization = 'softmax' | 'sum';
export type RowProblem = 'none' | 'fully_masked' | 'zero_sum' | 'negative_weights';

export interface StepOptions {
  similarity: Similarity;
  scale: Scale;
  temperature?: number;
  mask: 'none' | 'causal' | boolean[][];
  normalization: Normalization;
}

export interface AttentionOptions extends StepOptions {
  queries: MatrixInput; // (n, d_k)
  keys: MatrixInput; // (m, d_k)
  values: MatrixInput; // (m, d_v)
}

export interface RowStats {
  max: number;
  expSum: number;
  scoreSum: number;
  weightSum: number;
  entropy: number;
  visible: number;
  problem: RowProblem;
}

export interface Steps {
  ok: true;
  n: number;
  m: number;
  dK: number;
  dV: number;
  queries: Mat; // (n, d_k)
  keys: Mat; // (m, d_k)
  values: Mat; // (m, d_v)
  queryNorms: Float64Array; // (n)
  keyNorms: Float64Array; // (m)
  divisor: number;
  scores: Mat; // (n, m)
  scaled: Mat; // (n, m)
  masked: Mat; // (n, m)
  exps: Mat; // (n, m)
  weights: Mat; // (n, m)
  output: Mat; // (n, d_v)
  visible: { rows: number; cols: number; data: Uint8Array }; // (n, m)
  rowStats: RowStats[]; // (n)
}

export interface HeadSteps extends Steps {
  wq: Mat; // (d_model, d_k)
  wk: Mat; // (d_model, d_k)
  wv: Mat; // (d_model, d_v)
}

export interface MultiHeadOptions extends StepOptions {
  x: MatrixInput; // (n, d_model)
  heads: number;
  dK?: number;
  dV?: number;
  projection: 'identity' | 'random';
  seed: number;
}

export interface MultiHead {
  ok: true;
  x: Mat; // (n, d_model)
  heads: HeadSteps[]; // (H)
  concat: Mat; // (n, H·d_v)
  wo: Mat; // (H·d_v, d_model)
  output: Mat; // (n, d_model)
}

export interface CellExplanation {
  ok: true;
  row: number;
  col: number;
  query: Float64Array; // (d_k)
  key: Float64Array; // (d_k)
  terms: Float64Array; // (d_k) q_i[t]·k_j[t]
  dot: number;
  queryNorm: number;
  keyNorm: number;
  score: number;
  divisor: number;
  scaled: number;
  visible: boolean;
  rowMax: number;
  expValue: number;
  expSum: number;
  scoreSum: number;
  weight: number;
}

export interface OutputExplanation {
  ok: true;
  row: number;
  col: number;
  weights: Float64Array; // (m)
  values: Float64Array; // (m)
  terms: Float64Array; // (m)
  output: number;
}

export interface Plane {
  ok: true;
  mean: Float64Array;
  axes: Mat; // (2, d)
  variance: Float64Array; // (2)
  totalVariance: number;
  values2d: Mat; // (m, 2)
  outputs2d: Mat; // (n, 2)
}

export interface Token {
  text: string;
  offset: number;
  length: number;
}

export interface Embedding {
  ok: true;
  tokens: Token[]; // (n)
  vectors: Mat; // (n, d)
  features: string[]; // (d)
  unknown: boolean[]; // (n)
}

export interface LoadedLexicon {
  ok: true;
  id: number;
  words: string[];
  features: string[];
  size: number;
}

export type LexiconRef = 'builtin' | 'fruit' | { id: number };

export interface Engine {
  attention(o: AttentionOptions): Steps | Failure;
  explainCell(o: AttentionOptions, i: number, j: number): CellExplanation | Failure;
  explainOutput(o: AttentionOptions, i: number, t: number): OutputExplanation | Failure;
  multiHead(o: MultiHeadOptions): MultiHead | Failure;
  project2d(values: MatrixInput, outputs: MatrixInput): Plane | Failure;
  embed(text: string, lexicon?: LexiconRef): Embedding | Failure;
  parseMatrix(text: string, inputName?: string): { ok: true; matrix: Mat } | Failure;
  parseEmbeddings(text: string): LoadedLexicon | Failure;
  freeLexicon(lexicon: LexiconRef): boolean | Failure;
  exampleSentences(lang: string): string[] | Failure;
  limits: { maxTokens: number; maxDim: number; maxCells: number; maxHeads: number };
}

declare global {
  // Defined by dist/attention-engine.js, loaded with a classic <script> before app.js.
  // eslint-disable-next-line no-var
  var createAttentionEngine: (() => Promise<Engine>) | undefined;
}

/** Cell (i, j) of a row-major matrix. */
export function at(m: Mat, i: number, j: number): number {
  return m.data[i * m.cols + j];
}
