// When a change is drawn. The first change in a frame renders at once, in the event that made
// it; more changes in the same frame (a fast drag, a held-down Ctrl+Z) are coalesced into one
// render on the next frame, so they cost one engine call a frame. The time from the first
// change's event to the screen is measured (performance.measure 'ap-update', 'ap-render',
// 'ap-script'; tests/e2e/measure-page.mjs reads them).
export class Scheduler {
  private scheduled = false;
  private renderedThisFrame = false;
  private pendingSince = -1;
  private stopped = false;

  constructor(private readonly render: () => void) {}

  /** A change to show: `e`, the event that made it, dates it. */
  request(e?: Event): void {
    if (this.pendingSince < 0) this.pendingSince = e?.timeStamp ?? performance.now();
    if (this.scheduled || this.renderedThisFrame) {
      this.later();
      return;
    }
    this.renderedThisFrame = true;
    requestAnimationFrame(() => {
      this.renderedThisFrame = false;
    });
    this.render();
  }

  /** After the last view of a render that began at `started` (performance.now()). */
  rendered(started: number): void {
    if (this.pendingSince < 0) return;
    performance.measure('ap-script', { start: started, end: performance.now() }); // no layout
    document.body.getBoundingClientRect(); // the layout is part of what the reader waits for
    const end = performance.now();
    performance.measure('ap-update', { start: this.pendingSince, end }); // input event → view
    performance.measure('ap-render', { start: started, end }); // the work alone
    this.pendingSince = -1;
  }

  stop(): void {
    this.stopped = true;
  }

  private later(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      if (!this.stopped) this.render();
    });
  }
}
