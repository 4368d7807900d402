// Where each token moves, the lazy part `plot`: the plane is below the first screen, so its code
// comes after the page has drawn (the first update asks for it). Until then the slot keeps what
// it was last told, and once the script is there `ready` draws it through the page's usual path.
import { h } from '../views/dom';
import type { Plot } from '../views/plot';
import type { Plane } from '../engine/types';
import { lazy } from '../lazy/lazy';

export class PlotSlot {
  readonly el = h('div', { class: 'plot-slot' });
  private plot: Plot | null = null;
  private lit: [number | null, number | null] = [null, null];
  ready: () => void = () => undefined;

  /** Draws the plane now if the plot is here; else fetches it, and `ready` draws it then. */
  update(plane: Plane, valueLabels: string[], outputLabels: string[], arrows: boolean): void {
    if (this.plot) return this.plot.update(plane, valueLabels, outputLabels, arrows);
    void lazy('plot').then(
      (factory) => {
        if (this.plot) return;
        this.plot = factory();
        this.el.append(this.plot.el);
        this.plot.highlight(...this.lit);
        this.ready();
      },
      () => undefined, // offline: the next update tries again
    );
  }

  highlight(query: number | null, key: number | null): void {
    this.lit = [query, key];
    this.plot?.highlight(query, key);
  }
}

// The plot's plane is the engine's project2d, which costs tens of ms at 128×64. Small inputs are
// drawn at once, with the rest; large ones after the frame, and only while the plot is on screen,
// so the heatmaps the reader watches are not held up by it.
const DRAW_NOW_CELLS = 4096;

export class LazyPlot {
  private visible = true;
  private stale = false;
  private timer = 0;
  private pending: () => void = () => undefined;

  /** `el`: the plot, watched for coming on screen; `settle`: after a draw on its own. */
  constructor(
    el: Element,
    private readonly settle: () => void,
    private readonly alive: () => boolean,
  ) {
    if (typeof IntersectionObserver === 'function') {
      new IntersectionObserver((entries) => {
        this.visible = entries.some((e) => e.isIntersecting);
        if (this.visible && this.stale && this.alive()) this.pending();
      }).observe(el);
    }
  }

  /** Draws a plot still waiting to be seen (before printing). */
  flush(): void {
    clearTimeout(this.timer);
    if (this.stale && this.alive()) this.pending();
  }

  /** `draw` for `cells` numbers of values and outputs: now, or when it can be seen. */
  request(cells: number, draw: () => void): void {
    clearTimeout(this.timer);
    const run = () => {
      this.stale = false;
      draw();
    };
    if (cells <= DRAW_NOW_CELLS) return run();
    this.stale = true;
    this.pending = () => {
      run();
      this.settle();
    }; // after the frame: the plot alone
    if (this.visible) this.timer = window.setTimeout(this.pending, 0);
  }
}
