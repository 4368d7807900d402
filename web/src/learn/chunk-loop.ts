// Training one model in chunks: as many steps as fit in a chunk's time, then the trainer's numbers
// to the page, then the next chunk in a task of its own, so the page's messages (Pause) are read
// between chunks. The steps go in runs that end where the timeline takes a snapshot, so its
// snapshots fall on their steps whatever the chunk, and where a snapshot reaches the target
// training stops. Every run is chunked the same way: until paused, to a link's step, or to the
// task's target.
import type T from '../../../cpp/wasm/attention-trainer';
import type { HeadWeights } from '../engine/types';
import type { Snapshot, Stop, Update } from './protocol';
import { measured, stepsThatFit, type Costs } from './chunks';
import { nextSnapshot } from './timeline';

/** The most steps in one chunk, whatever the machine. */
const MAX_CHUNK = 500;

/** One model being trained: the trainer, and the steps it had before it came (a loaded model's). */
export class Trained {
  constructor(
    readonly t: T.Trainer,
    private readonly probe: number[],
    private readonly base: number,
  ) {}

  /** The model's steps as the reader counts them (the trainer counts from its load). */
  get steps(): number {
    return this.t.steps + this.base;
  }

  /** Each head's attention on the probe. */
  weights(): HeadWeights[] {
    const p = this.t.probe(this.probe);
    if (!p.ok) return [];
    return p.layers.flatMap((layer, l) =>
      layer.heads.map((head, k) => ({ layer: l, head: k, n: head.weights.rows, data: new Float32Array(head.weights.data) })),
    );
  }

  /** The model as it is now, as a snapshot for the timeline. */
  snapshot(accuracy: number, headScores: number[][]): Snapshot {
    return { steps: this.steps, accuracy, headScores, weights: this.weights() };
  }
}

/** Where the loop's results go. */
export interface LoopOutput {
  /** An update, its fields for the run and the requests read filled in by the receiver. */
  update(u: Omit<Update, 'type' | 'run' | 'asked' | 'running'>): void;
  /** Training stopped with no update to say so (a link's step reached between chunks). */
  stopped(): void;
  fail(error: T.TrainerError): void;
  /** After each chunk: the work that comes with an update (broken heads, the reader's sequence). */
  after(): void;
}

export class ChunkLoop {
  running = false;
  /** The step a link asked training to stop at. */
  until: number | null = null;
  /** The held-out accuracy to stop at, once a snapshot reaches it. */
  target: number | null = null;
  private costs: Costs = { step: 0, run: 0 };
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly model: Trained,
    private readonly out: LoopOutput,
    private readonly chunkMs: number,
  ) {}

  /** Trains until paused, `until` or `target` (whichever comes first); null: no such bound. */
  train(until: number | null, target: number | null): void {
    this.until = until;
    this.target = target;
    if (!this.running) {
      this.running = true;
      this.loop();
    }
  }

  pause(): void {
    this.running = false;
  }

  /** One step, when not running. */
  step(): void {
    if (!this.running) this.chunk(1);
  }

  dispose(): void {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private loop(): void {
    this.timer = null;
    if (!this.running) return;
    const m = this.model;
    // The first step alone, so that the first loss is its own row whatever the machine's speed;
    // then chunks, the last of them ending at the link's step.
    const most = m.t.steps === 0 ? 1 : this.until !== null ? this.until - m.steps : MAX_CHUNK;
    if (most <= 0) {
      this.running = false;
      this.until = null;
      return this.out.stopped();
    }
    if (this.chunk(Math.min(most, MAX_CHUNK)) && this.running) this.timer = setTimeout(() => this.loop(), 0);
  }

  /** Up to `most` steps, as many as fit in one chunk's time, then an update; false if training must stop. */
  private chunk(most: number): boolean {
    const m = this.model;
    const started = performance.now();
    const losses: number[] = [];
    const snapshots: Snapshot[] = [];
    let stepSeconds = 0;
    let stopped: Stop | null = null;
    let r: T.StepResult | null = null;
    while (losses.length < most) {
      const left = Math.min(most - losses.length, nextSnapshot(m.steps) - m.steps);
      const fit = stepsThatFit(this.chunkMs - (performance.now() - started), this.costs, left);
      // The first run of a chunk goes whatever it costs: at least one step a chunk.
      if (fit < 1 && losses.length > 0) break;
      const runStarted = performance.now();
      const step = m.t.step(Math.max(1, fit));
      if (!step.ok) {
        this.running = false;
        this.out.fail(step.error);
        return false;
      }
      r = step;
      losses.push(...step.losses);
      const seconds = step.losses.length / step.stepsPerSecond;
      stepSeconds += seconds;
      if (step.diverged) break;
      let snap: Snapshot | null = null;
      if (m.steps === nextSnapshot(m.steps - 1)) snapshots.push((snap = m.snapshot(step.accuracy, step.headScores)));
      this.costs = measured(step.losses.length, performance.now() - runStarted, seconds * 1000);
      if (snap && this.target !== null && snap.accuracy >= this.target) {
        stopped = 'target';
        break;
      }
    }
    if (!r) return false;
    if (this.until !== null && m.steps >= this.until) stopped = 'until';
    if (stopped || r.diverged) {
      this.running = false;
      this.until = null;
      this.target = null;
    }
    const latest = snapshots[snapshots.length - 1];
    this.out.update({
      steps: m.steps,
      losses,
      loss: r.loss, // the trainer's mean over its last call's steps
      accuracy: r.accuracy,
      heldOutLoss: r.heldOutLoss,
      headScores: r.headScores,
      stepsPerSecond: stepSeconds > 0 ? losses.length / stepSeconds : 0,
      weights: latest?.steps === m.steps ? latest.weights : m.weights(),
      snapshots,
      diverged: r.diverged,
      stopped,
    });
    this.out.after();
    return !r.diverged;
  }
}
