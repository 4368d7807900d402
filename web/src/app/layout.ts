// The page's parts, built once per language and placed: the header, the story and the formula,
// the controls and "Why this number?" beside the inputs and the steps. Each part receives the
// state through a getter and the bindings, and every change goes out through `on`.
import { exampleSentences } from '../model/reads';
import { h } from '../views/dom';
import { Story } from '../views/story';
import { card } from '../views/card';
import { PipelineView } from '../views/pipeline';
import { ExplainPopover } from '../views/popover';
import { presentButton } from './present-part';
import { t, language } from '../i18n';
import type { Engine } from '../engine/types';
import { readCells } from '../model/cells';
import type { Where } from '../model/compute';
import type { Focus, PresetId, State } from '../state/state';
import { editLabel, resize, type MatrixKey, type Patch } from '../state/edits';
import { serialise } from '../state/link';
import { Bindings } from '../views/bindings';
import { controlsPanel } from '../views/controls-panel';
import { ErrorBoxes } from '../views/error-boxes';
import { Explain, type MultiKind } from '../views/explain';
import { Formula } from '../views/formula';
import { Header } from '../views/header';
import { InputsPanel } from '../views/inputs-panel';
import { PlotSlot } from './plot-part';
import { PlaySlot } from './play-part';
import { saveFigure } from '../views/exporter';
import { keep } from './link';
import { shareButton } from './share-part';
import { StepsView } from '../views/steps';
import { UndoButtons } from '../views/undo-buttons';
import { costPart } from './cost-part';

export interface PageHandlers {
  /** The App's lifetime: every listener the page adds outside its own elements goes with it. */
  readonly signal: AbortSignal;
  state(): State;
  /** The figure's queries and keys now, [n, m]. */
  shape(): [number, number];
  set(patch: Patch, kind?: string, e?: Event): void;
  load(id: PresetId): void;
  switchLanguage(tag: string): void;
  step(which: 'undo' | 'redo'): void;
  point(focus: Focus, how: string): void;
  pointDiff(row: number, col: number, how: string): void;
  pointMulti(kind: MultiKind, i: number, j: number, how: string): void;
  editCell(view: string, i: number, j: number, text: string, e?: Event): void;
  pasteMatrix(target: MatrixKey, text: string): void;
  loadVectors(text: string): void;
  hasFile(): boolean;
}

export class Page {
  readonly formula = new Formula();
  readonly explain = new Explain();
  readonly plot = new PlotSlot();
  readonly story: Story;
  readonly pipeline: PipelineView;
  readonly play: PlaySlot;
  readonly popover: ExplainPopover;
  readonly errors = new ErrorBoxes<Where | 'paste'>();
  readonly bindings = new Bindings(); // the controls and the parts shown, from the state
  readonly stale = h('p', { class: 'stale', text: t('error.kept'), attrs: { role: 'status' } });
  readonly undo: UndoButtons;
  readonly header: Header;
  readonly steps: StepsView;
  readonly inputs: InputsPanel;

  constructor(root: HTMLElement, engine: Engine, on: PageHandlers) {
    const { signal } = on;
    this.undo = new UndoButtons((which) => on.step(which));
    this.steps = new StepsView({ ...on, selectHead: (head) => on.set({ head }) }, [['plot', t('view.plot'), this.plot.el]]);
    const share = shareButton(root, {
      state: () => serialise(on.state(), t),
      savePng: () => saveFigure('attention-figure', 'png', t('app.title'), this.steps.figure()),
      signal,
    });
    this.header = new Header({
      undo: this.undo.el,
      present: presentButton(root, on.state, on.load, signal),
      share,
      load: on.load,
      switchLanguage: on.switchLanguage,
    });
    this.inputs = this.buildInputs(engine, on);
    this.pipeline = new PipelineView({
      point: on.point,
      play: () => this.play.toggle(),
      drawn: (model, row) => this.play.drawn(model, row),
    });
    this.play = new PlaySlot(engine, this.pipeline, () => keep(on.state()));
    this.story = new Story(() => {
      const id = on.state().preset;
      if (id) on.load(id);
    });
    // The first Tab stop: past the header, the presets and the controls, to the figure.
    const skip = h('a', { class: 'skip-link', text: t('app.skip'), attrs: { href: '#pipeline' } });
    skip.addEventListener('click', (e) => {
      e.preventDefault(); // the hash holds the state, not an anchor
      this.pipeline.el.focus();
      this.pipeline.el.scrollIntoView({ block: 'start' });
    });
    root.append(
      skip,
      this.header.el,
      h('section', { class: 'intro' }, this.story.el, this.formula.el),
      h(
        'div',
        { class: 'layout' },
        h('aside', { class: 'side-col' }, controlsPanel(this.bindings, on.state, on.set, on.shape)),
        h(
          'main',
          { class: 'main-col' },
          this.stale, // above the first figure, whose numbers it is about
          this.pipeline.el,
          this.inputs.el,
          this.steps.section(this.errors.box('steps'), this.errors.box('heads')),
          // The cost is about attention at large sizes, not a step of this figure: it comes after.
          h('section', { class: 'after-steps' }, card('cost', t('view.cost'), '', costPart(signal))),
        ),
      ),
      h('footer', { class: 'foot', text: t('app.footer') }),
      this.explain.el, // placed over the page, beside the pointed-at cell (views/popover.ts)
    );
    this.popover = new ExplainPopover(root, this.explain.el, signal);
  }

  private buildInputs(engine: Engine, on: PageHandlers): InputsPanel {
    const sentences = (lang: string) => exampleSentences(engine, lang);
    const mine = language().split('-')[0];
    const handlers = {
      ...on,
      editLabel: (view: 'q' | 'k', i: number, text: string) => {
        const p = editLabel(on.state(), view, i, text);
        if (p) on.set(p, `label:${view}:${i}`);
      },
      resize: (what: 'q' | 'k' | 'dk' | 'dv', by: 1 | -1) => on.set(resize(on.state(), what, by)),
      errorBox: (where: Where | 'paste') => this.errors.box(where),
      read: readCells,
    };
    return new InputsPanel(this.bindings, on.state, handlers, [...sentences(mine), ...sentences(mine === 'en' ? 'zh' : 'en')]);
  }
}
