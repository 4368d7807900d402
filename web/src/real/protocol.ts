// What the page and the model's worker (real-worker.js) say to each other. Every number in a
// reply is the core's (attention-model.js): the page shows them and computes none.
import type M from '../../../cpp/wasm/attention-model';

export type Pattern = M.Pattern;
export type ModelToken = M.ReadToken;
export type Prediction = M.Prediction;
export type HeadSurvey = M.HeadSurvey;
export type ModelConfig = M.ModelConfig;

/** A matrix, row-major, as the playground's head state takes it. */
export interface Mat {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** The page to the worker. `id` numbers a reading: replies to an older one are dropped. */
export type Request =
  /** Read `text` from an empty cache, then generate `generate` tokens, each the likeliest. */
  | { type: 'run'; id: number; text: string; generate: number }
  /** One more token, the likeliest, read against the cache. */
  | { type: 'extend'; id: number }
  /** One head's Q, K, V and weights over the tokens read so far. */
  | { type: 'head'; id: number; layer: number; head: number }
  | { type: 'dispose' };

/** One head's weights over the tokens read: (n, n) row-major, 0 above the diagonal. */
export interface HeadWeights {
  layer: number;
  head: number;
  n: number;
  data: Float32Array;
}

/** The model is here: its size, and every head's measured pattern (the survey runs once). */
export interface Opened {
  type: 'opened';
  config: ModelConfig;
  /** The file's size in bytes. */
  bytes: number;
  survey: HeadSurvey;
}

/** What the model read (its tokens, in order, `<|endoftext|>` first), and what it predicts next. */
export interface Read {
  type: 'read';
  id: number;
  tokens: ModelToken[];
  dropped: number;
  predictions: Prediction[];
  /** Tokens the model added itself (Generate), the last of `tokens`. */
  generated: number;
  /** Every head's weights, layer by layer. */
  weights: HeadWeights[];
}

export interface HeadSteps {
  type: 'head';
  id: number;
  layer: number;
  head: number;
  queries: Mat;
  keys: Mat;
  values: Mat;
  weights: Mat;
}

/** Why the model could not be had or run: `stage` says where, `message` how (the core's words, in English). */
export interface Failed {
  type: 'error';
  id: number;
  stage: 'load' | 'open' | 'run';
  message: string;
}

export type Reply = Opened | Read | HeadSteps | Failed;
