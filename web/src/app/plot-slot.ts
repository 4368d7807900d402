// Where each token moves, from plot.js: the plane is below the first screen, so its code comes
// after the page has drawn (the first update asks for it). Until then the slot keeps what it was
// last told, and once the script is there `ready` draws it through the page's usual path.
import { h } from '../views/dom';
import type { Plot } from '../views/plot';
import type { Plane } from '../engine/types';
import { loadPart, PLOT } from './scripts';

type Factory = () => Plot;

export class PlotSlot {
  readonly el = h('div', { class: 'plot-slot' });
  private plot: Plot | null = null;
  private lit: [number | null, number | null] = [null, null];
  ready: () => void = () => undefined;

  /** Draws the plane now if the plot is here; else fetches it, and `ready` draws it then. */
  update(plane: Plane, valueLabels: string[], outputLabels: string[], arrows: boolean): void {
    if (this.plot) return this.plot.update(plane, valueLabels, outputLabels, arrows);
    void loadPart<Factory>('plot.js', PLOT).then(
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
