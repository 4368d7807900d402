// Multi-head attention's own cards: the head tabs, the shown head's projected Q, K and V, the
// joined heads, the final output, and "Why √d_k"'s entropy at several d_k.
import { h, clear, setText } from './dom';
import { t } from '../i18n';
import type { EntropyRow, HeadsFigure } from '../model/compute';
import type { State } from '../state/state';
import { Heatmap } from './heatmap';
import { EntropyTable } from './entropy';
import { card, type Draw } from './card';
import type { MultiKind } from './explain';

export interface HeadsHandlers {
  pointMulti(kind: MultiKind, i: number, j: number, how: string): void;
  selectHead(head: number): void;
}

export class HeadsView {
  readonly tabs = h('div', { class: 'tabs', attrs: { role: 'tablist', 'aria-label': t('head.label') } });
  /** The joined heads and the final output, after the steps. */
  readonly cards: HTMLElement;
  readonly qkvCard: HTMLElement;
  readonly entropyCard: HTMLElement;
  private readonly headQ: Heatmap;
  private readonly headK: Heatmap;
  private readonly headV: Heatmap;
  private readonly concat: Heatmap;
  private readonly final: Heatmap;
  private readonly qkvTitle = h('h3');
  private readonly entropy = new EntropyTable();

  constructor(private readonly on: HeadsHandlers) {
    const multi = (kind: MultiKind, view: string) => new Heatmap(view, 'a', (i, j, how) => on.pointMulti(kind, i, j, how));
    this.headQ = multi('q', 'head-q');
    this.headK = multi('k', 'head-k');
    this.headV = multi('v', 'head-v');
    this.concat = multi('concat', 'concat');
    this.final = multi('final', 'final');
    this.qkvCard = h(
      'section',
      { class: 'card step qkv-card', attrs: { 'data-step': 'qkv' } },
      this.qkvTitle,
      h('p', { class: 'hint', text: t('view.hint.qkv') }),
      h('div', { class: 'qkv-maps' }, this.headQ.el, this.headK.el, this.headV.el),
    );
    this.entropyCard = card('entropy', t('view.entropy'), t('view.hint.entropy'), this.entropy.el);
    this.cards = h(
      'div',
      { class: 'multi-cards' },
      card('concat', t('view.concat'), '', this.concat.el),
      card('final', t('view.final'), '', this.final.el),
    );
    this.tabs.addEventListener('keydown', (e) => this.tabKey(e));
  }

  /** The cards for `model` (hidden without multi-head); `finalLabels` name the output's columns. */
  update(model: HeadsFigure, s: State, draw: Draw, finalLabels: string[], entropyRows: () => EntropyRow[]): void {
    // Joining and mixing heads means something only when there are two or more.
    const heads = model.multiA?.heads.length ?? 0;
    this.cards.hidden = heads < 2;
    this.renderTabs(heads > 1 ? heads : 0, model.head);
    if (model.multiA && heads > 1) {
      const m = model.multiA;
      draw(this.concat.el, t('view.concat'), () =>
        this.concat.update({
          caption: t('view.concat'),
          rowLabels: model.queryLabels,
          values: m.concat,
          scale: 'signed',
          colLabels: Array.from(m.columnHead, (head, c) => `h${head + 1}·${m.columnInHead[c] + 1}`),
        }),
      );
      draw(this.final.el, t('view.final'), () =>
        this.final.update({
          caption: t('view.final'),
          rowLabels: model.queryLabels,
          colLabels: finalLabels.slice(0, m.output.cols),
          values: m.output,
          scale: 'signed',
        }),
      );
    }
    draw(this.qkvCard, t('view.qkv', { h: model.head + 1 }), () => this.renderHeadInputs(model, s, entropyRows));
  }

  /** Lights the token's query row and key row in every multi-head view. */
  light(queries: number[], keys: number[]): void {
    this.concat.highlight(queries, []);
    this.final.highlight(queries, []);
    this.headQ.highlight(queries, []);
    this.headK.highlight(keys, []);
    this.headV.highlight(keys, []);
  }

  /** The heatmap of a multi-head view, to light the pointed-at cell. */
  multiMap(kind: MultiKind): Heatmap {
    return { q: this.headQ, k: this.headK, v: this.headV, concat: this.concat, final: this.final }[kind];
  }

  /** The name of the final output's column j, as its heatmap shows it. */
  finalLabel(j: number): string | undefined {
    return this.final.data?.colLabels?.[j];
  }

  /** Multi-head: the shown head's Q = X·W_Q, K = X·W_K, V = X·W_V; and the entropy by d_k. */
  private renderHeadInputs(model: HeadsFigure, s: State, entropyRows: () => EntropyRow[]): void {
    const m = model.multiA;
    this.qkvCard.hidden = !m;
    this.entropyCard.hidden = !m || s.compare !== 'scale';
    if (!m) return;
    const st = m.heads[model.head];
    setText(this.qkvTitle, t('view.qkv', { h: model.head + 1 }));
    const names = (k: number) => Array.from({ length: k }, (_, c) => String(c + 1));
    this.headQ.update({
      caption: t('view.q'),
      rowLabels: model.queryLabels,
      colLabels: names(st.dK),
      values: st.queries,
      scale: 'signed',
      numbers: s.numbers,
    });
    this.headK.update({
      caption: t('view.k'),
      rowLabels: model.keyLabels,
      colLabels: names(st.dK),
      values: st.keys,
      scale: 'signed',
      numbers: s.numbers,
    });
    this.headV.update({
      caption: t('view.v'),
      rowLabels: model.keyLabels,
      colLabels: names(st.dV),
      values: st.values,
      scale: 'signed',
      numbers: s.numbers,
    });
    if (this.entropyCard.hidden) return;
    this.entropy.update(entropyRows(), st.dK);
  }

  /** The head tabs: rebuilt only when the count changes, so a focused tab keeps its focus. */
  private renderTabs(count: number, selected: number): void {
    const tabs = Array.from(this.tabs.children) as HTMLButtonElement[];
    if (tabs.length !== count) {
      clear(this.tabs);
      for (let k = 0; k < count; k++) {
        const tab = h('button', {
          class: 'tab',
          text: t('head.tab', { h: k + 1 }),
          attrs: { type: 'button', role: 'tab', 'data-head': String(k) },
        });
        tab.addEventListener('click', () => this.on.selectHead(k));
        this.tabs.append(tab);
      }
    }
    (Array.from(this.tabs.children) as HTMLButtonElement[]).forEach((tab, k) => {
      tab.setAttribute('aria-selected', String(k === selected));
      tab.tabIndex = k === selected ? 0 : -1;
    });
  }

  /** Arrow keys, Home and End move between the head tabs (the ARIA tabs pattern). */
  private tabKey(e: KeyboardEvent): void {
    const tabs = Array.from(this.tabs.children) as HTMLButtonElement[];
    const k = tabs.indexOf(e.target as HTMLButtonElement);
    if (k < 0) return;
    const next =
      e.key === 'ArrowRight'
        ? (k + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (k + tabs.length - 1) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    tabs[next].focus();
    this.on.selectHead(next);
  }
}
