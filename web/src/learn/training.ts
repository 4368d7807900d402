// Training the Learn view's model in chunks: the trainer's numbers posted after each chunk, the
// page's messages read between them (so Pause stops within one). It runs in learn-worker.js, off
// the page's thread; where a page cannot start a worker (opened from a file, or in a sandboxed
// frame) it runs on the page itself, in shorter chunks, so the page still never stalls.
import type T from '../../../cpp/wasm/attention-trainer';
import type { HeadWeights, Reply, Request, Snapshot, Update } from './protocol';
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
  let chunk = 1;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** A press of Train or Step that came while the model was still being made: done once it is. */
  let queued: 'train' | 'step' | null = null;
  /** The heads the reader broke, as [layer, head]. */
  let broken: [number, number][] = [];
  /** The reader's own sequence, run through the model after every update. */
  let tried: number[] | null = null;
  /** Steps the loaded model had been trained before it came (the trainer counts from its load). */
  let base = 0;
  /** The step a link asked training to stop at. */
  let until: number | null = null;

  /** The model's steps as the reader counts them. */
  function now(t: T.Trainer): number {
    return t.steps + base;
  }

  /** Whether a loaded model is the one the view asked for (its task and size). */
  function mismatch(t: T.Trainer, asked: Partial<T.TrainerConfig>): string | null {
    const fields = ['task', 'layers', 'heads', 'dModel', 'mlp'] as const;
    const wrong = fields.filter((f) => asked[f] !== undefined && asked[f] !== t.config[f]);
    return wrong.length ? 'its ' + wrong.join(', ') + ' differ from the link’s.' : null;
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
    });
  }

  function fail(error: T.TrainerError | null, message = ''): void {
    running = false;
    post({ type: 'error', run, error, message: error?.message ?? message });
  }

  /**
   * `n` steps, then the trainer's numbers to the page; false if training must stop. The steps go in
   * runs that end where the timeline takes a snapshot, so its snapshots fall on their steps
   * whatever the chunk.
   */
  function stepAndPost(t: T.Trainer, n: number): boolean {
    const started = performance.now();
    const losses: number[] = [];
    const snapshots: Snapshot[] = [];
    let stepSeconds = 0;
    let r: T.StepResult | null = null;
    while (losses.length < n) {
      const step = t.step(Math.min(n - losses.length, nextSnapshot(now(t)) - now(t)));
      if (!step.ok) {
        fail(step.error);
        return false;
      }
      r = step;
      losses.push(...step.losses);
      stepSeconds += step.losses.length / step.stepsPerSecond;
      if (step.diverged) break;
      if (now(t) === nextSnapshot(now(t) - 1)) snapshots.push(snapshot(t, step.accuracy, step.headScores));
    }
    if (!r) return false;
    const took = performance.now() - started;
    const latest = snapshots[snapshots.length - 1];
    // The next chunk sized to take about chunkMs, evaluations included.
    chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round((n * chunkMs) / Math.max(took, 1))));
    if (r.diverged) running = false;
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
    });
    postAblation(t);
    postTry(t);
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
    if (!ok || !e.ok) return fail(e.ok ? null : e.error, 'a head could not be broken');
    post({ type: 'ablation', run, steps: now(t), heads: broken, accuracy: e.accuracy, headScores: e.headScores });
  }

  function loop(): void {
    timer = null;
    if (!running || !trainer) return;
    // The first step alone, so that the first loss is its own row whatever the machine's speed.
    let n = trainer.steps === 0 ? 1 : chunk;
    const last = until !== null && until - now(trainer) <= n;
    if (until !== null) n = until - now(trainer);
    if (last) {
      // The step a link asked for: the update after this chunk says training stopped there.
      running = false;
      until = null;
      if (n <= 0) return postStart(trainer);
    }
    if (stepAndPost(trainer, n) && running) timer = setTimeout(loop, 0);
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
      broken = [];
      tried = null;
      base = 0;
      until = null;
      if (!module) return fail(null, 'attention-trainer.js did not load');
      const asked = run;
      void module.then(
        (mod) => {
          if (asked !== run) return;
          let loadError: string | null = null;
          if (m.weights) {
            const loaded = mod.load(m.weights, m.config);
            const wrong = loaded.ok ? mismatch(loaded.trainer, m.config) : null;
            if (loaded.ok && !wrong) {
              trainer = loaded.trainer;
              base = m.trained ?? 0;
            } else {
              if (loaded.ok) loaded.trainer.dispose();
              loadError = loaded.ok ? (wrong ?? '') : loaded.error.message;
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
          postStart(trainer);
          if (queued) handle({ type: queued, run });
          queued = null;
        },
        (error: unknown) => fail(null, error instanceof Error ? error.message : String(error)),
      );
      return;
    }
    if (m.type === 'dispose') {
      running = false;
      if (timer !== null) clearTimeout(timer);
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
    if (!trainer) {
      queued = m.type === 'train' || m.type === 'step' ? m.type : null;
      return;
    }
    if (m.type === 'save') {
      const saved = trainer.save();
      if (!saved.ok) return fail(saved.error);
      return post({ type: 'saved', run, steps: now(trainer), bytes: saved.bytes }, [saved.bytes.buffer]);
    }
    if (m.type === 'train') {
      until = m.until ?? null;
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

  return handle;
}
