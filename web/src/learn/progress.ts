// What the curves and the table hold of a run, as the trainer gave it: each step's loss, the
// held-out accuracy at each snapshot and update, and the table's rows (kept, so that a change of
// language words them again).
import type { Update } from './protocol';

export type Row = [step: number, loss: number, accuracy: number];

/** The most rows the table keeps (the first, then the latest). */
export const MAX_ROWS = 200;

export class Progress {
  lossSteps: number[] = [];
  losses: number[] = [];
  accSteps: number[] = [];
  accuracies: number[] = [];
  rows: Row[] = [];

  clear(): void {
    this.lossSteps = [];
    this.losses = [];
    this.accSteps = [];
    this.accuracies = [];
    this.rows = [];
  }

  /** An update's points; returns its row for the table, if it trained. */
  take(u: Update): Row | null {
    const first = u.steps - u.losses.length;
    u.losses.forEach((loss, k) => {
      this.lossSteps.push(first + k + 1);
      this.losses.push(loss);
    });
    for (const s of [...u.snapshots, u]) {
      if (this.accSteps[this.accSteps.length - 1] === s.steps) continue;
      this.accSteps.push(s.steps);
      this.accuracies.push(s.accuracy);
    }
    if (!u.losses.length) return null;
    const row: Row = [u.steps, u.loss, u.accuracy];
    this.rows.push(row);
    if (this.rows.length > MAX_ROWS) this.rows.splice(1, 1);
    return row;
  }

  /** The loss of step 1, once it ran. */
  get firstLoss(): number | null {
    return this.losses.length ? this.losses[0] : null;
  }
}
