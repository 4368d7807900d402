// Which section of a story is being read: the last whose top has passed a line across the screen,
// or the one last pointed at or focused. Shared by <attention-story> and the iframe form of a
// story (story.ts).
export class Reading {
  private active: HTMLElement | null = null;
  private readonly heard = new WeakSet<HTMLElement>();
  private frame = 0;
  private readonly onScroll = () => {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.pick());
  };

  /**
   * `show` says whether the section could be shown (it names a state). `lift`: how far below its
   * place without the figure a section is drawn (the figure's height, for a section after it), so
   * that moving the figure between sections does not move what counts as read.
   */
  constructor(
    private readonly sections: () => HTMLElement[],
    private readonly show: (section: HTMLElement) => boolean,
    private readonly lift: (section: HTMLElement) => number = () => 0,
  ) {}

  get current(): HTMLElement | null {
    return this.active;
  }

  start(): void {
    addEventListener('scroll', this.onScroll, { passive: true });
    addEventListener('resize', this.onScroll);
    // Pointing at a section, or moving the focus into it, shows it too: a story that fits on one
    // screen is read that way, and so is one read by keyboard.
    for (const s of this.sections()) {
      if (this.heard.has(s)) continue;
      this.heard.add(s);
      s.addEventListener('pointerenter', () => this.set(s));
      s.addEventListener('focusin', () => this.set(s));
    }
    this.pick();
  }

  stop(): void {
    removeEventListener('scroll', this.onScroll);
    removeEventListener('resize', this.onScroll);
  }

  private set(section: HTMLElement): void {
    if (section !== this.active && this.show(section)) this.active = section;
  }

  /**
   * The line is at the middle of the screen, but higher near the top of the page (where the first
   * sections start above the middle) and lower near its end (where the last ones can never scroll
   * up to it). A page too short to scroll starts on the first section, and the reader points at
   * the others.
   */
  pick(): void {
    const sections = this.sections();
    if (!sections.length) return;
    const range = document.documentElement.scrollHeight - innerHeight;
    if (range <= 1) {
      if (!this.active) this.set(sections[0]);
      return;
    }
    const fromTop = Math.min(1, scrollY / (innerHeight / 2));
    const fromEnd = Math.min(1, (range - scrollY) / (innerHeight / 2));
    const line = innerHeight * (fromEnd < 1 ? 1 - fromEnd / 2 : 0.15 + 0.35 * fromTop);
    let at = sections[0];
    for (const s of sections) if (s.getBoundingClientRect().top - this.lift(s) <= line) at = s;
    this.set(at);
  }
}
