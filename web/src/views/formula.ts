// The formula in native MathML, drawn for the current configuration (dot or cosine, the scaling,
// the mask, softmax or sum), with the part of the step the reader points at highlighted.
import { h, ns, MATHML, clear } from './dom';
import { t } from '../i18n';
import type { StepOptions } from '../engine/types';

const mi = (x: string, attrs: Record<string, string> = {}) => ns(MATHML, 'mi', attrs, x);
const mo = (x: string) => ns(MATHML, 'mo', {}, x);
const row = (part: string, ...kids: Element[]) => ns(MATHML, 'mrow', { 'data-part': part }, ...kids);

export class Formula {
  readonly el: HTMLElement;
  private key = '';
  private on: string | null = null;
  private width = -1;

  constructor() {
    this.el = h('figure', { class: 'formula', attrs: { 'aria-label': t('formula.label') } });
    // A phone's fonts may draw the formula wider than the card: it is scaled to fit, never cut.
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        if (this.el.clientWidth !== this.width) this.fit(); // its height follows the scale: not a reason to fit again
      }).observe(this.el);
    }
  }

  /** Scales the formula down (never up) until it fits the card's width in whatever font draws it. */
  private fit(): void {
    this.width = this.el.clientWidth;
    const math = this.el.firstElementChild as HTMLElement | null;
    if (!math || this.width === 0) return;
    math.style.fontSize = '';
    for (let pass = 0; pass < 5 && math.scrollWidth > this.width; pass++) {
      const style = getComputedStyle(math);
      const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight); // does not scale
      const size = (parseFloat(style.fontSize) * (this.width - pad)) / (math.scrollWidth - pad);
      math.style.fontSize = `${Math.floor(size * 10) / 10 - 0.1 * pass}px`; // rounded down: never a pixel over
    }
  }

  update(o: StepOptions): void {
    const masked = o.mask !== 'none';
    const key = [o.similarity, o.scale, masked, o.normalization].join();
    if (key === this.key) return;
    this.key = key;
    const q = mi('Q', { 'data-part': 'q' }),
      k = mi('K', { 'data-part': 'k' });
    const scores =
      o.similarity === 'dot'
        ? row('scores', q, ns(MATHML, 'msup', {}, k, mi('T', { mathvariant: 'normal' })))
        : row('scores', mi('cos'), mo('('), q, mo(','), k, mo(')'));
    let scaled: Element = scores;
    if (o.scale !== 'none') {
      const divisor = o.scale === 'sqrt' ? ns(MATHML, 'msqrt', {}, ns(MATHML, 'msub', {}, mi('d'), mi('k'))) : mi('T');
      scaled = ns(MATHML, 'mfrac', {}, scores, row('scaled', divisor));
    }
    const inner = masked ? row('masked-all', scaled, row('masked', mo('+'), mi('M'))) : scaled;
    const norm = o.normalization === 'softmax' ? mi('softmax') : ns(MATHML, 'msub', {}, mi('norm'), mo('Σ'));
    const math = ns(
      MATHML,
      'math',
      { display: 'block' },
      row(
        'all',
        mi('Attention'),
        // Its own row: the brackets stretch to what they hold, not to the fraction beside them.
        ns(MATHML, 'mrow', {}, mo('('), mi('Q'), mo(','), mi('K'), mo(','), mi('V'), mo(')')),
        mo('='),
        row('output', row('weights', norm, mo('('), inner, mo(')')), mi('V', { 'data-part': 'v' })),
      ),
    );
    clear(this.el);
    this.el.append(math);
    this.on = null;
    this.fit();
  }

  /** Highlights the part for a view ("scores", "weights", …), or nothing. */
  focus(view: string | null): void {
    const part = view === 'x' ? null : view;
    if (part === this.on) return;
    for (const el of Array.from(this.el.querySelectorAll('.f-on'))) el.classList.remove('f-on');
    this.on = part;
    if (!part) return;
    for (const el of Array.from(this.el.querySelectorAll(`[data-part="${part}"]`))) el.classList.add('f-on');
  }
}
