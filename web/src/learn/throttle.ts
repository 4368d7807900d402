// A drawing at most every `ms`: on the page's own thread a large model posts an update per step or
// two, and drawing every head each time would take the time training has.
export class Throttle {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = -Infinity;

  constructor(
    private readonly ms: number,
    private readonly run: () => void,
  ) {}

  /** Runs soon: now if the last run was `ms` ago, else once that time is up. */
  soon(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.now();
      },
      Math.max(0, this.last + this.ms - performance.now()),
    );
  }

  /** Runs now (what the reader does is drawn at once). */
  now(): void {
    this.last = performance.now();
    this.run();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
