// The page: wires the state, the engine and the views together. Data flows one way:
// state → compute() (the engine) → views. Every change to the state schedules one render on the
// next animation frame, so a drag or fast typing costs one engine call per frame.
import { h, clear, setText } from '../views/dom';
import { t, num, int, language, translator, LANGUAGES, type MessageKey } from '../i18n';
import type { Engine, LexiconRef, Mat } from '../engine/types';
import { engineMessage } from '../engine/messages';
import { ViewFaults } from './faults';
import { readCells } from '../model/cells';
import { compute, entropyByDk, type Model, type PageError, type Where } from '../model/compute';
import { preset } from '../state/presets';
import { editCell, editWordCell, editLabel, resize, paste, toggleHidden, type MatrixKey } from '../state/edits';
import { History } from '../state/history';
import { defaults, PRESETS, type Focus, type PresetId, type State, type ViewId, CAPS } from '../state/state';
import { parse, serialise } from '../state/link';
import { keep, historyText } from './link';
import { Heatmap, type HeatmapData } from '../views/heatmap';
import { InputsPanel } from '../views/inputs-panel';
import { Formula } from '../views/formula';
import { Plot } from '../views/plot';
import { CostView } from '../views/cost';
import { COST_SIZES, measureCost } from './cost-runner';
import { Explain, type MultiKind } from '../views/explain';
import { EntropyTable } from '../views/entropy';
import { exportMenu, figureSvg, heatmapSvg, save } from '../views/exporter';
import { shareDialog } from '../views/share';
import { Jobs } from './jobs';
import { CANVAS_CELLS } from '../views/heatmap';
import { Bindings } from '../views/bindings';
import { controlsPanel } from '../views/controls-panel';

const STEP_VIEWS = ['scores', 'scaled', 'masked', 'weights', 'output'] as const;
type StepView = (typeof STEP_VIEWS)[number];

interface StepCard {
  card: HTMLElement;
  title: HTMLElement;
  hint: HTMLElement;
  a: Heatmap;
  b: Heatmap;
  labelA: HTMLElement;
  labelB: HTMLElement;
}

export class App {
  private state: State = defaults();
  private model: Model | null = null;
  private lexicon: LexiconRef = 'builtin';
  private fileLexicon: { id: number } | null = null;
  private scheduled = false;
  private renderedThisFrame = false;
  private pendingSince = -1;

  private readonly formula = new Formula();
  private readonly explain = new Explain();
  private readonly plot = new Plot();
  private readonly cost = new CostView(COST_SIZES, measureCost);
  private readonly faults = new ViewFaults(); // one view that throws does not stop the others
  private readonly story = h('p', { class: 'story' });
  private readonly presetButtons = new Map<PresetId, HTMLButtonElement>();
  private readonly errorBoxes = new Map<Where, HTMLElement>();
  private readonly bindings = new Bindings(); // the controls and the parts shown, from the state
  private readonly cards = new Map<StepView, StepCard>();
  private readonly stale = h('p', { class: 'stale', text: t('error.kept'), attrs: { role: 'status' } });
  private readonly headTabs = h('div', { class: 'tabs', attrs: { role: 'tablist', 'aria-label': t('head.label') } });
  private readonly diff: Heatmap;
  private readonly concat: Heatmap;
  private readonly final: Heatmap;
  private readonly diffCard: HTMLElement;
  // Multi-head: this head's projected Q, K and V; "Why √d_k": the entropy at several d_k.
  private readonly headQ = new Heatmap('head-q', 'a', (i, j, how) => this.pointMulti('q', i, j, how));
  private readonly headK = new Heatmap('head-k', 'a', (i, j, how) => this.pointMulti('k', i, j, how));
  private readonly headV = new Heatmap('head-v', 'a', (i, j, how) => this.pointMulti('v', i, j, how));
  private readonly qkvTitle = h('h3');
  private readonly qkvCard = h('section', { class: 'card step qkv-card', attrs: { 'data-step': 'qkv' } }, this.qkvTitle,
    h('p', { class: 'hint', text: t('view.hint.qkv') }),
    h('div', { class: 'qkv-maps' }, this.headQ.el, this.headK.el, this.headV.el));
  private readonly entropy = new EntropyTable();
  private readonly entropyCard = h('section', { class: 'card step', attrs: { 'data-step': 'entropy' } },
    h('h3', { text: t('view.entropy') }), h('p', { class: 'hint', text: t('view.hint.entropy') }), this.entropy.el);
  private entropyKey = '';
  private plotVisible = true;
  private plotStale = false;
  private plotTimer = 0;
  private plotLater: () => void = () => undefined;
  private entropyRows: import('../model/compute').EntropyRow[] = [];
  private readonly multiCards: HTMLElement;
  private inputs!: InputsPanel;
  private views: HTMLElement | null = null;
  private readonly undoButton = this.historyButton('undo');
  private readonly redoButton = this.historyButton('redo');

  private disposed = false;
  private persistTimer = 0;

  /** The state now (the link is written from it). */
  get current(): State {
    return this.state;
  }

  get lexiconFile(): { id: number } | null {
    return this.fileLexicon;
  }

  dispose(): void {
    this.disposed = true;
    this.jobs.cancel();
    clearTimeout(this.persistTimer);
  }

  /** Writes the state into the link and storage, at most once per quarter second (typing, dragging). */
  private persist(): void {
    clearTimeout(this.persistTimer);
    this.persistTimer = window.setTimeout(() => { if (!this.disposed) keep(this.state); }, 250);
  }

  /** Writes what persist() still holds back now: the page is being left or reloaded. */
  flush(): void {
    clearTimeout(this.persistTimer);
    if (!this.disposed) keep(this.state);
  }

  constructor(private readonly engine: Engine, private readonly root: HTMLElement,
    private readonly remount: (state: State, fileLexicon: { id: number } | null) => void,
    private readonly history: History, initial?: State, fileLexicon?: { id: number } | null) {
    if (initial) this.state = initial;
    this.fileLexicon = fileLexicon ?? null;
    const point = (view: ViewId, side: 'a' | 'b') => (row: number, col: number, how: string) =>
      this.point({ view, row, col, side }, how);
    this.diff = new Heatmap('diff', 'a', (row, col, how) => this.pointDiff(row, col, how));
    this.concat = new Heatmap('concat', 'a', (i, j, how) => this.pointMulti('concat', i, j, how));
    this.final = new Heatmap('final', 'a', (i, j, how) => this.pointMulti('final', i, j, how));
    this.diffCard = this.card('diff', t('view.diff'), t('view.hint.diff'), this.diff.el);
    this.multiCards = h('div', { class: 'multi-cards' },
      this.card('concat', t('view.concat'), '', this.concat.el),
      this.card('final', t('view.final'), '', this.final.el));
    for (const v of STEP_VIEWS) {
      const a = new Heatmap(v, 'a', point(v, 'a'));
      const b = new Heatmap(v, 'b', point(v, 'b'));
      const labelA = h('p', { class: 'side-label' }), labelB = h('p', { class: 'side-label' });
      const title = h('h3', { text: this.viewTitle(v) }), hint = h('p', { class: 'hint' });
      const card = h('section', { class: 'card step', attrs: { 'data-step': v } }, title, hint,
        exportMenu(v, () => a.data),
        h('div', { class: 'sides' }, h('div', { class: 'side' }, labelA, a.el), h('div', { class: 'side side-b' }, labelB, b.el)));
      this.cards.set(v, { card, title, hint, a, b, labelA, labelB });
    }
    this.headTabs.addEventListener('keydown', (e) => this.tabKey(e));
    if (typeof IntersectionObserver === 'function') {
      new IntersectionObserver((entries) => {
        this.plotVisible = entries.some((e) => e.isIntersecting);
        if (this.plotVisible && this.plotStale && !this.disposed) this.plotLater();
      }).observe(this.plot.el);
    }
    this.build();
  }

  // --- layout ------------------------------------------------------------------------------------

  private card(name: string, title: string, hint: string, body: HTMLElement): HTMLElement {
    return h('section', { class: 'card step', attrs: { 'data-step': name } }, h('h3', { text: title }),
      hint ? h('p', { class: 'hint', text: hint }) : null, body);
  }

  private errorBox(where: Where): HTMLElement {
    const el = h('div', { class: 'errors', attrs: { 'data-errors': where, role: 'alert' } });
    this.errorBoxes.set(where, el);
    return el;
  }

  private build(): void {
    document.title = t('app.title');
    const nav = h('nav', { class: 'presets', attrs: { 'aria-label': t('presets.label') } });
    for (const id of PRESETS) {
      const b = h('button', { class: 'chip', text: t(`preset.${id}.title` as MessageKey), attrs: { type: 'button', 'data-preset': id } });
      b.addEventListener('click', () => this.load(id));
      this.presetButtons.set(id, b);
      nav.append(b);
    }
    const languages = h('div', { class: 'languages', attrs: { role: 'group', 'aria-label': t('app.language') } });
    for (const l of LANGUAGES) {
      const b = h('button', { class: 'chip lang', text: l.name, attrs: { type: 'button', lang: l.tag, 'data-lang': l.tag,
        'aria-pressed': String(l.tag === language()) } });
      b.addEventListener('click', () => this.switchLanguage(l.tag));
      languages.append(b);
    }
    const share = shareDialog({ state: () => serialise(this.state, t), figure: () => this.figure() });
    const header = h('header', { class: 'top' },
      h('div', { class: 'brand' }, h('h1', { text: t('app.title') }), h('p', { class: 'tagline', text: t('app.tagline') })),
      h('div', { class: 'top-right' }, h('div', { class: 'share-row' },
        h('div', { class: 'history', attrs: { role: 'group', 'aria-label': t('history.label') } }, this.undoButton, this.redoButton),
        share.open, languages), nav), share.dialog);

    const steps = h('section', { class: 'steps', attrs: { 'aria-labelledby': 'steps-title' } },
      h('div', { class: 'steps-head' }, h('h2', { text: t('steps.title'), attrs: { id: 'steps-title' } }), this.headTabs,
        this.figureMenu()),
      this.errorBox('steps'), this.errorBox('heads'), this.stale,
      this.views = h('div', { class: 'views' }, this.qkvCard, ...STEP_VIEWS.map((v) => this.cards.get(v)!.card), this.entropyCard, this.diffCard,
        this.card('plot', t('view.plot'), '', this.plot.el),
        this.card('cost', t('view.cost'), '', this.cost.el)),
      this.multiCards);

    this.root.append(header,
      h('section', { class: 'intro' }, this.story, this.formula.el),
      h('div', { class: 'layout' },
        h('aside', { class: 'side-col' }, controlsPanel(this.bindings, () => this.state, (patch, kind) => this.set(patch, kind)), this.explain.el),
        h('main', { class: 'main-col' }, this.buildInputs().el, steps)),
      h('footer', { class: 'foot', text: t('app.footer') }));
  }

  /** The visible steps as one figure, as the heatmaps show them: a comparison's two sides side by side. */
  figure(): string {
    const rows: string[][] = [];
    for (const c of this.cards.values()) {
      if (c.card.hidden || !c.a.data) continue;
      const b = c.b.el.parentElement?.hidden === false ? c.b.data : null;
      rows.push(b ? [heatmapSvg(c.a.data), heatmapSvg(b)] : [heatmapSvg(c.a.data)]);
    }
    return figureSvg(t('app.title'), rows);
  }

  private figureMenu(): HTMLElement {
    const button = (format: 'png' | 'svg') => {
      const b = h('button', { class: 'btn small', text: t(`export.format.${format}`),
        attrs: { type: 'button', 'data-figure': format, 'aria-label': t('export.downloadAs', { format: t(`export.format.${format}`) }) } });
      b.addEventListener('click', () => void save('attention-figure', format, this.figure()).catch(() => undefined));
      return b;
    };
    return h('div', { class: 'export-row figure-export', attrs: { role: 'group', 'aria-label': t('export.figure') } },
      h('span', { text: t('export.figure') }), button('svg'), button('png'));
  }

  private buildInputs(): InputsPanel {
    const sentences = (lang: string) => { const r = this.engine.exampleSentences(lang); return Array.isArray(r) ? r : []; };
    const mine = language().split('-')[0];
    this.inputs = new InputsPanel(this.bindings, () => this.state, {
      set: (patch, kind) => this.set(patch, kind),
      editCell: (view, i, j, text) => this.editCell(view, i, j, text),
      editLabel: (view, i, text) => this.editLabel(view, i, text),
      point: (focus, how) => this.point(focus, how),
      resize: (what, by) => this.resize(what, by),
      pasteMatrix: (target, text) => this.pasteMatrix(target, text),
      loadVectors: (text) => this.loadVectors(text),
      hasFile: () => !!this.fileLexicon,
      errorBox: (where) => this.errorBox(where as Where),
      read: readCells,
    }, [...sentences(mine), ...sentences(mine === 'en' ? 'zh' : 'en')]);
    return this.inputs;
  }

  // --- state changes -----------------------------------------------------------------------------

  /**
   * Every edit of the reader goes through here (and load(), and a click on the custom mask), so
   * each is an undo step. `kind` names a continuous edit whose quick repeats are one step
   * (history.ts): the text box, a slider, one grid cell; '' for a click.
   */
  private set(patch: Partial<State>, kind = '', e?: Event): void {
    this.state = { ...this.state, ...patch };
    this.record(kind);
    this.update(e);
  }

  /** Shows the state that changed: now, or coalesced with the other changes of this frame. */
  private update(e?: Event): void {
    if (this.pendingSince < 0) this.pendingSince = e?.timeStamp ?? performance.now();
    // The first change in a frame renders at once, in the event that made it; more changes in
    // the same frame (a fast drag) are coalesced into one render on the next frame.
    if (this.scheduled || this.renderedThisFrame) {
      this.schedule();
      return;
    }
    this.renderedThisFrame = true;
    requestAnimationFrame(() => { this.renderedThisFrame = false; });
    this.render();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      if (this.disposed) return;
      this.render();
    });
  }

  /** The page in another language: the same state, its preset's labels in the new words. */
  switchLanguage(tag: string): void {
    if (tag === language()) return;
    const s: State = { ...this.state, lang: tag };
    if (s.preset) {
      const before = preset(s.preset, t); // labels in the current language
      const after = preset(s.preset, translator(tag));
      for (const k of ['qLabels', 'kLabels', 'dkNames', 'dvNames'] as const) {
        if (JSON.stringify(s[k]) === JSON.stringify(before[k])) s[k] = after[k];
      }
    }
    this.dispose();
    this.remount(s, this.fileLexicon);
  }

  private record(kind: string): void {
    this.history.record(historyText(this.state), kind, performance.now());
  }

  /** Undo or redo: a labelled button with its shortcuts, disabled when there is no step to take. */
  private historyButton(which: 'undo' | 'redo'): HTMLButtonElement {
    const b = h('button', { class: 'btn small ghost', text: t(`history.${which}`), attrs: { type: 'button', 'data-history': which,
      'aria-keyshortcuts': which === 'undo' ? 'Control+Z Meta+Z' : 'Control+Shift+Z Meta+Shift+Z Control+Y',
      title: t(`history.${which}Keys`), disabled: '' } });
    b.addEventListener('click', () => this.step(which));
    return b;
  }

  /**
   * One step back or forward: that step's state, with the pointed-at cell and the language kept
   * (neither is an edit). A focused text field is refreshed too (render() leaves a focused field
   * alone so typing is never overwritten) and keeps the focus, or its cell does if the grid was
   * rebuilt; failing both, the focus goes to the button of this action.
   */
  step(which: 'undo' | 'redo'): void {
    const text = which === 'undo' ? this.history.undo() : this.history.redo();
    if (text === null) return;
    this.state = { ...parse(text, Infinity).state, focus: this.state.focus, lang: this.state.lang };
    const active = document.activeElement;
    const field = active instanceof HTMLInputElement && this.root.contains(active) && /^(text|number)$/.test(active.type) ? active : null;
    if (!field) return this.update(); // a held-down Ctrl+Z costs one render a frame, as a drag does
    const grid = field.closest<HTMLElement>('.input-grid')?.dataset.view; // before a rebuild detaches it
    field.blur();
    this.render();
    const same = this.sameField(field, grid);
    const button = which === 'undo' ? this.undoButton : this.redoButton;
    const other = which === 'undo' ? this.redoButton : this.undoButton;
    (same ?? (button.disabled ? other : button)).focus();
  }

  /** `field` after a render, or the input of the same grid cell if the grid was rebuilt; null if hidden or gone. */
  private sameField(field: HTMLInputElement, grid: string | undefined): HTMLInputElement | null {
    let same: HTMLInputElement | null = field;
    if (!field.isConnected && grid !== undefined) {
      const { i, j } = field.dataset; // numbers the grid wrote
      same = this.root.querySelector<HTMLInputElement>(`.input-grid[data-view="${grid}"] input[data-i="${i}"]` +
        (j === undefined ? ':not([data-j])' : `[data-j="${j}"]`));
    }
    return same && same.isConnected && !same.closest('[hidden]') ? same : null;
  }

  /** The buttons follow the history; a focused button that runs out hands the focus to the other. */
  private syncHistory(): void {
    const active = document.activeElement;
    this.undoButton.disabled = !this.history.canUndo;
    this.redoButton.disabled = !this.history.canRedo;
    if (active === this.undoButton && this.undoButton.disabled) this.redoButton.focus();
    else if (active === this.redoButton && this.redoButton.disabled) this.undoButton.focus();
  }

  load(id: PresetId): void {
    this.state = { ...preset(id, t), lang: this.state.lang };
    this.record('');
    this.lexicon = this.state.lexicon === 'file' && this.fileLexicon ? this.fileLexicon : this.state.lexicon === 'fruit' ? 'fruit' : 'builtin';
    this.render();
  }

  /** A typed cell of a grid: a word's vector (x, qx) or Q, K, V. */
  private editCell(view: string, i: number, j: number, text: string): void {
    const words = view === 'x' ? this.lastWords : view === 'qx' ? this.lastQueryWords : null;
    const patch = view === 'x' || view === 'qx' ? (words ? editWordCell(this.state, words, i, j, text) : null)
      : editCell(this.state, view as MatrixKey, i, j, text);
    if (patch) this.set(patch, `cell:${view}:${i}:${j}`);
  }

  private editLabel(view: 'q' | 'k', i: number, text: string): void {
    const patch = editLabel(this.state, view, i, text);
    if (patch) this.set(patch, `label:${view}:${i}`);
  }

  private resize(what: 'q' | 'k' | 'dk' | 'dv', by: 1 | -1): void {
    this.set(resize(this.state, what, by));
  }

  private pasteMatrix(target: 'q' | 'k' | 'v', text: string): void {
    const names = { q: 'queries', k: 'keys', v: 'values' } as const;
    const r = this.engine.parseMatrix(text, names[target]);
    const box = this.errorBoxes.get('paste' as Where)!;
    clear(box);
    this.inputs.pasteMessage('');
    if (!r.ok) {
      box.append(h('p', { class: 'error', text: engineMessage(r.error, this.engine.limits, {}, true) }));
      return;
    }
    const { rows, cols } = r.matrix;
    const patch = paste(this.state, target, r.matrix);
    if (!patch) { // kept in the link and in storage: the page's caps
      box.append(h('p', { class: 'error', text: t('vectors.pasteTooLarge', {
        name: target.toUpperCase(), rows: int(rows), cols: int(cols), maxRows: int(CAPS.rows), maxCols: int(CAPS.cols) }) }));
      return;
    }
    this.inputs.pasteMessage(t('vectors.pasted', { name: target.toUpperCase(), rows, cols }));
    this.set(patch);
  }

  private loadVectors(text: string): void {
    const r = this.engine.parseEmbeddings(text);
    if (!r.ok) return this.inputs.fileMessage(engineMessage(r.error, this.engine.limits, {}, true), true);
    if (this.fileLexicon) this.engine.freeLexicon(this.fileLexicon);
    this.fileLexicon = { id: r.id };
    this.inputs.fileMessage(t('words.fileLoaded', { count: int(r.size), dims: int(r.features.length) }), false);
    this.set({ lexicon: 'file', edits: [] });
  }

  private point(focus: Focus, how: string): void {
    const s = this.state;
    if (how === 'click' && focus.view === 'masked' && s.mask === 'custom') {
      this.state = { ...s, ...toggleHidden(s, focus.row, focus.col), focus };
      this.record('');
      this.render();
      return;
    }
    const f = s.focus;
    if (f && f.view === focus.view && f.row === focus.row && f.col === focus.col && f.side === focus.side) return;
    this.state = { ...s, focus };
    this.applyFocus(how !== 'hover');
    this.faults.settle(); // a focus change redraws the explanation alone
    this.persist();
  }

  /**
   * A cell of the difference: its row and column light up as for the right-hand weight, and the
   * explanation gives the subtraction before that weight's own arithmetic.
   */
  private pointDiff(row: number, col: number, how: string): void {
    this.point({ view: 'weights', row, col, side: 'b' }, how);
    const model = this.model, shown = this.diff.data?.values;
    if (!model?.b || !shown || this.state.focus?.view !== 'weights') return;
    const difference = shown.data[row * shown.cols + col];
    this.faults.run(this.explain.el, t('explain.title'), () =>
      this.explain.showDifference(this.engine, model, row, col, difference, this.viewTitle, how !== 'hover'));
  }

  /**
   * A cell of a multi-head view (this head's Q, K or V; the joined heads; the final output): its
   * token lights up in every view and the explanation lists the engine's factors and result.
   * These cells are not a focus of the state (a link does not carry them).
   */
  private pointMulti(kind: MultiKind, i: number, j: number, how: string): void {
    const model = this.model;
    if (!model?.multiA) return;
    const row = kind === 'k' || kind === 'v' ? { query: null, key: i } : { query: i, key: null };
    this.light(row.query, row.key, null, null, null);
    const maps: Record<MultiKind, Heatmap> = { q: this.headQ, k: this.headK, v: this.headV, concat: this.concat, final: this.final };
    maps[kind].highlight([i], [j], [i, j]); // the others light the token's row (light())
    this.formula.focus(kind === 'q' || kind === 'k' || kind === 'v' ? kind : null); // the formula has no W_O
    this.faults.run(this.explain.el, t('explain.title'), () =>
      this.explain.showMulti(model, kind, i, j, this.viewTitle, how !== 'hover', this.final.data?.colLabels?.[j]));
  }

  // --- rendering ---------------------------------------------------------------------------------

  private lastWords: import('../model/compute').Words | null = null;
  private lastQueryWords: import('../model/compute').Words | null = null;

  private readonly jobs = new Jobs();

  render(): void {
    const started = performance.now();
    this.jobs.cancel();
    const s = this.state;
    this.lexicon = s.lexicon === 'file' && this.fileLexicon ? this.fileLexicon : s.lexicon === 'fruit' ? 'fruit' : 'builtin';
    this.bindings.apply();
    this.syncHistory();
    for (const [id, b] of this.presetButtons) b.setAttribute('aria-pressed', String(s.preset === id));
    setText(this.story, t(s.preset ? (`preset.${s.preset}.story` as MessageKey) : 'preset.custom.story'));

    const computed = compute(this.engine, s, this.lexicon);
    this.showErrors(computed.errors);
    if (computed.words) this.lastWords = computed.words;
    if (computed.queryWords) this.lastQueryWords = computed.queryWords;
    if (computed.model) this.model = computed.model;
    this.stale.hidden = !computed.errors.length || !this.model;
    this.root.dataset.state = computed.model ? 'ok' : 'error';
    const scores = this.model?.a.steps.scores;
    this.jobs.spread = !!scores && scores.rows * scores.cols > CANVAS_CELLS; // canvases: spread the views
    // The inputs' grid too: 64 tokens of vectors took 20 ms, on top of the engine's 30 ms for 16 heads.
    this.jobs.add(() => this.faults.run(this.inputs.wordsPanel, t('inputs.title'), () => this.inputs.update(this.state, computed.words ?? this.lastWords, computed.queryWords ?? this.lastQueryWords)));
    if (this.model) this.renderSteps(this.model);
    this.jobs.finish(() => this.rendered(started));
  }

  /** After the last view of a render: the focus, the fault messages, the measures, the count. */
  private rendered(started: number): void {
    if (this.disposed) return;
    this.applyFocus();
    this.faults.settle();
    if (this.pendingSince >= 0) {
      performance.measure('ap-script', { start: started, end: performance.now() }); // no layout
      document.body.getBoundingClientRect(); // the layout is part of what the reader waits for
      const end = performance.now();
      performance.measure('ap-update', { start: this.pendingSince, end }); // input event → view
      performance.measure('ap-render', { start: started, end }); // the work alone
      this.pendingSince = -1;
    }
    this.root.dataset.renders = String(Number(this.root.dataset.renders ?? 0) + 1);
    this.persist();
  }

  private showErrors(errors: PageError[]): void {
    for (const [where, box] of this.errorBoxes) {
      if (where === ('paste' as Where)) continue;
      const mine = errors.filter((e) => e.where === where);
      const text = mine.map((e) => e.message).join('\n');
      if (box.textContent === text) continue;
      clear(box);
      for (const e of mine.slice(0, 5)) box.append(h('p', { class: 'error', text: e.message }));
      if (mine.length > 5) box.append(h('p', { class: 'error', text: '…' }));
    }
  }

  private viewTitle = (view: string): string => {
    if (view === 'scores' && this.model?.a.options.similarity === 'cosine' && this.state.compare !== 'similarity') return t('view.scoresCosine');
    const keys: Record<string, MessageKey> = { x: 'view.x', q: 'view.q', k: 'view.k', v: 'view.v', scores: 'view.scores',
      scaled: 'view.scaled', masked: 'view.masked', weights: 'view.weights', output: 'view.output',
      concat: 'view.concat', final: 'view.final' };
    return keys[view] ? t(keys[view]) : view;
  };

  private renderSteps(model: Model): void {
    const s = this.state;
    this.root.classList.toggle('no-numbers', !s.numbers);
    this.root.classList.toggle('comparing', !!model.b);
    this.jobs.add(() => this.faults.run(this.formula.el, t('formula.label'), () => this.formula.update(model.a.options)));
    // Cards as wide as a heatmap of m keys needs (the row header, the cells, Σ and H).
    const width = Math.min(900, 150 + 52 * (Math.max(model.keyLabels.length, model.dvNames.length) + 2));
    const columns = `repeat(auto-fill, minmax(min(100%, ${width}px), 1fr))`;
    if (this.views && this.views.style.gridTemplateColumns !== columns) this.views.style.gridTemplateColumns = columns;
    const heatmaps = (run: NonNullable<Model['b']>, side: 'a' | 'b') => {
      const st = run.steps;
      const nm = (values: Mat, caption: string, scale: HeatmapData['scale'], hidden?: Uint8Array): HeatmapData =>
        ({ caption, rowLabels: model.queryLabels, colLabels: model.keyLabels, values, scale, hidden, numbers: s.numbers });
      const sideName = model.b ? (side === 'a' ? model.sideA : model.sideB) : '';
      const cap = (v: StepView) => (sideName ? `${this.viewTitle(v)} (${sideName})` : this.viewTitle(v));
      const card = (v: StepView) => (side === 'a' ? this.cards.get(v)!.a : this.cards.get(v)!.b);
      const show = (v: StepView, data: HeatmapData) =>
        this.jobs.add(() => this.faults.run(this.cards.get(v)!.card, this.viewTitle(v), () => card(v).update(data)));
      const hidden = run.options.mask === 'none' ? undefined : invert(st.visible.data);
      show('scores', nm(st.scores, cap('scores'), 'signed'));
      show('scaled', nm(st.scaled, cap('scaled'), 'signed'));
      show('masked', nm(st.masked, cap('masked'), 'signed', hidden));
      const weights = nm(st.weights, cap('weights'), 'weights', hidden);
      weights.extras = [
        { header: t('col.sum'), title: t('col.sumTitle'), cells: st.rowStats.map((r) => num(r.weightSum)) },
        { header: t('col.entropy'), title: t('col.entropyTitle'), cells: st.rowStats.map((r) => num(r.entropy)) },
      ];
      weights.rowProblems = st.rowStats.map((r) => (r.problem === 'none' ? null
        : { code: r.problem, text: t(`row.problem.${r.problem}` as MessageKey) }));
      show('weights', weights);
      // An output row made from a failed row of weights says so, rather than pass for a result.
      const failed = weights.rowProblems.some((p) => p);
      show('output', { caption: cap('output'), rowLabels: model.queryLabels, colLabels: model.dvNames.slice(0, st.dV),
        values: st.output, scale: 'signed', rowProblems: failed ? weights.rowProblems : undefined });
    };
    heatmaps(model.a, 'a');
    if (model.b) heatmaps(model.b, 'b');
    for (const [v, c] of this.cards) {
      setText(c.title, this.viewTitle(v));
      setText(c.labelA, model.b ? model.sideA : '');
      setText(c.labelB, model.b ? model.sideB : '');
      c.b.el.parentElement!.hidden = !model.b;
      setText(c.hint, this.hint(v, model));
    }
    this.diffCard.hidden = !model.b;
    if (model.b) {
      // The one place the page subtracts: the difference of two engine results, for display.
      const a = model.a.steps.weights, b = model.b.steps.weights;
      const data = new Float64Array(a.data.length);
      for (let k = 0; k < data.length; k++) data[k] = b.data[k] - a.data[k];
      this.jobs.add(() => this.faults.run(this.diffCard, t('view.diff'), () => this.diff.update({ caption: t('view.diff'),
        rowLabels: model.queryLabels, colLabels: model.keyLabels, values: { rows: a.rows, cols: a.cols, data }, scale: 'signed' })));
    }
    // Multi-head: tabs, the joined heads and the final output.
    this.multiCards.hidden = !model.multiA;
    this.renderTabs(model.multiA && model.multiA.heads.length > 1 ? model.multiA.heads.length : 0, model.head);
    if (model.multiA) {
      const m = model.multiA;
      this.jobs.add(() => this.faults.run(this.concat.el, t('view.concat'), () => this.concat.update({ caption: t('view.concat'),
        rowLabels: model.queryLabels, values: m.concat, scale: 'signed',
        colLabels: Array.from({ length: m.concat.cols }, (_, c) => `h${Math.floor(c / model.a.steps.dV) + 1}·${(c % model.a.steps.dV) + 1}`) })));
      this.jobs.add(() => this.faults.run(this.final.el, t('view.final'), () => this.final.update({ caption: t('view.final'),
        rowLabels: model.queryLabels, colLabels: this.lastWords?.features.slice(0, m.output.cols) ?? [], values: m.output, scale: 'signed' })));
    }
    this.jobs.add(() => this.faults.run(this.qkvCard, t('view.qkv', { h: model.head + 1 }), () => this.renderHeadInputs(model)));
    this.jobs.add(() => this.renderPlot(model));
  }

  /**
   * The plane of the plot (the engine's project2d). Small inputs: now, with the rest. Large ones
   * (project2d costs tens of ms at 128×64): after the frame, and only while the plot is on
   * screen, so the heatmaps the reader watches are not held up by it.
   */
  private renderPlot(model: Model): void {
    const draw = () => this.faults.run(this.plot.el, t('view.plot'), () => {
      this.plotStale = false;
      const plane = this.engine.project2d(model.plane.values, model.plane.outputs);
      if (plane.ok) this.plot.update(plane, model.multiA ? model.queryLabels : model.planeValueLabels, model.planeOutputLabels, model.arrows);
    });
    const later = () => { draw(); this.faults.settle(); }; // after the frame: the plot alone
    const { values, outputs } = model.plane;
    clearTimeout(this.plotTimer);
    if ((values.rows + outputs.rows) * values.cols <= 4096) return draw();
    this.plotStale = true;
    this.plotLater = later;
    if (this.plotVisible) this.plotTimer = window.setTimeout(later, 0);
  }

  /** Multi-head: the shown head's Q = X·W_Q, K = X·W_K, V = X·W_V; and the entropy by d_k. */
  private renderHeadInputs(model: Model): void {
    const s = this.state;
    const m = model.multiA;
    this.qkvCard.hidden = !m;
    this.entropyCard.hidden = !m || s.compare !== 'scale';
    if (!m) return;
    const st = m.heads[model.head];
    setText(this.qkvTitle, t('view.qkv', { h: model.head + 1 }));
    const names = (k: number) => Array.from({ length: k }, (_, c) => String(c + 1));
    this.headQ.update({ caption: t('view.q'), rowLabels: model.queryLabels, colLabels: names(st.dK), values: st.queries, scale: 'signed', numbers: s.numbers });
    this.headK.update({ caption: t('view.k'), rowLabels: model.keyLabels, colLabels: names(st.dK), values: st.keys, scale: 'signed', numbers: s.numbers });
    this.headV.update({ caption: t('view.v'), rowLabels: model.keyLabels, colLabels: names(st.dV), values: st.values, scale: 'signed', numbers: s.numbers });
    if (this.entropyCard.hidden) return;
    // Ten engine runs per d_k pair: only when the words or the settings they depend on change.
    const key = [Array.from(m.x.data).join(), s.heads, model.head, s.seed, s.similarity, s.mask].join('|');
    if (key !== this.entropyKey) {
      this.entropyKey = key;
      this.entropyRows = entropyByDk(this.engine, s, m.x, model.head);
    }
    this.entropy.update(this.entropyRows, st.dK);
  }

  /** The head tabs: rebuilt only when the count changes, so a focused tab keeps its focus. */
  private renderTabs(count: number, selected: number): void {
    const tabs = Array.from(this.headTabs.children) as HTMLButtonElement[];
    if (tabs.length !== count) {
      clear(this.headTabs);
      for (let k = 0; k < count; k++) {
        const tab = h('button', { class: 'tab', text: t('head.tab', { h: k + 1 }), attrs: { type: 'button', role: 'tab',
          'data-head': String(k) } });
        tab.addEventListener('click', () => this.set({ head: k }));
        this.headTabs.append(tab);
      }
    }
    (Array.from(this.headTabs.children) as HTMLButtonElement[]).forEach((tab, k) => {
      tab.setAttribute('aria-selected', String(k === selected));
      tab.tabIndex = k === selected ? 0 : -1;
    });
  }

  /** Arrow keys, Home and End move between the head tabs (the ARIA tabs pattern). */
  private tabKey(e: KeyboardEvent): void {
    const tabs = Array.from(this.headTabs.children) as HTMLButtonElement[];
    const k = tabs.indexOf(e.target as HTMLButtonElement);
    if (k < 0) return;
    const next = e.key === 'ArrowRight' ? (k + 1) % tabs.length : e.key === 'ArrowLeft' ? (k + tabs.length - 1) % tabs.length
      : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    tabs[next].focus();
    this.set({ head: next });
  }

  private hint(v: StepView, model: Model): string {
    const o = model.a.options;
    switch (v) {
      case 'scores': return t('view.hint.scores');
      case 'scaled': return o.scale === 'none' ? t('view.hint.scaledNone')
        : t('view.hint.scaled', { divisor: o.scale === 'sqrt' ? `√d_k = √${model.a.steps.dK}` : `T = ${num(o.temperature ?? 1)}` });
      case 'masked': return o.mask === 'none' ? t('view.hint.maskedNone') : t('view.hint.masked');
      case 'weights': return o.normalization === 'sum' ? t('view.hint.weightsSum') : t('view.hint.weights');
      default: return t('view.hint.output');
    }
  }

  /** Lights up the focused cell's row and column in every view, and explains it. */
  private applyFocus(announce = false): void {
    const f = this.state.focus;
    const model = this.model;
    let query: number | null = null, key: number | null = null, feat: number | null = null, vfeat: number | null = null;
    if (f && model) {
      if (['scores', 'scaled', 'masked', 'weights'].includes(f.view)) { query = f.row; key = f.col; }
      else if (f.view === 'output') { query = f.row; vfeat = f.col; }
      else if (f.view === 'q') { query = f.row; feat = f.col; }
      else if (f.view === 'k') { key = f.row; feat = f.col; }
      else if (f.view === 'v') { key = f.row; vfeat = f.col; }
      // X holds the keys and values; in self-attention each of its rows is a query as well.
      else if (f.view === 'x') { key = f.row; query = this.state.setup === 'self' ? f.row : null; feat = vfeat = f.col; }
    }
    this.light(query, key, feat, vfeat, f);
    this.formula.focus(f ? f.view : null);
    if (model) {
      this.faults.run(this.explain.el, t('explain.title'), () => this.explain.show(this.engine, model, f, this.viewTitle, announce));
    }
  }

  /** Lights a query row, a key row (a column of the scores) and features in every view. */
  private light(query: number | null, key: number | null, feat: number | null, vfeat: number | null, f: Focus | null): void {
    const list = (...xs: Array<number | null>) => xs.filter((x): x is number => x !== null);
    for (const [v, c] of this.cards) {
      for (const hm of [c.a, c.b]) {
        const own = f && f.view === v && f.side === hm.side ? ([f.row, f.col] as [number, number]) : undefined;
        if (v === 'output') hm.highlight(list(query), list(vfeat), own);
        else hm.highlight(list(query), list(key), own);
      }
    }
    this.diff.highlight(list(query), list(key));
    this.concat.highlight(list(query), []);
    this.final.highlight(list(query), []);
    this.headQ.highlight(list(query), []);
    this.headK.highlight(list(key), []);
    this.headV.highlight(list(key), []);
    const words = this.state.setup === 'self';
    this.inputs.grids.get('x')?.highlight(words ? [...new Set(list(query, key))] : list(key), list(feat ?? vfeat));
    this.inputs.grids.get('qx')?.highlight(list(query), list(feat));
    this.inputs.grids.get('q')?.highlight(list(query), list(feat));
    this.inputs.grids.get('k')?.highlight(list(key), list(feat));
    this.inputs.grids.get('v')?.highlight(list(key), list(vfeat));
    this.plot.highlight(query, key);
  }
}

function invert(visible: Uint8Array): Uint8Array {
  const hidden = new Uint8Array(visible.length);
  for (let k = 0; k < visible.length; k++) hidden[k] = visible[k] ? 0 : 1;
  return hidden;
}
