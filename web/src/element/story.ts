// <attention-story>: a scrolling story for blog posts. The author writes prose sections, each
// naming a playground state (data-state, in the link's format) or a step of a lesson (data-step);
// one figure, an <attention-playground>, follows the section being read (the last whose top has
// passed the middle of the screen, or the one pointed at or focused). In a wide column the
// figure stays beside the prose (sticky); in a narrow one (a blog's, a phone's) it sits below the
// section being read.
// The sections stay the author's own light DOM, so keyboards, screen readers, search and
// printing read them as the page's text.
//
//   <attention-story views="pipeline,weights" lang="en">
//     <section data-state="ver=2&preset=painting">…</section>
//     <section data-state="ver=2&preset=fruit">…</section>
//   </attention-story>
//
// A lesson (docs/page.md, "Writing a lesson", gives its format) can give the states: inline, as
// <script type="application/json" data-lesson> inside the story, or as a file, lesson="x.json".
// Sections then name a step (data-step="3", 1-based); a story with no sections gets one per step,
// with the step's text. A lesson that is not valid is refused with a message that says where.
// The same script also runs the iframe form of a story (frameStories, below).
import { pick } from '../i18n';
import { validateLesson, type Lesson } from '../lesson/schema';
import { Reading } from './reading';
import './element';

/**
 * Below this width of the story itself the figure goes under the section being read instead of
 * beside the prose: beside it, the figure would get 1.2 / 2.2 of the width, and the pipeline (the
 * keys, their scores, weights and bars, and the output) needs about 520 px not to be cut.
 */
const SIDE_BY_SIDE = 980;
const PASSED = ['views', 'controls', 'theme', 'lang', 'height'] as const;

const STYLE = `
:host { display: block; }
.story { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.2fr); column-gap: 24px; }
.story > slot { display: block; grid-column: 1; }
.figure { grid-column: 2; grid-row: 1 / span 2; align-self: start; position: sticky; top: 12px; }
.problems { color: #b00020; font: 14px/1.4 system-ui, sans-serif; }
.problems:empty { display: none; }
:host([data-narrow]) .story { display: block; }
:host([data-narrow]) .figure { position: static; margin: 12px 0; }
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
  private readonly figureBox = document.createElement('div');
  private readonly reading = new Reading(
    () => this.sections(),
    (s) => this.show(s),
    (s) => (this.narrow && s.slot !== 'read' ? this.figureBox.offsetHeight : 0),
  );
  /** The story's own width decides (a blog's column, not the screen): see SIDE_BY_SIDE. */
  private readonly sized = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.measure()) : null;

  private get narrow(): boolean {
    return this.hasAttribute('data-narrow');
  }

  private measure(): void {
    const narrow = this.clientWidth < SIDE_BY_SIDE;
    if (narrow === this.narrow) return;
    this.toggleAttribute('data-narrow', narrow);
    this.place();
  }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    if (sheet) root.adoptedStyleSheets = [sheet];
    this.readSlot.name = 'read'; // the sections read so far, when the figure sits between them
    const figure = this.figureBox;
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
  }

  connectedCallback(): void {
    if (!this.style.display) this.style.display = 'block';
    // The story keeps the section being read in place itself when the figure moves (place()).
    this.style.overflowAnchor = 'none';
    for (const name of PASSED) this.pass(name);
    this.measure();
    this.sized?.observe(this);
    void this.start();
  }

  disconnectedCallback(): void {
    this.reading.stop();
    this.sized?.disconnect();
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
    this.reading.start();
  }

  private sections(): HTMLElement[] {
    return Array.from(this.children).filter((c): c is HTMLElement => c instanceof HTMLElement && c.tagName !== 'SCRIPT');
  }

  /** The lesson inline or from its file, or null; a broken one is said in the story, where it is. */
  private async readLesson(): Promise<Lesson | null> {
    const inline = this.querySelector(':scope > script[type="application/json"][data-lesson]');
    const file = this.getAttribute('lesson');
    if (!inline && !file) return null;
    let text: string;
    if (inline) text = inline.textContent ?? '';
    else {
      // A file that did not come is said as such, not as JSON it is not.
      const url = new URL(file!, document.baseURI);
      const response = await fetch(url).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
      if (response instanceof Error || !response.ok) {
        const why = response instanceof Error ? response.message : `HTTP ${response.status} ${response.statusText}`.trim();
        this.problems.textContent = `attention-story: the lesson ${file} could not be fetched (${why}).`;
        return null;
      }
      text = await response.text();
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      this.problems.textContent = `attention-story: the lesson ${file ?? '(inline)'} is not JSON: ${(e as Error).message}`;
      return null;
    }
    const r = validateLesson(data);
    if (r.ok) return this.checkSteps(r.lesson);
    this.problems.textContent =
      'attention-story: the lesson is not valid: ' + r.problems.map((p) => `${p.where} ${p.message}`).join('; ');
    return null;
  }

  /** Sections that name a step the lesson does not have are said, with their place, not skipped silently. */
  private checkSteps(lesson: Lesson): Lesson {
    const n = lesson.steps.length;
    const wrong = this.sections()
      .map((s, k) => [k + 1, s.dataset.step] as const)
      .filter(([, step]) => step !== undefined && !(/^[1-9][0-9]*$/.test(step) && Number(step) <= n));
    if (wrong.length)
      this.problems.textContent =
        `attention-story: the lesson has steps 1 to ${n}; ` +
        wrong.map(([k, step]) => `section ${k} names data-step="${step}"`).join(', ') +
        ', so it shows no figure.';
    return lesson;
  }

  /** One section per step of the lesson, with the step's text in the story's language. */
  private writeSections(lesson: Lesson): void {
    const lang = this.getAttribute('lang') ?? document.documentElement.lang;
    lesson.steps.forEach((step, k) => {
      const s = document.createElement('section');
      s.dataset.step = String(k + 1);
      const p = document.createElement('p');
      p.textContent = pick(step.text, lang);
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

  private show(section: HTMLElement): boolean {
    const state = this.stateOf(section);
    if (state === null) return false;
    for (const s of this.sections()) s.toggleAttribute('data-shown', s === section);
    if (this.figure.getAttribute('state') !== state) {
      this.figure.setAttribute('state', state);
      const heading = section.querySelector('h1, h2, h3, h4')?.textContent ?? '';
      this.live.textContent = heading;
    }
    this.place(section);
    return true;
  }

  /**
   * On a narrow screen the figure comes right after the section being read, and the page scrolls
   * by what that moved the section, so the text being read stays where it was.
   */
  private place(active = this.reading.current): void {
    const sections = this.sections();
    const at = active ? sections.indexOf(active) : -1;
    const before = active?.getBoundingClientRect().top;
    sections.forEach((s, k) => {
      if (this.narrow && k <= at) s.slot = 'read';
      else s.removeAttribute('slot');
    });
    const after = active?.getBoundingClientRect().top;
    if (before !== undefined && after !== undefined && Math.abs(after - before) > 0.5) scrollBy(0, after - before);
  }
}

if (!customElements.get('attention-story')) customElements.define('attention-story', AttentionStory);

/** The keys of a frame's link that are the host's choice, kept as the frame takes each state. */
const FRAME_KEYS = ['embed', 'views', 'controls', 'theme'];
const framed = new WeakSet<HTMLElement>();

/**
 * The iframe form of a story, for a page that embeds the playground as an iframe: an element
 * marked data-attention-story that holds sections (each with data-state) and one
 * iframe[data-attention-playground]. The frame's link takes the state of the section being read,
 * keeping its own embedding keys; the page's styles place the frame (position: sticky, say).
 */
function frameStories(): void {
  for (const host of Array.from(document.querySelectorAll<HTMLElement>('[data-attention-story]'))) {
    const frame = host.querySelector<HTMLIFrameElement>('iframe[data-attention-playground]');
    if (!frame || framed.has(host)) continue;
    framed.add(host);
    const [address, hash = ''] = frame.src.split('#');
    const own = new URLSearchParams(hash);
    const kept = new URLSearchParams();
    for (const k of FRAME_KEYS) if (own.has(k)) kept.set(k, own.get(k)!);
    const sections = () => Array.from(host.querySelectorAll<HTMLElement>('[data-state]'));
    new Reading(sections, (s) => {
      const src = `${address}#${s.dataset.state}&${kept.toString()}`;
      if (frame.src !== src) frame.src = src; // another hash: the frame reads it without reloading
      return true;
    }).start();
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', frameStories);
else frameStories();
