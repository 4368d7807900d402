// dist/cost-view.js: the cost of attention, a part of the page not every reader opens, so it is
// loaded when its section first comes near the screen (lazy-cost.ts).
import { CostView } from '../views/cost';
import { COST_SIZES, measureCost } from './cost-runner';
import { COST_VIEW } from './lazy-cost';

(globalThis as unknown as Record<string, () => HTMLElement>)[COST_VIEW] = () => new CostView(COST_SIZES, measureCost).el;
