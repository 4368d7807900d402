// The lesson player: one step at a time above the figure, its text, its question, back and next,
// a dot per step, and a way out to explore (and back). Each step opens its own state in the
// playground; a question hides the numbers it asks about until the reader has answered, and the
// answer is the engine's, read from the model of that state, never written in the lesson.
import { h, clear } from '../views/dom';
import { num } from '../i18n';
import type { Model } from '../model/compute';
import { NUMBER_STEPS, type Lesson, type LessonStepData, type Prediction } from './schema';
import { pick, say } from './words';

// Where the page shows explanations as a sheet (app/popover.ts): narrow or touch screens.
const SHEET = matchMedia('(max-width: 900px), (pointer: coarse)');

export interface LessonHost {
  lang(): string;
  /** Opens a state (a link's text) in the playground, with its animation at `play` (1-based) or closed. */
  show(state: string, play: number | null): void;
  /** The numbers the playground shows now. */
  model(): Model | null;
  root(): HTMLElement;
  /** The link's lesson keys: where the reader is, or null when they left. */
  place(step: number | null): void;
}

export interface Progress {
  step: number; // 0-based
  answers: Record<number, 'right' | 'wrong'>;
}

type Answer = { text: string; right: boolean; focus: { view: string; row: number; col: number; side: string } };

export class LessonPlayer {
  readonly el = h('section', { class: 'lesson card', attrs: { 'aria-labelledby': 'lesson-title', 'data-lesson': '' } });
  private k = 0;
  private exploring = false;
  private given: number | null = null; // this visit's answer: a key's index or the number typed

  constructor(
    private readonly lesson: Lesson,
    private readonly host: LessonHost,
    private readonly progress: Progress,
    private readonly save: (p: Progress) => void,
  ) {
    document.addEventListener('keydown', (e) => this.key(e));
  }

  get step(): number {
    return this.k;
  }

  /** Opens step `k` (0-based) with its state. */
  go(k: number): void {
    this.k = Math.max(0, Math.min(this.lesson.steps.length - 1, k));
    this.exploring = false;
    this.given = null;
    this.progress.step = this.k;
    this.save(this.progress);
    this.host.show(withFocus(this.current), this.current.play ? (this.current.play.frame ?? 1) : null);
    this.host.place(this.k + 1);
    this.render();
  }

  /** After the playground was drawn again (a new state, a language): the player back in its place. */
  attach(): void {
    const root = this.host.root();
    const header = root.querySelector('header.top');
    if (header) header.after(this.el);
    else root.prepend(this.el);
    this.render();
  }

  private get current(): LessonStepData {
    return this.lesson.steps[this.k];
  }

  private render(): void {
    const lang = this.host.lang();
    const root = this.host.root();
    const step = this.current;
    const n = this.lesson.steps.length;
    root.classList.toggle('in-lesson', !this.exploring);
    root.dataset.lessonFocus = step.focus?.step ?? '';
    const asking = !this.exploring && step.predict && this.progress.answers[this.k] === undefined && this.given === null;
    if (asking) root.dataset.asking = hiddenBy(step.predict!).join(' ');
    else delete root.dataset.asking;
    clear(this.el);
    this.el.classList.toggle('exploring', this.exploring);
    if (this.exploring) {
      const back = h('button', {
        class: 'btn',
        text: say(lang, 'resume', { k: this.k + 1 }),
        attrs: { type: 'button', 'data-lesson-resume': '' },
      });
      back.addEventListener('click', () => this.go(this.k));
      this.el.append(back);
      return;
    }
    const title = h('h2', { text: pick(this.lesson.title, lang), attrs: { id: 'lesson-title' } });
    const count = h('p', { class: 'lesson-count', text: say(lang, 'step', { k: this.k + 1, n }) });
    const leave = h('button', {
      class: 'btn ghost small',
      text: say(lang, 'leave'),
      attrs: { type: 'button', 'data-lesson-leave': '' },
    });
    leave.addEventListener('click', () => this.explore());
    const text = h('p', { class: 'lesson-text', text: pick(step.text, lang), attrs: { 'data-lesson-text': '' } });
    this.el.append(h('div', { class: 'lesson-head' }, title, count, leave), text);
    if (step.predict) this.el.append(this.question(step.predict, lang));
    this.el.append(this.nav(lang, n));
  }

  private question(p: Prediction, lang: string): HTMLElement {
    const box = h('div', { class: 'lesson-predict', attrs: { 'data-predict': p.kind } });
    const status = h('p', { class: 'lesson-reply', attrs: { role: 'status', 'data-lesson-reply': '' } });
    box.append(h('p', { class: 'lesson-question', text: pick(p.question, lang) }));
    const model = this.host.model();
    const answered = this.progress.answers[this.k];
    if (!model) {
      status.textContent = say(lang, 'cannot');
      box.append(status);
      return box;
    }
    if (p.kind === 'token') {
      const group = h('div', { class: 'lesson-choices', attrs: { role: 'group', 'aria-label': say(lang, 'yourAnswer') } });
      model.keyLabels.forEach((label, j) => {
        const b = h('button', { class: 'chip', text: label, attrs: { type: 'button', 'data-choice': String(j) } });
        b.addEventListener('click', () => this.answer(tokenAnswer(p, model, j, lang), j));
        group.append(b);
      });
      box.append(group);
    } else {
      const id = 'lesson-number';
      const input = h('input', {
        attrs: { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', 'data-lesson-number': '' },
      });
      const check = h('button', {
        class: 'btn small',
        text: say(lang, 'check'),
        attrs: { type: 'button', 'data-lesson-check': '' },
      });
      const submit = () => {
        const given = Number(input.value.trim().replace('−', '-'));
        if (!input.value.trim() || !Number.isFinite(given)) {
          status.textContent = say(lang, 'notNumber');
          return;
        }
        this.answer(numberAnswer(p, model, given, lang), given);
      };
      check.addEventListener('click', submit);
      input.addEventListener('keydown', (e) => e.key === 'Enter' && submit());
      box.append(
        h('div', { class: 'lesson-number' }, h('label', { text: say(lang, 'yourAnswer'), attrs: { for: id } }), input, check),
      );
    }
    // The reply in the language shown now (a switch redraws it), from the engine's numbers.
    const given = this.given ?? NaN;
    const a = p.kind === 'token' ? tokenAnswer(p, model, given, lang) : numberAnswer(p, model, given, lang);
    if (this.given !== null) {
      status.textContent = a.text + ' ' + say(lang, SHEET.matches ? 'tapFor' : 'reveal');
      status.dataset.right = String(a.right);
    } else if (answered) {
      status.textContent = say(lang, 'answer', { answer: a.focusText }); // answered on an earlier visit
    }
    box.append(status);
    return box;
  }

  private answer(a: Answer & { focusText: string }, given: number): void {
    this.given = given;
    this.progress.answers[this.k] = a.right ? 'right' : 'wrong';
    this.save(this.progress);
    this.render();
    // On a phone the explanation is a sheet over the foot of the screen, and opening it would
    // scroll the reply away: the reply stays in view and says where to tap.
    if (SHEET.matches) return this.el.querySelector('[data-lesson-reply]')?.scrollIntoView({ block: 'nearest' });
    // The engine's own explanation of the answer, opened beside its cell in the pipeline, after
    // the click that answered has finished (the page closes the explanation on a click elsewhere).
    const selector = `.pipeline td[data-view="${a.focus.view}"][data-col="${a.focus.col}"][data-side="${a.focus.side}"]`;
    setTimeout(() => this.host.root().querySelector<HTMLElement>(selector)?.focus(), 0);
  }

  private nav(lang: string, n: number): HTMLElement {
    const back = h('button', { class: 'btn', text: say(lang, 'back'), attrs: { type: 'button', 'data-lesson-back': '' } });
    back.disabled = this.k === 0;
    back.addEventListener('click', () => this.go(this.k - 1));
    const last = this.k === n - 1;
    const next = h('button', {
      class: 'btn primary',
      text: say(lang, last ? 'done' : 'next'),
      attrs: { type: 'button', 'data-lesson-next': '' },
    });
    next.addEventListener('click', () => (last ? this.explore() : this.go(this.k + 1)));
    const dots = h('div', { class: 'lesson-dots', attrs: { role: 'group', 'aria-label': say(lang, 'progress') } });
    for (let j = 0; j < n; j++) {
      const d = h('button', {
        class: 'lesson-dot',
        attrs: { type: 'button', 'aria-label': say(lang, 'dot', { k: j + 1 }), 'data-dot': String(j) },
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
      text: say(lang, 'explore'),
      attrs: { type: 'button', 'data-lesson-explore': '' },
    });
    explore.addEventListener('click', () => this.explore());
    return h('div', { class: 'lesson-nav', attrs: { title: say(lang, 'keys') } }, back, dots, next, explore);
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
  private explore(): void {
    this.exploring = true;
    this.host.place(null);
    this.render();
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

function tokenAnswer(
  p: Extract<Prediction, { kind: 'token' }>,
  model: Model,
  given: number,
  lang: string,
): Answer & { focusText: string } {
  const run = p.side === 'b' && model.b ? model.b : model.a;
  const m = run.steps.m;
  const w = run.steps.weights.data;
  let best = 0;
  for (let j = 1; j < m; j++) if (w[p.row * m + j] > w[p.row * m + best]) best = j;
  const answer = `${model.keyLabels[best] ?? ''} (${num(w[p.row * m + best])})`;
  const right = given === best;
  const text = right ? say(lang, 'right', { answer }) : say(lang, 'wrong', { answer, given: model.keyLabels[given] ?? '' });
  return { text, right, focusText: answer, focus: { view: 'weights', row: p.row, col: best, side: p.side ?? 'a' } };
}

function numberAnswer(
  p: Extract<Prediction, { kind: 'number' }>,
  model: Model,
  given: number,
  lang: string,
): Answer & { focusText: string } {
  const run = p.side === 'b' && model.b ? model.b : model.a;
  const m = p.step === 'output' ? run.steps.dV : run.steps.m;
  const value = run.steps[p.step].data[p.row * m + p.col];
  const right = Math.abs(given - value) <= 0.01 + 0.01 * Math.abs(value);
  const answer = num(value);
  const text = right ? say(lang, 'right', { answer }) : say(lang, 'wrong', { answer, given: num(given) });
  return { text, right, focusText: answer, focus: { view: p.step, row: p.row, col: p.col, side: p.side ?? 'a' } };
}
