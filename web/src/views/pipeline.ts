// One query's attention, left to right: each key's score q·k, the score scaled, masked, its weight
// (with a bar as long as the weight), then the output row those weights mix. It is the first thing
// on the page, so that the reader sees the input become a result without scrolling; the whole
// matrices follow in the steps. Every number is the engine's, pointed at like a heatmap's cell.
import { h, clear, setText } from './dom';
import { t, num, type MessageKey } from '../i18n';
import type { Figure, Run } from '../model/compute';
import type { Focus, ViewId } from '../state/state';
import { swatches } from './heatmap-data';
import type { Swatch } from './color';

type Column = 'scores' | 'scaled' | 'masked' | 'weights';

const OUTPUT_COLUMNS = 8;

export interface PipelineHandlers {
  point(focus: Focus, how: string): void;
  /** The Play button: open or close the animation of the shown query. */
  play(): void;
  /** After a draw: the query shown. */
  drawn(model: Figure, row: number): void;
}

/**
 * Which query the pipeline opens on: the row whose weights are sharpest, among the rows that see
 * more than one key (under a causal mask the first word sees only itself, which shows nothing).
 */
function sharpest(model: Figure): number {
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
  private readonly tableB = h('table', { class: 'grid pipeline-table', attrs: { 'data-side': 'b' } });
  private readonly output = h('table', { class: 'grid pipeline-output' });
  private readonly note = h('p', { class: 'hint' });
  private readonly playButton = h('button', {
    class: 'btn play-open',
    text: t('pipeline.play'),
    attrs: { type: 'button', 'data-play-open': '', 'aria-expanded': 'false' },
  });
  /** Where the animation goes when it is open. */
  readonly playSlot = h('div', { class: 'play-slot' });
  private model: Figure | null = null;
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
      h('div', { class: 'pipeline-head' }, this.title, this.queries, this.playButton),
      this.note,
      this.playSlot,
      // Each table scrolls on its own on a narrow screen: eight features of 44 px touch targets are
      // wider than a phone, and the page must not grow sideways (a phone would zoom it out).
      h(
        'div',
        { class: 'pipeline-body' },
        h('div', { class: 'pipeline-scroll' }, this.table),
        h('div', { class: 'pipeline-scroll' }, this.tableB),
        h('div', { class: 'pipeline-scroll' }, this.output),
      ),
    );
    for (const el of [this.table, this.tableB, this.output]) {
      el.addEventListener('mouseover', (e) => this.fromEvent(e, 'hover'));
      el.addEventListener('focusin', (e) => this.fromEvent(e, 'focus'));
      el.addEventListener('click', (e) => this.fromEvent(e, 'click'));
      el.addEventListener('keydown', (e) => this.key(e));
    }
    this.queries.setAttribute('aria-label', t('pipeline.queries'));
    this.playButton.addEventListener('click', () => on.play());
  }

  /** Whether the animation is open: the button says so. */
  playing(open: boolean): void {
    this.playButton.setAttribute('aria-expanded', String(open));
    if (!open) this.playButton.focus();
  }

  update(model: Figure): void {
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
    if (!this.model || !focus || !steps.includes(focus.view)) return;
    if (focus.row === this.row || focus.row >= this.model.queryLabels.length) return;
    this.row = focus.row;
    this.chosen = true;
    this.draw();
  }

  private draw(): void {
    const model = this.model;
    if (!model) return;
    const i = this.row;
    const query = model.queryLabels[i] ?? '';
    setText(this.title, t('pipeline.title', { query }));
    this.drawQueries(model.queryLabels);
    // A comparison shows its second configuration beside the first, each under its name.
    const sides: Side[] = [side(model.a, 'a', model.sideA)];
    if (model.b) sides.push(side(model.b, 'b', model.sideB));
    this.cells = [];
    this.tableB.parentElement!.hidden = sides.length < 2;
    this.el.classList.toggle('compared', sides.length > 1);
    if (sides.length < 2) clear(this.tableB);
    sides.forEach((sd, k) => this.drawSide(k ? this.tableB : this.table, sd, sides.length > 1, model, i));
    setText(this.note, [note(model.a, i), model.b ? compared(model, i) : ''].filter(Boolean).join(' '));
    this.drawOutput(model, i, sides);
    this.setActive(Math.min(this.active, this.cells.length - 1));
    this.on.drawn(model, i);
  }

  /** One configuration's table: a row per key, a column per step that changes something. */
  private drawSide(table: HTMLElement, sd: Side, named: boolean, model: Figure, i: number): void {
    const st = sd.run.steps,
      m = st.m;
    const query = model.queryLabels[i] ?? '';
    clear(table);
    const head = h('tr', {}, h('th', { text: t('pipeline.key'), attrs: { scope: 'col' } }));
    for (const c of sd.columns) head.append(h('th', { text: sd.heads[c], attrs: { scope: 'col', 'data-col': c } }));
    head.append(h('th', { class: 'bar-head', text: t('pipeline.share'), attrs: { scope: 'col' } }));
    const body = h('tbody');
    for (let j = 0; j < m; j++) {
      const tr = h('tr', {}, h('th', { text: model.keyLabels[j] ?? '', attrs: { scope: 'row' } }));
      for (const c of sd.columns) {
        const td = this.cell(num(st[c].data[i * m + j]), c, j, sd.id);
        if (c === 'weights') paint(td, sd.colours[i * m + j]);
        tr.append(td);
      }
      const bar = h('span', { class: 'bar' });
      bar.style.width = `${Math.max(0, Math.min(1, st.weights.data[i * m + j])) * 100}%`;
      tr.append(h('td', { class: 'bar-cell', attrs: { 'aria-hidden': 'true' } }, bar));
      body.append(tr);
    }
    const caption = named ? `${t('pipeline.title', { query })} · ${sd.name}` : t('pipeline.title', { query });
    table.append(
      h('caption', { class: named ? 'side-name' : 'sr-only', text: named ? sd.name : caption }),
      h('thead', {}, head),
      body,
    );
    if (named) table.setAttribute('aria-label', caption);
    else table.removeAttribute('aria-label');
  }

  private cell(text: string, view: string, col: number, sideId: 'a' | 'b'): HTMLElement {
    const td = h('td', { text, attrs: { 'data-view': view, 'data-col': String(col), 'data-side': sideId, tabindex: '-1' } });
    this.cells.push(td);
    return td;
  }

  private drawOutput(model: Figure, i: number, sides: Side[]): void {
    const dV = model.a.steps.dV;
    clear(this.output);
    const names = model.dvNames.slice(0, dV);
    const head = h('tr', {}, h('th', { text: t('pipeline.output'), attrs: { scope: 'col' } }));
    // A wide output (d_v = 512 in Why √d_k) shows its first columns; the steps below show them all.
    const shown = Math.min(dV, OUTPUT_COLUMNS);
    for (let c = 0; c < shown; c++) head.append(h('th', { text: names[c] ?? String(c + 1), attrs: { scope: 'col' } }));
    if (shown < dV) head.append(h('th', { text: '…', attrs: { scope: 'col' } }));
    const body = h('tbody');
    for (const sd of sides) {
      const st = sd.run.steps;
      const label = sides.length > 1 ? sd.name : (model.queryLabels[i] ?? '');
      const row = h('tr', {}, h('th', { text: label, attrs: { scope: 'row' } }));
      // The output heatmap's colours: one signed scale over the whole output, not over this row.
      const colours = swatches({ caption: '', rowLabels: [], colLabels: [], values: st.output, scale: 'signed' });
      for (let c = 0; c < shown; c++) {
        const td = this.cell(num(st.output.data[i * dV + c]), 'output', c, sd.id);
        paint(td, colours[i * dV + c]);
        row.append(td);
      }
      if (shown < dV) row.append(h('td', { class: 'more', text: t('pipeline.more', { n: dV - shown }) }));
      body.append(row);
    }
    this.output.append(h('thead', {}, head), body);
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
    this.on.point({ view, row: this.row, col: Number(td.dataset.col), side: td.dataset.side === 'b' ? 'b' : 'a' }, how);
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

interface Side {
  id: 'a' | 'b';
  name: string;
  run: Run;
  columns: Column[];
  heads: Record<Column, string>;
  colours: (Swatch | null)[];
}

/** One configuration's columns: the steps that change something in it, and their colours. */
function side(run: Run, id: 'a' | 'b', name: string): Side {
  const { steps: st, options } = run;
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
  // The same colours as the weights heatmap: its scale rule (signed when a sum-normalised weight
  // leaves [0, 1]) and its hatching of masked keys.
  const hidden = options.mask === 'none' ? undefined : Uint8Array.from(st.visible.data, (v) => (v ? 0 : 1));
  const colours = swatches({ caption: '', rowLabels: [], colLabels: [], values: st.weights, scale: 'weights', hidden });
  return { id, name, run, columns, heads, colours };
}

/** What one row's weights add up to and how spread they are; a row that failed says why. */
function note(run: Run, i: number): string {
  const stats = run.steps.rowStats[i];
  if (!stats) return '';
  return stats.problem === 'none'
    ? t('pipeline.note', { sum: num(stats.weightSum), entropy: num(stats.entropy) })
    : t(`row.problem.${stats.problem}` as MessageKey);
}

/** The two sides' spread, side by side, when both rows came out. */
function compared(model: Figure, i: number): string {
  const a = model.a.steps.rowStats[i],
    b = model.b?.steps.rowStats[i];
  if (!a || !b || a.problem !== 'none' || b.problem !== 'none') return '';
  return t('pipeline.compared', { sideA: model.sideA, a: num(a.entropy), sideB: model.sideB, b: num(b.entropy) });
}

/** A cell in its heatmap colour, with the text colour that reads on it; a masked one hatched. */
function paint(td: HTMLElement, sw: Swatch | null): void {
  td.style.backgroundColor = sw ? sw.background : '';
  td.dataset.ink = sw ? (sw.dark ? 'dark' : 'light') : 'masked';
}
