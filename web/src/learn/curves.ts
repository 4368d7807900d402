// The loss and accuracy curves: small SVG line charts of the trainer's numbers, redrawn from the
// points so far, and the table of the same numbers for keyboard and screen-reader users.
import { h, ns, SVG } from '../views/dom';
import { formatNumber, formatPercent } from './format';

const W = 320;
const H = 110;
const PAD = 4;

/** A line chart of (x, y) points, x from 0 to the last, y from 0 to `top` (the largest if null). */
export class Curve {
  readonly el: Element;
  private readonly line: Element;
  private readonly label: Element;
  private readonly marks: Element;
  private last = 1;

  constructor(
    title: string,
    private readonly top: number | null,
  ) {
    this.line = ns(SVG, 'polyline', { class: 'learn-line', fill: 'none' });
    this.label = ns(SVG, 'title', {}, title);
    this.marks = ns(SVG, 'g', { class: 'learn-marks' });
    this.el = ns(
      SVG,
      'svg',
      { class: 'learn-curve', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title },
      this.label,
      ns(SVG, 'line', { class: 'learn-axis', x1: String(PAD), y1: String(H - PAD), x2: String(W - PAD), y2: String(H - PAD) }),
      this.marks,
      this.line,
    );
  }

  /**
   * Upright lines at steps: `formed` dashed (a head's pattern formed there), `cursor` solid (the
   * step the timeline shows), on the scale of the last draw.
   */
  mark(formed: readonly number[], cursor: number | null): void {
    const at = (step: number) => (PAD + ((W - 2 * PAD) * step) / this.last).toFixed(1);
    const line = (step: number, cls: string) =>
      ns(SVG, 'line', {
        class: cls,
        x1: at(step),
        x2: at(step),
        y1: String(PAD),
        y2: String(H - PAD),
        'data-step': String(step),
      });
    this.marks.replaceChildren(
      ...formed.map((step) => line(step, 'learn-formed-mark')),
      ...(cursor === null ? [] : [line(cursor, 'learn-cursor')]),
    );
  }

  draw(xs: readonly number[], ys: readonly number[]): void {
    const last = xs.length ? Math.max(xs[xs.length - 1], 1) : 1;
    this.last = last;
    let top = this.top ?? 0;
    if (this.top === null) for (const y of ys) if (Number.isFinite(y) && y > top) top = y;
    if (!(top > 0)) top = 1;
    // At most ~2 points per pixel: a long run is drawn from every k-th point.
    const every = Math.max(1, Math.ceil(xs.length / (2 * W)));
    const points: string[] = [];
    for (let i = 0; i < xs.length; i += every) {
      if (!Number.isFinite(ys[i])) continue;
      const x = PAD + ((W - 2 * PAD) * xs[i]) / last;
      const y = H - PAD - ((H - 2 * PAD) * Math.min(ys[i], top)) / top;
      points.push(x.toFixed(1) + ',' + y.toFixed(1));
    }
    this.line.setAttribute('points', points.join(' '));
  }
}

/** The table of the numbers behind the curves: one row per update (the first and the latest kept). */
export class CurveTable {
  static readonly MAX_ROWS = 200;
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
      h('td', { text: formatNumber(loss, 4, lang), attrs: { 'data-loss': String(loss) } }),
      h('td', { text: formatPercent(accuracy, 1, lang), attrs: { 'data-accuracy': String(accuracy) } }),
    );
    this.body.append(row);
    if (this.body.rows.length > CurveTable.MAX_ROWS) this.body.rows[1]?.remove();
  }
}
