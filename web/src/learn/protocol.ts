// What the page and the training worker (learn-worker.js) say to each other. Every number in an
// update is the trainer's: the page shows them and computes none.
import type T from '../../../cpp/wasm/attention-trainer';

export type TrainerConfig = T.TrainerConfig;
export type TrainerError = T.TrainerError;

/** The page to the worker. `run` numbers a model: updates of an older one are dropped. */
export type Request =
  | { type: 'create'; run: number; config: Partial<T.TrainerConfig>; probe: number[] }
  | { type: 'train'; run: number }
  | { type: 'pause'; run: number }
  | { type: 'step'; run: number };

/** One head's weights on the probe: (n, n) row-major, 0 above the diagonal. */
export interface HeadWeights {
  layer: number;
  head: number;
  n: number;
  data: Float32Array;
}

export interface Update {
  type: 'update';
  run: number;
  /** Updates applied in all. */
  steps: number;
  /** Each step's batch loss since the last update (none at step 0). */
  losses: number[];
  /** The trainer's mean of `losses` (NaN at step 0). */
  loss: number;
  /** Held-out accuracy and loss, and the heads' scores for the task's pattern. */
  accuracy: number;
  heldOutLoss: number;
  headScores: number[][];
  stepsPerSecond: number;
  weights: HeadWeights[];
  /** Set when a step overflowed: training stopped there. */
  diverged: TrainerError | null;
  running: boolean;
}

export type Reply =
  | Update
  | { type: 'created'; run: number; description: string; tokens: string[]; parameters: number }
  | { type: 'error'; run: number; error: TrainerError | null; message: string };
