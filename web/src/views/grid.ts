// An editable matrix (Q, K, V or the word vectors X): a table of text inputs under named
// feature columns. What the reader types is kept as typed; the page reports a cell that is not
// a number next to the grid and marks the cell, and the last good result stays on screen.
import { h, clear } from './dom';
import { t } from '../i18n';
import { Heatmap } from './heatmap';

/**
 * Above this many cells a matrix is shown read-only, as a heatmap drawn on a canvas (editing it
 * is done by pasting): three grids of 64 × 64 inputs took half a second to build and lay out.
 */
export const MAX_EDITABLE_CELLS = 1024;

export interface GridData {
  caption: string;
  cells: string[][]; // (rows, cols)
  rowLabels: string[]; // (rows)
  colLabels: string[]; // (cols)
  editableLabels?: boolean;
  rowMarks?: string[]; // (rows) '', 'unknown' (a made-up vector), 'zero' (zeros) or 'edited'
  invalid?: Set<string>; // "i,j" of cells that are not numbers
  numbers?: number[][]; // (rows, cols) the cells as the model read them, for the read-only heatmap
}

export interface GridHandlers {
  edit(i: number, j: number, text: string, e?: Event): void;
  label?(i: number, text: string): void;
  point(i: number, j: number, how: 'hover' | 'focus' | 'click'): void;
}

export class Grid {
  readonly el: HTMLElement;
  private inputs: Array<HTMLInputElement | HTMLTableCellElement> = []; // (rows·cols)
  private labelInputs: HTMLInputElement[] = [];
  private rowEls: HTMLTableRowElement[] = [];
  private labelSpans: HTMLElement[] = []; // (rows) the row labels, when they are not editable
  private shownLabels: string[] = []; // (rows) the label each row's cells are named by now
  private colLabels: string[] = [];
  private colHeads: HTMLElement[] = [];
  private caption: HTMLTableCaptionElement | null = null;
  private key = '';
  private rows = 0;
  private cols = 0;
  private lit: Element[] = [];
  private readOnly = false;
  private large: Heatmap | null = null; // the read-only form
  private shownCells: string[][] | null = null;
  private nav: HTMLInputElement[][] = []; // (rows, [label] + cols) what the arrow keys move between
  private active: HTMLInputElement | null = null; // the one Tab stop

  constructor(
    readonly view: string,
    private readonly matrixName: string,
    private readonly on: GridHandlers,
  ) {
    this.el = h('div', { class: 'heatmap input-grid', attrs: { 'data-view': view } });
    this.el.addEventListener('input', (e) => {
      const el = e.target as HTMLInputElement;
      if (el.dataset.i === undefined) return;
      if (el.dataset.j === undefined) this.on.label?.(Number(el.dataset.i), el.value);
      else this.on.edit(Number(el.dataset.i), Number(el.dataset.j), el.value, e);
    });
    const point = (how: 'hover' | 'focus') => (e: Event) => {
      const el = (e.target as Element).closest?.('[data-j]') as HTMLElement | null;
      if (el && this.el.contains(el)) this.on.point(Number(el.dataset.i), Number(el.dataset.j), how);
    };
    this.el.addEventListener('mouseover', point('hover'));
    this.el.addEventListener('focusin', point('focus'));
    this.el.addEventListener('focusin', (e) => this.setActive(e.target as HTMLElement));
    this.el.addEventListener('keydown', (e) => this.move(e));
  }

  /**
   * One Tab stop for the whole grid (its row labels too, when they are editable): the cell last
   * focused keeps it, and the arrow keys move inside. ← and → leave a cell only from its text's
   * edge, or when all of it is selected (as on arrival), so they still move the caret in a number.
   */
  private move(e: KeyboardEvent): void {
    const el = e.target as HTMLElement;
    const at = this.navIndex(el);
    if (!at || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
    let [i, j] = at;
    const input = el as HTMLInputElement;
    const len = input.value.length,
      from = input.selectionStart ?? 0,
      to = input.selectionEnd ?? 0;
    const whole = from === 0 && to === len;
    if (e.key === 'ArrowUp') i--;
    else if (e.key === 'ArrowDown' || (e.key === 'Enter' && !e.shiftKey)) i++;
    else if (e.key === 'ArrowLeft' && (whole || (from === 0 && to === 0))) j--;
    else if (e.key === 'ArrowRight' && (whole || from === len)) j++;
    else return;
    const next = this.nav[i]?.[j];
    if (!next) return;
    e.preventDefault();
    next.focus();
    next.select();
  }

  private navIndex(el: HTMLElement): [number, number] | null {
    if (el.dataset.i === undefined || !(el instanceof HTMLInputElement)) return null;
    const i = Number(el.dataset.i);
    const j = el.dataset.j === undefined ? -1 : Number(el.dataset.j);
    return [i, j + (this.labelInputs.length ? 1 : 0)];
  }

  private setActive(el: HTMLElement): void {
    const at = this.navIndex(el);
    if (!at || el === this.active) return;
    if (this.active) this.active.tabIndex = -1;
    this.active = el as HTMLInputElement;
    this.active.tabIndex = 0;
  }

  update(d: GridData): void {
    const rows = d.cells.length,
      cols = rows ? d.cells[0].length : 0;
    const readOnly = rows * cols > MAX_EDITABLE_CELLS;
    // New words keep the table: only its row labels change (rebuilding 64 rows of inputs was
    // a quarter of an update at the page's largest).
    const key = [rows, cols, readOnly, d.editableLabels ?? false, d.colLabels.join('\u0001')].join('\u0002');
    if (key !== this.key) this.build(d, rows, cols, readOnly, key);
    if (this.large) return this.showLarge(d, rows, cols);
    if (this.caption && this.caption.textContent !== d.caption) this.caption.textContent = d.caption;
    const focused = document.activeElement;
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const el = this.inputs[i * cols + j];
        const text = d.cells[i][j];
        const bad = d.invalid?.has(i + ',' + j) ?? false;
        if (el instanceof HTMLInputElement) {
          if (el !== focused && el.value !== text) el.value = text;
          if ((el.getAttribute('aria-invalid') === 'true') !== bad) {
            if (bad) el.setAttribute('aria-invalid', 'true');
            else el.removeAttribute('aria-invalid');
          }
        } else if (el.textContent !== text) {
          el.textContent = text;
        }
      }
      const mark = d.rowMarks?.[i] ?? '';
      const tr = this.rowEls[i];
      if ((tr.dataset.mark ?? '') !== mark) {
        if (mark) tr.dataset.mark = mark;
        else delete tr.dataset.mark;
        const badge = tr.querySelector('.mark');
        if (badge) {
          badge.textContent = mark === 'unknown' || mark === 'zero' ? '?' : mark === 'edited' ? '✎' : '';
          const title = { unknown: t('words.unknown'), zero: t('learned.unknown'), edited: t('words.edited') }[mark];
          badge.setAttribute('title', title ?? '');
        }
      }
      const li = this.labelInputs[i];
      if (li && li !== focused && li.value !== d.rowLabels[i]) li.value = d.rowLabels[i];
      if (this.shownLabels[i] !== d.rowLabels[i]) this.nameRow(i, d.rowLabels[i] ?? '');
    }
  }

  /** Row i's label, and the names a screen reader reads for its cells. */
  private nameRow(i: number, label: string): void {
    this.shownLabels[i] = label;
    const span = this.labelSpans[i];
    if (span) {
      span.textContent = label;
      (span.parentElement as HTMLElement).title = label;
    }
    if (this.readOnly) return;
    for (let j = 0; j < this.cols; j++) {
      this.inputs[i * this.cols + j].setAttribute(
        'aria-label',
        t('cell.label', {
          matrix: this.matrixName,
          row: i + 1,
          rowLabel: label,
          col: j + 1,
          colLabel: this.colLabels[j] ?? '',
        }),
      );
    }
  }

  /** A large matrix: its numbers on the heatmap's canvas, unparsable cells hatched and shown as —. */
  private showLarge(d: GridData, rows: number, cols: number): void {
    if (d.cells === this.shownCells) return;
    this.shownCells = d.cells;
    const data = new Float64Array(rows * cols);
    const hidden = new Uint8Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const bad = d.invalid?.has(i + ',' + j) ?? false; // not a number: drawn as hidden
        data[i * cols + j] = bad ? NaN : (d.numbers?.[i]?.[j] ?? NaN);
        hidden[i * cols + j] = bad ? 1 : 0;
      }
    }
    this.large!.update({
      caption: d.caption,
      rowLabels: d.rowLabels,
      colLabels: d.colLabels,
      values: { rows, cols, data },
      scale: 'signed',
      hidden,
    });
  }

  private build(d: GridData, rows: number, cols: number, readOnly: boolean, key: string): void {
    clear(this.el);
    this.key = key;
    this.rows = rows;
    this.cols = cols;
    this.readOnly = readOnly;
    this.lit = [];
    this.large = null;
    this.shownCells = null;
    if (readOnly) {
      this.nav = [];
      this.active = null;
      this.inputs = [];
      this.labelInputs = [];
      this.rowEls = [];
      this.labelSpans = [];
      this.colHeads = [];
      this.caption = null;
      this.large = new Heatmap(this.view + '-values', 'a', (i, j, how) => this.on.point(i, j, how));
      this.el.append(this.large.el, h('p', { class: 'hint', text: t('vectors.tooLarge') }));
      return;
    }
    this.caption = h('caption', { text: d.caption });
    this.colHeads = d.colLabels.map((c) => h('th', { text: c, attrs: { scope: 'col', title: c } }));
    const head = h('tr', {}, h('td', { class: 'corner' }), ...this.colHeads);
    const body = h('tbody');
    this.inputs = new Array(rows * cols);
    this.labelInputs = [];
    this.rowEls = [];
    this.labelSpans = [];
    this.shownLabels = new Array<string>(rows).fill('\u0000'); // named by update()
    this.colLabels = d.colLabels.slice();
    for (let i = 0; i < rows; i++) {
      const th = h('th', { attrs: { scope: 'row' } });
      if (d.editableLabels) {
        const li = h('input', {
          class: 'label-input',
          attrs: {
            type: 'text',
            spellcheck: 'false',
            'aria-label': t('label.edit', { matrix: this.matrixName, row: i + 1 }),
            maxlength: '40',
          },
        });
        li.value = d.rowLabels[i];
        li.dataset.i = String(i);
        this.labelInputs.push(li);
        th.append(li);
      } else {
        const span = h('span');
        this.labelSpans.push(span);
        th.append(h('span', { class: 'mark', attrs: { 'aria-hidden': 'true' } }), span);
      }
      const tr = h('tr', {}, th);
      for (let j = 0; j < cols; j++) {
        const td = h('td');
        let el: HTMLInputElement | HTMLTableCellElement = td;
        if (!readOnly) {
          const input = h('input', {
            class: 'cell-input',
            attrs: { type: 'text', inputmode: 'decimal', spellcheck: 'false', autocomplete: 'off' },
          });
          el = input;
          td.append(input);
        }
        el.dataset.i = String(i);
        el.dataset.j = String(j);
        this.inputs[i * cols + j] = el;
        tr.append(td);
      }
      this.rowEls.push(tr);
      body.append(tr);
    }
    const table = h('table', { class: 'grid editable' }, this.caption, h('thead', {}, head), body);
    this.el.append(table);
    this.nav = [];
    for (let i = 0; i < rows; i++) {
      const row = this.inputs.slice(i * cols, (i + 1) * cols) as HTMLInputElement[];
      this.nav.push(this.labelInputs[i] ? [this.labelInputs[i], ...row] : row);
    }
    for (const row of this.nav) for (const el of row) el.tabIndex = -1;
    this.active = this.nav[0]?.[0] ?? null;
    if (this.active) this.active.tabIndex = 0;
  }

  highlight(rows: number[], cols: number[]): void {
    if (this.large) return this.large.highlight(rows, cols);
    for (const el of this.lit) el.classList.remove('hl');
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
      this.lit.push(this.colHeads[j]);
      this.colHeads[j].classList.add('hl');
      for (let i = 0; i < this.rows; i++) {
        const el = this.inputs[i * this.cols + j];
        const td = el instanceof HTMLInputElement ? (el.parentElement as HTMLElement) : el;
        td.classList.add('hl');
        this.lit.push(td);
      }
    }
  }

  get isReadOnly(): boolean {
    return this.readOnly;
  }
}
