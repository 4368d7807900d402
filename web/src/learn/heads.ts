// Every layer's and head's attention on the probe sequence: one small heatmap per head (the
// trainer's weights, row i reading positions 0 … i), captioned with its score for the task's
// pattern. The cells are recoloured in place at each update.
import { h, ns, SVG } from '../views/dom';
import { weightColor } from '../views/color';
import type { HeadWeights } from './protocol';
import { formatNumber } from './format';

const CELL = 10;

interface Map {
  figure: HTMLElement;
  caption: HTMLElement;
  svg: Element;
  cells: Element[];
}

export class HeadMaps {
  readonly el = h('div', { class: 'learn-heads', attrs: { 'data-learn-heads': '' } });
  private maps: Map[] = [];
  private shape = '';

  constructor(private readonly label: (layer: number, head: number, score: string) => string) {}

  /** No heads (a new model that has not come, or could not be made). */
  clear(): void {
    this.maps = [];
    this.shape = '';
    this.el.replaceChildren();
  }

  draw(weights: readonly HeadWeights[], scores: readonly number[][], tokens: readonly string[], lang: string): void {
    const shape = weights.map((w) => `${w.layer}.${w.head}.${w.n}`).join(' ');
    if (shape !== this.shape) this.build(weights, tokens);
    this.shape = shape;
    weights.forEach((w, k) => {
      const map = this.maps[k];
      for (let i = 0; i < w.n; i++) {
        for (let j = 0; j <= i; j++) map.cells[i * w.n + j].setAttribute('fill', weightColor(w.data[i * w.n + j]).background);
      }
      const score = scores[w.layer]?.[w.head];
      const text = this.label(w.layer + 1, w.head + 1, score === undefined ? '—' : formatNumber(score, 2, lang));
      map.caption.textContent = text;
      map.svg.setAttribute('aria-label', text);
      map.figure.dataset.score = score === undefined ? '' : String(score);
    });
  }

  /** One figure per head, its cells in rows (masked ones, above the diagonal, stay blank). */
  private build(weights: readonly HeadWeights[], tokens: readonly string[]): void {
    this.maps = weights.map((w) => {
      const cells: Element[] = [];
      const svg = ns(SVG, 'svg', {
        class: 'learn-map',
        viewBox: `0 0 ${w.n * CELL} ${w.n * CELL}`,
        role: 'img',
      });
      for (let i = 0; i < w.n; i++) {
        for (let j = 0; j < w.n; j++) {
          const cell = ns(SVG, 'rect', {
            x: String(j * CELL),
            y: String(i * CELL),
            width: String(CELL),
            height: String(CELL),
            class: j > i ? 'learn-masked' : 'learn-cell',
          });
          cells.push(cell);
          svg.append(cell);
        }
      }
      const caption = h('figcaption');
      const figure = h(
        'figure',
        { class: 'learn-head', attrs: { 'data-layer': String(w.layer), 'data-head': String(w.head) } },
        svg,
        h('p', { class: 'learn-tokens', text: tokens.join(' '), attrs: { 'aria-hidden': 'true' } }),
        caption,
      );
      return { figure, caption, svg, cells };
    });
    this.el.replaceChildren(...this.maps.map((m) => m.figure));
  }
}
