// A heatmap drawn on a canvas inside an ARIA grid, for large figures: one Tab stop, an
// active-cell cursor moved by the same keys as the table, and one live grid cell that names the
// active cell, so a keyboard or screen-reader reader loses nothing.
import { h, uid } from './dom';
import { num } from '../i18n';
import type { Swatch } from './color';
import { move, type Form, type HeatmapData, type Pointer } from './heatmap-data';

const CANVAS_COLOURS = [
  '--muted',
  '--mask-a',
  '--mask-b',
  '--text',
  '--surface',
  '--warn',
  '--hl-soft',
  '--hl',
  '--accent',
] as const;
type CanvasColour = (typeof CANVAS_COLOURS)[number];
type CanvasStyle = Record<CanvasColour, string> & { font: string };
let canvasStyleNow: CanvasStyle | null = null;

/**
 * The theme's colours and font for drawing, read once per task and shared by every canvas:
 * reading computed style after the page changed forces a style recalculation, and with each
 * canvas reading its own between the other views' writes, 16 heads cost one per view.
 */
function canvasStyle(el: Element): CanvasStyle {
  if (!canvasStyleNow) {
    const css = getComputedStyle(el);
    const style = { font: css.fontFamily } as CanvasStyle;
    for (const name of CANVAS_COLOURS) style[name] = css.getPropertyValue(name).trim();
    canvasStyleNow = style;
    queueMicrotask(() => {
      canvasStyleNow = null;
    }); // a theme switch is seen by the next task
  }
  return canvasStyleNow;
}

const MAX_CANVAS_PX = 8192;
const ROTATED_MIN = 10; // a column at least this wide gets its label written upright
const ROW_LABEL_MIN = 12; // a row at least this tall gets its label // the backing store's longest side, whatever the pixel ratio

export class CanvasForm implements Form {
  private readonly grid: HTMLElement; // role=grid, the one Tab stop
  private readonly base: HTMLCanvasElement; // the cells, drawn when the numbers change
  private readonly overlay: HTMLCanvasElement; // the lit rows and columns and the cursor
  private readonly row: HTMLElement; // the one ARIA row, holding the active cell
  private readonly rowHeader: HTMLElement;
  private readonly cell: HTMLElement;
  private d: HeatmapData | null = null;
  private colours: Array<Swatch | null> = [];
  private rows = 0;
  private cols = 0;
  private cw = 0; // cell width and height in CSS pixels
  private ch = 0;
  private left = 0; // row-label gutter and column-label band
  private top = 0;
  private active: [number, number] = [0, 0];
  private hover = -1;
  private lit: { rows: number[]; cols: number[]; cell?: [number, number] } = { rows: [], cols: [] };
  private image: HTMLCanvasElement | null = null; // one pixel per cell

  constructor(
    el: HTMLElement,
    private readonly point: Pointer,
  ) {
    const id = uid('cell');
    this.base = h('canvas', { class: 'hm-base', attrs: { 'aria-hidden': 'true' } });
    this.overlay = h('canvas', { class: 'hm-overlay', attrs: { 'aria-hidden': 'true' } });
    this.rowHeader = h('div', { attrs: { role: 'rowheader' } });
    this.cell = h('div', { attrs: { role: 'gridcell', id } });
    this.row = h('div', { class: 'sr-only', attrs: { role: 'row' } }, this.rowHeader, this.cell);
    this.grid = h(
      'div',
      { class: 'canvas-grid', attrs: { role: 'grid', tabindex: '0', 'aria-activedescendant': id } },
      this.base,
      this.overlay,
      this.row,
    );
    el.append(this.grid);
    this.grid.addEventListener('keydown', (e) => this.key(e));
    this.grid.addEventListener('focus', () => {
      this.drawOverlay();
      this.point(this.active[0], this.active[1], 'focus');
    });
    this.grid.addEventListener('blur', () => this.drawOverlay());
    this.overlay.addEventListener('mousemove', (e) => {
      const at = this.at(e);
      if (!at) return;
      const k = at[0] * this.cols + at[1];
      if (k === this.hover) return;
      this.hover = k;
      this.point(at[0], at[1], 'hover');
    });
    this.overlay.addEventListener('mouseleave', () => {
      this.hover = -1;
    });
    this.overlay.addEventListener('click', (e) => {
      const at = this.at(e);
      if (!at) return;
      this.setActive(at);
      this.point(at[0], at[1], 'click');
    });
  }

  private at(e: MouseEvent): [number, number] | null {
    const r = this.overlay.getBoundingClientRect();
    const j = Math.floor((e.clientX - r.left - this.left) / this.cw);
    const i = Math.floor((e.clientY - r.top - this.top) / this.ch);
    return i >= 0 && i < this.rows && j >= 0 && j < this.cols ? [i, j] : null;
  }

  private key(e: KeyboardEvent): void {
    const [i, j] = this.active;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.point(i, j, 'click');
      return;
    }
    const to = move(e, i, j, this.rows, this.cols);
    if (!to) return;
    e.preventDefault();
    this.setActive(to);
    this.scrollTo(to);
    this.point(to[0], to[1], 'focus');
  }

  private setActive(at: [number, number]): void {
    this.active = at;
    this.describe();
    this.drawOverlay();
  }

  /** Keeps the cursor in view when the canvas is wider than its card. */
  private scrollTo([i, j]: [number, number]): void {
    const box = this.grid.parentElement;
    if (!box) return;
    const x = this.left + j * this.cw,
      y = this.top + i * this.ch;
    if (x < box.scrollLeft + this.left) box.scrollLeft = Math.max(0, x - this.left);
    else if (x + this.cw > box.scrollLeft + box.clientWidth) box.scrollLeft = x + this.cw - box.clientWidth;
    void y;
  }

  /** The active cell in words, for the ARIA grid: "query → key: value". */
  private describe(): void {
    const d = this.d;
    if (!d) return;
    const [i, j] = this.active;
    const k = i * this.cols + j;
    this.row.setAttribute('aria-rowindex', String(i + 2));
    this.cell.setAttribute('aria-colindex', String(j + 2));
    this.rowHeader.textContent = d.rowLabels[i] ?? '';
    const problem = d.rowProblems?.[i]?.text;
    this.cell.textContent = `${d.colLabels[j] ?? ''}: ${num(d.values.data[k])}${problem ? ' (' + problem + ')' : ''}`;
  }

  update(d: HeatmapData, colours: Array<Swatch | null>): void {
    const { rows, cols } = d.values;
    this.d = d;
    this.colours = colours;
    if (rows !== this.rows || cols !== this.cols) {
      this.rows = rows;
      this.cols = cols;
      this.active = [Math.min(this.active[0], rows - 1), Math.min(this.active[1], cols - 1)];
      this.cw = Math.max(4, Math.min(44, Math.floor(760 / cols)));
      this.ch = Math.max(4, Math.min(26, this.cw));
      // Labels keep their room at every size: written across when a column is wide enough,
      // upright when it is at least a letter wide, and otherwise shown for the pointed-at cell.
      this.left = 96;
      this.top = this.cw >= 28 ? 22 : this.cw >= ROTATED_MIN ? 64 : 18;
      const width = this.left + cols * this.cw,
        height = this.top + rows * this.ch;
      const ratio = Math.min(window.devicePixelRatio || 1, MAX_CANVAS_PX / width, MAX_CANVAS_PX / height);
      for (const c of [this.base, this.overlay]) {
        c.width = Math.max(1, Math.round(width * ratio));
        c.height = Math.max(1, Math.round(height * ratio));
        c.style.width = `${width}px`;
        c.style.height = `${height}px`;
      }
      this.grid.setAttribute('aria-rowcount', String(rows + 1));
      this.grid.setAttribute('aria-colcount', String(cols + 1));
    }
    this.grid.setAttribute('aria-label', d.caption);
    this.drawBase();
    this.describe();
    this.drawOverlay();
  }

  private context(c: HTMLCanvasElement): CanvasRenderingContext2D | null {
    const g = c.getContext('2d');
    if (!g) return null;
    g.setTransform(c.width / parseFloat(c.style.width), 0, 0, c.height / parseFloat(c.style.height), 0, 0);
    return g;
  }

  private drawBase(): void {
    const d = this.d,
      g = this.context(this.base);
    if (!d || !g) return;
    const css = canvasStyle(this.grid);
    const colour = (name: CanvasColour) => css[name];
    const { rows, cols, cw, ch, left, top } = this;
    g.clearRect(0, 0, left + cols * cw, top + rows * ch);
    const font = css.font;
    // Labels, where there is room for them.
    g.fillStyle = colour('--muted');
    g.textBaseline = 'middle';
    if (ch >= ROW_LABEL_MIN) {
      g.font = `600 ${Math.min(12, ch - 2)}px ${font}`;
      g.textAlign = 'right';
      for (let i = 0; i < rows; i++) g.fillText(d.rowLabels[i] ?? '', left - 6, top + i * ch + ch / 2, left - 10);
    }
    if (cw >= 28) {
      g.font = `600 11px ${font}`;
      g.textAlign = 'center';
      for (let j = 0; j < cols; j++) g.fillText(d.colLabels[j] ?? '', left + j * cw + cw / 2, top / 2, cw - 2);
    } else if (cw >= ROTATED_MIN) {
      g.font = `600 ${Math.min(11, cw)}px ${font}`;
      g.textAlign = 'left';
      for (let j = 0; j < cols; j++) {
        g.save();
        g.translate(left + j * cw + cw / 2, top - 4);
        g.rotate(-Math.PI / 2);
        g.fillText(d.colLabels[j] ?? '', 0, 0, top - 8);
        g.restore();
      }
    }
    const gap = cw >= 8 ? 1 : 0;
    const maskA = colour('--mask-a'),
      maskB = colour('--mask-b'),
      text = colour('--text');
    // One pixel per cell in a small image, scaled up without smoothing: one drawImage instead of
    // a fillRect per cell (73,000 of them at 128×128).
    const pixels = this.pixels(rows, cols, maskA);
    if (pixels) {
      g.imageSmoothingEnabled = false;
      g.drawImage(pixels, left, top, cols * cw, rows * ch);
    }
    if (gap) {
      // The gaps between cells, in the card's colour.
      g.fillStyle = colour('--surface');
      for (let j = 1; j <= cols; j++) g.fillRect(left + j * cw - gap, top, gap, rows * ch);
      for (let i = 1; i <= rows; i++) g.fillRect(left, top + i * ch - gap, cols * cw, gap);
    }
    // Masked cells: a stripe across the mask colour, so they look masked without their number.
    g.fillStyle = maskB;
    for (let k = 0; k < rows * cols; k++) {
      if (this.colours[k]) continue;
      const i = Math.floor(k / cols),
        j = k % cols;
      g.fillRect(left + j * cw, top + i * ch + (ch - gap) / 2 - Math.max(1, ch / 8), cw - gap, Math.max(1, ch / 4));
    }
    // Numbers, when the cells are big enough to read them.
    if (d.numbers !== false && cw >= 36 && ch >= 18) {
      g.font = `12px ${font}`;
      g.textAlign = 'center';
      for (let k = 0; k < rows * cols; k++) {
        const s = this.colours[k];
        const i = Math.floor(k / cols),
          j = k % cols;
        g.fillStyle = s ? (s.dark ? '#000' : '#fff') : text;
        g.fillText(num(d.values.data[k]), left + j * cw + (cw - gap) / 2, top + i * ch + (ch - gap) / 2, cw - 4);
      }
    }
    // Rows with a problem (a zero sum, negative weights): a warning bar in the gutter.
    if (d.rowProblems) {
      g.fillStyle = colour('--warn');
      d.rowProblems.forEach((p, i) => {
        if (p) g.fillRect(0, top + i * ch, 4, ch - gap);
      });
    }
  }

  /** The cells as an image of rows × cols pixels. */
  private pixels(rows: number, cols: number, masked: string): HTMLCanvasElement | null {
    if (!this.image) this.image = document.createElement('canvas');
    const c = this.image;
    if (c.width !== cols || c.height !== rows) {
      c.width = cols;
      c.height = rows;
    }
    // It reads a pixel back (the masked colour as the browser parsed it): a CPU-backed canvas,
    // which Chromium otherwise warns about in the console.
    const g = c.getContext('2d', { willReadFrequently: true });
    if (!g) return null;
    g.fillStyle = masked;
    g.fillRect(0, 0, 1, 1);
    const m = g.getImageData(0, 0, 1, 1).data;
    const maskRgb = (m[0] << 16) | (m[1] << 8) | m[2];
    const img = g.createImageData(cols, rows);
    const px = img.data;
    for (let k = 0; k < rows * cols; k++) {
      const rgb = this.colours[k]?.rgb ?? maskRgb;
      px[4 * k] = rgb >> 16;
      px[4 * k + 1] = (rgb >> 8) & 255;
      px[4 * k + 2] = rgb & 255;
      px[4 * k + 3] = 255;
    }
    g.putImageData(img, 0, 0);
    return c;
  }

  private drawOverlay(): void {
    const g = this.context(this.overlay);
    if (!g) return;
    const css = canvasStyle(this.grid);
    const { rows, cols, cw, ch, left, top } = this;
    g.clearRect(0, 0, left + cols * cw, top + rows * ch);
    g.fillStyle = css['--hl-soft'];
    for (const i of this.lit.rows) if (i >= 0 && i < rows) g.fillRect(0, top + i * ch, left + cols * cw, ch);
    for (const j of this.lit.cols) if (j >= 0 && j < cols) g.fillRect(left + j * cw, 0, cw, top + rows * ch);
    const frame = (at: [number, number], colour: string, width: number) => {
      g.strokeStyle = colour;
      g.lineWidth = width;
      g.strokeRect(left + at[1] * cw + width / 2, top + at[0] * ch + width / 2, Math.max(1, cw - width), Math.max(1, ch - width));
    };
    const cell = this.lit.cell;
    if (cell && cell[0] < rows && cell[1] < cols) frame(cell, css['--hl'], 2);
    const focused = document.activeElement === this.grid;
    if (focused) frame(this.active, css['--accent'], 3);
    // Too small for every label: the pointed-at cell's row and column are named beside the map.
    const named = focused ? this.active : cell && cell[0] < rows && cell[1] < cols ? cell : null;
    if (!named || !this.d) return;
    g.fillStyle = css['--text'];
    g.textBaseline = 'middle';
    g.font = `600 11px ${css.font}`;
    if (ch < ROW_LABEL_MIN) {
      g.textAlign = 'right';
      const y = Math.min(Math.max(top + named[0] * ch + ch / 2, top + 6), top + rows * ch - 6);
      g.fillText(this.d.rowLabels[named[0]] ?? '', left - 6, y, left - 10);
    }
    if (cw < ROTATED_MIN) {
      const x = left + named[1] * cw + cw / 2;
      g.textAlign = x < left + 40 ? 'left' : x > left + cols * cw - 40 ? 'right' : 'center';
      g.fillText(this.d.colLabels[named[1]] ?? '', x, top / 2, 120);
    }
  }

  highlight(rows: number[], cols: number[], cell?: [number, number]): void {
    this.lit = { rows, cols, cell };
    this.drawOverlay();
  }
}
