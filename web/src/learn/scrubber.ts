// The timeline's controls: a slider over the kept snapshots (at its right end it follows training
// live), the step it shows, and for each head the step its pattern formed, as a button that goes
// there. Replay runs the slider from the start to the end, unless the reader asked for less motion.
import { translator } from '../i18n';
import { h } from '../views/dom';
import type { Formed, Timeline } from './timeline';

/** Snapshots a second while replaying: a run's first 200 snapshots in about 13 s. */
const REPLAY_PER_SECOND = 15;

export class Scrubber {
  readonly el: HTMLElement;
  private readonly range: HTMLInputElement;
  private readonly at: HTMLElement;
  private readonly formedList: HTMLElement;
  private readonly replay: HTMLButtonElement;
  /** The step shown, or null to follow the latest. */
  private shown: number | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private formedShape = '';
  private now = 0;

  constructor(
    private readonly lang: string,
    private readonly timeline: Timeline,
    /** The snapshot to show, or null for the model as it is now. */
    private readonly show: (index: number | null) => void,
  ) {
    this.range = h('input', {
      attrs: { type: 'range', min: '0', max: '0', step: '1', value: '0', 'data-learn-timeline': '' },
    });
    this.range.addEventListener('input', () => {
      this.stopReplay();
      this.go(Number(this.range.value));
    });
    this.at = h('span', { class: 'learn-at', attrs: { 'data-learn-at': '', 'aria-hidden': 'true' } });
    this.replay = h('button', {
      class: 'btn',
      text: translator(lang)('learn.replay'),
      attrs: { type: 'button', 'data-learn-replay': '' },
    });
    this.replay.addEventListener('click', () => this.startReplay());
    this.formedList = h('ul', { class: 'learn-formed', attrs: { 'data-learn-formed': '' } });
    this.el = h(
      'div',
      { class: 'learn-timeline' },
      h('label', { class: 'learn-field learn-scrub' }, h('span', { text: translator(lang)('learn.timeline') }), this.range),
      this.at,
      this.replay,
      h('p', { class: 'learn-note', text: translator(lang)('learn.timelineNote') }),
      this.formedList,
    );
  }

  /** The step of the snapshot shown, or null when following training. */
  get step(): number | null {
    return this.shown;
  }

  /** Back to following training (a new model, or a head broken on the model as it is now). */
  follow(): void {
    this.stopReplay();
    this.shown = null;
    this.redraw();
  }

  dispose(): void {
    this.stopReplay();
  }

  /** After new snapshots: the slider's range, its place, and the formed heads; `now` is the model's step. */
  redraw(now = this.now): void {
    this.now = now;
    const list = this.timeline.snapshots;
    const last = list.length - 1;
    const index = this.shown === null ? last : this.timeline.nearest(this.shown);
    this.range.max = String(Math.max(last, 0));
    this.range.value = String(Math.max(index, 0));
    this.range.disabled = last < 1;
    this.replay.disabled = last < 1;
    const steps = this.shown === null ? now : (list[index]?.steps ?? 0);
    const text = translator(this.lang)(this.shown === null ? 'learn.timelineLive' : 'learn.timelineAt', { n: steps });
    this.range.setAttribute('aria-valuetext', text);
    this.at.textContent = text;
    this.at.dataset.step = String(steps);
    this.drawFormed(this.timeline.formed);
  }

  private go(index: number): void {
    const list = this.timeline.snapshots;
    this.shown = index >= list.length - 1 ? null : list[index].steps;
    this.show(this.shown === null ? null : index);
    this.redraw();
  }

  private drawFormed(formed: readonly Formed[]): void {
    const shape = formed.map((f) => `${f.layer}.${f.head}.${f.steps}`).join(' ');
    if (shape === this.formedShape) return;
    this.formedShape = shape;
    this.formedList.replaceChildren(
      ...formed.map((f) => {
        const b = h('button', {
          class: 'btn-link',
          text: translator(this.lang)('learn.formedSee'),
          attrs: { type: 'button', 'data-formed-step': String(f.steps) },
        });
        b.addEventListener('click', () => {
          this.stopReplay();
          this.go(this.timeline.nearest(f.steps));
        });
        const text = translator(this.lang)('learn.formed', { layer: f.layer + 1, head: f.head + 1, step: f.steps });
        return h('li', {}, text + ' ', b);
      }),
    );
  }

  private startReplay(): void {
    this.stopReplay();
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (reduced) return this.go(0);
    let index = 0;
    this.go(index);
    this.timer = setInterval(() => {
      index += 1;
      if (index >= this.timeline.snapshots.length - 1) this.stopReplay();
      this.go(Math.min(index, this.timeline.snapshots.length - 1));
    }, 1000 / REPLAY_PER_SECOND);
  }

  private stopReplay(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
