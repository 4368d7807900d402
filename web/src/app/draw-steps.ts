// One model drawn into the steps' cards: the formula, the pipeline, every step's heatmap and the
// multi-head views, each a job of its own (so a large figure spreads over frames and one view
// that throws does not stop the others), and the plot when it can be seen.
import { t } from '../i18n';
import type { Engine } from '../engine/types';
import { EntropySweep, type Model } from '../model/compute';
import { planeOf } from '../model/reads';
import type { State } from '../state/state';
import type { ViewFaults } from './faults';
import type { Jobs } from './jobs';
import type { Page } from './layout';
import { LazyPlot } from './plot-part';

export class StepsDrawing {
  private readonly entropy = new EntropySweep();
  private readonly lazyPlot: LazyPlot;

  /** `alive`: false once the App is disposed (a plot drawn later must not draw into a page gone). */
  constructor(
    private readonly engine: Engine,
    private readonly page: Page,
    private readonly jobs: Jobs,
    private readonly faults: ViewFaults,
    alive: () => boolean,
  ) {
    this.lazyPlot = new LazyPlot(page.plot.el, () => faults.settle(), alive);
  }

  /** Before printing: the plot drawn now, even if it was waiting to be seen. */
  flush(): void {
    this.lazyPlot.flush();
  }

  /** `finalLabels`: the names of the final output's columns (the word vectors' features). */
  draw(model: Model, s: State, root: HTMLElement, finalLabels: string[]): void {
    root.classList.toggle('no-numbers', !s.numbers);
    root.classList.toggle('comparing', !!model.b);
    const draw = (card: Element, title: string, job: () => void) => this.jobs.add(() => this.faults.run(card, title, job));
    draw(this.page.formula.el, t('formula.label'), () => this.page.formula.update(model.a.options));
    draw(this.page.pipeline.el, t('pipeline.queries'), () => this.page.pipeline.update(model));
    this.page.steps.update({
      model,
      state: s,
      draw,
      difference: model.difference,
      finalLabels,
      entropyRows: () => this.entropy.rowsFor(this.engine, s, model),
    });
    const { values, outputs } = model.plane; // the plot's size decides when it is drawn
    const plot = () =>
      this.lazyPlot.request((values.rows + outputs.rows) * values.cols, () =>
        this.faults.run(this.page.plot.el, t('view.plot'), () => {
          const plane = planeOf(this.engine, model.plane);
          if (plane)
            this.page.plot.update(
              plane,
              model.multiA ? model.queryLabels : model.planeValueLabels,
              model.planeOutputLabels,
              model.arrows,
            );
        }),
      );
    this.page.plot.ready = () => this.jobs.add(plot);
    this.jobs.add(plot);
  }
}
