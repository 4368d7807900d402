// The steps, one card each: similarity, scaled, masked, weights, output (a comparison's two sides
// in one card), the difference of the compared weights, and for multi-head the head tabs, the
// shown head's Q, K and V, the joined heads, the final output and the entropy by d_k. The cards
// receive the model and draw it; a pointed-at cell goes out through `on`.
import { h, setText } from './dom';
import { t, num, type MessageKey } from '../i18n';
import type { Mat } from '../engine/types';
import type { EntropyRow, Figure, HeadsFigure } from '../model/compute';
import type { Focus, State, ViewId } from '../state/state';
import { Heatmap, type HeatmapData } from './heatmap';
import { exportMenu, saveFigure } from './exporter';
import type { MultiKind } from './explain';
import { HeadsView } from './heads';
import { card, type Draw } from './card';

export type { Draw };

export const STEP_VIEWS = ['scores', 'scaled', 'masked', 'weights', 'output'] as const;
type StepView = (typeof STEP_VIEWS)[number];

interface StepCard {
  card: HTMLElement;
  title: HTMLElement;
  hint: HTMLElement;
  a: Heatmap;
  b: Heatmap;
  labelA: HTMLElement;
  labelB: HTMLElement;
}

export interface StepsInput {
  model: Figure & HeadsFigure;
  state: State;
  draw: Draw;
  /** The compared weights, right − left (the engine's), when comparing. */
  difference: Mat | null;
  /** The names of the final output's columns (the word vectors' features). */
  finalLabels: string[];
  /** Multi-head "Why √d_k": the mean entropy at several d_k, asked for only when shown. */
  entropyRows: () => EntropyRow[];
}

export interface StepsHandlers {
  point(focus: Focus, how: string): void;
  pointDiff(row: number, col: number, how: string): void;
  pointMulti(kind: MultiKind, i: number, j: number, how: string): void;
  selectHead(head: number): void;
}

export class StepsView {
  /** The cards, laid out as a grid as wide as the figure needs. */
  readonly views: HTMLElement;
  readonly figureExport: HTMLElement;
  private readonly cards = new Map<StepView, StepCard>();
  private readonly diff: Heatmap;
  private readonly diffCard: HTMLElement;
  /** Multi-head: the tabs, this head's Q, K and V, the joined heads, the final output, the entropy by d_k. */
  readonly heads: HeadsView;
  private model: Figure | null = null;
  private state: State | null = null;

  /** `more`: cards shown after the steps (the plot, the cost), as [name, title, body]. */
  constructor(on: StepsHandlers, more: Array<[string, string, HTMLElement]>) {
    this.heads = new HeadsView(on);
    const point = (view: ViewId, side: 'a' | 'b') => (row: number, col: number, how: string) =>
      on.point({ view, row, col, side }, how);
    this.diff = new Heatmap('diff', 'a', (row, col, how) => on.pointDiff(row, col, how));
    this.diffCard = card('diff', t('view.diff'), t('view.hint.diff'), this.diff.el);
    for (const v of STEP_VIEWS) {
      const a = new Heatmap(v, 'a', point(v, 'a'));
      const b = new Heatmap(v, 'b', point(v, 'b'));
      const labelA = h('p', { class: 'side-label' }),
        labelB = h('p', { class: 'side-label' });
      const title = h('h3', { text: this.viewTitle(v) }),
        hint = h('p', { class: 'hint' });
      const c = h(
        'section',
        { class: 'card step', attrs: { 'data-step': v } },
        title,
        hint,
        exportMenu(v, () => [a.data, b.el.parentElement?.hidden === false ? b.data : null].filter((d): d is HeatmapData => !!d)),
        h('div', { class: 'sides' }, h('div', { class: 'side' }, labelA, a.el), h('div', { class: 'side side-b' }, labelB, b.el)),
      );
      this.cards.set(v, { card: c, title, hint, a, b, labelA, labelB });
    }
    this.views = h(
      'div',
      { class: 'views' },
      this.heads.qkvCard,
      ...STEP_VIEWS.map((v) => this.cards.get(v)!.card),
      this.heads.entropyCard,
      this.diffCard,
      ...more.map(([name, title, body]) => card(name, title, '', body)),
    );
    this.figureExport = this.figureMenu();
  }

  /** The steps' section of the page, with `above` (the errors, the note that a result is kept) over the cards. */
  section(...above: HTMLElement[]): HTMLElement {
    return h(
      'section',
      { class: 'steps', attrs: { 'aria-labelledby': 'steps-title' } },
      h(
        'div',
        { class: 'steps-head' },
        h('h2', { text: t('steps.title'), attrs: { id: 'steps-title' } }),
        this.heads.tabs,
        this.figureExport,
      ),
      ...above,
      this.views,
      this.heads.cards,
    );
  }

  /** The visible steps as one figure, as the heatmaps show them: a comparison's two sides side by side. */
  figure(): HeatmapData[][] {
    const rows: HeatmapData[][] = [];
    for (const c of this.cards.values()) {
      if (c.card.hidden || c.card.classList.contains('unchanged') || !c.a.data) continue;
      const b = c.b.el.parentElement?.hidden === false ? c.b.data : null;
      rows.push(b ? [c.a.data, b] : [c.a.data]);
    }
    return rows;
  }

  private figureMenu(): HTMLElement {
    const button = (format: 'png' | 'svg') => {
      const b = h('button', {
        class: 'btn small',
        text: t(`export.format.${format}`),
        attrs: {
          type: 'button',
          'data-figure': format,
          'aria-label': t('export.downloadAs', { format: t(`export.format.${format}`) }),
        },
      });
      b.addEventListener(
        'click',
        () => void saveFigure('attention-figure', format, t('app.title'), this.figure()).catch(() => undefined),
      );
      return b;
    };
    return h(
      'div',
      { class: 'export-row figure-export', attrs: { role: 'group', 'aria-label': t('export.figure') } },
      h('span', { text: t('export.figure') }),
      button('svg'),
      button('png'),
    );
  }

  /** A step's name as its card says it (the scores of cosine similarity are named so). */
  readonly viewTitle = (view: string): string => {
    if (view === 'scores' && this.model?.a.options.similarity === 'cosine' && this.state?.compare !== 'similarity')
      return t('view.scoresCosine');
    const keys: Record<string, MessageKey> = {
      x: 'view.x',
      q: 'view.q',
      k: 'view.k',
      v: 'view.v',
      scores: 'view.scores',
      scaled: 'view.scaled',
      masked: 'view.masked',
      weights: 'view.weights',
      output: 'view.output',
      concat: 'view.concat',
      final: 'view.final',
    };
    return keys[view] ? t(keys[view]) : view;
  };

  /**
   * Every step of `model` as `s` asks to show it; each card is drawn through `draw` (which may
   * spread the cards over several tasks and keeps one card that throws from stopping the rest).
   * `difference`: the compared weights, right − left, when comparing.
   */
  update({ model, state: s, draw, difference, finalLabels, entropyRows }: StepsInput): void {
    this.model = model;
    this.state = s;
    // Cards as wide as a heatmap of m keys needs (the row header, the cells, Σ and H), twice that
    // when comparing: two sides cut off at the card's edge gave "mounta" and no Σ or H.
    const one = 150 + 52 * (Math.max(model.keyLabels.length, model.dvNames.length) + 2);
    const width = Math.min(model.b ? 1800 : 900, model.b ? 2 * one + 12 : one);
    // In rem (16 px on a page of the browser's own size), so that the cards grow with their
    // numbers where the text does, and by --card-scale where the cells grow more than the text
    // (Present): in px, the heatmaps scrolled inside their cards at a projector's sizes.
    const columns = `repeat(auto-fill, minmax(min(100%, calc(${width / 16}rem * var(--card-scale, 1))), 1fr))`;
    if (this.views.style.gridTemplateColumns !== columns) this.views.style.gridTemplateColumns = columns;
    const heatmaps = (run: NonNullable<Figure['b']>, side: 'a' | 'b') => {
      const st = run.steps;
      const nm = (values: Mat, caption: string, scale: HeatmapData['scale'], hidden?: Uint8Array): HeatmapData => ({
        caption,
        rowLabels: model.queryLabels,
        colLabels: model.keyLabels,
        values,
        scale,
        hidden,
        numbers: s.numbers,
      });
      const sideName = model.b ? (side === 'a' ? model.sideA : model.sideB) : '';
      const cap = (v: StepView) => (sideName ? `${this.viewTitle(v)} (${sideName})` : this.viewTitle(v));
      const card = (v: StepView) => (side === 'a' ? this.cards.get(v)!.a : this.cards.get(v)!.b);
      const show = (v: StepView, data: HeatmapData) => {
        if (!unchanged.has(v)) draw(this.cards.get(v)!.card, this.viewTitle(v), () => card(v).update(data));
      };
      const hidden = run.options.mask === 'none' ? undefined : invert(st.visible.data);
      show('scores', nm(st.scores, cap('scores'), 'signed'));
      show('scaled', nm(st.scaled, cap('scaled'), 'signed'));
      show('masked', nm(st.masked, cap('masked'), 'signed', hidden));
      const weights = nm(st.weights, cap('weights'), 'weights', hidden);
      weights.extras = [
        { header: t('col.sum'), title: t('col.sumTitle'), cells: st.rowStats.map((r) => num(r.weightSum)) },
        { header: t('col.entropy'), title: t('col.entropyTitle'), cells: st.rowStats.map((r) => num(r.entropy)) },
      ];
      weights.rowProblems = st.rowStats.map((r) =>
        r.problem === 'none' ? null : { code: r.problem, text: t(`row.problem.${r.problem}` as MessageKey) },
      );
      show('weights', weights);
      // An output row made from a failed row of weights says so, rather than pass for a result.
      const failed = weights.rowProblems.some((p) => p);
      show('output', {
        caption: cap('output'),
        rowLabels: model.queryLabels,
        colLabels: model.dvNames.slice(0, st.dV),
        values: st.output,
        scale: 'signed',
        rowProblems: failed ? weights.rowProblems : undefined,
      });
    };
    // A step that changes nothing here is a line that says so, not a copy of the heatmap before it.
    const runs = model.b ? [model.a, model.b] : [model.a];
    const unchanged = new Set<StepView>();
    if (runs.every((r) => r.steps.divisor === 1)) unchanged.add('scaled');
    if (runs.every((r) => r.options.mask === 'none')) unchanged.add('masked');
    heatmaps(model.a, 'a');
    if (model.b) heatmaps(model.b, 'b');
    for (const [v, c] of this.cards) {
      c.card.classList.toggle('unchanged', unchanged.has(v));
      setText(c.title, this.viewTitle(v));
      setText(c.labelA, model.b ? model.sideA : '');
      setText(c.labelB, model.b ? model.sideB : '');
      c.b.el.parentElement!.hidden = !model.b;
      setText(c.hint, this.hint(v, model));
    }
    this.diffCard.hidden = !model.b;
    if (model.b && difference) {
      draw(this.diffCard, t('view.diff'), () =>
        this.diff.update({
          caption: t('view.diff'),
          rowLabels: model.queryLabels,
          colLabels: model.keyLabels,
          values: difference,
          scale: 'signed',
        }),
      );
    }
    this.heads.update(model, s, draw, finalLabels, entropyRows);
  }

  private hint(v: StepView, model: Figure): string {
    const o = model.a.options;
    switch (v) {
      case 'scores':
        return t('view.hint.scores');
      case 'scaled':
        return model.a.steps.divisor === 1
          ? t('view.hint.scaledNone')
          : t('view.hint.scaled', {
              divisor: o.scale === 'sqrt' ? `√d_k = √${model.a.steps.dK}` : `T = ${num(o.temperature ?? 1)}`,
            });
      case 'masked':
        return o.mask === 'none' ? t('view.hint.maskedNone') : t('view.hint.masked');
      case 'weights':
        if (o.normalization === 'sum') return t('view.hint.weightsSum');
        const builtin = this.state?.mode === 'words' && this.state.lexicon === 'builtin';
        return builtin && nearlyEven(model) ? t('view.hint.weights') + ' ' + t('view.hint.weightsFlat') : t('view.hint.weights');
      default:
        return t('view.hint.output');
    }
  }

  /** The difference shown at (row, col), or undefined. */
  differenceAt(row: number, col: number): number | undefined {
    const shown = this.diff.data?.values;
    return shown ? shown.data[row * shown.cols + col] : undefined;
  }

  /** Lights a query row and a key row (a column of the scores) in every step, and the focused cell. */
  light(query: number | null, key: number | null, vfeat: number | null, f: Focus | null): void {
    const list = (...xs: Array<number | null>) => xs.filter((x): x is number => x !== null);
    for (const [v, c] of this.cards) {
      for (const hm of [c.a, c.b]) {
        const own = f && f.view === v && f.side === hm.side ? ([f.row, f.col] as [number, number]) : undefined;
        if (v === 'output') hm.highlight(list(query), list(vfeat), own);
        else hm.highlight(list(query), list(key), own);
      }
    }
    this.diff.highlight(list(query), list(key));
    this.heads.light(list(query), list(key));
  }
}

function invert(visible: Uint8Array): Uint8Array {
  const hidden = new Uint8Array(visible.length);
  for (let k = 0; k < visible.length; k++) hidden[k] = visible[k] ? 0 : 1;
  return hidden;
}

/**
 * Every row's weights are close to even (entropy within 5 % of ln of the keys it sees): words whose
 * vectors carry little, which the page says rather than let "attention does nothing" stand.
 */
function nearlyEven(model: Figure): boolean {
  const rows = model.a.steps.rowStats.filter((r) => r.problem === 'none' && r.visible > 1);
  return rows.length > 0 && rows.every((r) => r.entropy >= 0.95 * Math.log(r.visible));
}
