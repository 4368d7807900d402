// What the Learn view knows of a run, apart from how it is shown: the trainer's updates in; the
// curves' points and the table's rows, the timeline, the step the task's target was reached at,
// the heads as the timeline's cursor shows them, and the status line's numbers out. Pure, so it
// runs under node (tests/js/learn-state.test.mjs); the view only draws what it holds.
import type { HeadWeights } from '../engine/types';
import type { Created, Snapshot, Tried, Update } from './protocol';
import { Progress, type Row } from './progress';
import { Timeline } from './timeline';

/** The heads to draw: a snapshot's, or the model's as it is now, and the step they are from. */
export interface ShownHeads {
  weights: readonly HeadWeights[];
  headScores: readonly number[][];
  step: number;
}

export class LearnState {
  /** Updates applied to the model, as the reader counts them. */
  steps = 0;
  /** The probe's tokens, for the heatmaps' rows. */
  tokens: string[] = [];
  /** The step at which a held-out snapshot first reached the task's target. */
  reached: number | null = null;
  /** The trainer's latest update. */
  last: Update | null = null;
  failed = false;
  /** The model's tokens and longest sequence, once it is made. */
  made: { tokens: string[]; seqLen: number } | null = null;
  /** The reader's own sequence through the model. */
  tried: Tried | null = null;
  readonly progress = new Progress();
  readonly timeline = new Timeline();

  /** A new model: nothing known yet. */
  clear(): void {
    this.steps = 0;
    this.tokens = [];
    this.reached = null;
    this.last = null;
    this.failed = false;
    this.made = null;
    this.tried = null;
    this.progress.clear();
    this.timeline.clear();
  }

  /** The model is made: its vocabulary, and the probe (`probe`: token ids) in its words. */
  created(m: Created, probe: readonly number[]): void {
    this.tokens = probe.map((id) => m.tokens[id] ?? '?');
    this.made = { tokens: m.tokens, seqLen: m.seqLen };
  }

  /**
   * An update of the trainer. `target`: the task's held-out accuracy to reach; `from`: steps the
   * model had before this run (a loaded model's own are not this run's). Returns the table's new
   * row, if the update trained, and whether the target was first reached in it.
   */
  take(u: Update, target: number, from: number): { row: Row | null; reachedNow: boolean } {
    this.last = u;
    const row = this.progress.take(u);
    for (const s of u.snapshots) this.timeline.add(s);
    this.steps = u.steps;
    // The first snapshot at the target (they come every few steps), whatever the chunks' sizes.
    const at: Snapshot | Update | undefined =
      this.reached === null ? [...u.snapshots, u].find((s) => s.steps > from && s.accuracy >= target) : undefined;
    if (at) {
      this.reached = at.steps;
      this.timeline.keep(at.steps); // the step the note names stays on the timeline
    }
    return { row, reachedNow: !!at };
  }

  /** The heads at the timeline's cursor (`cursor` null: the model as it is now), or null before the first update. */
  shown(cursor: number | null): ShownHeads | null {
    const u = this.last;
    if (!u) return null;
    const at = cursor === null ? -1 : this.timeline.nearest(cursor);
    const s = at >= 0 ? this.timeline.snapshots[at] : u;
    return { weights: s.weights, headScores: s.headScores, step: s.steps };
  }

  /** The steps at which a head's pattern formed, for the curves' marks. */
  get formed(): number[] {
    return this.timeline.formed.map((f) => f.steps);
  }

  /** The status line's numbers: steps, steps a second (0: not measured), held-out accuracy. */
  get status(): { steps: number; speed: number; accuracy: number } | null {
    const u = this.last;
    return u ? { steps: this.steps, speed: Math.round(u.stepsPerSecond), accuracy: u.accuracy } : null;
  }
}
