// Pointing at a cell lights its query row, its key row (a column of the scores) and its features
// in every view, and explains it: the fan-out from one cell to every view that shows it.
import { t } from '../i18n';
import type { Focus, State } from '../state/state';
import type { Model } from '../model/compute';
import type { Explain } from '../views/explain';
import { explainDifference, explainFocus, explainMulti, type Explainer, type MultiKind } from '../model/explanation';
import type { StepsView } from '../views/steps';
import type { InputsPanel } from '../views/inputs-panel';
import type { PlotSlot } from './plot-part';
import type { Formula } from '../views/formula';
import type { ViewFaults } from './faults';
import { lit } from './focus';

export interface Lightable {
  steps: StepsView;
  inputs: InputsPanel;
  plot: PlotSlot;
  formula: Formula;
  explain: Explain;
  faults: ViewFaults;
  engine: Explainer;
}

export class Highlighter {
  constructor(private readonly v: Lightable) {}

  /** The state's focused cell, lit and explained (`announce`: said to a screen reader too). */
  focus(model: Model | null, s: State, announce: boolean): void {
    const f = s.focus;
    const { query, key, feat, vfeat } = lit(model ? f : null, s.setup);
    this.light(query, key, feat, vfeat, f, s.setup);
    this.v.formula.focus(f ? f.view : null);
    if (!model) return;
    this.v.faults.run(this.v.explain.el, t('explain.title'), () =>
      this.v.explain.show(explainFocus(this.v.engine, model, f), this.v.steps.viewTitle, announce),
    );
  }

  /**
   * A cell of the difference (lit as the right-hand weight by focus()): the explanation gives the
   * subtraction before that weight's own arithmetic.
   */
  difference(model: Model, row: number, col: number, announce: boolean): void {
    const d = this.v.steps.differenceAt(row, col);
    if (!model.b || d === undefined) return;
    this.v.faults.run(this.v.explain.el, t('explain.title'), () =>
      this.v.explain.showDifference(explainDifference(this.v.engine, model, row, col, d), this.v.steps.viewTitle, announce),
    );
  }

  /**
   * A cell of a multi-head view (this head's Q, K or V; the joined heads; the final output): its
   * token lights up in every view and the explanation lists the engine's factors and result.
   * These cells are not a focus of the state (a link does not carry them).
   */
  multi(model: Model, setup: State['setup'], kind: MultiKind, i: number, j: number, announce: boolean): void {
    if (!model.multiA) return;
    const keyRow = kind === 'k' || kind === 'v';
    this.light(keyRow ? null : i, keyRow ? i : null, null, null, null, setup);
    this.v.steps.heads.multiMap(kind).highlight([i], [j], [i, j]); // the others light the token's row (light())
    this.v.formula.focus(kind === 'q' || kind === 'k' || kind === 'v' ? kind : null); // the formula has no W_O
    this.v.faults.run(this.v.explain.el, t('explain.title'), () =>
      this.v.explain.showMulti(
        explainMulti(this.v.engine, model, kind, i, j, this.v.steps.heads.finalLabel(j) ?? ''),
        this.v.steps.viewTitle,
        announce,
      ),
    );
  }

  /** Lights a query row, a key row and features in every view. */
  private light(
    query: number | null,
    key: number | null,
    feat: number | null,
    vfeat: number | null,
    f: Focus | null,
    setup: State['setup'],
  ): void {
    const list = (...xs: Array<number | null>) => xs.filter((x): x is number => x !== null);
    this.v.steps.light(query, key, vfeat, f);
    const grids = this.v.inputs.grids;
    grids.get('x')?.highlight(setup === 'self' ? [...new Set(list(query, key))] : list(key), list(feat ?? vfeat));
    grids.get('qx')?.highlight(list(query), list(feat));
    grids.get('q')?.highlight(list(query), list(feat));
    grids.get('k')?.highlight(list(key), list(feat));
    grids.get('v')?.highlight(list(key), list(vfeat));
    this.v.plot.highlight(query, key);
  }
}
