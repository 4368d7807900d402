// <attention-story>: a scrolling story for blog posts. The author writes prose sections, each
// naming a playground state (data-state, in the link's format) or a step of a lesson (data-step);
// one figure, an <attention-playground>, follows the section being read (the last whose top has
// passed the middle of the screen, or the one pointed at or focused). On a wide screen the
// figure stays beside the prose (sticky); on a narrow one it sits below the section being read.
// The sections stay the author's own light DOM, so keyboards, screen readers, search and
// printing read them as the page's text.
//
//   <attention-story views="pipeline,weights" lang="en">
//     <section data-state="ver=1&preset=painting">…</section>
//     <section data-state="ver=1&preset=fruit">…</section>
//   </attention-story>
//
// A lesson (the format README describes) can give the states: inline, as
// <script type="application/json" data-lesson> inside the story, or as a file, lesson="x.json".
// Sections then name a step (data-step="3", 1-based); a story with no sections gets one per step,
// with the step's text. A lesson that is not valid is refused with a message that says where.
import { validateLesson, type Lesson } from '../lesson/schema';
import './element';

const NARROW = '(max-width: 760px)';
const PASSED = ['views', 'controls', 'theme', 'lang', 'height'] as const;

const STYLE = `
:host { display: block; }
.story { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr); column-gap: 24px; }
.story > slot { display: block; grid-column: 1; }
.figure { grid-column: 2; grid-row: 1 / span 2; align-self: start; position: sticky; top: 12px; }
.problems { color: #b00020; font: 14px/1.4 system-ui, sans-serif; }
.problems:empty { display: none; }
@media ${NARROW} { .story { display: block; } .figure { position: static; margin: 12px 0; } }
`;

const sheet = (() => {
  try {
    const s = new CSSStyleSheet();
    s.replaceSync(STYLE);
    return s;
  } catch {
    return null; // an old browser: the story reads as plain prose and one figure
  }
})();

class AttentionStory extends HTMLElement {
  static get observedAttributes(): readonly string[] {
    return ['lesson', ...PASSED];
  }

  private readonly figure = document.createElement('attention-playground');
  private readonly problems = document.createElement('p');
  private readonly live = document.createElement('p');
  private readonly readSlot = document.createElement('slot');
  private lesson: Lesson | null = null;
  private readonly heard = new WeakSet<HTMLElement>();
  private frame = 0;
  private readonly onScroll = () => {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.pick());
  };
  private active: HTMLElement | null = null;
  private narrow = matchMedia(NARROW);

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    if (sheet) root.adoptedStyleSheets = [sheet];
    this.readSlot.name = 'read'; // the sections read so far, when the figure sits between them
    const figure = document.createElement('div');
    figure.className = 'figure';
    figure.append(this.figure);
    this.problems.className = 'problems';
    this.problems.setAttribute('role', 'alert');
    // Which section the figure shows now, said once it changes (the figure is a frame of its own).
    this.live.setAttribute('aria-live', 'polite');
    Object.assign(this.live.style, {
      position: 'absolute',
      width: '1px',
      height: '1px',
      overflow: 'hidden',
      clipPath: 'inset(50%)',
    });
    const grid = document.createElement('div');
    grid.className = 'story';
    grid.append(this.readSlot, figure, document.createElement('slot'));
    root.append(this.problems, grid, this.live);
    this.narrow.addEventListener('change', () => this.place());
  }

  connectedCallback(): void {
    if (!this.style.display) this.style.display = 'block';
    for (const name of PASSED) this.pass(name);
    addEventListener('scroll', this.onScroll, { passive: true });
    addEventListener('resize', this.onScroll);
    void this.start();
  }

  disconnectedCallback(): void {
    removeEventListener('scroll', this.onScroll);
    removeEventListener('resize', this.onScroll);
  }

  attributeChangedCallback(name: string): void {
    if (!this.isConnected) return;
    if (name === 'lesson') void this.start();
    else this.pass(name);
  }

  private pass(name: string): void {
    const value = this.getAttribute(name);
    if (value === null) this.figure.removeAttribute(name);
    else this.figure.setAttribute(name, value);
  }

  private async start(): Promise<void> {
    this.problems.textContent = '';
    this.lesson = await this.readLesson();
    if (this.lesson && !this.sections().length) this.writeSections(this.lesson);
    const sections = this.sections();
    // Pointing at a section, or moving the focus into it, shows it too: a story that fits on one
    // screen is read that way, and so is one read by keyboard.
    for (const sec of sections) {
      if (this.heard.has(sec)) continue;
      this.heard.add(sec);
      sec.addEventListener('pointerenter', () => this.show(sec));
      sec.addEventListener('focusin', () => this.show(sec));
    }
    this.pick();
  }

  /**
   * The section being read: the last whose top has passed a line across the screen. The line is
   * at the middle, but higher near the top of the page (where the first sections start above the
   * middle) and lower near its end (where the last ones can never scroll up to it). A page too
   * short to scroll starts on the first section, and the reader points at the others.
   */
  private pick(): void {
    const sections = this.sections();
    if (!sections.length) return;
    const range = document.documentElement.scrollHeight - innerHeight;
    if (range <= 1) {
      if (!this.active) this.show(sections[0]);
      return;
    }
    const fromTop = Math.min(1, scrollY / (innerHeight / 2));
    const fromEnd = Math.min(1, (range - scrollY) / (innerHeight / 2));
    const line = innerHeight * (fromEnd < 1 ? 1 - fromEnd / 2 : 0.15 + 0.35 * fromTop);
    let at = sections[0];
    for (const sec of sections) if (sec.getBoundingClientRect().top <= line) at = sec;
    if (at !== this.active) this.show(at);
  }

  private sections(): HTMLElement[] {
    return Array.from(this.children).filter((c): c is HTMLElement => c instanceof HTMLElement && c.tagName !== 'SCRIPT');
  }

  /** The lesson inline or from its file, or null; a broken one is said in the story, where it is. */
  private async readLesson(): Promise<Lesson | null> {
    const inline = this.querySelector(':scope > script[type="application/json"][data-lesson]');
    const file = this.getAttribute('lesson');
    if (!inline && !file) return null;
    let data: unknown;
    try {
      data = JSON.parse(inline ? (inline.textContent ?? '') : await (await fetch(new URL(file!, document.baseURI))).text());
    } catch (e) {
      this.problems.textContent = `attention-story: the lesson ${file ?? '(inline)'} is not JSON: ${(e as Error).message}`;
      return null;
    }
    const r = validateLesson(data);
    if (r.ok) return r.lesson;
    this.problems.textContent =
      'attention-story: the lesson is not valid: ' + r.problems.map((p) => `${p.where} ${p.message}`).join('; ');
    return null;
  }

  /** One section per step of the lesson, with the step's text in the story's language. */
  private writeSections(lesson: Lesson): void {
    const zh = /^zh/.test(this.getAttribute('lang') ?? document.documentElement.lang);
    lesson.steps.forEach((step, k) => {
      const s = document.createElement('section');
      s.dataset.step = String(k + 1);
      const p = document.createElement('p');
      p.textContent = zh ? step.text['zh-CN'] : step.text.en;
      s.append(p);
      this.append(s);
    });
  }

  /** What a section shows: its own state, or its lesson step's. */
  private stateOf(section: HTMLElement): string | null {
    if (section.dataset.state) return section.dataset.state;
    const k = Number(section.dataset.step);
    const step = this.lesson?.steps[k - 1];
    return step ? step.state : null;
  }

  private show(section: HTMLElement): void {
    const state = this.stateOf(section);
    if (state === null) return;
    this.active = section;
    for (const s of this.sections()) s.toggleAttribute('data-shown', s === section);
    if (this.figure.getAttribute('state') !== state) {
      this.figure.setAttribute('state', state);
      const heading = section.querySelector('h1, h2, h3, h4')?.textContent ?? '';
      this.live.textContent = heading;
    }
    this.place();
  }

  /** On a narrow screen the figure comes right after the section being read. */
  private place(): void {
    const sections = this.sections();
    const at = this.active ? sections.indexOf(this.active) : -1;
    sections.forEach((s, k) => {
      if (this.narrow.matches && k <= at) s.slot = 'read';
      else s.removeAttribute('slot');
    });
  }
}

if (!customElements.get('attention-story')) customElements.define('attention-story', AttentionStory);
