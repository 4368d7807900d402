// dist/plot.js: where each token moves, loaded after the page's first draw (plot-slot.ts).
import { Plot } from '../views/plot';
import { PLOT, providePart } from './scripts';

providePart(PLOT, () => new Plot());
