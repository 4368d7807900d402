// "Why this number?": the arithmetic behind the cell the reader points at, as model/explanation.ts
// gathered it from the engine (every number here is the engine's; the view only words it).
import { h, clear } from './dom';
import { t, num, term, decimals } from '../i18n';
import type { DifferenceWhy, MultiWhy, Why } from '../model/explanation';

export type { MultiKind } from '../model/explanation';

/** At most this many terms are written out; longer sums show their first terms and a count. */
const MAX_TERMS = 8;

function sum(products: string[], total: number): string {
  const shown = products.slice(0, MAX_TERMS).join(' + ');
  const more = products.length > MAX_TERMS ? ` + … (${products.length})` : '';
  return `${shown}${more} = ${num(total, true)}`;
}

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
  showDifference(d: DifferenceWhy | null, viewTitle: (view: string) => string, announce = false): void {
    if (!d) return this.empty();
    this.show(d.weight, viewTitle, false);
    const { q, k } = d;
    const header = this.body.querySelector('.explain-where');
    const sentence = t('explain.diff', { q, k, right: d.right, left: d.left });
    const math = `${num(d.wb, true)} − ${num(d.wa, true)} = ${num(d.difference, true)}`;
    const lines = [
      h('p', { class: 'explain-where' }, h('strong', { text: t('view.diff') }), ' ', h('span', { text: `${q} → ${k}` })),
      h('p', { class: 'explain-line', text: sentence }),
      h('p', { class: 'explain-math', text: math }),
      h('p', { class: 'explain-line', text: t('explain.diff.right', { right: d.right }) }),
    ];
    if (header) header.before(...lines);
    else this.body.prepend(...lines);
    if (announce) this.announce(t('explain.announce', { where: `${t('view.diff')}, ${q} → ${k}`, text: `${sentence} ${math}` }));
  }

  /** A cell of a multi-head view: the engine's factors and result, written out. */
  showMulti(m: MultiWhy | null, viewTitle: (view: string) => string, announce = false): void {
    if (!m) return this.empty();
    const lines: Array<[string, string]> = [];
    let title: string, where: string;
    if (m.kind === 'concat') {
      title = viewTitle('concat');
      where = `${m.token} · ${m.column}`;
      lines.push([t('explain.joined', { token: m.token, h: m.head, c: m.inHead }), num(m.value, true)]);
    } else {
      const e = m.e;
      const products = Array.from(e.terms, (_, s) => `${term(e.left[s])}×${term(e.right[s])}`);
      if (m.kind === 'final') {
        title = viewTitle('final');
        where = `${m.token} · ${m.f}`;
        lines.push([t('explain.mixed', { token: m.token, f: m.f }), `joined·W_O = ${sum(products, e.value)}`]);
      } else {
        const kind = m.w === 'W_Q' ? 'q' : m.w === 'W_K' ? 'k' : 'v';
        title = `${t('head.tab', { h: m.head })} · ${viewTitle(kind)}`;
        where = `${m.token} · ${m.column}`;
        lines.push([t('explain.projected', { token: m.token, c: m.column, w: m.w }), `x·${m.w} = ${sum(products, e.value)}`]);
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

  show(why: Why | null, viewTitle: (view: string) => string, announce = false): void {
    if (!why) return this.empty();
    const lines: Array<[string, string]> = []; // [sentence, arithmetic]
    if (why.kind === 'input') {
      lines.push([t('explain.input', { matrix: viewTitle(why.view), row: why.row, f: why.f }), '']);
      if (why.neighbours.length) {
        const list = why.neighbours.map((n) => `${n.word} ${decimals(n.cosine, 2)}`).join(t('learned.separator'));
        lines.push([t('learned.neighbours', { word: why.row, list }), '']);
      }
      return this.write(viewTitle(why.view), `${why.row} · ${why.f}`, lines, announce);
    }
    if (why.kind === 'output') {
      const { e, q, f } = why;
      const products = Array.from(e.terms, (_, s) => `${term(e.weights[s])}×${term(e.values[s])}`);
      lines.push([t('explain.output', { q, f }), `Σ_j w_ij·v_j = ${sum(products, e.output)}`]);
      return this.write(viewTitle('output'), `${q} · ${f}`, lines, announce);
    }
    const { e, q, k, view } = why;
    const products = Array.from(e.terms, (_, s) => `${term(e.query[s])}×${term(e.key[s])}`);
    if (!why.cosine) {
      lines.push([t('explain.score.dot', { q, k }), `q·k = ${sum(products, e.score)}`]);
    } else {
      lines.push([
        t('explain.score.cosine', { q, k }),
        `(${sum(products, e.dot)}) ÷ (${num(e.queryNorm, true)} × ${num(e.keyNorm, true)}) = ${num(e.score, true)}`,
      ]);
    }
    if (view !== 'scores') {
      if (why.scale === 'sqrt') {
        lines.push([
          t('explain.scaled.sqrt', { dk: why.dK }),
          `${num(e.score, true)} ÷ √${why.dK} = ${num(e.score, true)} ÷ ${num(e.divisor, true)} = ${num(e.scaled, true)}`,
        ]);
      } else if (why.scale === 'temperature') {
        lines.push([t('explain.scaled.temperature'), `${num(e.score, true)} ÷ ${num(e.divisor, true)} = ${num(e.scaled, true)}`]);
      } else {
        lines.push([t('explain.scaled.none'), `${num(e.scaled, true)}`]);
      }
    }
    if ((view === 'masked' || view === 'weights') && why.masked) {
      lines.push(
        e.visible ? [t('explain.masked.visible', { q, k }), num(e.scaled, true)] : [t('explain.masked.hidden', { q, k }), '−∞'],
      );
    }
    if (view === 'weights') {
      if (!e.visible) {
        lines.push([t('explain.weight.hidden'), '0']);
      } else if (why.softmax) {
        lines.push([
          t('explain.weight.softmax', { max: num(e.rowMax, true) }),
          `exp(${num(e.scaled, true)} − ${num(e.rowMax, true)}) ÷ ${num(e.expSum, true)} = ${num(e.expValue, true)} ÷ ${num(e.expSum, true)} = ${num(e.weight, true)}`,
        ]);
      } else if (why.zeroSum) {
        lines.push([t('explain.weight.zeroSum'), `${num(e.scaled, true)} ÷ ${num(e.scoreSum, true)} → 0`]);
      } else {
        lines.push([t('explain.weight.sum'), `${num(e.scaled, true)} ÷ ${num(e.scoreSum, true)} = ${num(e.weight, true)}`]);
      }
    }
    this.write(viewTitle(view), `${q} → ${k}`, lines, announce);
  }
}
