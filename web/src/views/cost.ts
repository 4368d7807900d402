// "The cost of attention": time and memory of one attention call against the sequence length n,
// streaming and materialised, measured live by the engine (engine/measure.ts), with an n² curve
// for comparison. A worker does the measuring so the page never freezes; where a page cannot
// start a worker (opened from file://) it measures on the page's thread up to n = 1024.
import { h, ns, SVG, clear, setText } from './dom';
import { t, num, int } from '../i18n';
import type { CostPoint } from '../engine/measure';
import { textWidth } from './svg-format';

const W = 320,
  H = 200,
  PAD_B = 30,
  PAD_T = 10,
  PAD_R = 20; // PAD_R: half of "4,096" under its tick
const TICK_PX = 10; // styles.css, .cost-chart .tick

type Series = 'streaming' | 'materialized';

/**
 * Measures every size, reporting each point as it comes; says whether it had to run on the
 * page's thread (up to which n) because no worker could start.
 */
export type CostMeasure = (
  report: (p: CostPoint, done: number, total: number) => void,
) => Promise<{ pageThreadMax: number | null }>;

export class CostView {
  readonly el: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly progress: HTMLProgressElement;
  private readonly status: HTMLElement;
  private readonly timeChart: SVGSVGElement;
  private readonly memoryChart: SVGSVGElement;
  private readonly numbers: HTMLDetailsElement; // the same points as a table, for reading and copying
  private readonly rows: HTMLTableSectionElement;
  private points: CostPoint[] = [];
  private running = false;

  /** `sizes`: the n measured, smallest first (the axes span them). */
  constructor(
    private readonly sizes: readonly number[],
    private readonly measure: CostMeasure,
  ) {
    this.button = h('button', { class: 'btn', text: t('cost.run'), attrs: { type: 'button' } });
    this.button.addEventListener('click', () => void this.run());
    this.progress = h('progress', { attrs: { max: '1', value: '0', 'aria-label': t('cost.progress') } });
    this.status = h('p', { class: 'hint', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.timeChart = ns(SVG, 'svg', {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      class: 'cost-chart',
      'aria-label': t('cost.timeChart'),
      'data-chart': 'time',
    }) as SVGSVGElement;
    this.memoryChart = ns(SVG, 'svg', {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      class: 'cost-chart',
      'aria-label': t('cost.memoryChart'),
      'data-chart': 'memory',
    }) as SVGSVGElement;
    const columns = [
      'cost.col.n',
      'cost.col.timeStreaming',
      'cost.col.timeMaterialized',
      'cost.col.memoryStreaming',
      'cost.col.memoryMaterialized',
    ] as const;
    this.rows = h('tbody');
    this.numbers = h(
      'details',
      { class: 'cost-numbers', attrs: { hidden: '' } },
      h('summary', { text: t('cost.numbers') }),
      // On a phone the table scrolls sideways, its numbers unbroken; a keyboard can scroll it too.
      h(
        'div',
        { class: 'cost-table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': t('cost.numbers') } },
        h(
          'table',
          { class: 'cost-table' },
          h('thead', {}, h('tr', {}, ...columns.map((key) => h('th', { text: t(key), attrs: { scope: 'col' } })))),
          this.rows,
        ),
      ),
    );
    this.el = h(
      'div',
      { class: 'cost', attrs: { 'data-view': 'cost' } },
      h('p', { class: 'hint', text: t('cost.hint') }),
      h('div', { class: 'cost-run' }, this.button, this.progress),
      this.status,
      h(
        'div',
        { class: 'cost-charts' },
        h('figure', {}, this.timeChart, h('figcaption', { text: t('cost.timeChart') })),
        h('figure', {}, this.memoryChart, h('figcaption', { text: t('cost.memoryChart') })),
      ),
      h('p', { class: 'hint cost-legend', text: t('cost.legend') }),
      this.numbers,
    );
    this.draw(); // the axes and "not measured yet", not two blank boxes
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.button.disabled = true;
    this.points = [];
    this.draw();
    this.progress.value = 0;
    setText(this.status, t('cost.running'));
    const report = (p: CostPoint, done: number, total: number) => {
      this.points.push(p);
      this.progress.value = done / total;
      this.progress.dataset.done = String(done);
      this.draw();
    };
    try {
      const { pageThreadMax } = await this.measure(report);
      setText(this.status, pageThreadMax === null ? t('cost.done') : t('cost.donePageThread', { n: int(pageThreadMax) }));
      this.el.dataset.state = 'done';
    } catch (error) {
      setText(this.status, t('cost.failed', { message: String((error as Error).message ?? error) }));
      this.el.dataset.state = 'failed';
    } finally {
      this.running = false;
      this.button.disabled = false;
    }
  }

  private draw(): void {
    // Axis labels and point titles with num()'s precise digits; the table rounds as the heatmaps do.
    const ms = (v: number, precise = true) => t('cost.ms', { ms: num(v, precise) });
    const mb = (v: number, precise = true) => t('cost.mb', { mb: num(v, precise) });
    this.chart(this.timeChart, (p) => p.ms, ms);
    this.chart(this.memoryChart, (p) => p.bytes / 2 ** 20, mb);
    // One row per n, a cell per series; "—" for a point not measured (yet).
    clear(this.rows);
    const sizes = this.sizes.filter((n) => this.points.some((p) => p.n === n));
    for (const n of sizes) {
      const at = (materialize: boolean) => this.points.find((p) => p.n === n && p.materialize === materialize);
      const cell = (p: CostPoint | undefined, text: (p: CostPoint) => string) => h('td', { text: p ? text(p) : '—' });
      this.rows.append(
        h(
          'tr',
          { attrs: { 'data-n': String(n) } },
          h('th', { text: int(n), attrs: { scope: 'row' } }),
          cell(at(false), (p) => ms(p.ms, false)),
          cell(at(true), (p) => ms(p.ms, false)),
          cell(at(false), (p) => mb(p.bytes / 2 ** 20, false)),
          cell(at(true), (p) => mb(p.bytes / 2 ** 20, false)),
        ),
      );
    }
    this.numbers.hidden = sizes.length === 0;
  }

  // Log–log axes: n doubles per step, and an n² curve is a straight line twice as steep as n. The
  // vertical axis runs from the decade below the smallest value to the decade above the largest,
  // with a labelled line at each power of ten, so every point can be read off against one.
  private chart(svg: SVGSVGElement, value: (p: CostPoint) => number, label: (v: number) => string): void {
    clear(svg);
    const ns0 = this.sizes[0],
      ns1 = this.sizes[this.sizes.length - 1];
    const values = this.points.map(value).filter((v) => v > 0 && Number.isFinite(v));
    const k0 = values.length ? Math.floor(Math.log10(Math.min(...values)) + 1e-9) : -3;
    const k1 = Math.max(values.length ? Math.ceil(Math.log10(Math.max(...values)) - 1e-9) : k0, k0 + 1);
    const lo = 10 ** k0,
      hi = 10 ** k1;
    const decades: Array<[number, string]> = [];
    for (let k = k0; values.length && k <= k1; k++) {
      const v = Number(`1e${k}`); // exactly the decimal power, not 10 ** k's nearest double
      decades.push([v, label(v)]);
    }
    // Room on the left for the widest label ("1,000 毫秒" is wider than "1 ms").
    const padL = Math.max(40, ...decades.map(([, text]) => textWidth(text, TICK_PX) + 6));
    const x = (n: number) => padL + (Math.log2(n / ns0) / Math.log2(ns1 / ns0)) * (W - padL - PAD_R);
    const y = (v: number) => H - PAD_B - (Math.log10(Math.max(v, lo) / lo) / Math.log10(hi / lo)) * (H - PAD_B - PAD_T);
    svg.append(
      ns(SVG, 'line', { x1: String(padL), y1: String(H - PAD_B), x2: String(W - PAD_R), y2: String(H - PAD_B), class: 'axis' }),
    );
    svg.append(ns(SVG, 'line', { x1: String(padL), y1: String(PAD_T), x2: String(padL), y2: String(H - PAD_B), class: 'axis' }));
    for (const n of this.sizes) {
      svg.append(ns(SVG, 'text', { x: String(x(n)), y: String(H - PAD_B + 14), 'text-anchor': 'middle', class: 'tick' }, int(n)));
    }
    svg.append(
      ns(SVG, 'text', { x: String((W + padL) / 2), y: String(H - 2), 'text-anchor': 'middle', class: 'tick' }, t('cost.axisN')),
    );
    // Before a measurement the vertical axis has no scale: a note instead of made-up numbers.
    if (!values.length) {
      svg.append(
        ns(
          SVG,
          'text',
          {
            x: String((W + padL) / 2),
            y: String((H - PAD_B + PAD_T) / 2),
            'text-anchor': 'middle',
            class: 'tick',
            'data-empty': '',
          },
          t('cost.empty'),
        ),
      );
    }
    decades.forEach(([v, text], k) => {
      if (k > 0)
        svg.append(
          ns(SVG, 'line', { x1: String(padL), y1: String(y(v)), x2: String(W - PAD_R), y2: String(y(v)), class: 'gridline' }),
        );
      svg.append(
        ns(
          SVG,
          'text',
          { x: String(padL - 4), y: String(y(v) + 3.5), 'text-anchor': 'end', class: 'tick', 'data-tick': String(v) },
          text,
        ),
      );
    });
    // n², drawn through the largest materialised point measured so far, from where it enters
    // the chart (above the lowest decade) rather than along its floor.
    const last = [...this.points].reverse().find((p) => p.materialize && value(p) > 0);
    if (last) {
      const at = (n: number) => value(last) * (n / last.n) ** 2;
      // Kept between the lowest and highest decade: beyond them it would leave the axes.
      const ns2 = this.sizes.filter((n) => at(n) >= lo && at(n) <= hi);
      const enters = last.n * Math.sqrt(lo / value(last)); // where n² crosses the lowest decade
      const leaves = last.n * Math.sqrt(hi / value(last)); // and the highest
      if (ns2.length && ns2[0] > ns0 && enters > ns0) ns2.unshift(enters);
      if (ns2.length && ns2[ns2.length - 1] < ns1 && leaves < ns1) ns2.push(leaves);
      const pts = ns2.map((n) => `${x(n)},${y(at(n))}`).join(' ');
      svg.append(ns(SVG, 'polyline', { points: pts, class: 'cost-n2', 'data-series': 'n2' }));
    }
    for (const series of ['streaming', 'materialized'] as Series[]) {
      const mine = this.points.filter((p) => p.materialize === (series === 'materialized'));
      if (mine.length === 0) continue;
      svg.append(
        ns(SVG, 'polyline', { points: mine.map((p) => `${x(p.n)},${y(value(p))}`).join(' '), class: `cost-line cost-${series}` }),
      );
      for (const p of mine) {
        const dot = ns(
          SVG,
          'circle',
          {
            cx: String(x(p.n)),
            cy: String(y(value(p))),
            r: '3',
            class: `cost-${series}`,
            'data-series': series,
            'data-n': String(p.n),
            'data-value': String(value(p)),
          },
          ns(
            SVG,
            'title',
            {},
            `${t(series === 'streaming' ? 'cost.streaming' : 'cost.materialized')}, n = ${int(p.n)}: ${label(value(p))}`,
          ),
        );
        svg.append(dot);
      }
    }
  }
}
