// A heatmap as a real table: a caption, column headers (the keys or features), row headers (the
// queries), one focusable cell per number; built when the shape or the labels change, otherwise
// updated in place (only the cells whose text or colour changed are touched).
import { h, clear } from './dom';
import { num } from '../i18n';
import type { Swatch } from './color';
import { move, type Extra, type Form, type HeatmapData, type Pointer } from './heatmap-data';

export class TableForm implements Form {
  private caption: HTMLTableCaptionElement | null = null;
  private cells: HTMLTableCellElement[] = []; // (rows·cols)
  private texts: string[] = []; // (rows·cols) what each cell shows, so unchanged cells are not touched
  private colours: string[] = []; // (rows·cols)
  private inks: string[] = []; // (rows·cols) data-ink: an attribute write restyles the cell, so only on change
  private extraCells: HTMLTableCellElement[][] = []; // (extras, rows)
  private rowEls: HTMLTableRowElement[] = [];
  private notes: Array<HTMLElement | null> = [];
  private colHeads: HTMLTableCellElement[] = [];
  private shapeKey = '';
  private rows = 0;
  private cols = 0;
  private lit: Element[] = [];
  private active = 0; // the cell in the tab order

  constructor(
    private readonly el: HTMLElement,
    private readonly point: Pointer,
  ) {
    el.addEventListener('mouseover', (e) => this.fromEvent(e, 'hover'));
    el.addEventListener('focusin', (e) => this.fromEvent(e, 'focus'));
    el.addEventListener('click', (e) => this.fromEvent(e, 'click'));
    el.addEventListener('keydown', (e) => this.key(e));
  }

  private cellOf(e: Event): HTMLTableCellElement | null {
    const target = e.target as Element | null;
    const td = target?.closest?.('td[data-i]') as HTMLTableCellElement | null;
    return td && this.el.contains(td) ? td : null;
  }

  private fromEvent(e: Event, how: 'hover' | 'focus' | 'click'): void {
    const td = this.cellOf(e);
    if (!td) return;
    const i = Number(td.dataset.i),
      j = Number(td.dataset.j);
    if (how !== 'hover') this.setActive(i * this.cols + j);
    this.point(i, j, how);
  }

  private setActive(k: number): void {
    if (this.cells[this.active]) this.cells[this.active].tabIndex = -1;
    this.active = k;
    if (this.cells[k]) this.cells[k].tabIndex = 0;
  }

  private key(e: KeyboardEvent): void {
    const td = this.cellOf(e);
    if (!td) return;
    const i = Number(td.dataset.i),
      j = Number(td.dataset.j);
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.point(i, j, 'click');
      return;
    }
    const to = move(e, i, j, this.rows, this.cols);
    if (!to) return;
    e.preventDefault();
    const k = to[0] * this.cols + to[1];
    this.setActive(k);
    this.cells[k].focus();
  }

  update(d: HeatmapData, colours: Array<Swatch | null>): void {
    const extras = d.extras ?? [];
    const key = [
      d.values.rows,
      d.values.cols,
      d.rowLabels.join('\u0001'),
      d.colLabels.join('\u0001'),
      extras.map((x) => x.header).join('\u0001'),
      d.rowProblems ? 1 : 0,
    ].join('\u0002');
    if (key !== this.shapeKey) this.build(d, extras, key);
    if (this.caption && this.caption.textContent !== d.caption) this.caption.textContent = d.caption;
    const data = d.values.data;
    for (let k = 0; k < data.length; k++) {
      const text = num(data[k]);
      const swatch = colours[k];
      const colour = swatch ? swatch.background : '';
      if (text === this.texts[k] && colour === this.colours[k]) continue;
      const td = this.cells[k];
      if (text !== this.texts[k]) {
        // Rewrite the cell's one text node rather than replace it: a cheaper relayout.
        const node = td.firstChild;
        if (node instanceof Text) node.data = text;
        else td.textContent = text;
        this.texts[k] = text;
      }
      if (colour !== this.colours[k]) {
        td.style.backgroundColor = colour;
        const ink = swatch ? (swatch.dark ? 'dark' : 'light') : 'masked';
        if (ink !== this.inks[k]) {
          td.dataset.ink = ink;
          this.inks[k] = ink;
        }
        this.colours[k] = colour;
      }
    }
    extras.forEach((x, e) => {
      x.cells.forEach((text, i) => {
        const td = this.extraCells[e][i];
        if (td.textContent !== text) td.textContent = text;
      });
    });
    const problems = d.rowProblems;
    if (!problems) return;
    this.rowEls.forEach((tr, i) => {
      const p = problems[i] ?? null;
      const code = p ? p.code : '';
      if ((tr.dataset.problem ?? '') !== code) {
        if (code) tr.dataset.problem = code;
        else delete tr.dataset.problem;
        tr.classList.toggle('row-problem', !!code);
      }
      const note = this.notes[i];
      const text = p ? p.text : '';
      if (note && note.textContent !== text) note.textContent = text;
    });
  }

  private build(d: HeatmapData, extras: Extra[], key: string): void {
    const { rows, cols } = d.values;
    clear(this.el);
    this.rows = rows;
    this.cols = cols;
    this.lit = [];
    this.shapeKey = key;
    this.texts = new Array(rows * cols).fill(null);
    this.colours = new Array(rows * cols).fill(null);
    this.inks = new Array(rows * cols).fill(null);
    this.caption = h('caption', { text: d.caption });
    const headRow = h('tr', {}, h('td', { class: 'corner' }));
    this.colHeads = d.colLabels.map((label) => h('th', { text: label, attrs: { scope: 'col', title: label } }));
    headRow.append(...this.colHeads);
    for (const x of extras) headRow.append(h('th', { class: 'extra', text: x.header, attrs: { scope: 'col', title: x.title } }));
    if (d.rowProblems) headRow.append(h('td', { class: 'problem-head' }));
    const body = h('tbody');
    this.cells = new Array(rows * cols);
    this.extraCells = extras.map(() => new Array(rows));
    this.rowEls = [];
    this.notes = [];
    for (let i = 0; i < rows; i++) {
      const tr = h('tr', {}, h('th', { text: d.rowLabels[i] ?? '', attrs: { scope: 'row', title: d.rowLabels[i] ?? '' } }));
      for (let j = 0; j < cols; j++) {
        const td = h('td');
        td.dataset.i = String(i);
        td.dataset.j = String(j);
        td.tabIndex = -1;
        this.cells[i * cols + j] = td;
        tr.append(td);
      }
      extras.forEach((_, e) => {
        const td = h('td', { class: 'extra' });
        this.extraCells[e][i] = td;
        tr.append(td);
      });
      let note: HTMLElement | null = null;
      if (d.rowProblems) tr.append((note = h('td', { class: 'problem-note', attrs: { role: 'status' } })));
      this.notes.push(note);
      this.rowEls.push(tr);
      body.append(tr);
    }
    // Labels wider than a cell stand upright on a phone (styles), so the columns keep the cells' width.
    const wide = d.colLabels.some((label) => [...label].reduce((w, c) => w + (c.charCodeAt(0) > 0x2e80 ? 2 : 1), 0) > 5);
    this.el.append(h('table', { class: wide ? 'grid wide-heads' : 'grid' }, this.caption, h('thead', {}, headRow), body));
    this.active = Math.max(0, Math.min(this.active, rows * cols - 1));
    if (this.cells[this.active]) this.cells[this.active].tabIndex = 0;
  }

  highlight(rows: number[], cols: number[], cell?: [number, number]): void {
    for (const el of this.lit) el.classList.remove('hl', 'hl-cell');
    this.lit = [];
    for (const i of rows) {
      const tr = this.rowEls[i];
      if (tr) {
        tr.classList.add('hl');
        this.lit.push(tr);
      }
    }
    for (const j of cols) {
      if (j < 0 || j >= this.cols) continue;
      const th = this.colHeads[j];
      if (th) {
        th.classList.add('hl');
        this.lit.push(th);
      }
      for (let i = 0; i < this.rows; i++) {
        const td = this.cells[i * this.cols + j];
        td.classList.add('hl');
        this.lit.push(td);
      }
    }
    if (cell && cell[0] < this.rows && cell[1] < this.cols) {
      const td = this.cells[cell[0] * this.cols + cell[1]];
      if (td) {
        td.classList.add('hl-cell');
        this.lit.push(td);
      }
    }
  }
}
