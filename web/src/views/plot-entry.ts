// dist/plot.js: where each token moves, loaded after the page's first draw (app/plot-part.ts).
import { Plot } from './plot';
import { provide } from '../lazy/lazy';

declare module '../lazy/lazy' {
  interface Parts {
    plot: () => Plot;
  }
}

provide('plot', () => new Plot());
