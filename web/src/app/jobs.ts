// A render's view updates, run now or spread over several tasks. One update of a large figure
// (64 tokens: five 64 × 64 canvases, a grid of inputs, the plot) took longer than a tenth of a
// second in one task, and a page that does not answer a key or a click for that long feels
// frozen. Spread, each task runs views for up to BUDGET_MS and then lets the browser paint and
// handle input; the render counts as done (its `done` runs) after the last view.

const BUDGET_MS = 40;

export class Jobs {
  private queue: Array<() => void> = [];
  private running: Array<() => void> = []; // what finish() still has to run
  private generation = 0;
  /** Whether add() defers (a large figure) or runs at once (a small one: one task is cheaper). */
  spread = false;

  add(job: () => void): void {
    if (this.spread) this.queue.push(job);
    else job();
  }

  /** Runs what add() deferred, a budget per task, then `done`. */
  finish(done: () => void): void {
    const queue = this.queue;
    this.queue = [];
    this.running = queue;
    if (!queue.length) return done();
    const generation = this.generation;
    const step = () => {
      if (generation !== this.generation) return; // a newer render redraws every view itself
      const until = performance.now() + BUDGET_MS;
      while (queue.length && performance.now() < until) queue.shift()!();
      if (queue.length) setTimeout(step, 0);
      else done();
    };
    setTimeout(step, 0);
  }

  /** Runs every deferred view now: a page being printed gets no later task. */
  drain(): void {
    while (this.running.length) this.running.shift()!();
  }

  /** Drops what an earlier render left to run. */
  cancel(): void {
    this.generation++;
    this.queue = [];
  }
}
