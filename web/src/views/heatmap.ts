// A heatmap of one step. Up to CANVAS_CELLS cells it is a real table: a caption, column headers
// (the keys or features), row headers (the queries), and one focusable cell per number, built
// when the shape or the labels change and otherwise updated in place (only the cells whose text
// or colour changed are touched). Above that it is drawn on a canvas inside an ARIA grid: one Tab
// stop, an active-cell cursor moved by the same keys, and one live grid cell that names the
// active cell, so a keyboard or screen-reader reader loses nothing. Arrow keys, Home and End
// (with Ctrl: the first and last row) move between cells in both.
import { h, clear } from './dom';
import { CANVAS_CELLS, swatches, scaleOf, type HeatmapData, type Pointer, type Form } from './heatmap-data';
import { weightColor, signedColor } from './color';
import { num } from '../i18n';
import { TableForm } from './heatmap-table';
import type { CanvasForm } from './heatmap-canvas';

export { CANVAS_CELLS, swatches, type HeatmapData, type Extra, type Pointer } from './heatmap-data';

type CanvasFormClass = typeof CanvasForm;

/**
 * The canvas form is for figures of more than CANVAS_CELLS cells, which most readers never make:
 * its code comes in a script of its own the first time one is drawn (main.ts says from where).
 * Until then the map is empty and busy; if the script cannot come, the map is a table after all.
 */
let loadCanvas: () => Promise<CanvasFormClass> = () => Promise.reject(new Error('no canvas form'));
let canvasForm: CanvasFormClass | 'table' | null = null;

export function provideCanvasForm(load: () => Promise<CanvasFormClass>): void {
  loadCanvas = load;
}

export class Heatmap {
  readonly el: HTMLElement;
  private form: Form | null = null;
  private kind: 'table' | 'canvas' | null = null;

  private readonly body = h('div', { class: 'heatmap-body' });
  private readonly legend = h('div', { class: 'legend', attrs: { 'aria-hidden': 'true' } });
  private legendKey = '';

  constructor(
    readonly view: string,
    readonly side: 'a' | 'b',
    private readonly point: Pointer,
  ) {
    this.el = h('div', { class: 'heatmap', attrs: { 'data-view': view, 'data-side': side } }, this.body, this.legend);
  }

  /** What the heatmap shows now (the engine's numbers and labels), for the exports. */
  data: HeatmapData | null = null;

  update(d: HeatmapData): void {
    this.data = d;
    const large = d.values.rows * d.values.cols > CANVAS_CELLS;
    if (large && canvasForm === null) return this.awaitCanvas();
    const kind = large && canvasForm !== 'table' ? 'canvas' : 'table';
    if (kind !== this.kind) {
      clear(this.body);
      this.body.removeAttribute('aria-busy');
      this.kind = kind;
      this.el.classList.toggle('canvas-mode', kind === 'canvas');
      const Canvas = canvasForm !== 'table' ? canvasForm : null;
      this.form = Canvas && kind === 'canvas' ? new Canvas(this.body, this.point) : new TableForm(this.body, this.point);
    }
    const on = scaleOf(d); // one pass over the values for the cells and the legend
    this.form!.update(d, swatches(d, on));
    this.drawLegend(on);
  }

  /** Empties the map until the canvas form's script is here, then draws what it was last given. */
  private awaitCanvas(): void {
    if (this.kind !== null) clear(this.body);
    this.kind = null;
    this.form = null;
    this.body.setAttribute('aria-busy', 'true');
    void loadCanvas()
      .then(
        (form) => (canvasForm = form),
        () => (canvasForm = 'table'),
      )
      // Each map in a task of its own: every large map of the figure waits on this one script,
      // and drawn in the same task they held the page for 150 ms (16 heads of 64 words).
      .then(() => new Promise((r) => setTimeout(r, 0)))
      .then(() => {
        if (this.data && this.kind === null) this.update(this.data);
      });
  }

  /**
   * The colour scale under the map, with its ends: weights light at 0 to dark at 1, signed
   * numbers blue through white to red at ± the largest |x| (the numbers are in the cells too).
   */
  private drawLegend({ scale, limit }: ReturnType<typeof scaleOf>): void {
    const key = scale === 'weights' ? 'w' : 's' + limit;
    if (key === this.legendKey) return;
    this.legendKey = key;
    const stops = Array.from({ length: 9 }, (_, k) => k / 8);
    const colours = stops.map((x) => (scale === 'weights' ? weightColor(x) : signedColor(2 * x - 1, 1)).background);
    const bar = h('span', { class: 'legend-bar' });
    bar.style.backgroundImage = `linear-gradient(to right, ${colours.join(', ')})`;
    const ends = scale === 'weights' ? ['0', '1'] : [num(-limit), num(limit)];
    clear(this.legend);
    this.legend.append(h('span', { text: ends[0] }), bar, h('span', { text: ends[1] }));
  }

  /** Lights up rows and columns (indices out of range are ignored); none to clear. */
  highlight(rows: number[], cols: number[], cell?: [number, number]): void {
    this.form?.highlight(rows, cols, cell);
  }
}
