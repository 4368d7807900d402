// One query's attention, left to right: each key's score q·k, the score scaled, masked, its weight
// (with a bar as long as the weight), then the output row those weights mix. It is the first thing
// on the page, so that the reader sees the input become a result without scrolling; the whole
// matrices follow in the steps. Every number is the engine's, pointed at like a heatmap's cell.
import { h, clear, setText } from './dom';
import { t, num, type MessageKey } from '../i18n';
import type { Model } from '../model/compute';
import type { Focus, ViewId } from '../state/state';
import { swatches } from './heatmap-data';
import type { Swatch } from './color';

type Column = 'scores' | 'scaled' | 'masked' | 'weights';

const OUTPUT_COLUMNS = 8;

export interface PipelineHandlers {
  point(focus: Focus, how: string): void;
}

/**
 * Which query the pipeline opens on: the row whose weights are sharpest, among the rows that see
 * more than one key (under a causal mask the first word sees only itself, which shows nothing).
 */
function sharpest(model: Model): number {
  const rows = model.a.steps.rowStats;
  let best = -1;
  rows.forEach((r, i) => {
    if (r.problem === 'none' && r.visible > 1 && (best < 0 || r.entropy < rows[best].entropy)) best = i;
  });
  return Math.max(0, best);
}

export class PipelineView {
  readonly el: HTMLElement;
  private readonly title = h('h2', { attrs: { id: 'pipeline-title' } });
  private readonly queries = h('div', { class: 'pipeline-queries', attrs: { role: 'group' } });
  private readonly table = h('table', { class: 'grid pipeline-table' });
  private readonly output = h('table', { class: 'grid pipeline-output' });
  private readonly note = h('p', { class: 'hint' });
  private model: Model | null = null;
  private row = -1; // the query shown; −1 until a model arrives
  private chosen = false; // the reader picked the row (else it follows the sharpest)
  private cells: HTMLElement[] = [];
  private active = 0; // the cell in the tab order

  constructor(private readonly on: PipelineHandlers) {
    this.el = h(
      'section',
      {
        class: 'card pipeline',
        attrs: { id: 'pipeline', tabindex: '-1', 'data-step': 'pipeline', 'aria-labelledby': 'pipeline-title' },
      },
      h('div', { class: 'pipeline-head' }, this.title, this.queries),
      this.note,
      // Each table scrolls on its own on a narrow screen: eight features of 44 px touch targets are
      // wider than a phone, and the page must not grow sideways (a phone would zoom it out).
      h(
        'div',
        { class: 'pipeline-body' },
        h('div', { class: 'pipeline-scroll' }, this.table),
        h('div', { class: 'pipeline-scroll' }, this.output),
      ),
    );
    for (const el of [this.table, this.output]) {
      el.addEventListener('mouseover', (e) => this.fromEvent(e, 'hover'));
      el.addEventListener('focusin', (e) => this.fromEvent(e, 'focus'));
      el.addEventListener('click', (e) => this.fromEvent(e, 'click'));
      el.addEventListener('keydown', (e) => this.key(e));
    }
    this.queries.setAttribute('aria-label', t('pipeline.queries'));
  }

  update(model: Model): void {
    const fresh = !this.model || this.model.queryLabels.length !== model.queryLabels.length;
    this.model = model;
    if (fresh || !this.chosen || this.row >= model.queryLabels.length) {
      this.row = sharpest(model);
      this.chosen = false;
    }
    this.draw();
  }

  /** The pointed-at cell of a step picks the query shown. */
  follow(focus: Focus | null): void {
    const steps: ViewId[] = ['scores', 'scaled', 'masked', 'weights', 'output'];
    if (!this.model || !focus || focus.side !== 'a' || !steps.includes(focus.view)) return;
    if (focus.row === this.row || focus.row >= this.model.queryLabels.length) return;
    this.row = focus.row;
    this.chosen = true;
    this.draw();
  }

  private draw(): void {
    const model = this.model;
    if (!model) return;
    const st = model.a.steps,
      i = this.row,
      m = st.m;
    const query = model.queryLabels[i] ?? '';
    setText(this.title, t('pipeline.title', { query }));
    this.drawQueries(model.queryLabels);
    const options = model.a.options;
    const columns: Column[] = ['scores'];
    if (st.divisor !== 1) columns.push('scaled');
    if (options.mask !== 'none') columns.push('masked');
    columns.push('weights');
    const divisor = options.scale === 'temperature' ? `T = ${num(st.divisor)}` : `√d_k = ${num(st.divisor)}`;
    const heads: Record<Column, string> = {
      scores: options.similarity === 'cosine' ? t('pipeline.cosine') : 'q·k',
      scaled: `÷ ${divisor}`,
      masked: t('pipeline.mask'),
      weights: options.normalization === 'sum' ? t('pipeline.divideBySum') : 'softmax',
    };
    clear(this.table);
    this.cells = [];
    const head = h('tr', {}, h('th', { text: t('pipeline.key'), attrs: { scope: 'col' } }));
    for (const c of columns) head.append(h('th', { text: heads[c], attrs: { scope: 'col', 'data-col': c } }));
    head.append(h('th', { class: 'bar-head', text: t('pipeline.share'), attrs: { scope: 'col' } }));
    // The same colours as the weights heatmap: its scale rule (signed when a sum-normalised weight
    // leaves [0, 1]) and its hatching of masked keys.
    const hidden = options.mask === 'none' ? undefined : Uint8Array.from(st.visible.data, (v) => (v ? 0 : 1));
    const colours = swatches({ caption: '', rowLabels: [], colLabels: [], values: st.weights, scale: 'weights', hidden });
    const body = h('tbody');
    for (let j = 0; j < m; j++) {
      const tr = h('tr', {}, h('th', { text: model.keyLabels[j] ?? '', attrs: { scope: 'row' } }));
      for (const c of columns) {
        const x = st[c].data[i * m + j];
        const td = this.cell(num(x), c, j);
        if (c === 'weights') paint(td, colours[i * m + j]);
        tr.append(td);
      }
      const w = st.weights.data[i * m + j];
      const bar = h('span', { class: 'bar' });
      bar.style.width = `${Math.max(0, Math.min(1, w)) * 100}%`;
      tr.append(h('td', { class: 'bar-cell', attrs: { 'aria-hidden': 'true' } }, bar));
      body.append(tr);
    }
    const stats = st.rowStats[i];
    this.table.append(h('caption', { class: 'sr-only', text: t('pipeline.title', { query }) }), h('thead', {}, head), body);
    // A row that failed (fully masked, zero sum, negative weights) says so instead of its entropy.
    const note = !stats
      ? ''
      : stats.problem === 'none'
        ? t('pipeline.note', { sum: num(stats.weightSum), entropy: num(stats.entropy) })
        : t(`row.problem.${stats.problem}` as MessageKey);
    setText(this.note, note);
    this.drawOutput(model, i);
    this.setActive(Math.min(this.active, this.cells.length - 1));
  }

  private cell(text: string, view: string, col: number): HTMLElement {
    const td = h('td', { text, attrs: { 'data-view': view, 'data-col': String(col), tabindex: '-1' } });
    this.cells.push(td);
    return td;
  }

  private drawOutput(model: Model, i: number): void {
    const st = model.a.steps;
    clear(this.output);
    const names = model.dvNames.slice(0, st.dV);
    const head = h('tr', {}, h('th', { text: t('pipeline.output'), attrs: { scope: 'col' } }));
    const row = h('tr', {}, h('th', { text: model.queryLabels[i] ?? '', attrs: { scope: 'row' } }));
    // A wide output (d_v = 512 in Why √d_k) shows its first columns; the steps below show them all.
    const shown = Math.min(st.dV, OUTPUT_COLUMNS);
    // The output heatmap's colours: one signed scale over the whole output, not over this row.
    const colours = swatches({ caption: '', rowLabels: [], colLabels: [], values: st.output, scale: 'signed' });
    for (let c = 0; c < shown; c++) {
      head.append(h('th', { text: names[c] ?? String(c + 1), attrs: { scope: 'col' } }));
      const td = this.cell(num(st.output.data[i * st.dV + c]), 'output', c);
      paint(td, colours[i * st.dV + c]);
      row.append(td);
    }
    if (shown < st.dV) {
      head.append(h('th', { text: '…', attrs: { scope: 'col' } }));
      row.append(h('td', { class: 'more', text: t('pipeline.more', { n: st.dV - shown }) }));
    }
    this.output.append(h('thead', {}, head), h('tbody', {}, row));
  }

  private drawQueries(labels: string[]): void {
    if (this.queries.childElementCount !== labels.length || labels.some((l, k) => this.queries.children[k].textContent !== l)) {
      clear(this.queries);
      labels.forEach((label, k) => {
        const b = h('button', { class: 'chip small', text: label, attrs: { type: 'button', 'data-query': String(k) } });
        b.addEventListener('click', () => this.pick(k));
        b.addEventListener('keydown', (e) => this.queryKey(e, k));
        this.queries.append(b);
      });
    }
    Array.from(this.queries.children).forEach((b, k) => {
      b.setAttribute('aria-pressed', String(k === this.row));
      (b as HTMLElement).tabIndex = k === this.row ? 0 : -1;
    });
  }

  /** A query chosen from the chips: its largest weight becomes the pointed-at cell. */
  private pick(k: number): void {
    const model = this.model;
    if (!model) return;
    const st = model.a.steps;
    let best = 0;
    for (let j = 1; j < st.m; j++) if (st.weights.data[k * st.m + j] > st.weights.data[k * st.m + best]) best = j;
    this.row = k;
    this.chosen = true;
    this.draw();
    this.on.point({ view: 'weights', row: k, col: best, side: 'a' }, 'click');
  }

  /** ← → move between the query chips (one Tab stop for the group). */
  private queryKey(e: KeyboardEvent, k: number): void {
    const n = this.queries.childElementCount;
    const to = e.key === 'ArrowRight' ? (k + 1) % n : e.key === 'ArrowLeft' ? (k - 1 + n) % n : -1;
    if (to < 0) return;
    e.preventDefault();
    this.pick(to);
    (this.queries.children[to] as HTMLElement).focus();
  }

  private fromEvent(e: Event, how: string): void {
    const td = (e.target as Element | null)?.closest?.('td[data-view]') as HTMLElement | null;
    if (!td) return;
    const view = td.dataset.view as ViewId;
    if (how !== 'hover') this.setActive(this.cells.indexOf(td));
    this.on.point({ view, row: this.row, col: Number(td.dataset.col), side: 'a' }, how);
  }

  private setActive(k: number): void {
    if (k < 0) return;
    if (this.cells[this.active]) this.cells[this.active].tabIndex = -1;
    this.active = k;
    if (this.cells[k]) this.cells[k].tabIndex = 0;
  }

  /** Arrow keys move between the numbers (one Tab stop for all of them). */
  private key(e: KeyboardEvent): void {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 0, ArrowUp: 0 };
    if (!(e.key in moves)) return;
    const td = e.target as HTMLElement;
    const k = this.cells.indexOf(td);
    if (k < 0) return;
    let to = k + moves[e.key];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const tr = td.parentElement as HTMLTableRowElement;
      const next = (e.key === 'ArrowDown' ? tr.nextElementSibling : tr.previousElementSibling) as HTMLTableRowElement | null;
      const same = next?.cells[(td as HTMLTableCellElement).cellIndex];
      to = same ? this.cells.indexOf(same as HTMLElement) : -1;
    }
    if (to < 0 || to >= this.cells.length) return;
    e.preventDefault();
    this.setActive(to);
    this.cells[to].focus();
  }
}

/** A cell in its heatmap colour, with the text colour that reads on it; a masked one hatched. */
function paint(td: HTMLElement, sw: Swatch | null): void {
  td.style.backgroundColor = sw ? sw.background : '';
  td.dataset.ink = sw ? (sw.dark ? 'dark' : 'light') : 'masked';
}
