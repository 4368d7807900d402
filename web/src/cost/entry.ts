// dist/cost-view.js: the cost of attention, a part of the page not every reader opens, so it is
// loaded when its section first comes near the screen (app/cost-part.ts).
import '../i18n/section-cost';
import { CostView } from './view';
import { COST_SIZES, measureCost } from './runner';
import { provide } from '../later/later';

provide('cost', () => new CostView(COST_SIZES, measureCost).el);
