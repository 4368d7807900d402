// What the page and the training worker (learn-worker.js) say to each other. Every number in an
// update is the trainer's: the page shows them and computes none.
import type T from '../../../cpp/wasm/attention-trainer';
import type { HeadWeights } from '../engine/types';

export type TrainerConfig = T.TrainerConfig;
export type TrainerError = T.TrainerError;

/** The page to the worker. `run` numbers a model: updates of an older one are dropped. */
export type Request =
  /** A new model from the config, or the saved one in `weights` (trained `trained` steps). */
  | { type: 'create'; run: number; config: Partial<T.TrainerConfig>; probe: number[]; weights?: Uint8Array; trained?: number }
  /** Train until paused, or until step `until`, or until a snapshot's accuracy reaches `target`. */
  | { type: 'train'; run: number; until?: number; target?: number }
  /** The model as bytes, for a link. */
  | { type: 'save'; run: number }
  /** The view is gone: stop and free the model. */
  | { type: 'dispose'; run: number }
  | { type: 'pause'; run: number }
  | { type: 'step'; run: number }
  /** Which heads to break: the worker answers with the accuracy without them, after every update. */
  | { type: 'ablate'; run: number; heads: [number, number][] }
  /** A reader's sequence to run through the model, now and after every update (null: none). */
  | { type: 'try'; run: number; tokens: number[] | null };

/** The requests that start and stop training: the worker counts them, so the page knows which it answered. */
export type Control = Extract<Request, { type: 'train' | 'pause' | 'step' }>;

/** Why training stopped by itself: at a link's step, or where the accuracy reached its target. */
export type Stop = 'until' | 'target';

/** The model at one step, as the timeline keeps it: its heads on the probe and its numbers then. */
export interface Snapshot {
  steps: number;
  accuracy: number;
  headScores: number[][];
  weights: HeadWeights[];
}

export interface Update {
  type: 'update';
  run: number;
  /** Updates applied in all. */
  steps: number;
  /** Each step's batch loss since the last update (none at step 0). */
  losses: number[];
  /** The trainer's mean loss over the last of its calls in this update (NaN at step 0). */
  loss: number;
  /** Held-out accuracy and loss, and the heads' scores for the task's pattern. */
  accuracy: number;
  heldOutLoss: number;
  headScores: number[][];
  stepsPerSecond: number;
  weights: HeadWeights[];
  /** The timeline's snapshots taken since the last update (timeline.ts says when). */
  snapshots: Snapshot[];
  /** Set when a step overflowed: training stopped there. */
  diverged: TrainerError | null;
  running: boolean;
  /** The page's Train, Pause and Step requests read before this: `running` answers the last of them. */
  asked: number;
  /** Set when training stopped by itself at this update. */
  stopped: Stop | null;
}

/** After a pause, or a train request with nothing left to train: where the model stands. */
export interface State {
  type: 'state';
  run: number;
  steps: number;
  running: boolean;
  asked: number;
}

/** The held-out numbers with the broken heads' outputs zeroed, for the model at `steps`. */
export interface Ablation {
  type: 'ablation';
  run: number;
  steps: number;
  heads: [number, number][];
  accuracy: number;
  headScores: number[][];
}

/** One head on the reader's sequence: its steps as the playground takes them. */
export interface TriedHead {
  layer: number;
  head: number;
  queries: T.Mat; // (n, d_head)
  keys: T.Mat; // (n, d_head)
  values: T.Mat; // (n, d_head)
  weights: T.Mat; // (n, n)
}

/** The reader's sequence through the model at `steps`: each position's next token, and the heads. */
export interface Tried {
  type: 'tried';
  run: number;
  steps: number;
  tokens: number[];
  /** The most likely next token after each position, and its probability. */
  predicted: number[];
  confidence: number[];
  heads: TriedHead[];
  error: TrainerError | null;
}

/** The model is made (or loaded): its task's words and its size. */
export interface Created {
  type: 'created';
  run: number;
  description: string;
  tokens: string[];
  parameters: number;
  seqLen: number;
  /** The saved model was loaded; or why it could not be (then the model is the config's, new). */
  loaded: boolean;
  loadError: TrainerError | null;
}

export type Reply =
  | Update
  | State
  | Ablation
  | Tried
  | Created
  | { type: 'saved'; run: number; steps: number; bytes: Uint8Array }
  /** `error` null: the trainer's script or the worker did not load or start; `message` is how, in English. */
  | { type: 'error'; run: number; error: TrainerError | null; message: string };
