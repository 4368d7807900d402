// Training the Learn view's model in chunks: the trainer's numbers posted after each chunk, the
// page's messages read between them (so Pause stops within one). Every run is chunked the same
// way, whether it goes on until paused, to a link's step or to the task's target. It runs in
// learn-worker.js, off the page's thread; where a page cannot start a worker (opened from a file,
// or in a sandboxed frame) it runs on the page itself, in shorter chunks, so the page still never
// stalls.
import type T from '../../../cpp/wasm/attention-trainer';
import type { Control, HeadWeights, Reply, Request, Snapshot, Stop, Update } from './protocol';
import { measured, stepsThatFit, type Costs } from './chunks';
import { nextSnapshot } from './timeline';

/** The most steps in one chunk, whatever the machine. */
const MAX_CHUNK = 500;

/**
 * A trainer that answers the page's requests through `post` (with the buffers it may transfer);
 * each chunk of steps takes about `chunkMs`. Returns the handler of the page's requests.
 */
export function training(
  post: (reply: Reply, transfer?: Transferable[]) => void,
  module: Promise<T.TrainerModule> | null,
  chunkMs: number,
): (m: Request) => void {
  let trainer: T.Trainer | null = null;
  let run = 0;
  let probe: number[] = [];
  let running = false;
  let costs: Costs = { step: 0, run: 0 };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let later: ReturnType<typeof setTimeout> | null = null;
  /** A press of Train or Step that came while the model was still being made: done once it is. */
  let queued: Control | null = null;
  /** The page's Train, Pause and Step requests for this model so far: each reply says how many it had read. */
  let asked = 0;
  /** The heads the reader broke, as [layer, head]. */
  let broken: [number, number][] = [];
  /** The reader's own sequence, run through the model after every update. */
  let tried: number[] | null = null;
  /** Steps the loaded model had been trained before it came (the trainer counts from its load). */
  let base = 0;
  /** The step a link asked training to stop at. */
  let until: number | null = null;
  /** The held-out accuracy to stop at, once a snapshot reaches it. */
  let target: number | null = null;

  /** The model's steps as the reader counts them. */
  function now(t: T.Trainer): number {
    return t.steps + base;
  }

  /** Whether a loaded model is the one the view asked for (its task and size); if not, an error with a code, as the trainer's. */
  function mismatch(t: T.Trainer, asked: Partial<T.TrainerConfig>): T.TrainerError | null {
    const fields = ['task', 'layers', 'heads', 'dModel', 'mlp'] as const;
    const wrong = fields.filter((f) => asked[f] !== undefined && asked[f] !== t.config[f]);
    const message = 'its ' + wrong.join(', ') + ' differ from the link’s.';
    return wrong.length ? { code: 'shape_mismatch', input: 'config', message, row: -1, col: -1 } : null;
  }

  function weightsOf(t: T.Trainer): HeadWeights[] {
    const p = t.probe(probe);
    if (!p.ok) return [];
    return p.layers.flatMap((layer, l) =>
      layer.heads.map((head, k) => ({ layer: l, head: k, n: head.weights.rows, data: new Float32Array(head.weights.data) })),
    );
  }

  function postUpdate(update: Update): void {
    // Transferred, not copied; a snapshot's heads may be the update's own, so each buffer once.
    const buffers = new Set([...update.weights, ...update.snapshots.flatMap((s) => s.weights)].map((w) => w.data.buffer));
    post(update, [...buffers]);
  }

  /** The model as it is now, as a snapshot for the timeline. */
  function snapshot(t: T.Trainer, accuracy: number, headScores: number[][]): Snapshot {
    return { steps: now(t), accuracy, headScores, weights: weightsOf(t) };
  }

  /** The model as it is, before any step: its held-out numbers and its heads. */
  function postStart(t: T.Trainer): void {
    const e = t.evaluate();
    if (!e.ok) return fail(e.error);
    const first = snapshot(t, e.accuracy, e.headScores);
    postUpdate({
      type: 'update',
      run,
      steps: now(t),
      losses: [],
      loss: NaN,
      accuracy: e.accuracy,
      heldOutLoss: e.loss,
      headScores: e.headScores,
      stepsPerSecond: 0,
      weights: first.weights,
      snapshots: [first],
      diverged: null,
      running,
      asked,
      stopped: null,
    });
  }

  /** Whether the page should still be running, now that a request has been read. */
  function postState(t: T.Trainer): void {
    post({ type: 'state', run, steps: now(t), running, asked });
  }

  /** `error` null: the trainer's script did not load or start (`message` says how, in English). */
  function fail(error: T.TrainerError | null, message = ''): void {
    running = false;
    post({ type: 'error', run, error, message: error?.message ?? message });
  }

  /**
   * Up to `most` steps, as many as fit in one chunk's time, then the trainer's numbers to the
   * page; false if training must stop. The steps go in runs that end where the timeline takes a
   * snapshot, so its snapshots fall on their steps whatever the chunk, and where a snapshot
   * reaches the target training stops.
   */
  function stepAndPost(t: T.Trainer, most: number): boolean {
    const started = performance.now();
    const losses: number[] = [];
    const snapshots: Snapshot[] = [];
    let stepSeconds = 0;
    let stopped: Stop | null = null;
    let r: T.StepResult | null = null;
    while (losses.length < most) {
      const left = Math.min(most - losses.length, nextSnapshot(now(t)) - now(t));
      const fit = stepsThatFit(chunkMs - (performance.now() - started), costs, left);
      // The first run of a chunk goes whatever it costs: at least one step a chunk.
      if (fit < 1 && losses.length > 0) break;
      const runStarted = performance.now();
      const step = t.step(Math.max(1, fit));
      if (!step.ok) {
        fail(step.error);
        return false;
      }
      r = step;
      losses.push(...step.losses);
      const seconds = step.losses.length / step.stepsPerSecond;
      stepSeconds += seconds;
      if (step.diverged) break;
      let snap: Snapshot | null = null;
      if (now(t) === nextSnapshot(now(t) - 1)) snapshots.push((snap = snapshot(t, step.accuracy, step.headScores)));
      costs = measured(step.losses.length, performance.now() - runStarted, seconds * 1000);
      if (snap && target !== null && snap.accuracy >= target) {
        stopped = 'target';
        break;
      }
    }
    if (!r) return false;
    if (until !== null && now(t) >= until) stopped = 'until';
    if (stopped || r.diverged) {
      running = false;
      until = null;
      target = null;
    }
    const latest = snapshots[snapshots.length - 1];
    postUpdate({
      type: 'update',
      run,
      steps: now(t),
      losses,
      loss: r.diverged ? r.loss : losses.reduce((a, b) => a + b, 0) / losses.length,
      accuracy: r.accuracy,
      heldOutLoss: r.heldOutLoss,
      headScores: r.headScores,
      stepsPerSecond: stepSeconds > 0 ? losses.length / stepSeconds : 0,
      weights: latest?.steps === now(t) ? latest.weights : weightsOf(t),
      snapshots,
      diverged: r.diverged,
      running,
      asked,
      stopped,
    });
    // The broken heads and the reader's sequence in a task of their own: on the page's thread a
    // chunk stays near its time, and each is one more evaluation or pass of the model.
    if (broken.length > 0 || tried) {
      later = setTimeout(() => {
        later = null;
        if (trainer !== t) return;
        postAblation(t);
        postTry(t);
      }, 0);
    }
    return !r.diverged;
  }

  /** The reader's sequence through the model as it is now. */
  function postTry(t: T.Trainer): void {
    if (!tried) return;
    const p = t.probe(tried);
    const base = { type: 'tried' as const, run, steps: now(t), tokens: tried };
    if (!p.ok) return post({ ...base, predicted: [], confidence: [], heads: [], error: p.error });
    const vocab = p.probs.cols;
    post({
      ...base,
      predicted: p.predicted,
      confidence: p.predicted.map((token, i) => p.probs.data[i * vocab + token]),
      heads: p.layers.flatMap((layer, l) =>
        layer.heads.map((h, k) => ({
          layer: l,
          head: k,
          queries: h.queries,
          keys: h.keys,
          values: h.values,
          weights: h.weights,
        })),
      ),
      error: null,
    });
  }

  /** With heads broken: the held-out numbers without them. Training itself keeps every head. */
  function postAblation(t: T.Trainer): void {
    if (broken.length === 0) return;
    const set = (on: boolean) => broken.every(([layer, head]) => t.ablate(layer, head, on).ok);
    const ok = set(true);
    const e = t.evaluate();
    set(false);
    const unbroken = { code: 'bad_argument', input: 'head', message: 'a head could not be broken', row: -1, col: -1 } as const;
    if (!ok || !e.ok) return fail(e.ok ? unbroken : e.error);
    post({ type: 'ablation', run, steps: now(t), heads: broken, accuracy: e.accuracy, headScores: e.headScores });
  }

  function loop(): void {
    timer = null;
    if (!running || !trainer) return;
    const t = trainer;
    // The first step alone, so that the first loss is its own row whatever the machine's speed;
    // then chunks, the last of them ending at the link's step.
    const most = t.steps === 0 ? 1 : until !== null ? until - now(t) : MAX_CHUNK;
    if (most <= 0) {
      running = false;
      until = null;
      return postState(t);
    }
    if (stepAndPost(t, Math.min(most, MAX_CHUNK)) && running) timer = setTimeout(loop, 0);
  }

  /** Train, Pause or Step, on a model that is made. */
  function control(t: T.Trainer, m: Control): void {
    if (m.type === 'train') {
      until = m.until ?? null;
      target = m.target ?? null;
      if (!running) {
        running = true;
        loop();
      }
    } else if (m.type === 'pause') {
      running = false;
      postState(t); // the page learns the step training stopped at
    } else if (!running) {
      stepAndPost(t, 1);
    }
  }

  function handle(m: Request): void {
    if (m.type === 'create') {
      run = m.run;
      probe = m.probe;
      running = false;
      stopTimers();
      trainer?.dispose();
      trainer = null;
      costs = { step: 0, run: 0 };
      queued = null;
      asked = 0;
      broken = [];
      tried = null;
      base = 0;
      until = null;
      target = null;
      if (!module) return fail(null, 'attention-trainer.js did not load');
      const ordered = run;
      void module.then(
        (mod) => {
          if (ordered !== run) return;
          let loadError: T.TrainerError | null = null;
          if (m.weights) {
            const loaded = mod.load(m.weights, m.config);
            const wrong = loaded.ok ? mismatch(loaded.trainer, m.config) : null;
            if (loaded.ok && !wrong) {
              trainer = loaded.trainer;
              base = m.trained ?? 0;
            } else {
              if (loaded.ok) loaded.trainer.dispose();
              loadError = loaded.ok ? wrong : loaded.error;
            }
          }
          if (!trainer) {
            const made = mod.create(m.config);
            if (!made.ok) return fail(made.error);
            trainer = made.trainer;
          }
          const task = trainer.task;
          post({
            type: 'created',
            run,
            description: task.description,
            tokens: [...task.tokens],
            parameters: trainer.parameters,
            seqLen: trainer.config.seqLen,
            loaded: m.weights !== undefined && loadError === null,
            loadError,
          });
          // A press of Train that came meanwhile: the model's first numbers already say it runs.
          const press = queued;
          queued = null;
          running = press?.type === 'train';
          postStart(trainer);
          running = false;
          if (press) control(trainer, press);
        },
        (error: unknown) => fail(null, error instanceof Error ? error.message : String(error)),
      );
      return;
    }
    if (m.type === 'dispose') {
      running = false;
      stopTimers();
      trainer?.dispose();
      trainer = null;
      run = -1; // a model still being made is dropped when it comes
      return;
    }
    if (m.run !== run) return;
    if (m.type === 'ablate') {
      broken = m.heads;
      if (trainer) postAblation(trainer);
      return;
    }
    if (m.type === 'try') {
      tried = m.tokens;
      if (trainer) postTry(trainer);
      return;
    }
    if (m.type === 'save') {
      if (!trainer) return;
      const saved = trainer.save();
      if (!saved.ok) return fail(saved.error);
      return post({ type: 'saved', run, steps: now(trainer), bytes: saved.bytes }, [saved.bytes.buffer]);
    }
    asked += 1;
    if (trainer) control(trainer, m);
    else if (m.type !== 'pause') queued = m;
    else queued = null;
  }

  function stopTimers(): void {
    if (timer !== null) clearTimeout(timer);
    if (later !== null) clearTimeout(later);
    timer = later = null;
  }

  return handle;
}
