// Where each token moves: the value vectors (dots) and the outputs (rings) in the 2-D plane the
// engine chose (project2d), with an arrow from a token's value to its output.
import { h, ns, SVG, clear, uid } from './dom';
import { t, int } from '../i18n';
import type { Plane } from '../engine/types';
import { textWidth } from './svg-format';

// The plane in the card's own pixels, so labels stay 11 px: wide on a wide screen, where the points
// then have room to spread, and the narrow size a phone shows at about its natural size.
const WIDE = typeof matchMedia === 'function' && matchMedia('(min-width: 700px)').matches;
const W = WIDE ? 560 : 360,
  H = WIDE ? 340 : 260,
  PAD = 28;

export class Plot {
  readonly el: HTMLElement;
  private svg: SVGSVGElement;
  private caption: HTMLElement;
  private marker = uid('arrow');
  private points: Array<{ kind: 'v' | 'o'; i: number; el: Element }> = [];
  // The drawn elements, kept while the tokens, their labels and the arrow setting stay the same:
  // an edit then only moves them (rebuilding the SVG was a third of an update at 16 tokens).
  private shape = '';
  private moves: SVGLineElement[] = [];
  private dots: Array<{ dot: SVGCircleElement; label: Element | null; width: number }> = [];
  private rings: Array<{ dot: SVGCircleElement; label: Element | null; width: number }> = [];
  private pileLabels: SVGTextElement[] = [];

  // The plane's axes, through its origin: the mean of all the points (project2d centres them).
  private readonly axisX = ns(SVG, 'line', { x1: String(PAD / 2), x2: String(W - PAD / 2), class: 'axis' }) as SVGLineElement;
  private readonly axisY = ns(SVG, 'line', { y1: String(PAD / 2), y2: String(H - PAD / 2), class: 'axis' }) as SVGLineElement;

  constructor() {
    this.svg = ns(SVG, 'svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'plot-svg' }) as SVGSVGElement;
    this.caption = h('p', { class: 'hint' });
    this.el = h('div', { class: 'plot', attrs: { 'data-view': 'plot' } }, this.svg, this.caption);
  }

  update(plane: Plane, valueLabels: string[], outputLabels: string[], arrows: boolean): void {
    const v = plane.values2d,
      o = plane.outputs2d;
    const shape = [v.rows, o.rows, arrows, t('plot.values'), ...valueLabels, '', ...outputLabels].join('\u0000');
    if (shape !== this.shape) this.build(v.rows, o.rows, valueLabels, outputLabels, arrows, shape);
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity;
    for (const m of [v, o]) {
      for (let i = 0; i < m.rows; i++) {
        const x = m.data[2 * i],
          y = m.data[2 * i + 1];
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    }
    // One scale for both axes (the plane's distances are the point), as large as the box allows.
    const s = Math.min((W - 2 * PAD) / Math.max(x1 - x0, 1e-9), (H - 2 * PAD) / Math.max(y1 - y0, 1e-9));
    const cx = (x0 + x1) / 2,
      cy = (y0 + y1) / 2;
    const px = (x: number) => W / 2 + (x - cx) * s;
    const py = (y: number) => H / 2 - (y - cy) * s; // y up
    this.axisX.y1.baseVal.value = this.axisX.y2.baseVal.value = py(0);
    this.axisY.x1.baseVal.value = this.axisY.x2.baseVal.value = px(0);
    // Lines and circles take their coordinates as SVG lengths, with no number → text → length
    // round trip through attributes.
    this.moves.forEach((line, i) => {
      const ax = px(v.data[2 * i]),
        ay = py(v.data[2 * i + 1]);
      const bx = px(o.data[2 * i]),
        by = py(o.data[2 * i + 1]);
      line.x1.baseVal.value = ax;
      line.y1.baseVal.value = ay;
      line.x2.baseVal.value = bx;
      line.y2.baseVal.value = by;
      line.style.display = Math.hypot(bx - ax, by - ay) < 2 ? 'none' : ''; // a token that stays put
    });
    const at: Array<[number, number]> = [];
    const labelled: Array<{ label: Element; x: number; y: number; width: number }> = [];
    // A word that appears twice ("the … the") has one point: it gets one label, not two on top of each other.
    const seen = new Set<string>();
    const place = (p: { dot: SVGCircleElement; label: Element | null; width: number }, x: number, y: number) => {
      p.dot.cx.baseVal.value = x;
      p.dot.cy.baseVal.value = y;
      at.push([x, y]);
      if (!p.label) return;
      const key = `${p.label.textContent}@${Math.round(x)},${Math.round(y)}`;
      const twice = seen.has(key);
      seen.add(key);
      (p.label as SVGElement).style.display = twice ? 'none' : '';
      if (!twice) labelled.push({ label: p.label, x, y, width: p.width });
    };
    this.dots.forEach((p, i) => place(p, px(v.data[2 * i]), py(v.data[2 * i + 1])));
    const ringAt = this.rings.map((_, i): [number, number] => [px(o.data[2 * i]), py(o.data[2 * i + 1])]);
    // Outputs that land on one another (a causal row's averages, say) are one pile of rings: the
    // pile gets one label that names them all, instead of names stacked or none at all.
    const piles = pilesOf(ringAt);
    const inPile = new Set(piles.flat());
    this.rings.forEach((p, i) => place({ ...p, label: inPile.has(i) ? null : p.label }, ringAt[i][0], ringAt[i][1]));
    this.rings.forEach((p, i) => p.label && inPile.has(i) && ((p.label as SVGElement).style.display = 'none'));
    piles.forEach((pile, k) => {
      const label = this.pileLabel(k);
      const names = Array.from(new Set(pile.map((i) => outputLabels[i] ?? '')));
      const text =
        names.length > 3 ? t('plot.pileMore', { names: names.slice(0, 3).join(', '), n: names.length - 3 }) : names.join(', ');
      if (label.textContent !== text) label.textContent = text;
      label.style.display = '';
      const x = pile.reduce((a, i) => a + ringAt[i][0], 0) / pile.length,
        y = pile.reduce((a, i) => a + ringAt[i][1], 0) / pile.length;
      labelled.push({ label, x, y, width: textWidth(text, LABEL_PX) });
    });
    for (let k = piles.length; k < this.pileLabels.length; k++) this.pileLabels[k].style.display = 'none';
    placeLabels(labelled, at);
    // The share of the variance the plane shows, as the engine reported it.
    const caption = t('view.hint.plot') + ' ' + t('plot.caption', { share: int(Math.round(100 * plane.shown)) });
    if (this.caption.textContent !== caption) this.caption.textContent = caption;
  }

  /** The elements for these tokens, labels and arrow setting, at the origin until update() places them. */
  private build(
    values: number,
    outputs: number,
    valueLabels: string[],
    outputLabels: string[],
    arrows: boolean,
    shape: string,
  ): void {
    this.shape = '';
    clear(this.svg);
    this.points = [];
    this.moves = [];
    this.dots = [];
    this.rings = [];
    this.pileLabels = [];
    this.svg.append(
      ns(
        SVG,
        'defs',
        {},
        ns(
          SVG,
          'marker',
          {
            id: this.marker,
            viewBox: '0 0 10 10',
            refX: '9',
            refY: '5',
            markerWidth: '7',
            markerHeight: '7',
            orient: 'auto-start-reverse',
          },
          ns(SVG, 'path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }),
        ),
      ),
    );
    this.svg.append(this.axisX, this.axisY);
    if (arrows) {
      for (let i = 0; i < Math.min(values, outputs); i++) {
        const line = ns(SVG, 'line', { class: 'move', 'marker-end': `url(#${this.marker})` }) as SVGLineElement;
        this.svg.append(line);
        this.moves.push(line);
      }
    }
    const label = (text: string, cls: string) => ns(SVG, 'text', { class: cls }, text);
    for (let i = 0; i < values; i++) {
      const dot = ns(
        SVG,
        'circle',
        { r: '4.5', class: 'value-dot' },
        ns(SVG, 'title', {}, `${valueLabels[i] ?? ''} (${t('plot.values')})`),
      ) as SVGCircleElement;
      const text = label(valueLabels[i] ?? '', 'value-label');
      this.svg.append(dot, text);
      this.dots.push({ dot, label: text, width: textWidth(valueLabels[i] ?? '', LABEL_PX) });
      this.points.push({ kind: 'v', i, el: dot });
    }
    for (let i = 0; i < outputs; i++) {
      const ring = ns(
        SVG,
        'circle',
        { r: String(RING_R), class: 'output-dot' },
        ns(SVG, 'title', {}, `${outputLabels[i] ?? ''} (${t('plot.outputs')})`),
      ) as SVGCircleElement;
      const text = arrows ? null : label(outputLabels[i] ?? '', 'output-label');
      this.svg.append(ring);
      if (text) this.svg.append(text);
      this.rings.push({ dot: ring, label: text, width: text ? textWidth(outputLabels[i] ?? '', LABEL_PX) : 0 });
      this.points.push({ kind: 'o', i, el: ring });
    }
    this.svg.setAttribute('aria-label', t('view.plot'));
    this.shape = shape; // only once every element is made: a build that threw is tried again
  }

  /** The k-th pile's label, made when first needed (after the rings, so it is drawn over them). */
  private pileLabel(k: number): SVGTextElement {
    while (this.pileLabels.length <= k) {
      const text = ns(SVG, 'text', { class: 'output-label pile-label' }) as SVGTextElement;
      this.svg.append(text);
      this.pileLabels.push(text);
    }
    return this.pileLabels[k];
  }

  highlight(query: number | null, key: number | null): void {
    for (const p of this.points) {
      const on = (p.kind === 'o' && p.i === query) || (p.kind === 'v' && p.i === key);
      p.el.classList.toggle('hl', on);
    }
  }
}

// Labels are 11 or 13 px text (steps.css); their widths are estimated without a layout (the card may
// be off screen), as the figure export estimates its labels'.
const LABEL_PX = WIDE ? 13 : 11, // as steps.css sets them
  ASCENT = Math.round(LABEL_PX * 0.8),
  DESCENT = 3,
  DOT_R = 6;

type Box = [number, number, number, number]; // x0, y0, x1, y1

const RING_R = 5.5;

/** Groups of two or more rings that overlap, each pile the rings linked by overlapping pairs. */
export function pilesOf(at: Array<[number, number]>): number[][] {
  const parent = at.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (let i = 0; i < at.length; i++) {
    for (let j = i + 1; j < at.length; j++) {
      if (Math.hypot(at[i][0] - at[j][0], at[i][1] - at[j][1]) < 2 * RING_R) parent[root(i)] = root(j);
    }
  }
  const groups = new Map<number, number[]>();
  at.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), i]));
  return Array.from(groups.values()).filter((g) => g.length > 1);
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]),
    h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Puts each label next to its point where it covers the fewest labels already placed and other
 * points, and stays inside the plot: to the upper right if that is free, else below, to the left,
 * above or under it. Points that coincide otherwise print their names on top of each other.
 */
function placeLabels(
  labels: Array<{ label: Element; x: number; y: number; width: number }>,
  points: Array<[number, number]>,
): void {
  const placed: Box[] = [];
  const dots: Box[] = points.map(([x, y]) => [x - DOT_R, y - DOT_R, x + DOT_R, y + DOT_R]);
  const plot: Box = [0, 0, W, H];
  const box: Box = [0, 0, 0, 0];
  for (const { label, x, y, width: w } of labels) {
    // Text positions (left end, baseline), in order of preference.
    const spots: Array<[number, number]> = [
      [x + 6, y - 6],
      [x + 6, y + 14],
      [x - 6 - w, y - 6],
      [x - 6 - w, y + 14],
      [x - w / 2, y - 9],
      [x - w / 2, y + 17],
    ];
    let best = spots[0],
      bestCost = Infinity;
    for (const [lx, ly] of spots) {
      box[0] = lx;
      box[1] = ly - ASCENT;
      box[2] = lx + w;
      box[3] = ly + DESCENT;
      // Every term is ≥ 0, so a spot is dropped as soon as it costs as much as the best so far.
      let cost = 2 * (box[2] - box[0]) * (box[3] - box[1]) - 2 * overlap(box, plot); // outside the plot
      for (let k = 0; k < placed.length && cost < bestCost; k++) cost += 4 * overlap(box, placed[k]);
      for (let k = 0; k < dots.length && cost < bestCost; k++) cost += overlap(box, dots[k]);
      if (cost < bestCost - 1e-9) {
        best = [lx, ly];
        bestCost = cost;
      }
      if (cost === 0) break;
    }
    placed.push([best[0], best[1] - ASCENT, best[0] + w, best[1] + DESCENT]);
    // A label's x and y are lists of lengths; a tenth of a pixel is finer than the eye sees.
    const lx = best[0].toFixed(1),
      ly = best[1].toFixed(1);
    if (label.getAttribute('x') !== lx) label.setAttribute('x', lx);
    if (label.getAttribute('y') !== ly) label.setAttribute('y', ly);
  }
}
