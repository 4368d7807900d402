// "Why √d_k": the mean row entropy of the same words at several d_k, scaled and unscaled, as
// the engine computed it (entropyByDk in model/compute.ts). A table (caption, th scope) with a
// bar in each cell, so the fall of the unscaled column reads at a glance and the numbers are
// printed.
import { h, clear } from './dom';
import { t, num } from '../i18n';
import type { EntropyRow } from '../model/compute';

export class EntropyTable {
  readonly el: HTMLElement;
  private key = '';

  constructor() {
    this.el = h('div', { class: 'entropy', attrs: { 'data-view': 'entropy' } });
  }

  update(rows: EntropyRow[], current: number): void {
    const key = JSON.stringify(rows) + '|' + current;
    if (key === this.key) return;
    this.key = key;
    let top = 0;
    for (const r of rows) top = Math.max(top, r.scaled, r.unscaled);
    const cell = (x: number, kind: string) => {
      const bar = h('span', { class: `bar ${kind}`, attrs: { 'aria-hidden': 'true' } });
      bar.style.width = `${top > 0 ? Math.max(0, (6 * x) / top).toFixed(2) : 0}em`;
      return h('td', { attrs: { 'data-kind': kind } }, h('span', { class: 'value', text: num(x) }), bar);
    };
    const body = h(
      'tbody',
      {},
      ...rows.map((r) =>
        h(
          'tr',
          { class: r.dK === current ? 'current' : '' },
          h('th', { text: String(r.dK), attrs: { scope: 'row' } }),
          cell(r.scaled, 'scaled'),
          cell(r.unscaled, 'unscaled'),
        ),
      ),
    );
    const table = h(
      'table',
      { class: 'entropy-table' },
      h('caption', { text: t('entropy.caption') }),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { text: t('entropy.dk'), attrs: { scope: 'col' } }),
          h('th', { text: t('entropy.scaled'), attrs: { scope: 'col' } }),
          h('th', { text: t('entropy.unscaled'), attrs: { scope: 'col' } }),
        ),
      ),
      body,
    );
    clear(this.el);
    this.el.append(table);
  }
}
