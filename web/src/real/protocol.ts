// What the page and the model's worker (real-worker.js) say to each other. Every number in a
// reply is the core's (attention-model.js): the page shows them and computes none.
import type M from '../../../cpp/wasm/attention-model';
import type { HeadWeights } from '../engine/types';

export type Pattern = M.Pattern;
export type ModelToken = M.ReadToken;
export type Prediction = M.Prediction;
export type HeadSurvey = M.HeadSurvey;
export type ModelConfig = M.ModelConfig;

/** Where a model and the files beside it are, as absolute http(s) URLs. */
export interface ModelUrls {
  model: string;
  tokenizer?: string;
  vocab?: string;
  merges?: string;
  config?: string;
}

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
  /** The reader's own checkpoint: its files (the model, its tokenizer, config.json). */
  | { type: 'own'; files: File[] }
  /** A model on a server (an embed's model attribute): its file and the files beside it. */
  | { type: 'url'; urls: ModelUrls }
  /** Stop reading the reader's files. */
  | { type: 'cancel' }
  /** Back to the page's own model. */
  | { type: 'shipped' }
  | { type: 'dispose' };

/** The model is here: its size, and every head's measured pattern (the survey runs once). */
export interface Opened {
  type: 'opened';
  config: ModelConfig;
  /** The most tokens a reading holds: the context, or fewer on a model of many heads. */
  window: number;
  /** The file's size in bytes. */
  bytes: number;
  survey: HeadSurvey;
  /** The reader's own model file's name; null for the page's model. */
  own: string | null;
}

/** Why the reader's files did not open; the model before them is still the one that runs. */
export type OwnFailure =
  | { reason: 'no-model' | 'two-models' | 'unknown-files'; names: string[] }
  /** The core refused it (its words, naming the file, byte or tensor), or a file could not be read. */
  | { reason: 'refused' | 'read'; message: string }
  | { reason: 'too-large'; needBytes: number; freeBytes: number }
  | { reason: 'cancelled' };

export interface OwnProgress {
  type: 'progress';
  name: string;
  loaded: number;
  total: number;
  /** Asking a server for the file (nothing has come yet: `total` 0), reading the file, or
   * measuring its heads once it is read. */
  stage: 'asking' | 'reading' | 'measuring';
}

export interface OwnFailed {
  type: 'own-failed';
  failure: OwnFailure;
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

export type Reply = Opened | Read | HeadSteps | Failed | OwnProgress | OwnFailed;
