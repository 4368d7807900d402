// The lesson player: one step at a time above the figure, its text, its question, back and next,
// a dot per step, and a way out to explore (and back). Each step opens its own state in the
// playground; a question hides the numbers it asks about until the reader has answered, and the
// answer is the engine's, read from the model of that state, never written in the lesson.
import { h, clear } from '../views/dom';
import { num, pick, translator } from '../i18n';
import type { Figure } from '../model/compute';
import { NUMBER_STEPS, type Lesson, type LessonStepData, type Prediction } from './schema';
import { cellAnswer, numberAnswer, summary, tokenAnswer, type Answer } from './answers';
import { place, keepInView } from './placement';

// Where the page shows explanations as a sheet (views/popover.ts): narrow or touch screens.
const SHEET = matchMedia('(max-width: 900px), (pointer: coarse)');

export interface LessonHost {
  lang(): string;
  /** Opens a state (a link's text) in the playground, with its animation at `play` (1-based) or closed. */
  show(state: string, play: number | null): void;
  /** The numbers the playground shows now. */
  model(): Figure | null;
  root(): HTMLElement;
  /** The link's lesson keys: where the reader is, or null when they left. */
  place(step: number | null): void;
  /** Opens the Learn view (the lesson's next stop), or null where the page has none. */
  learn: (() => void) | null;
}

export interface Progress {
  step: number; // 0-based
  answers: Record<number, 'right' | 'wrong'>;
}

export class LessonPlayer {
  readonly el = h('section', { class: 'lesson card', attrs: { 'aria-labelledby': 'lesson-title', 'data-lesson': '' } });
  private k = 0;
  private exploring = false;
  private given: number | null = null; // this visit's answer: a key's index or the number typed
  private told = ''; // what the link that opened this step changed, until the next step
  private readonly life = new AbortController(); // the document's listener, until the player is replaced

  constructor(
    private readonly lesson: Lesson,
    private readonly host: LessonHost,
    private readonly progress: Progress,
    private readonly save: (p: Progress) => void,
  ) {
    document.addEventListener('keydown', (e) => this.key(e), { signal: this.life.signal });
  }

  /** Another lesson (or the same one again) takes its place: its keys stop reaching this one. */
  dispose(): void {
    this.life.abort();
    this.el.remove();
  }

  get step(): number {
    return this.k;
  }

  /** Says, in the step, what became of the link that opened it (a step it does not have). */
  tell(text: string): void {
    this.told = text;
    this.render();
  }

  /** Opens step `k` (0-based) with its state. */
  go(k: number): void {
    this.told = '';
    this.k = Math.max(0, Math.min(this.lesson.steps.length - 1, k));
    this.exploring = false;
    this.given = null;
    this.progress.step = this.k;
    this.save(this.progress);
    this.host.show(withFocus(this.current), this.current.play ? (this.current.play.frame ?? 1) : null);
    this.host.place(this.k + 1);
    this.render();
    keepInView(this.el);
  }

  /** After the playground was drawn again (a new state, a language): the player back in its place. */
  attach(): void {
    const root = this.host.root();
    this.render(); // first: it says which parts of the page the step shows
    place(this.el, root, this.exploring ? undefined : this.current.focus?.step);
  }

  private get current(): LessonStepData {
    return this.lesson.steps[this.k];
  }

  private render(): void {
    this.stopCells();
    const lang = this.host.lang();
    const say = translator(lang);
    const root = this.host.root();
    const step = this.current;
    const n = this.lesson.steps.length;
    root.classList.toggle('in-lesson', !this.exploring);
    this.el.toggleAttribute('data-keep-clear', !this.exploring); // "Why this number?" opens clear of it
    root.dataset.lessonFocus = step.focus?.step ?? '';
    const asking = !this.exploring && step.predict && this.progress.answers[this.k] === undefined && this.given === null;
    if (asking) root.dataset.asking = hiddenBy(step.predict!).join(' ');
    else delete root.dataset.asking;
    clear(this.el);
    this.el.classList.toggle('exploring', this.exploring);
    if (this.exploring) {
      const back = h('button', {
        class: 'btn',
        text: say('lesson.resume', { k: this.k + 1 }),
        attrs: { type: 'button', 'data-lesson-resume': '' },
      });
      back.addEventListener('click', () => this.go(this.k));
      this.el.append(back);
      return;
    }
    const title = h('h2', { text: pick(this.lesson.title, lang), attrs: { id: 'lesson-title' } });
    const count = h('p', { class: 'lesson-count', text: say('lesson.step', { k: this.k + 1, n }) });
    const leave = h('button', {
      class: 'btn ghost small',
      text: say('lesson.leave'),
      attrs: { type: 'button', 'data-lesson-leave': '' },
    });
    leave.addEventListener('click', () => this.explore());
    const text = h('p', { class: 'lesson-text', text: pick(step.text, lang), attrs: { 'data-lesson-text': '' } });
    this.el.append(h('div', { class: 'lesson-head' }, title, count, leave), text);
    if (this.told)
      this.el.prepend(h('p', { class: 'notice', text: this.told, attrs: { role: 'status', 'data-notice': 'link' } }));
    if (step.predict) this.el.append(this.question(step.predict, lang));
    const end = this.k === n - 1 ? summary(this.lesson, this.progress.answers, lang) : '';
    if (end) this.el.append(h('p', { class: 'lesson-summary', text: end, attrs: { 'data-lesson-summary': '' } }));
    this.el.append(this.nav(lang, n));
  }

  private question(p: Prediction, lang: string): HTMLElement {
    const say = translator(lang);
    const box = h('div', { class: 'lesson-predict', attrs: { 'data-predict': p.kind } });
    const status = h('p', { class: 'lesson-reply', attrs: { role: 'status', 'data-lesson-reply': '' } });
    box.append(h('p', { class: 'lesson-question', text: pick(p.question, lang) }));
    const model = this.host.model();
    const answered = this.progress.answers[this.k];
    if (!model) {
      status.textContent = say('lesson.cannot');
      box.append(status);
      return box;
    }
    if (p.kind === 'token') {
      const group = h('div', { class: 'lesson-choices', attrs: { role: 'group', 'aria-label': say('lesson.yourAnswer') } });
      // One chip a word: "the" three times in a sentence is one answer, not three.
      model.keyLabels.forEach((label, j) => {
        if (model.keyLabels.indexOf(label) !== j) return;
        const b = h('button', { class: 'chip', text: label, attrs: { type: 'button', 'data-choice': String(j) } });
        b.addEventListener('click', () => this.answer(tokenAnswer(p, model, j, lang), j));
        group.append(b);
      });
      box.append(group);
    } else if (p.kind === 'cell') {
      box.append(h('p', { class: 'hint', text: say('lesson.pickCell') }));
      this.listenForCell(p, model, lang);
    } else {
      const id = 'lesson-number';
      const slider = p.kind === 'slider';
      const input = h('input', {
        attrs: slider
          ? {
              id,
              type: 'range',
              min: String(p.min),
              max: String(p.max),
              step: String((p.max - p.min) / 100),
              'data-lesson-number': '',
            }
          : { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', 'data-lesson-number': '' },
      });
      if (!slider && this.given !== null) input.value = num(this.given);
      const shown = h('output', { attrs: { for: id } });
      if (slider) {
        // The reader's answer stays where they put it once checked; before, the middle.
        input.value = String(this.given ?? (p.min + p.max) / 2);
        const show = () => (shown.textContent = num(Number(input.value)));
        input.addEventListener('input', show);
        show();
      }
      const check = h('button', {
        class: 'btn small',
        text: say('lesson.check'),
        attrs: { type: 'button', 'data-lesson-check': '' },
      });
      const submit = () => {
        const given = Number(input.value.trim().replace('−', '-'));
        if (!input.value.trim() || !Number.isFinite(given)) {
          status.textContent = say('lesson.notNumber');
          return;
        }
        this.answer(numberAnswer(p, model, given, lang), given);
      };
      check.addEventListener('click', submit);
      input.addEventListener('keydown', (e) => e.key === 'Enter' && submit());
      const label = h('label', { text: say('lesson.yourAnswer'), attrs: { for: id } });
      box.append(h('div', { class: 'lesson-number' }, label, input, slider ? shown : null, check));
    }
    // The reply in the language shown now (a switch redraws it), from the engine's numbers.
    const given = this.given ?? NaN;
    const a =
      p.kind === 'token'
        ? tokenAnswer(p, model, given, lang)
        : p.kind === 'cell'
          ? cellAnswer(p, model, given, lang)
          : numberAnswer(p, model, given, lang);
    if (this.given !== null) {
      status.textContent = a.text + ' ' + say(SHEET.matches ? 'lesson.tapFor' : 'lesson.reveal');
      status.dataset.right = String(a.right);
    } else if (answered) {
      status.textContent = say('lesson.answer', { answer: a.focusText }); // answered on an earlier visit
    }
    box.append(status);
    return box;
  }

  /**
   * A "cell" question is answered in the figure: a click on a cell of the step's heatmap, or
   * Enter or Space on it. The listener goes with the next render of the player.
   */
  private listenForCell(p: Extract<Prediction, { kind: 'cell' }>, model: Figure, lang: string): void {
    const root = this.host.root();
    const selector = `.heatmap[data-view="${p.step}"][data-side="${p.side ?? 'a'}"] td[data-i][data-j]`;
    const cols = p.step === 'output' ? model.a.steps.dV : model.a.steps.m;
    const take = (e: Event) => {
      if (e instanceof KeyboardEvent && e.key !== 'Enter' && e.key !== ' ') return;
      const td = (e.target as Element | null)?.closest?.(selector) as HTMLElement | null;
      if (!td || (p.row !== undefined && Number(td.dataset.i) !== p.row)) return;
      const given = Number(td.dataset.i) * cols + Number(td.dataset.j);
      this.stopCells();
      this.answer(cellAnswer(p, model, given, lang), given);
    };
    const signal = this.life.signal;
    root.addEventListener('click', take, { signal });
    root.addEventListener('keydown', take, { signal });
    this.stopCells = () => {
      root.removeEventListener('click', take);
      root.removeEventListener('keydown', take);
      this.stopCells = () => undefined;
    };
  }

  private stopCells: () => void = () => undefined;

  private answer(a: Answer, given: number): void {
    this.given = given;
    this.progress.answers[this.k] = a.right ? 'right' : 'wrong';
    this.save(this.progress);
    this.render();
    // On a phone the explanation is a sheet over the foot of the screen, and opening it would
    // scroll the reply away: the reply stays in view and says where to tap.
    const reply = this.el.querySelector('[data-lesson-reply]');
    if (SHEET.matches) return reply?.scrollIntoView({ block: 'nearest' });
    // The engine's own explanation of the answer, opened beside its cell, after the click that
    // answered has finished (the page closes the explanation on a click elsewhere). The reply and
    // Next go to the top of the screen first, so the explanation has room below the figure's row
    // and opens clear of them (the page keeps it off the lesson, marked data-keep-clear).
    reply?.scrollIntoView({ block: 'start' });
    const f = a.focus;
    const inMap = this.current.predict?.kind === 'cell' || (this.current.focus?.step ?? 'pipeline') !== 'pipeline';
    const selector = // the cell in the figure right below the step
      inMap
        ? `.heatmap[data-view="${f.view}"][data-side="${f.side}"] td[data-i="${f.row}"][data-j="${f.col}"]`
        : `.pipeline td[data-view="${f.view}"][data-col="${f.col}"][data-side="${f.side}"]`;
    setTimeout(() => this.host.root().querySelector<HTMLElement>(selector)?.focus({ preventScroll: true }), 0);
  }

  private nav(lang: string, n: number): HTMLElement {
    const say = translator(lang);
    const back = h('button', { class: 'btn', text: say('lesson.back'), attrs: { type: 'button', 'data-lesson-back': '' } });
    back.disabled = this.k === 0;
    back.addEventListener('click', () => this.go(this.k - 1));
    const last = this.k === n - 1;
    const next = h('button', {
      class: 'btn primary',
      text: say(last ? 'lesson.done' : 'lesson.next'),
      attrs: { type: 'button', 'data-lesson-next': '' },
    });
    next.addEventListener('click', () => (last ? this.explore() : this.go(this.k + 1)));
    // After the last step: the weights were made up so far; the Learn view shows them learned.
    const learn = this.host.learn;
    const toLearn =
      last && learn
        ? h('button', { class: 'btn', text: say('lesson.learn'), attrs: { type: 'button', 'data-lesson-learn': '' } })
        : null;
    toLearn?.addEventListener('click', () => {
      this.explore();
      learn?.();
    });
    const dots = h('div', { class: 'lesson-dots', attrs: { role: 'group', 'aria-label': say('lesson.progress') } });
    for (let j = 0; j < n; j++) {
      const d = h('button', {
        class: 'lesson-dot',
        attrs: { type: 'button', 'aria-label': say('lesson.dot', { k: j + 1 }), 'data-dot': String(j) },
      });
      if (j === this.k) d.setAttribute('aria-current', 'step');
      const a = this.progress.answers[j];
      if (a) d.dataset.answered = a;
      d.addEventListener('click', () => this.go(j));
      dots.append(d);
    }
    this.draggable(dots);
    const explore = h('button', {
      class: 'btn ghost',
      text: say('lesson.explore'),
      attrs: { type: 'button', 'data-lesson-explore': '' },
    });
    explore.addEventListener('click', () => this.explore());
    return h('div', { class: 'lesson-nav', attrs: { title: say('lesson.keys') } }, back, dots, next, toLearn, explore);
  }

  /**
   * The dots as a progress bar: press and drag along them, and the step under the pointer is
   * marked until the pointer lets go there. (A click is a drag of no length; keys still click.)
   */
  private draggable(dots: HTMLElement): void {
    let dragging = false;
    const under = (e: PointerEvent): HTMLElement | null => {
      let best: HTMLElement | null = null,
        far = Infinity;
      for (const d of Array.from(dots.children) as HTMLElement[]) {
        const r = d.getBoundingClientRect();
        const dx = e.clientX - (r.left + r.width / 2),
          dy = e.clientY - (r.top + r.height / 2);
        if (dx * dx + dy * dy < far) [best, far] = [d, dx * dx + dy * dy];
      }
      return best;
    };
    const mark = (e: PointerEvent) => {
      const d = under(e);
      for (const c of Array.from(dots.children)) c.toggleAttribute('data-preview', c === d);
    };
    dots.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      dragging = true;
      dots.setPointerCapture(e.pointerId);
      mark(e);
    });
    dots.addEventListener('pointermove', (e) => dragging && mark(e));
    dots.addEventListener('pointerup', (e) => {
      if (!dragging) return;
      dragging = false;
      const j = Number(under(e)?.dataset.dot ?? -1);
      for (const c of Array.from(dots.children)) c.removeAttribute('data-preview');
      if (j >= 0) this.go(j);
    });
    dots.addEventListener('pointercancel', () => {
      dragging = false;
      for (const c of Array.from(dots.children)) c.removeAttribute('data-preview');
    });
  }

  /** Leaves the lesson with this step's state in the playground; a button comes back. */
  explore(): void {
    this.exploring = true;
    this.host.place(null);
    this.attach(); // back under the header, the figure unmarked
  }

  /** ← → move through the steps and Space goes on, except where those keys are a control's own. */
  private key(e: KeyboardEvent): void {
    if (this.exploring || !this.el.isConnected || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target instanceof Element ? e.target : null;
    if (target?.closest('input, select, textarea, td, [role="group"], [role="grid"], dialog, a, summary, .pipeline-queries'))
      return;
    if (target?.closest('button') && e.key === ' ') return; // Space presses the button it is on
    const by = e.key === 'ArrowRight' || e.key === ' ' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!by) return;
    e.preventDefault();
    this.go(this.k + by);
  }
}

/** What a question hides until it is answered: the step it asks about and every one after it. */
function hiddenBy(p: Prediction): string[] {
  const from = p.kind === 'token' ? 'weights' : p.step;
  return NUMBER_STEPS.slice(NUMBER_STEPS.indexOf(from));
}

/** The step's state with its focus, so the pipeline opens on the row the step is about. */
function withFocus(step: LessonStepData): string {
  const f = step.focus;
  const row = step.predict?.row ?? f?.row;
  if (row === undefined) return step.state;
  const view = f && f.step !== 'pipeline' && f.step !== 'formula' && f.step !== 'plot' ? f.step : 'weights';
  const focus = { view, row, col: f?.col ?? 0, side: step.predict?.side ?? f?.side ?? 'a' };
  return step.state + '&focus=' + encodeURIComponent(JSON.stringify(focus));
}
