// The timeline of a training run: snapshots of the heads' attention on the probe, taken by the
// worker every few steps, so a reader can go back and watch a pattern form even when it formed in
// a fraction of a second. Memory is bounded: at most MAX_SNAPSHOTS + 1 are kept, and when a run
// outgrows them the spacing doubles and every other one goes (a pure rule of the step count, so
// the worker and the page agree on it without a message). The steps where something happened stay
// whatever the spacing: each head's formation, and a step the view marks (the target reached), so
// a button that goes to one shows that very step; they add at most one per head and one more.
import type { Snapshot } from './protocol';

/** The most snapshots kept (beside the one at step 0). */
export const MAX_SNAPSHOTS = 200;
/** The spacing of the first MAX_SNAPSHOTS × FIRST_SPACING steps. */
export const FIRST_SPACING = 5;
/** A head's pattern counts as formed once its score reaches this: most of its weight is on it. */
export const FORMED_SCORE = 0.5;

/** Steps between kept snapshots once a run has reached `steps`: 5, 10, 20, … */
export function spacing(steps: number): number {
  let every = FIRST_SPACING;
  while (steps > MAX_SNAPSHOTS * every) every *= 2;
  return every;
}

/** Whether the snapshot at `step` is kept once the run has reached `steps`. */
export function kept(step: number, steps: number): boolean {
  return step % spacing(steps) === 0;
}

/** The first step after `steps` at which the worker takes a snapshot. */
export function nextSnapshot(steps: number): number {
  let every = spacing(steps + 1);
  for (;;) {
    const at = Math.ceil((steps + 1) / every) * every;
    const there = spacing(at);
    if (there === every) return at;
    every = there;
  }
}

/** When a head first reached FORMED_SCORE. */
export interface Formed {
  layer: number;
  head: number;
  steps: number;
}

export class Timeline {
  private list: Snapshot[] = [];
  private firsts: Formed[] = [];
  /** Steps kept whatever the spacing: the formations, and those the view marked. */
  private pinned = new Set<number>();

  get snapshots(): readonly Snapshot[] {
    return this.list;
  }

  /** Each head's first step at FORMED_SCORE or above, in the order they formed. */
  get formed(): readonly Formed[] {
    return this.firsts;
  }

  clear(): void {
    this.list = [];
    this.firsts = [];
    this.pinned.clear();
  }

  add(s: Snapshot): void {
    this.list.push(s);
    s.headScores.forEach((scores, layer) =>
      scores.forEach((score, head) => {
        if (score >= FORMED_SCORE && !this.firsts.some((f) => f.layer === layer && f.head === head)) {
          this.firsts.push({ layer, head, steps: s.steps });
          this.pinned.add(s.steps);
        }
      }),
    );
    this.list = this.list.filter((x) => kept(x.steps, s.steps) || this.pinned.has(x.steps));
  }

  /** Keeps the snapshot at `steps` (one taken, or to come) whatever the spacing. */
  keep(steps: number): void {
    this.pinned.add(steps);
  }

  /** The index of the kept snapshot nearest to `steps` (the later one on a tie), or −1 if none. */
  nearest(steps: number): number {
    let best = -1;
    this.list.forEach((s, k) => {
      if (best < 0 || Math.abs(s.steps - steps) <= Math.abs(this.list[best].steps - steps)) best = k;
    });
    return best;
  }
}
