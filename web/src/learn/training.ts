// The Learn view's trainer, answering the page's requests: make or load a model, train it (the
// chunk loop, chunk-loop.ts), break heads, run the reader's sequence, save. It runs in
// learn-worker.js, off the page's thread; where a page cannot start a worker (opened from a file,
// or in a sandboxed frame) it runs on the page itself, in shorter chunks, so the page still never
// stalls.
import type T from '../../../cpp/wasm/attention-trainer';
import type { Control, Reply, Request, Update } from './protocol';
import { ChunkLoop, Trained } from './chunk-loop';

/** Whether a loaded model is the one the view asked for (its task and size); if not, an error with a code, as the trainer's. */
function mismatch(t: T.Trainer, asked: Partial<T.TrainerConfig>): T.TrainerError | null {
  const fields = ['task', 'layers', 'heads', 'dModel', 'mlp'] as const;
  const wrong = fields.filter((f) => asked[f] !== undefined && asked[f] !== t.config[f]);
  const message = 'its ' + wrong.join(', ') + ' differ from the link’s.';
  return wrong.length ? { code: 'shape_mismatch', input: 'config', message, row: -1, col: -1 } : null;
}

/** Transferred, not copied; a snapshot's heads may be the update's own, so each buffer once. */
function buffersOf(update: Update): Transferable[] {
  return [...new Set([...update.weights, ...update.snapshots.flatMap((s) => s.weights)].map((w) => w.data.buffer))];
}

class Training {
  private model: Trained | null = null;
  private loop: ChunkLoop | null = null;
  private run = 0;
  /** A press of Train or Step that came while the model was still being made: done once it is. */
  private queued: Control | null = null;
  /** The page's Train, Pause and Step requests for this model so far: each reply says how many it had read. */
  private asked = 0;
  /** The heads the reader broke, as [layer, head]. */
  private broken: [number, number][] = [];
  /** The reader's own sequence, run through the model after every update. */
  private tried: number[] | null = null;
  private later: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly post: (reply: Reply, transfer?: Transferable[]) => void,
    private readonly module: Promise<T.TrainerModule> | null,
    private readonly chunkMs: number,
  ) {}

  private get running(): boolean {
    return this.loop?.running ?? false;
  }

  handle(m: Request): void {
    if (m.type === 'create') return this.create(m);
    if (m.type === 'dispose') {
      this.drop();
      this.run = -1; // a model still being made is dropped when it comes
      return;
    }
    if (m.run !== this.run) return;
    const model = this.model;
    if (m.type === 'ablate') {
      this.broken = m.heads;
      if (model) this.postAblation(model);
      return;
    }
    if (m.type === 'try') {
      this.tried = m.tokens;
      if (model) this.postTry(model);
      return;
    }
    if (m.type === 'save') {
      if (!model) return;
      const saved = model.t.save();
      if (!saved.ok) return this.fail(saved.error);
      return this.post({ type: 'saved', run: this.run, steps: model.steps, bytes: saved.bytes }, [saved.bytes.buffer]);
    }
    this.asked += 1;
    if (model) this.control(m);
    else if (m.type !== 'pause') this.queued = m;
    else this.queued = null;
  }

  /** The model gone, and everything that was about it. */
  private drop(): void {
    this.loop?.dispose();
    this.loop = null;
    if (this.later !== null) clearTimeout(this.later);
    this.later = null;
    this.model?.t.dispose();
    this.model = null;
  }

  private create(m: Extract<Request, { type: 'create' }>): void {
    this.drop();
    this.run = m.run;
    this.queued = null;
    this.asked = 0;
    this.broken = [];
    this.tried = null;
    if (!this.module) return this.fail(null, 'attention-trainer.js did not load');
    const ordered = m.run;
    void this.module.then(
      (mod) => {
        if (ordered !== this.run) return;
        let loadError: T.TrainerError | null = null;
        let trainer: T.Trainer | null = null;
        let base = 0;
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
          if (!made.ok) return this.fail(made.error);
          trainer = made.trainer;
        }
        const model = (this.model = new Trained(trainer, m.probe, base));
        this.loop = new ChunkLoop(model, this.output(model), this.chunkMs);
        const task = trainer.task;
        this.post({
          type: 'created',
          run: this.run,
          description: task.description,
          tokens: [...task.tokens],
          parameters: trainer.parameters,
          seqLen: trainer.config.seqLen,
          loaded: m.weights !== undefined && loadError === null,
          loadError,
        });
        // A press of Train that came meanwhile: the model's first numbers already say it runs.
        const press = this.queued;
        this.queued = null;
        this.postStart(model, press?.type === 'train');
        if (press) this.control(press);
      },
      (error: unknown) => this.fail(null, error instanceof Error ? error.message : String(error)),
    );
  }

  /** Where the chunk loop of `model` posts. */
  private output(model: Trained) {
    return {
      update: (u: Omit<Update, 'type' | 'run' | 'asked' | 'running'>) => {
        const update: Update = { type: 'update', run: this.run, asked: this.asked, running: this.running, ...u };
        this.post(update, buffersOf(update));
      },
      stopped: () => this.postState(model),
      fail: (error: T.TrainerError) => this.fail(error),
      // The broken heads and the reader's sequence in a task of their own: on the page's thread a
      // chunk stays near its time, and each is one more evaluation or pass of the model.
      after: () => {
        if (this.broken.length === 0 && !this.tried) return;
        this.later = setTimeout(() => {
          this.later = null;
          if (this.model !== model) return;
          this.postAblation(model);
          this.postTry(model);
        }, 0);
      },
    };
  }

  /** Train, Pause or Step, on a model that is made. */
  private control(m: Control): void {
    const loop = this.loop;
    const model = this.model;
    if (!loop || !model) return;
    if (m.type === 'train') loop.train(m.until ?? null, m.target ?? null);
    else if (m.type === 'pause') {
      loop.pause();
      this.postState(model); // the page learns the step training stopped at
    } else loop.step();
  }

  /** The model as it is, before any step: its held-out numbers and its heads. */
  private postStart(model: Trained, running: boolean): void {
    const e = model.t.evaluate();
    if (!e.ok) return this.fail(e.error);
    const first = model.snapshot(e.accuracy, e.headScores);
    const update: Update = {
      type: 'update',
      run: this.run,
      steps: model.steps,
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
      asked: this.asked,
      stopped: null,
    };
    this.post(update, buffersOf(update));
  }

  /** Whether the page should still be running, now that a request has been read. */
  private postState(model: Trained): void {
    this.post({ type: 'state', run: this.run, steps: model.steps, running: this.running, asked: this.asked });
  }

  /** `error` null: the trainer's script did not load or start (`message` says how, in English). */
  private fail(error: T.TrainerError | null, message = ''): void {
    this.loop?.pause();
    this.post({ type: 'error', run: this.run, error, message: error?.message ?? message });
  }

  /** The reader's sequence through the model as it is now. */
  private postTry(model: Trained): void {
    const tried = this.tried;
    if (!tried) return;
    const p = model.t.probe(tried);
    const base = { type: 'tried' as const, run: this.run, steps: model.steps, tokens: tried };
    if (!p.ok) return this.post({ ...base, predicted: [], confidence: [], heads: [], error: p.error });
    const vocab = p.probs.cols;
    this.post({
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
  private postAblation(model: Trained): void {
    const broken = this.broken;
    if (broken.length === 0) return;
    const t = model.t;
    const set = (on: boolean) => broken.every(([layer, head]) => t.ablate(layer, head, on).ok);
    const ok = set(true);
    const e = t.evaluate();
    set(false);
    const unbroken = { code: 'bad_argument', input: 'head', message: 'a head could not be broken', row: -1, col: -1 } as const;
    if (!ok || !e.ok) return this.fail(e.ok ? unbroken : e.error);
    this.post({
      type: 'ablation',
      run: this.run,
      steps: model.steps,
      heads: broken,
      accuracy: e.accuracy,
      headScores: e.headScores,
    });
  }
}

/**
 * A trainer that answers the page's requests through `post` (with the buffers it may transfer);
 * each chunk of steps takes about `chunkMs`. Returns the handler of the page's requests.
 */
export function training(
  post: (reply: Reply, transfer?: Transferable[]) => void,
  module: Promise<T.TrainerModule> | null,
  chunkMs: number,
): (m: Request) => void {
  const t = new Training(post, module, chunkMs);
  return (m) => t.handle(m);
}
