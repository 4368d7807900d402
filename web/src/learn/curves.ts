// The loss and accuracy curves: small SVG line charts of the trainer's numbers, redrawn from the
// points so far, and the table of the same numbers for keyboard and screen-reader users.
import { translator, decimals, percent } from '../i18n';
import { h, ns, SVG } from '../views/dom';
import { MAX_ROWS } from './progress';

const W = 320;
const H = 120;
// Room for the axes' numbers: the values at the left, the steps below.
const LEFT = 34;
const RIGHT = 6;
const TOP = 6;
const BOTTOM = 18;

/**
 * A line chart of (x, y) points, x (the step) from 0 to the last, y from 0 to `top` (the largest
 * if null), with its axes numbered: 0 and the top on the left, step 0 and the latest below. A
 * reference line (the loss of guessing) can be drawn across, with its name.
 */
export class Curve {
  readonly el: Element;
  private readonly line: Element;
  private readonly label: Element;
  private readonly marks: Element;
  private readonly ticks: Element;
  private readonly reference = ns(SVG, 'g', { class: 'learn-reference' });
  private last = 1;
  private scaleTop = 1;
  private refValue: number | null = null;
  private refName = '';

  constructor(
    title: string,
    private readonly top: number | null,
    /** How the y axis writes a value (a loss, a percentage). */
    private readonly value: (y: number) => string,
  ) {
    this.line = ns(SVG, 'polyline', { class: 'learn-line', fill: 'none' });
    this.label = ns(SVG, 'title', {}, title);
    this.marks = ns(SVG, 'g', { class: 'learn-marks' });
    this.ticks = ns(SVG, 'g', { class: 'learn-ticks', 'aria-hidden': 'true' });
    this.el = ns(
      SVG,
      'svg',
      { class: 'learn-curve', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title },
      this.label,
      ns(SVG, 'line', {
        class: 'learn-axis',
        x1: String(LEFT),
        y1: String(H - BOTTOM),
        x2: String(W - RIGHT),
        y2: String(H - BOTTOM),
      }),
      ns(SVG, 'line', { class: 'learn-axis', x1: String(LEFT), y1: String(TOP), x2: String(LEFT), y2: String(H - BOTTOM) }),
      this.ticks,
      this.reference,
      this.marks,
      this.line,
    );
  }

  private x(step: number): number {
    return LEFT + ((W - LEFT - RIGHT) * step) / this.last;
  }

  private y(value: number): number {
    return H - BOTTOM - ((H - TOP - BOTTOM) * Math.min(value, this.scaleTop)) / this.scaleTop;
  }

  /** A line across at `value`, named `name` (the loss a model that guesses would have). */
  setReference(value: number | null, name: string): void {
    this.refValue = value !== null && Number.isFinite(value) ? value : null;
    this.refName = name;
  }

  /**
   * Upright lines at steps: `formed` dashed (a head's pattern formed there), `cursor` solid (the
   * step the timeline shows), on the scale of the last draw.
   */
  mark(formed: readonly number[], cursor: number | null): void {
    const line = (step: number, cls: string) =>
      ns(SVG, 'line', {
        class: cls,
        x1: this.x(step).toFixed(1),
        x2: this.x(step).toFixed(1),
        y1: String(TOP),
        y2: String(H - BOTTOM),
        'data-step': String(step),
      });
    this.marks.replaceChildren(
      ...formed.map((step) => line(step, 'learn-formed-mark')),
      ...(cursor === null ? [] : [line(cursor, 'learn-cursor')]),
    );
  }

  draw(xs: readonly number[], ys: readonly number[]): void {
    this.last = xs.length ? Math.max(xs[xs.length - 1], 1) : 1;
    let top = this.top ?? 0;
    if (this.top === null) for (const y of ys) if (Number.isFinite(y) && y > top) top = y;
    if (this.top === null && this.refValue !== null && this.refValue > top) top = this.refValue;
    this.scaleTop = top > 0 ? top : 1;
    // At most ~2 points per pixel: a long run is drawn from every k-th point.
    const every = Math.max(1, Math.ceil(xs.length / (2 * W)));
    const points: string[] = [];
    for (let i = 0; i < xs.length; i += every) {
      if (!Number.isFinite(ys[i])) continue;
      points.push(this.x(xs[i]).toFixed(1) + ',' + this.y(ys[i]).toFixed(1));
    }
    this.line.setAttribute('points', points.join(' '));
    this.drawTicks();
  }

  private drawTicks(): void {
    const text = (x: number, y: number, anchor: string, content: string, data: string) =>
      ns(SVG, 'text', { x: x.toFixed(1), y: y.toFixed(1), 'text-anchor': anchor, [`data-${data}`]: '' }, content);
    this.ticks.replaceChildren(
      text(LEFT - 4, this.y(this.scaleTop) + 8, 'end', this.value(this.scaleTop), 'top'),
      text(LEFT - 4, H - BOTTOM, 'end', this.value(0), 'zero'),
      text(LEFT, H - 4, 'start', '0', 'first'),
      text(W - RIGHT, H - 4, 'end', String(this.last), 'last'),
    );
    if (this.refValue === null) return this.reference.replaceChildren();
    const y = this.y(this.refValue).toFixed(1);
    this.reference.replaceChildren(
      ns(SVG, 'line', { x1: String(LEFT), x2: String(W - RIGHT), y1: y, y2: y }),
      ns(SVG, 'text', { x: String(W - RIGHT), y: (Number(y) - 3).toFixed(1), 'text-anchor': 'end' }, this.refName),
    );
  }
}

/** The table of the numbers behind the curves: one row per update (the first and the latest kept). */
export class CurveTable {
  readonly el: HTMLTableElement;
  private readonly body = h('tbody');

  constructor(caption: string, heads: string[]) {
    this.el = h(
      'table',
      { class: 'learn-table', attrs: { 'data-learn-table': '' } },
      h('caption', { text: caption }),
      h('thead', {}, h('tr', {}, ...heads.map((text) => h('th', { text, attrs: { scope: 'col' } })))),
      this.body,
    );
  }

  clear(): void {
    this.body.replaceChildren();
  }

  add(step: number, loss: number, accuracy: number, lang: string): void {
    const row = h(
      'tr',
      { attrs: { 'data-step': String(step) } },
      h('th', { text: String(step), attrs: { scope: 'row' } }),
      h('td', { text: decimals(loss, 4, lang), attrs: { 'data-loss': String(loss) } }),
      h('td', { text: percent(accuracy, 1, lang), attrs: { 'data-accuracy': String(accuracy) } }),
    );
    this.body.append(row);
    if (this.body.rows.length > MAX_ROWS) this.body.rows[1]?.remove();
  }
}

/** The loss of guessing evenly among the `n` tokens, ln n: drawn across the loss curve and said. */
export function explainMeasures(loss: Curve, meanings: HTMLElement, n: number, lang: string): void {
  const v = decimals(Math.log(n), 2, lang);
  loss.setReference(Math.log(n), translator(lang)('learn.chance', { n, v }));
  meanings.textContent = translator(lang)('learn.meanings', { n, v });
}
