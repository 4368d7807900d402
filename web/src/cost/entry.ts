// dist/cost-view.js: the cost of attention, a part of the page not every reader opens, so it is
// loaded when its section first comes near the screen (app/cost-part.ts), with its styles
// (lesson.css, unless the page has them already).
import '../i18n/section-cost';
import { CostView } from './view';
import { COST_SIZES, measureCost } from './runner';
import { lazyStyles, provide } from '../lazy/lazy';

declare module '../lazy/lazy' {
  interface Parts {
    cost: () => HTMLElement;
  }
}

void lazyStyles();
provide('cost', () => new CostView(COST_SIZES, measureCost).el);
