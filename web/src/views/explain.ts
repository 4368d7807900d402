// "Why this number?": the arithmetic behind the cell the reader points at, from the engine's
// explainCell / explainOutput (every number here is the engine's; the page only lays them out).
import { h, clear } from './dom';
import { t, num, term } from '../i18n';
import type { Engine } from '../engine/types';

/** What the explanation asks of the engine: the arithmetic of one score or one output. */
export type Explainer = Pick<Engine, 'explainCell' | 'explainOutput' | 'explainProjection'>;
import type { Model, Run } from '../model/compute';
import type { Focus } from '../state/state';

/** At most this many terms are written out; longer sums show their first terms and a count. */
const MAX_TERMS = 8;

function sum(products: string[], total: number): string {
  const shown = products.slice(0, MAX_TERMS).join(' + ');
  const more = products.length > MAX_TERMS ? ` + … (${products.length})` : '';
  return `${shown}${more} = ${num(total, true)}`;
}

/** The multi-head views whose cells are explained: a head's Q, K, V; the joined heads; the output. */
export type MultiKind = 'q' | 'k' | 'v' | 'concat' | 'final';

/** A screen reader hears the explanation once the reader stops moving for this long. */
const ANNOUNCE_DELAY_MS = 300;

export class Explain {
  readonly el: HTMLElement;
  private body: HTMLElement;
  // The polite live region: a plain-text copy of the explanation, written after a pause, so
  // arrowing across a row reads the cell the reader stops on, not every cell passed.
  private live: HTMLElement;
  private timer = 0;

  constructor() {
    this.body = h('div', { class: 'explain-body' });
    this.live = h('p', { class: 'sr-only', attrs: { 'aria-live': 'polite', 'aria-atomic': 'true', 'data-live': 'explain' } });
    // Focusable: on a phone the panel is a short scrolling strip, which a keyboard must reach.
    this.el = h(
      'section',
      { class: 'card explain', attrs: { 'aria-labelledby': 'explain-title', tabindex: '0' } },
      h(
        'div',
        { class: 'explain-head' },
        h('h2', { text: t('explain.title'), attrs: { id: 'explain-title' } }),
        h('button', { class: 'explain-close', text: '×', attrs: { type: 'button', 'aria-label': t('explain.close') } }),
      ),
      this.body,
      this.live,
    );
    this.empty();
  }

  private announce(text: string): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      if (this.live.textContent !== text) this.live.textContent = text;
    }, ANNOUNCE_DELAY_MS);
  }

  empty(): void {
    if (this.body.dataset.empty === '1') return;
    this.body.dataset.empty = '1';
    clear(this.body);
    this.body.append(h('p', { class: 'hint', text: t('explain.empty') }));
  }

  /**
   * A cell of the difference heatmap: right − left of two engine weights, = the difference the
   * heatmap shows, then how the right-hand weight was computed.
   */
  showDifference(
    engine: Explainer,
    model: Model,
    i: number,
    j: number,
    difference: number,
    viewTitle: (view: string) => string,
    announce = false,
  ): void {
    const a = model.a.steps.weights,
      b = model.b?.steps.weights;
    if (!b || i >= a.rows || j >= a.cols) return this.empty();
    this.show(engine, model, { view: 'weights', row: i, col: j, side: 'b' }, viewTitle, false);
    const wa = a.data[i * a.cols + j],
      wb = b.data[i * b.cols + j];
    const q = model.queryLabels[i] ?? '',
      k = model.keyLabels[j] ?? '';
    const header = this.body.querySelector('.explain-where');
    const sentence = t('explain.diff', { q, k, right: model.sideB, left: model.sideA });
    const math = `${num(wb, true)} − ${num(wa, true)} = ${num(difference, true)}`;
    const lines = [
      h('p', { class: 'explain-where' }, h('strong', { text: t('view.diff') }), ' ', h('span', { text: `${q} → ${k}` })),
      h('p', { class: 'explain-line', text: sentence }),
      h('p', { class: 'explain-math', text: math }),
      h('p', { class: 'explain-line', text: t('explain.diff.right', { right: model.sideB }) }),
    ];
    if (header) header.before(...lines);
    else this.body.prepend(...lines);
    if (announce) this.announce(t('explain.announce', { where: `${t('view.diff')}, ${q} → ${k}`, text: `${sentence} ${math}` }));
  }

  /**
   * A cell of a multi-head view, from the engine's result for the head on screen: a projected
   * entry as x times a column of W_Q, W_K or W_V; a joined entry as the head output it copies; a
   * final entry as the joined row times a column of W_O. The factors and the result are the
   * engine's; the page only writes them out.
   */
  showMulti(
    engine: Explainer,
    model: Model,
    kind: MultiKind,
    i: number,
    j: number,
    viewTitle: (view: string) => string,
    announce = false,
    feature = '',
  ): void {
    const multi = model.multiA,
      options = model.multiOptions;
    if (!multi || !options) return this.empty();
    const token = (kind === 'k' || kind === 'v' ? model.keyLabels[i] : model.queryLabels[i]) ?? '';
    const lines: Array<[string, string]> = [];
    let title: string, where: string;
    if (kind === 'concat') {
      if (i >= multi.concat.rows || j >= multi.concat.cols) return this.empty();
      title = viewTitle('concat');
      where = `${token} · ${j + 1}`;
      lines.push([
        t('explain.joined', { token, h: multi.columnHead[j] + 1, c: multi.columnInHead[j] + 1 }),
        num(multi.concat.data[i * multi.concat.cols + j], true),
      ]);
    } else {
      const e = engine.explainProjection({ ...options, head: model.head }, kind, i, j);
      if (!e.ok) return this.empty();
      const products = Array.from(e.terms, (_, s) => `${term(e.left[s])}×${term(e.right[s])}`);
      if (kind === 'final') {
        const f = feature || String(j + 1);
        title = viewTitle('final');
        where = `${token} · ${f}`;
        lines.push([t('explain.mixed', { token, f }), `joined·W_O = ${sum(products, e.value)}`]);
      } else {
        const name = kind === 'q' ? 'W_Q' : kind === 'k' ? 'W_K' : 'W_V';
        title = `${t('head.tab', { h: model.head + 1 })} · ${viewTitle(kind)}`;
        where = `${token} · ${j + 1}`;
        lines.push([t('explain.projected', { token, c: j + 1, w: name }), `x·${name} = ${sum(products, e.value)}`]);
      }
    }
    this.write(title, where, lines, announce);
  }

  /** Writes the explanation: a heading, then each sentence with its arithmetic. */
  private write(title: string, where: string, lines: Array<[string, string]>, announce: boolean): void {
    clear(this.body);
    this.body.dataset.empty = '0';
    this.body.append(h('p', { class: 'explain-where' }, h('strong', { text: title }), ' ', h('span', { text: where })));
    for (const [sentence, math] of lines) {
      this.body.append(h('p', { class: 'explain-line', text: sentence }));
      if (math) this.body.append(h('p', { class: 'explain-math', text: math }));
    }
    if (announce) {
      const text = lines.map(([sentence, math]) => (math ? `${sentence} ${math}` : sentence)).join(' ');
      this.announce(t('explain.announce', { where: `${title}, ${where}`, text }));
    }
  }

  show(engine: Explainer, model: Model, focus: Focus | null, viewTitle: (view: string) => string, announce = false): void {
    if (!focus) return this.empty();
    const run: Run | null = focus.side === 'b' ? model.b : model.a;
    if (!run) return this.empty();
    const { row: i, col: j, view } = focus;
    const q = model.queryLabels[i] ?? '',
      k = model.keyLabels[j] ?? '';
    const lines: Array<[string, string]> = []; // [sentence, arithmetic]
    let where = '';
    const o = run.options;
    if (['scores', 'scaled', 'masked', 'weights'].includes(view)) {
      if (i >= run.steps.n || j >= run.steps.m) return this.empty();
      const e = engine.explainCell(o, i, j);
      if (!e.ok) return this.empty();
      where = `${q} → ${k}`;
      const products = Array.from(e.terms, (_, s) => `${term(e.query[s])}×${term(e.key[s])}`);
      if (o.similarity === 'dot') {
        lines.push([t('explain.score.dot', { q, k }), `q·k = ${sum(products, e.score)}`]);
      } else {
        lines.push([
          t('explain.score.cosine', { q, k }),
          `(${sum(products, e.dot)}) ÷ (${num(e.queryNorm, true)} × ${num(e.keyNorm, true)}) = ${num(e.score, true)}`,
        ]);
      }
      if (view !== 'scores') {
        if (o.scale === 'sqrt') {
          lines.push([
            t('explain.scaled.sqrt', { dk: run.steps.dK }),
            `${num(e.score, true)} ÷ √${run.steps.dK} = ${num(e.score, true)} ÷ ${num(e.divisor, true)} = ${num(e.scaled, true)}`,
          ]);
        } else if (o.scale === 'temperature') {
          lines.push([
            t('explain.scaled.temperature'),
            `${num(e.score, true)} ÷ ${num(e.divisor, true)} = ${num(e.scaled, true)}`,
          ]);
        } else {
          lines.push([t('explain.scaled.none'), `${num(e.scaled, true)}`]);
        }
      }
      if ((view === 'masked' || view === 'weights') && o.mask !== 'none') {
        lines.push(
          e.visible ? [t('explain.masked.visible', { q, k }), num(e.scaled, true)] : [t('explain.masked.hidden', { q, k }), '−∞'],
        );
      }
      if (view === 'weights') {
        const problem = run.steps.rowStats[i]?.problem;
        if (!e.visible) {
          lines.push([t('explain.weight.hidden'), '0']);
        } else if (o.normalization === 'softmax') {
          lines.push([
            t('explain.weight.softmax', { max: num(e.rowMax, true) }),
            `exp(${num(e.scaled, true)} − ${num(e.rowMax, true)}) ÷ ${num(e.expSum, true)} = ${num(e.expValue, true)} ÷ ${num(e.expSum, true)} = ${num(e.weight, true)}`,
          ]);
        } else if (problem === 'zero_sum') {
          lines.push([t('explain.weight.zeroSum'), `${num(e.scaled, true)} ÷ ${num(e.scoreSum, true)} → 0`]);
        } else {
          lines.push([t('explain.weight.sum'), `${num(e.scaled, true)} ÷ ${num(e.scoreSum, true)} = ${num(e.weight, true)}`]);
        }
      }
    } else if (view === 'output') {
      if (i >= run.steps.n || j >= run.steps.dV) return this.empty();
      const e = engine.explainOutput(o, i, j);
      if (!e.ok) return this.empty();
      const f = model.dvNames[j] ?? String(j + 1);
      where = `${q} · ${f}`;
      const products = Array.from(e.terms, (_, s) => `${term(e.weights[s])}×${term(e.values[s])}`);
      lines.push([t('explain.output', { q, f }), `Σ_j w_ij·v_j = ${sum(products, e.output)}`]);
    } else {
      // K, V and the word vectors X are rows of keys (X's are the queries too in self-attention).
      const label = (view === 'q' ? model.queryLabels[i] : model.keyLabels[i]) ?? '';
      const f = (view === 'v' ? model.dvNames[j] : model.dkNames[j]) ?? String(j + 1);
      where = `${label} · ${f}`;
      lines.push([t('explain.input', { matrix: viewTitle(view), row: label, f }), '']);
    }
    this.write(viewTitle(view), where, lines, announce);
  }
}
