// Where each token moves: the value vectors (dots) and the outputs (rings) in the 2-D plane the
// engine chose (project2d), with an arrow from a token's value to its output.
import { h, ns, SVG, clear, uid } from '../dom';
import { t, int } from '../i18n';
import type { Plane } from '../engine';

const W = 360, H = 260, PAD = 28;

export class Plot {
  readonly el: HTMLElement;
  private svg: SVGSVGElement;
  private caption: HTMLElement;
  private marker = uid('arrow');
  private points: Array<{ kind: 'v' | 'o'; i: number; el: Element }> = [];

  constructor() {
    this.svg = ns(SVG, 'svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'plot-svg' }) as SVGSVGElement;
    this.caption = h('p', { class: 'hint' });
    this.el = h('div', { class: 'plot', attrs: { 'data-view': 'plot' } }, this.svg, this.caption);
  }

  update(plane: Plane, valueLabels: string[], outputLabels: string[], arrows: boolean): void {
    clear(this.svg);
    this.points = [];
    const v = plane.values2d, o = plane.outputs2d;
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const m of [v, o]) {
      for (let i = 0; i < m.rows; i++) {
        const x = m.data[2 * i], y = m.data[2 * i + 1];
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
    }
    const span = Math.max(x1 - x0, y1 - y0, 1e-9);
    const sx = (W - 2 * PAD) / span, sy = (H - 2 * PAD) / span;
    const s = Math.min(sx, sy);
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const px = (x: number) => W / 2 + (x - cx) * s;
    const py = (y: number) => H / 2 - (y - cy) * s; // y up
    this.svg.append(ns(SVG, 'defs', {}, ns(SVG, 'marker', { id: this.marker, viewBox: '0 0 10 10',
      refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' },
    ns(SVG, 'path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }))));
    this.svg.append(ns(SVG, 'line', { x1: String(PAD / 2), y1: String(H / 2), x2: String(W - PAD / 2), y2: String(H / 2), class: 'axis' }));
    this.svg.append(ns(SVG, 'line', { x1: String(W / 2), y1: String(PAD / 2), x2: String(W / 2), y2: String(H - PAD / 2), class: 'axis' }));
    if (arrows) {
      for (let i = 0; i < Math.min(v.rows, o.rows); i++) {
        const ax = px(v.data[2 * i]), ay = py(v.data[2 * i + 1]);
        const bx = px(o.data[2 * i]), by = py(o.data[2 * i + 1]);
        if (Math.hypot(bx - ax, by - ay) < 2) continue;
        this.svg.append(ns(SVG, 'line', { x1: String(ax), y1: String(ay), x2: String(bx), y2: String(by),
          class: 'move', 'marker-end': `url(#${this.marker})` }));
      }
    }
    const label = (x: number, y: number, text: string, cls: string) =>
      ns(SVG, 'text', { x: String(x + 6), y: String(y - 6), class: cls }, text);
    for (let i = 0; i < v.rows; i++) {
      const x = px(v.data[2 * i]), y = py(v.data[2 * i + 1]);
      const dot = ns(SVG, 'circle', { cx: String(x), cy: String(y), r: '4.5', class: 'value-dot' },
        ns(SVG, 'title', {}, `${valueLabels[i] ?? ''} (${t('plot.values')})`));
      this.svg.append(dot, label(x, y, valueLabels[i] ?? '', 'value-label'));
      this.points.push({ kind: 'v', i, el: dot });
    }
    for (let i = 0; i < o.rows; i++) {
      const x = px(o.data[2 * i]), y = py(o.data[2 * i + 1]);
      const ring = ns(SVG, 'circle', { cx: String(x), cy: String(y), r: '5.5', class: 'output-dot' },
        ns(SVG, 'title', {}, `${outputLabels[i] ?? ''} (${t('plot.outputs')})`));
      this.svg.append(ring);
      if (!arrows) this.svg.append(label(x, y, outputLabels[i] ?? '', 'output-label'));
      this.points.push({ kind: 'o', i, el: ring });
    }
    this.svg.setAttribute('aria-label', t('view.plot'));
    // The share of the variance the plane shows, as the engine reported it.
    const shown = plane.totalVariance > 0 ? (plane.variance[0] + plane.variance[1]) / plane.totalVariance : 1;
    this.caption.textContent = t('view.hint.plot') + ' ' + t('plot.caption', { share: int(Math.round(100 * shown)) });
  }

  highlight(query: number | null, key: number | null): void {
    for (const p of this.points) {
      const on = (p.kind === 'o' && p.i === query) || (p.kind === 'v' && p.i === key);
      p.el.classList.toggle('hl', on);
    }
  }
}
