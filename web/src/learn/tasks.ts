// The tasks as the Learn view offers them: a size that learns each within seconds, the target
// its accuracy is read against, and a fixed probe sequence whose attention the heatmaps show
// (the tokens are the trainer's, in the order its task generator writes them).

export type TaskName = 'find_match' | 'copy' | 'reverse' | 'sort' | 'induction';
export const TASKS: readonly TaskName[] = ['find_match', 'copy', 'reverse', 'sort', 'induction'];

export interface Size {
  layers: number;
  heads: number;
  dModel: number;
  mlp: 'none' | 'relu' | 'gelu';
}

export interface TaskSetup {
  size: Size;
  /** Held-out accuracy that counts as learned. */
  target: number;
  /** Token ids, as the task's generator would write one sequence (without its last token). */
  probe: number[];
}

export const SETUPS: Record<TaskName, TaskSetup> = {
  // mountain, flower, person, bird, then the query "flying": the answer is the bird, at 3.
  find_match: { size: { layers: 1, heads: 2, dModel: 16, mlp: 'none' }, target: 0.99, probe: [3, 6, 9, 0, 15] },
  // 3 1 4 1 5 | and the answer so far (10 is the bar).
  copy: { size: { layers: 1, heads: 1, dModel: 16, mlp: 'none' }, target: 0.99, probe: [3, 1, 4, 1, 5, 10, 3, 1, 4, 1] },
  reverse: { size: { layers: 1, heads: 1, dModel: 16, mlp: 'none' }, target: 0.99, probe: [3, 1, 4, 1, 5, 10, 5, 1, 4, 1] },
  // 2 0 1 2 0 1 | 0 0 1 1 2 (3 is the bar).
  sort: { size: { layers: 1, heads: 2, dModel: 16, mlp: 'none' }, target: 0.99, probe: [2, 0, 1, 2, 0, 1, 3, 0, 0, 1, 1, 2] },
  // A … H, two symbols seen nowhere else (I J), then A … F again.
  induction: {
    size: { layers: 2, heads: 1, dModel: 16, mlp: 'none' },
    target: 0.9,
    probe: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5],
  },
};

export const DEFAULT_LEARNING_RATE = 0.01;

/**
 * Which positions of a reader's sequence the task asks a token after, as its generator marks
 * targets: the painting's query word (the last token); for copy, reverse and sort every position
 * from the bar on; for induction every symbol seen earlier in the sequence. The model was never
 * trained to predict at the others, so its guesses there mean nothing.
 */
export function askedPositions(task: TaskName, tokens: readonly string[], ids: readonly number[]): boolean[] {
  if (task === 'find_match') return ids.map((_, i) => i === ids.length - 1);
  if (task === 'induction') return ids.map((id, i) => ids.indexOf(id) < i);
  const bar = ids.findIndex((id) => tokens[id] === '|');
  return ids.map((_, i) => bar >= 0 && i >= bar);
}
