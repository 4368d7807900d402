// dist/learn-worker.js: trains the Learn view's model off the page's thread, so the page never
// freezes while it learns. A classic worker: it loads the trainer with importScripts. It trains
// in chunks of about a tenth of a second, posting the trainer's numbers after each, and reads its
// messages between chunks (so Pause stops within one).
import type T from '../../../cpp/wasm/attention-trainer';
import { scriptURL } from '../engine/trusted';
import type { HeadWeights, Reply, Request, Update } from './protocol';

declare function importScripts(...urls: string[]): void;

interface Scope {
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(message: Reply, transfer?: Transferable[]): void;
  createAttentionTrainer?: () => Promise<T.TrainerModule>;
}
const scope = self as unknown as Scope;

/** How long one chunk of steps may take: five or more updates a second. */
const CHUNK_MS = 100;
/** The most steps in one chunk, whatever the machine. */
const MAX_CHUNK = 500;

importScripts(scriptURL('attention-trainer.js'));
const module: Promise<T.TrainerModule> | null = scope.createAttentionTrainer ? scope.createAttentionTrainer() : null;

let trainer: T.Trainer | null = null;
let run = 0;
let probe: number[] = [];
let running = false;
let chunk = 1;
let timer: ReturnType<typeof setTimeout> | null = null;
/** A press of Train or Step that came while the model was still being made: done once it is. */
let queued: 'train' | 'step' | null = null;

function weightsOf(t: T.Trainer): HeadWeights[] {
  const p = t.probe(probe);
  if (!p.ok) return [];
  return p.layers.flatMap((layer, l) =>
    layer.heads.map((head, k) => ({ layer: l, head: k, n: head.weights.rows, data: new Float32Array(head.weights.data) })),
  );
}

function post(update: Update): void {
  scope.postMessage(
    update,
    update.weights.map((w) => w.data.buffer),
  );
}

/** The model as it is, before any step: its held-out numbers and its heads. */
function postStart(t: T.Trainer): void {
  const e = t.evaluate();
  if (!e.ok) return fail(e.error);
  post({
    type: 'update',
    run,
    steps: t.steps,
    losses: [],
    loss: NaN,
    accuracy: e.accuracy,
    heldOutLoss: e.loss,
    headScores: e.headScores,
    stepsPerSecond: 0,
    weights: weightsOf(t),
    diverged: null,
    running,
  });
}

function fail(error: T.TrainerError | null, message = ''): void {
  running = false;
  scope.postMessage({ type: 'error', run, error, message: error?.message ?? message });
}

/** `n` steps, then the trainer's numbers to the page; false if training must stop. */
function stepAndPost(t: T.Trainer, n: number): boolean {
  const started = performance.now();
  const r = t.step(n);
  if (!r.ok) {
    fail(r.error);
    return false;
  }
  const took = performance.now() - started;
  // The next chunk sized to take about CHUNK_MS, evaluation included.
  chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round((n * CHUNK_MS) / Math.max(took, 1))));
  if (r.diverged) running = false;
  post({
    type: 'update',
    run,
    steps: r.steps,
    losses: Array.from(r.losses),
    loss: r.loss,
    accuracy: r.accuracy,
    heldOutLoss: r.heldOutLoss,
    headScores: r.headScores,
    stepsPerSecond: r.stepsPerSecond,
    weights: weightsOf(t),
    diverged: r.diverged,
    running,
  });
  return !r.diverged;
}

function loop(): void {
  timer = null;
  if (!running || !trainer) return;
  // The first step alone, so that the first loss is its own row whatever the machine's speed.
  if (stepAndPost(trainer, trainer.steps === 0 ? 1 : chunk) && running) timer = setTimeout(loop, 0);
}

function handle(m: Request): void {
  if (m.type === 'create') {
    run = m.run;
    probe = m.probe;
    running = false;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    trainer?.dispose();
    trainer = null;
    chunk = 1;
    queued = null;
    if (!module) return fail(null, 'attention-trainer.js did not load');
    const asked = run;
    void module.then(
      (mod) => {
        if (asked !== run) return;
        const made = mod.create(m.config);
        if (!made.ok) return fail(made.error);
        trainer = made.trainer;
        const task = trainer.task;
        scope.postMessage({
          type: 'created',
          run,
          description: task.description,
          tokens: [...task.tokens],
          parameters: trainer.parameters,
        });
        postStart(trainer);
        if (queued) handle({ type: queued, run });
        queued = null;
      },
      (error: unknown) => fail(null, String(error)),
    );
    return;
  }
  if (m.run !== run) return;
  if (!trainer) {
    queued = m.type === 'pause' ? null : m.type;
    return;
  }
  if (m.type === 'train') {
    if (!running) {
      running = true;
      loop();
    }
  } else if (m.type === 'pause') {
    running = false;
  } else if (m.type === 'step' && !running) {
    stepAndPost(trainer, 1);
  }
}

scope.onmessage = (e) => handle(e.data);
