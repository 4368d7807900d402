// How many steps a chunk of training holds. A run of steps ends in the trainer's held-out
// evaluation (and, at the timeline's steps, a snapshot of the heads), which on a large model costs
// more than several steps: so the time a run takes is counted as a fixed part and a part per step,
// each measured on the runs before, and a chunk takes only the runs that fit its time.

/** Milliseconds: one step, and what a run costs besides its steps (the evaluation, the snapshot). */
export interface Costs {
  step: number;
  run: number;
}

/** The most steps of one run that fit in `budgetMs` (0 if none does), at most `most`. */
export function stepsThatFit(budgetMs: number, costs: Costs, most: number): number {
  if (costs.step <= 0) return most; // not measured yet
  return Math.max(0, Math.min(most, Math.floor((budgetMs - costs.run) / costs.step)));
}

/** The costs measured on a run of `steps` steps that took `runMs`, `stepMs` of it in the steps. */
export function measured(steps: number, runMs: number, stepMs: number): Costs {
  return { step: Math.max(stepMs / steps, 1e-3), run: Math.max(0, runMs - stepMs) };
}
