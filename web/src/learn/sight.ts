// Whether the Learn view can be seen: some of it on screen (IntersectionObserver) and the page not
// hidden (visibilitychange). Training pauses while it cannot: nobody is watching, and a run would
// hold a core for nothing (an embed far down a post, or a tab in the background).

export class Sight {
  private onScreen = true;
  private observer: IntersectionObserver | null = null;
  private was = true;
  private readonly life = new AbortController();
  private readonly check = () => {
    const now = this.inSight;
    if (now !== this.was) {
      this.was = now;
      this.changed(now);
    }
  };

  /** `changed` runs when the view comes into sight or leaves it. */
  constructor(private readonly changed: (inSight: boolean) => void) {
    document.addEventListener('visibilitychange', this.check, { signal: this.life.signal });
  }

  get inSight(): boolean {
    return this.onScreen && document.visibilityState !== 'hidden';
  }

  /** Watches `el` (the view's element, which a change of language builds again). */
  watch(el: HTMLElement): void {
    this.observer?.disconnect();
    if (typeof IntersectionObserver !== 'function') return;
    this.observer = new IntersectionObserver((entries) => {
      this.onScreen = entries[entries.length - 1].isIntersecting;
      this.check();
    });
    this.observer.observe(el);
  }

  dispose(): void {
    this.observer?.disconnect();
    this.life.abort();
  }
}
