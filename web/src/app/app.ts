// The page: wires the state, the engine and the views together. Data flows one way:
// state → compute() (the engine) → views. Every change to the state schedules one render on the
// next animation frame, so a drag or fast typing costs one engine call per frame.
import { t, int, language, translator, type MessageKey } from '../i18n';
import type { Engine, LexiconRef } from '../engine/types';
import { ViewFaults } from './faults';
import { PAGE_NAMES, pageMessage } from './names';
import { compute, type Model, type Words } from '../model/compute';
import { preset, relabel, changedFromPreset } from '../state/presets';
import { editCell, editWordCell, toggleHidden, type MatrixKey } from '../state/edits';
import { pastedMatrix, loadedVectors } from './inputs-io';
import { History } from '../state/history';
import { ownSentence } from '../state/own-sentence';
import { defaults, type Focus, type PresetId, type State } from '../state/state';
import { parse } from '../state/link';
import { historyText } from './link';
import { loadCatalog } from '../lazy/catalogs';
import { Keeper } from './keeper';
import { Page } from './layout';
import type { MultiKind } from '../views/explain';
import { Jobs } from './jobs';
import { learnedVectors } from './vectors-part';
import type { Parts } from '../lazy/lazy';
import { StepsDrawing } from './draw-steps';
import { Highlighter } from './highlight';
import { refreshFocused } from './focus';
import { Scheduler } from './scheduler';
import { CANVAS_CELLS } from '../views/heatmap';

export class App {
  private state: State = defaults();
  model: Model | null = null; // the numbers on screen (a lesson's question reads its answer here)
  private fileLexicon: { id: number } | null = null;
  private readonly scheduler = new Scheduler(() => this.render());
  private readonly faults = new ViewFaults(); // one view that throws does not stop the others
  private readonly page: Page;
  private readonly drawing: StepsDrawing;
  private readonly highlight: Highlighter;
  private disposed = false;
  /** Every listener the App's parts add to the document or the window is removed with this. */
  private readonly life = new AbortController();
  private readonly keeper = new Keeper(() => ({ state: this.state, root: this.root }));

  /** The state now (the link is written from it). */
  get current(): State {
    return this.state;
  }

  get lexiconFile(): { id: number } | null {
    return this.fileLexicon;
  }

  dispose(): void {
    this.disposed = true;
    this.life.abort();
    this.scheduler.stop();
    this.jobs.cancel();
    this.keeper.stop();
  }

  /** Writes what is still held back into the link and storage: the page is being left or reloaded. */
  flush(): void {
    this.keeper.now();
  }

  /** Before printing: every view drawn now. */
  print(): void {
    this.jobs.drain();
    this.drawing.flush();
  }

  constructor(
    private readonly engine: Engine,
    private readonly root: HTMLElement,
    private readonly remount: (state: State, fileLexicon: { id: number } | null) => void,
    private readonly history: History,
    initial?: State,
    fileLexicon?: { id: number } | null,
    private readonly readWithModel?: (sentence: string) => void, // in the Real model view
  ) {
    if (initial) this.state = initial;
    this.fileLexicon = fileLexicon ?? null;
    this.page = new Page(root, engine, {
      signal: this.life.signal,
      state: () => this.state,
      shape: () => [this.model?.queryLabels.length ?? 0, this.model?.keyLabels.length ?? 0],
      set: (patch, kind, e) => this.set(patch, kind, e),
      load: (id) => this.load(id),
      switchLanguage: (tag) => this.switchLanguage(tag),
      step: (which) => this.step(which),
      point: (focus, how) => this.point(focus, how),
      pointDiff: (row, col, how) => this.pointDiff(row, col, how),
      pointMulti: (kind, i, j, how) => this.pointMulti(kind, i, j, how),
      editCell: (view, i, j, text, e) => this.editCell(view, i, j, text, e),
      pasteMatrix: (target, text) => this.pasteMatrix(target, text),
      loadVectors: (text) => this.loadVectors(text),
      hasFile: () => !!this.fileLexicon,
    });
    document.title = t('app.title');
    const { plot, steps, inputs, formula, explain } = this.page;
    this.drawing = new StepsDrawing(engine, this.page, this.jobs, this.faults, () => !this.disposed);
    this.highlight = new Highlighter({ steps, inputs, plot, formula, explain, faults: this.faults, engine });
  }

  // --- state changes -----------------------------------------------------------------------------

  /**
   * Every edit of the reader goes through here (and load(), and a click on the custom mask), so
   * each is an undo step. `kind` names a continuous edit whose quick repeats are one step
   * (history.ts): the text box, a slider, one grid cell; '' for a click.
   */
  private set(patch: Partial<State>, kind = '', e?: Event): void {
    this.state = ownSentence(this.state, patch) ?? { ...this.state, ...patch };
    this.record(kind, e);
    this.scheduler.request(e);
  }

  /** The page in another language: the same state, its preset's labels in the new words. */
  switchLanguage(tag: string): void {
    if (tag === language()) return;
    // Its catalog first (a script of its own); a failed load keeps this language.
    void loadCatalog(tag).then(
      () => {
        if (this.disposed) return;
        this.dispose();
        this.remount(relabel({ ...this.state, lang: tag }, t, translator(tag)), this.fileLexicon);
      },
      () => undefined,
    );
  }

  /**
   * An edit is timed by its event when there is one: on a busy page the handler can run well
   * after the key was pressed, and a typed word would fall apart into several undo steps.
   */
  private record(kind: string, e?: Event): void {
    this.history.record(historyText(this.state), kind, e?.timeStamp ?? performance.now());
  }

  /** One step back or forward: that step's state, with the pointed-at cell and the language kept (neither is an edit). */
  step(which: 'undo' | 'redo'): void {
    const text = which === 'undo' ? this.history.undo() : this.history.redo();
    if (text === null) return;
    this.state = { ...parse(text, Infinity).state, focus: this.state.focus, lang: this.state.lang };
    refreshFocused(
      this.root,
      () => this.render(),
      () => this.scheduler.request(),
      () => this.page.undo.after(which),
    );
  }

  load(id: PresetId): void {
    this.state = { ...preset(id, t), lang: this.state.lang };
    this.record('');
    this.render();
  }

  /** A typed cell of a grid: a word's vector (x, qx) or Q, K, V. */
  private editCell(view: string, i: number, j: number, text: string, e?: Event): void {
    const words = view === 'x' ? this.lastWords : view === 'qx' ? this.lastQueryWords : null;
    const word = view === 'x' || view === 'qx';
    const patch = word
      ? words && editWordCell(this.state, words, i, j, text)
      : editCell(this.state, view as MatrixKey, i, j, text);
    if (patch) this.set(patch, `cell:${view}:${i}:${j}`, e);
  }

  private pasteMatrix(target: MatrixKey, text: string): void {
    const r = pastedMatrix(this.engine, this.state, target, text);
    this.page.errors.say('paste', 'error' in r ? [r.error] : []);
    this.page.inputs.pasteMessage('error' in r ? '' : r.done);
    if (!('error' in r)) this.set(r.patch);
  }

  private loadVectors(text: string): void {
    const r = loadedVectors(this.engine, text, this.fileLexicon);
    if ('error' in r) return this.page.inputs.fileMessage(r.error, true);
    this.fileLexicon = r.lexicon;
    this.page.inputs.fileMessage(r.done, false);
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
    this.keeper.soon();
  }

  private pointDiff(row: number, col: number, how: string): void {
    this.point({ view: 'weights', row, col, side: 'b' }, how);
    if (this.model && this.state.focus?.view === 'weights') this.highlight.difference(this.model, row, col, how !== 'hover');
  }

  private pointMulti(kind: MultiKind, i: number, j: number, how: string): void {
    if (this.model) this.highlight.multi(this.model, this.state.setup, kind, i, j, how !== 'hover');
  }

  /** Lights up the focused cell's row and column in every view, and explains it. */
  private applyFocus(announce = false): void {
    this.highlight.focus(this.model, this.state, announce);
    this.page.pipeline.follow(this.state.focus);
  }

  // --- rendering ---------------------------------------------------------------------------------

  private lastWords: Words | null = null;
  private lastQueryWords: Words | null = null;

  private readonly jobs = new Jobs();

  render(): void {
    const started = performance.now();
    this.jobs.cancel();
    const s = this.state;
    this.page.bindings.apply();
    this.page.undo.sync(this.history.canUndo, this.history.canRedo);
    this.page.header.sync(s.preset);
    // A sentence of the reader's own over the learned vectors: the story says what applies to it.
    const own = !s.preset && s.mode === 'words' && s.lexicon === 'learned';
    if (!own) {
      const story = s.preset ? (`preset.${s.preset}.story` as MessageKey) : 'preset.custom.story';
      this.page.story.show(t(story), changedFromPreset(s, t));
    }

    const lexicon = this.lexicon(s);
    // The learned vectors are on their way: render() again when they are here.
    if (!lexicon) return own ? this.page.story.show(t('words.learnedLoading'), false) : undefined;
    const computed = compute(this.engine, s, lexicon, PAGE_NAMES);
    if (own && this.ownStory) this.page.story.show(...this.ownStory(s, computed.words ?? this.lastWords, this.readWithModel));
    this.page.errors.show(
      computed.errors.map((e) => ({ where: e.where, message: pageMessage(e, this.engine.limits) })),
      ['paste'],
    );
    if (computed.words) this.lastWords = computed.words;
    if (computed.queryWords) this.lastQueryWords = computed.queryWords;
    if (computed.model) this.model = computed.model;
    this.page.stale.hidden = !computed.errors.length || !this.model;
    this.root.dataset.state = computed.model ? 'ok' : 'error';
    const scores = this.model?.a.steps.scores;
    this.jobs.spread = !!scores && scores.rows * scores.cols > CANVAS_CELLS; // canvases: spread the views
    // The inputs' grid too: 64 tokens of vectors took 20 ms, on top of the engine's 30 ms for 16 heads.
    this.jobs.add(() =>
      this.faults.run(this.page.inputs.wordsPanel, t('inputs.title'), () =>
        this.page.inputs.update(this.state, computed.words ?? this.lastWords, computed.queryWords ?? this.lastQueryWords),
      ),
    );
    if (this.model) this.drawing.draw(this.model, s, this.root, this.lastWords?.features ?? []);
    this.jobs.finish(() => this.rendered(started));
  }

  private learnedFailed = '';
  private ownStory: Parts['vectors']['story'] | null = null; // comes with the learned vectors

  /** The lexicon the state names, and its line under the choice; null while the learned vectors
   * are on their way. If they cannot come, the page says why and goes back to the built-in ones.
   * Vectors typed in (a learned head's) read no lexicon: they never wait for the learned one. */
  private lexicon(s: State): LexiconRef | null {
    if (s.lexicon !== 'learned' || s.mode === 'vectors') {
      this.page.inputs.learned.message(this.learnedFailed, !!this.learnedFailed);
      return s.lexicon === 'file' && this.fileLexicon ? this.fileLexicon : s.lexicon === 'fruit' ? 'fruit' : 'builtin';
    }
    const l = learnedVectors(this.engine, () => {
      if (this.disposed) return;
      if (!l.failed) return this.render();
      this.learnedFailed = t('words.learnedFailed', { reason: l.failed });
      this.set({ lexicon: 'builtin' });
    });
    this.learnedFailed = '';
    if (!l.vectors) {
      this.page.inputs.learned.message(t('words.learnedLoading'), false);
      return null;
    }
    this.page.inputs.learned.message(t('learned.ready', { count: int(l.vectors.size), dims: l.vectors.dims }), false);
    this.ownStory = l.story;
    return l.vectors.lexicon;
  }

  /** After the last view of a render: the focus, the fault messages, the measures, the count. */
  private rendered(started: number): void {
    if (this.disposed) return;
    this.applyFocus();
    this.faults.settle();
    this.scheduler.rendered(started);
    this.root.dataset.renders = String(Number(this.root.dataset.renders ?? 0) + 1);
    this.keeper.soon();
  }
}
