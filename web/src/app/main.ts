// The page: wires the state, the engine and the views together. Data flows one way:
// state → compute() (the engine) → views. Every change to the state schedules one render on the
// next animation frame, so a drag or fast typing costs one engine call per frame.
import { h, clear, setText } from '../views/dom';
import { t, num, int, setLanguage, language, resolveLanguage, translator, LANGUAGES, type MessageKey } from '../i18n';
import type { Engine, LexiconRef, Mat } from '../engine/types';
import { engineMessage } from '../engine/messages';
import { loadEngine } from '../engine/load';
import { unavailableMessage, ViewFaults } from './faults';
import { readCells } from '../model/cells';
import { compute, entropyByDk, type Model, type PageError, type Where } from '../model/compute';
import { preset } from '../state/presets';
import { History } from '../state/history';
import { readStored, writeStored } from '../state/storage';
import { defaults, PRESETS, type Focus, type PresetId, type State, type ViewId, CAPS } from '../state/state';
import { parse, serialise } from '../state/link';
import { splitEmbed, serialiseEmbed, embedDefaults, type EmbedOptions } from '../state/embed-options';
import { Heatmap, type HeatmapData } from '../views/heatmap';
import { Grid } from '../views/grid';
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
import { radios, select, logSlider, numberInput, checkbox, type Control } from '../views/controls';

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

class App {
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
  private readonly controls: Array<() => void> = []; // each syncs one control from the state
  private readonly visibility: Array<() => void> = [];
  private readonly cards = new Map<StepView, StepCard>();
  private readonly grids = new Map<string, Grid>();
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
  private readonly wordsPanel = h('div', { class: 'panel words-panel' });
  private readonly vectorsPanel = h('div', { class: 'panel vectors-panel' });
  private readonly fileStatus = h('p', { class: 'hint', attrs: { role: 'status' } });
  private readonly pasteStatus = h('p', { class: 'hint', attrs: { role: 'status' } });
  private readonly wordsInfo = h('p', { class: 'hint' });
  private readonly unknownInfo = h('p', { class: 'hint unknown-note' }); // the "?" before a word, said in words
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
        h('aside', { class: 'side-col' }, this.buildControls(), this.explain.el),
        h('main', { class: 'main-col' }, this.buildInputs(), steps)),
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

  private sync<T>(c: Control<T>, get: () => T): HTMLElement {
    this.controls.push(() => c.set(get()));
    return c.el;
  }

  private showWhen(el: HTMLElement, when: () => boolean): HTMLElement {
    this.visibility.push(() => { el.hidden = !when(); });
    return el;
  }

  private buildControls(): HTMLElement {
    const s = () => this.state;
    const set = (patch: Partial<State>, kind = '') => this.set(patch, kind);
    const temperature = logSlider(t('controls.temperature'), 'temperature', CAPS.temperatureMin, 1000,
      (v) => set({ temperature: v }, 'temperature'), (v) => num(v));
    const temperatureB = logSlider(t('controls.temperatureB'), 'temperatureB', CAPS.temperatureMin, 1000,
      (v) => set({ temperatureB: v }, 'temperatureB'), (v) => num(v));
    const multi = () => s().mode === 'words' && s().setup === 'self';
    const dkOptions: Array<[string, string]> = [['0', t('controls.dkAuto')],
      ...[1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512].map((k): [string, string] => [String(k), String(k)])];
    return h('section', { class: 'card controls', attrs: { 'aria-labelledby': 'controls-title' } },
      h('h2', { text: t('controls.title'), attrs: { id: 'controls-title' } }),
      this.sync(radios<State['similarity']>(t('controls.similarity'), 'similarity', [['dot', t('similarity.dot')], ['cosine', t('similarity.cosine')]],
        (v) => set({ similarity: v })), () => s().similarity),
      this.sync(radios<State['scale']>(t('controls.scale'), 'scale', [['sqrt', t('scale.sqrt')], ['none', t('scale.none')], ['temperature', t('scale.temperature')]],
        (v) => set({ scale: v })), () => s().scale),
      this.showWhen(this.sync(temperature, () => s().temperature), () => s().scale === 'temperature'),
      this.sync(radios<State['mask']>(t('controls.mask'), 'mask', [['none', t('mask.none')], ['causal', t('mask.causal')], ['custom', t('mask.custom')]],
        (v) => set({ mask: v })), () => s().mask),
      this.showWhen(h('p', { class: 'hint', text: t('mask.customHint') }), () => s().mask === 'custom'),
      this.sync(radios<State['normalization']>(t('controls.normalization'), 'normalization', [['softmax', t('normalization.softmax')], ['sum', t('normalization.sum')]],
        (v) => set({ normalization: v })), () => s().normalization),
      this.showWhen(h('div', { class: 'group' },
        this.sync(radios<State['projection']>(t('controls.projection'), 'projection', [['identity', t('projection.identity')], ['random', t('projection.random')]],
          (v) => set({ projection: v })), () => s().projection),
        h('div', { class: 'row3' },
          this.sync(select(t('controls.heads'), 'heads', [1, 2, 3, 4, 8].map((k): [string, string] => [String(k), String(k)]),
            (v) => set({ heads: Number(v), head: 0 })), () => String(s().heads)),
          this.sync(select(t('controls.dk'), 'dK', dkOptions, (v) => set({ dK: Number(v) })), () => String(s().dK)),
          this.sync(numberInput(t('controls.seed'), 'seed', 0, CAPS.seed, (v) => set({ seed: v }, 'seed')), () => s().seed))),
      multi),
      this.sync(select<State['compare']>(t('controls.compare'), 'compare', [['off', t('compare.off')], ['similarity', t('compare.similarity')],
        ['scale', t('compare.scale')], ['normalization', t('compare.normalization')], ['temperature', t('compare.temperature')]],
      (v) => set({ compare: v })), () => s().compare),
      this.showWhen(this.sync(temperatureB, () => s().temperatureB), () => s().compare === 'temperature'),
      this.sync(checkbox(t('controls.numbers'), 'numbers', (v) => set({ numbers: v })), () => s().numbers));
  }

  private buildInputs(): HTMLElement {
    const s = () => this.state;
    const set = (patch: Partial<State>, kind = '') => this.set(patch, kind);

    // Words.
    const text = h('input', { class: 'text-input', attrs: { type: 'text', id: 'words-text', 'data-input': 'text',
      placeholder: t('words.placeholder'), spellcheck: 'false', autocomplete: 'off', maxlength: String(CAPS.text) } });
    text.addEventListener('input', () => set({ text: text.value }, 'text'));
    this.controls.push(() => { if (document.activeElement !== text && text.value !== s().text) text.value = s().text; });
    const queryText = h('input', { class: 'text-input', attrs: { type: 'text', id: 'query-text', 'data-input': 'queryText',
      spellcheck: 'false', autocomplete: 'off', maxlength: String(CAPS.text) } });
    queryText.addEventListener('input', () => set({ queryText: queryText.value }, 'queryText'));
    this.controls.push(() => { if (document.activeElement !== queryText && queryText.value !== s().queryText) queryText.value = s().queryText; });
    const mine = language().split('-')[0];
    const examples = [...this.sentences(mine), ...(mine === 'en' ? this.sentences('zh') : this.sentences('en'))];
    const pick = select(t('words.examples'), 'example', [['', t('words.pick')], ...examples.map((x): [string, string] => [x, x])],
      (v) => { if (v) set({ text: v }); pick.set(''); });
    const lexicon = select(t('words.lexicon'), 'lexicon', [['builtin', t('lexicon.builtin')], ['fruit', t('lexicon.fruit')],
      ['file', t('lexicon.file')]], (v) => set({ lexicon: v }));
    const fileOption = lexicon.select.querySelector('option[value="file"]') as HTMLOptionElement;
    this.controls.push(() => { fileOption.disabled = !this.fileLexicon; });

    const file = h('input', { attrs: { type: 'file', accept: '.txt,.vec,.glove,text/plain', 'data-input': 'file', id: 'glove-file' } });
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (!f) return;
      if (f.size > CAPS.fileBytes) return this.refuseFile(f.name, f.size);  // never read: it could freeze the page
      const reader = new FileReader();
      reader.onload = () => this.loadVectors(String(reader.result ?? ''));
      reader.readAsText(f);
    });
    const paste = h('textarea', { attrs: { rows: '4', 'data-input': 'glove-paste', spellcheck: 'false',
      'aria-label': t('words.paste'), placeholder: 'apple 1 2 1\norange 2 2 0' } });
    const usePaste = h('button', { class: 'btn', text: t('words.use'), attrs: { type: 'button' } });
    usePaste.addEventListener('click', () => {
      if (paste.value.length > CAPS.fileBytes) return this.refuseFile(t('words.paste'), paste.value.length);
      this.loadVectors(paste.value);
    });

    const xGrid = this.grid('x', t('view.x'), false);
    const qxGrid = this.grid('qx', t('words.queryVectors'), false);
    const reset = h('button', { class: 'btn ghost', text: t('words.resetEdits'), attrs: { type: 'button' } });
    reset.addEventListener('click', () => set({ edits: [] }));
    this.visibility.push(() => { reset.hidden = s().edits.length === 0; });

    const queryRow = this.showWhen(h('div', { class: 'field' }, h('label', { text: t('words.query'), attrs: { for: 'query-text' } }),
      queryText, this.errorBox('queryText')), () => s().setup === 'query');
    const qxBlock = this.showWhen(h('div', {}, qxGrid.el, this.errorBox('qx')), () => s().setup === 'query');
    this.wordsPanel.append(
      h('div', { class: 'field' }, h('label', { text: t('words.text'), attrs: { for: 'words-text' } }), text, this.errorBox('text')),
      h('div', { class: 'row3' }, pick.el, this.sync(lexicon, () => s().lexicon),
        this.sync(radios<State['setup']>(t('words.setup'), 'setup', [['self', t('setup.self')], ['query', t('setup.query')]],
          (v) => set({ setup: v })), () => s().setup)),
      queryRow,
      h('details', { class: 'file' }, h('summary', { text: t('words.file') }),
        h('p', { class: 'hint', text: t('words.fileHint') }), file, paste, usePaste, this.fileStatus),
      this.wordsInfo, this.unknownInfo,
      h('div', { class: 'scroll' }, xGrid.el), this.errorBox('x'), reset, qxBlock);

    // Vectors.
    const button = (key: MessageKey, action: () => void) => {
      const b = h('button', { class: 'btn small', text: t(key), attrs: { type: 'button', 'data-action': key } });
      b.addEventListener('click', action);
      return b;
    };
    const qGrid = this.grid('q', t('vectors.q'), true);
    const kGrid = this.grid('k', t('vectors.k'), true);
    const vGrid = this.grid('v', t('vectors.v'), false);
    const target = select(t('vectors.pasteInto'), 'paste-target', [['q', 'Q'], ['k', 'K'], ['v', 'V']], () => undefined);
    const matrixText = h('textarea', { attrs: { rows: '4', 'data-input': 'matrix-paste', spellcheck: 'false',
      'aria-label': t('vectors.paste'), placeholder: t('vectors.pastePlaceholder') } });
    const usePasted = h('button', { class: 'btn', text: t('vectors.use'), attrs: { type: 'button', 'data-action': 'paste' } });
    usePasted.addEventListener('click', () => this.pasteMatrix(target.select.value as 'q' | 'k' | 'v', matrixText.value));
    this.vectorsPanel.append(
      h('div', { class: 'toolbar' },
        button('vectors.addQuery', () => this.resize('q', 1)), button('vectors.removeQuery', () => this.resize('q', -1)),
        button('vectors.addKey', () => this.resize('k', 1)), button('vectors.removeKey', () => this.resize('k', -1)),
        button('vectors.addDk', () => this.resize('dk', 1)), button('vectors.removeDk', () => this.resize('dk', -1)),
        button('vectors.addDv', () => this.resize('dv', 1)), button('vectors.removeDv', () => this.resize('dv', -1))),
      h('div', { class: 'qkv' },
        h('div', { class: 'scroll' }, qGrid.el, this.errorBox('q')),
        h('div', { class: 'scroll' }, kGrid.el, this.errorBox('k')),
        h('div', { class: 'scroll' }, vGrid.el, this.errorBox('v'))),
      h('details', { class: 'paste' }, h('summary', { text: t('vectors.paste') }),
        h('div', { class: 'row3' }, target.el), matrixText, usePasted, this.errorBox('paste' as Where), this.pasteStatus));

    this.showWhen(this.wordsPanel, () => s().mode === 'words');
    this.showWhen(this.vectorsPanel, () => s().mode === 'vectors');
    return h('section', { class: 'card inputs', attrs: { 'aria-labelledby': 'inputs-title' } },
      h('div', { class: 'inputs-head' }, h('h2', { text: t('inputs.title'), attrs: { id: 'inputs-title' } }),
        this.sync(radios<State['mode']>(t('inputs.mode'), 'mode', [['words', t('mode.words')], ['vectors', t('mode.vectors')]],
          (v) => set({ mode: v })), () => s().mode)),
      this.wordsPanel, this.vectorsPanel);
  }

  private sentences(lang: string): string[] {
    const r = this.engine.exampleSentences(lang);
    return Array.isArray(r) ? r : [];
  }

  private grid(view: 'x' | 'qx' | 'q' | 'k' | 'v', name: string, editableLabels: boolean): Grid {
    const focusView: ViewId = view === 'qx' ? 'q' : view;
    const g = new Grid(view, name, {
      edit: (i, j, text) => this.editCell(view, i, j, text),
      label: editableLabels ? (i, text) => this.editLabel(view as 'q' | 'k', i, text) : undefined,
      point: (i, j, how) => this.point({ view: focusView, row: i, col: j, side: 'a' }, how),
    });
    g.el.dataset.editable = String(editableLabels);
    this.grids.set(view, g);
    return g;
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

  /**
   * A typed cell. The grids show the last render, which can be a frame behind the state (a
   * resize or an undo in this frame renders on the next): a cell the state no longer has is
   * dropped rather than written past the end of a row.
   */
  private editCell(view: string, i: number, j: number, text: string): void {
    const s = this.state;
    if (view === 'x' || view === 'qx') {
      const words = view === 'x' ? this.lastWords : this.lastQueryWords;
      if (!words || !(j < (words.cells[i]?.length ?? 0))) return;
      const token = words.tokens[i];
      const row = words.cells[i].slice();
      row[j] = text;
      const edits = s.edits.filter(([w]) => w !== token);
      if (edits.length >= CAPS.edits) edits.shift();
      edits.push([token, row]);
      this.set({ edits }, `cell:${view}:${i}:${j}`);
      return;
    }
    const key = view as 'q' | 'k' | 'v';
    if (!(j < (s[key][i]?.length ?? 0))) return;
    const cells = s[key].map((r) => r.slice());
    cells[i][j] = text;
    this.set({ [key]: cells } as Partial<State>, `cell:${view}:${i}:${j}`);
  }

  private editLabel(view: 'q' | 'k', i: number, text: string): void {
    const key = view === 'q' ? 'qLabels' : 'kLabels';
    if (!(i < this.state[key].length)) return; // as in editCell
    const labels = this.state[key].slice();
    labels[i] = text;
    this.set({ [key]: labels } as Partial<State>, `label:${view}:${i}`);
  }

  private resize(what: 'q' | 'k' | 'dk' | 'dv', by: 1 | -1): void {
    const s = this.state;
    const grow = (cells: string[][], rows: number, cols: number) =>
      Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => cells[i]?.[j] ?? '0'));
    const n = s.q.length, m = s.k.length, dk = s.q[0]?.length ?? 0, dv = s.v[0]?.length ?? 0;
    const clamp = (x: number, max: number) => Math.max(1, Math.min(max, x));
    const names = (list: string[], k: number, prefix: string) =>
      Array.from({ length: k }, (_, i) => list[i] ?? `${prefix}${i + 1}`);
    if (what === 'q') {
      const rows = clamp(n + by, CAPS.rows);
      this.set({ q: grow(s.q, rows, dk), qLabels: names(s.qLabels, rows, 'q') });
    } else if (what === 'k') {
      const rows = clamp(m + by, CAPS.rows);
      this.set({ k: grow(s.k, rows, dk), v: grow(s.v, rows, dv), kLabels: names(s.kLabels, rows, 'k') });
    } else if (what === 'dk') {
      const cols = clamp(dk + by, CAPS.cols);
      this.set({ q: grow(s.q, n, cols), k: grow(s.k, m, cols), dkNames: names(s.dkNames, cols, '') });
    } else {
      const cols = clamp(dv + by, CAPS.cols);
      this.set({ v: grow(s.v, m, cols), dvNames: names(s.dvNames, cols, '') });
    }
  }

  private pasteMatrix(target: 'q' | 'k' | 'v', text: string): void {
    const names = { q: 'queries', k: 'keys', v: 'values' } as const;
    const r = this.engine.parseMatrix(text, names[target]);
    const box = this.errorBoxes.get('paste' as Where)!;
    clear(box);
    this.pasteStatus.textContent = '';
    if (!r.ok) {
      box.append(h('p', { class: 'error', text: engineMessage(r.error, this.engine.limits, {}, true) }));
      return;
    }
    const { rows, cols } = r.matrix;
    if (rows > CAPS.rows || cols > CAPS.cols) { // kept in the link and in storage: the page's caps
      box.append(h('p', { class: 'error', text: t('vectors.pasteTooLarge', {
        name: target.toUpperCase(), rows: int(rows), cols: int(cols), maxRows: int(CAPS.rows), maxCols: int(CAPS.cols) }) }));
      return;
    }
    const cells = Array.from({ length: rows }, (_, i) =>
      Array.from(r.matrix.data.subarray(i * cols, (i + 1) * cols), (x) => String(x)));
    const s = this.state;
    const labels = (list: string[], k: number, prefix: string) => Array.from({ length: k }, (_, i) => list[i] ?? `${prefix}${i + 1}`);
    const range = (k: number, list: string[]) => Array.from({ length: k }, (_, i) => list[i] ?? String(i + 1));
    const patch: Partial<State> = { [target]: cells };
    if (target === 'q') { patch.qLabels = labels(s.qLabels, rows, 'q'); patch.dkNames = range(cols, s.dkNames); }
    if (target === 'k') { patch.kLabels = labels(s.kLabels, rows, 'k'); patch.dkNames = range(cols, s.dkNames); }
    if (target === 'v') { patch.dvNames = range(cols, s.dvNames); }
    this.pasteStatus.textContent = t('vectors.pasted', { name: target.toUpperCase(), rows, cols });
    this.set(patch);
  }

  private refuseFile(name: string, bytes: number): void {
    this.fileStatus.textContent = t('file.tooLarge', { name, size: num(bytes / 2 ** 20), max: int(CAPS.fileBytes / 2 ** 20) });
    this.fileStatus.classList.add('error');
    this.fileStatus.dataset.error = 'file';
  }

  private loadVectors(text: string): void {
    const r = this.engine.parseEmbeddings(text);
    this.fileStatus.textContent = '';
    this.fileStatus.classList.remove('error');
    if (!r.ok) {
      this.fileStatus.textContent = engineMessage(r.error, this.engine.limits, {}, true);
      this.fileStatus.classList.add('error');
      this.fileStatus.dataset.error = 'file';
      return;
    }
    delete this.fileStatus.dataset.error;
    if (this.fileLexicon) this.engine.freeLexicon(this.fileLexicon);
    this.fileLexicon = { id: r.id };
    this.fileStatus.textContent = t('words.fileLoaded', { count: int(r.size), dims: int(r.features.length) });
    this.set({ lexicon: 'file', edits: [] });
  }

  private point(focus: Focus, how: string): void {
    const s = this.state;
    if (how === 'click' && focus.view === 'masked' && s.mask === 'custom') {
      const hidden = s.hidden.filter(([i, j]) => !(i === focus.row && j === focus.col));
      if (hidden.length === s.hidden.length) hidden.push([focus.row, focus.col]);
      this.state = { ...s, hidden, focus };
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
  private shownInputs: unknown[] = [];
  private lastQueryWords: import('../model/compute').Words | null = null;

  private readonly jobs = new Jobs();

  render(): void {
    const started = performance.now();
    this.jobs.cancel();
    const s = this.state;
    this.lexicon = s.lexicon === 'file' && this.fileLexicon ? this.fileLexicon : s.lexicon === 'fruit' ? 'fruit' : 'builtin';
    for (const sync of this.controls) sync();
    for (const v of this.visibility) v();
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
    this.jobs.add(() => this.faults.run(this.wordsPanel, t('inputs.title'), () => this.renderInputs(computed.words, computed.queryWords)));
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

  private renderInputs(words: import('../model/compute').Words | null, queryWords: import('../model/compute').Words | null): void {
    const s = this.state;
    if (s.mode === 'words') {
      const w = words ?? this.lastWords;
      if (w) {
        this.grids.get('x')!.update({ caption: t('words.vectors'), numbers: readCells(w.cells).values, cells: w.cells, rowLabels: w.tokens,
          colLabels: w.features, rowMarks: w.tokens.map((_, i) => (w.edited[i] ? 'edited' : w.unknown[i] ? 'unknown' : '')),
          invalid: w.invalid });
        setText(this.wordsInfo, t('words.tokenCount', { n: int(w.tokens.length), d: int(w.features.length) }));
      }
      const qw = queryWords ?? this.lastQueryWords;
      const unknown = new Set<string>();
      for (const x of s.setup === 'query' ? [w, qw] : [w]) x?.tokens.forEach((tok, i) => { if (x.unknown[i] && !x.edited[i]) unknown.add(tok); });
      setText(this.unknownInfo, unknown.size ? t('words.unknownList', { words: [...unknown].join(', ') }) : '');
      this.unknownInfo.hidden = unknown.size === 0;
      if (qw && s.setup === 'query') {
        this.grids.get('qx')!.update({ caption: t('words.queryVectors'), numbers: readCells(qw.cells).values, cells: qw.cells, rowLabels: qw.tokens,
          colLabels: qw.features, rowMarks: qw.tokens.map((_, i) => (qw.edited[i] ? 'edited' : qw.unknown[i] ? 'unknown' : '')),
          invalid: qw.invalid });
      }
    } else {
      // The grids show what was typed: nothing to do unless it changed (a slider drag changes none).
      const shown = [s.mode, s.q, s.k, s.v, s.qLabels, s.kLabels, s.dkNames, s.dvNames];
      if (shown.every((x, k) => x === this.shownInputs[k])) return;
      this.shownInputs = shown;
      const invalid = (key: 'q' | 'k' | 'v') => readCells(s[key]).invalid; // as the model reads them
      const dk = s.q[0]?.length ?? 0, dv = s.v[0]?.length ?? 0;
      const names = (list: string[], k: number) => Array.from({ length: k }, (_, i) => list[i] ?? String(i + 1));
      this.grids.get('q')!.update({ caption: t('vectors.q'), numbers: readCells(s.q).values, cells: s.q, rowLabels: s.qLabels, colLabels: names(s.dkNames, dk),
        editableLabels: true, invalid: invalid('q') });
      this.grids.get('k')!.update({ caption: t('vectors.k'), numbers: readCells(s.k).values, cells: s.k, rowLabels: s.kLabels, colLabels: names(s.dkNames, s.k[0]?.length ?? 0),
        editableLabels: true, invalid: invalid('k') });
      this.grids.get('v')!.update({ caption: t('vectors.v'), numbers: readCells(s.v).values, cells: s.v, rowLabels: s.kLabels, colLabels: names(s.dvNames, dv),
        invalid: invalid('v') });
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
    this.grids.get('x')?.highlight(words ? [...new Set(list(query, key))] : list(key), list(feat ?? vfeat));
    this.grids.get('qx')?.highlight(list(query), list(feat));
    this.grids.get('q')?.highlight(list(query), list(feat));
    this.grids.get('k')?.highlight(list(key), list(feat));
    this.grids.get('v')?.highlight(list(key), list(vfeat));
    this.plot.highlight(query, key);
  }
}

function invert(visible: Uint8Array): Uint8Array {
  const hidden = new Uint8Array(visible.length);
  for (let k = 0; k < visible.length; k++) hidden[k] = visible[k] ? 0 : 1;
  return hidden;
}

/** How the page is framed: embed=1 in the link, or embed.html (<html data-embed="1">). */
let embed: EmbedOptions = embedDefaults();
/** Embed mode's link to the full page, kept pointing at the current state. */
let fullLink: HTMLAnchorElement | null = null;

/**
 * The state a link carries: the hash through the state table (whitelisted, validated, capped).
 * `carried`: the link has a hash at all, so it (even when broken) wins over the stored state.
 */
function readLink(): { state: State; rejected: string[]; carried: boolean } {
  const hash = location.hash.replace(/^#/, '');
  const split = splitEmbed(hash);
  embed = { ...split.options, embed: split.options.embed || document.documentElement.dataset.embed === '1' };
  const r = parse(split.rest);
  return { state: r.state, rejected: [...split.rejected, ...r.rejected], carried: hash !== '' };
}

type NoticeKind = 'link' | 'stored';

/**
 * The state the page starts from: the link's when it has one; else the one stored by the last
 * visit. An embedded figure never reads storage: it shows what its author chose.
 */
function initialState(link: ReturnType<typeof readLink>): { state: State; notice: NoticeKind | null } {
  if (link.carried || embed.embed) return { state: link.state, notice: link.rejected.length ? 'link' : null };
  const stored = readStored();
  if (stored.kind === 'ok') return { state: stored.state, notice: null };
  return { state: link.state, notice: stored.kind === 'broken' ? 'stored' : null };
}

/** Keeps the state: in the link, and (unless embedded) in the browser's storage for the next visit. */
function keep(state: State): void {
  const text = serialise(state, t); // once: a state of large pasted matrices is 300,000 characters
  writeLink(text);
  if (!embed.embed) writeStored(text);
}

/**
 * What an undo step holds: the state without the pointed-at cell and the language, which are not
 * edits (pointing at a number must not add a step, nor undo switch the language back).
 */
function historyText(state: State): string {
  return serialise({ ...state, focus: null, lang: '' }, t);
}

/**
 * Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (Meta, ⌘ on macOS, instead of Ctrl), everywhere
 * but where the browser's own undo is the right one: the paste boxes (textareas, not part of the
 * state), an open dialog, and text still being composed by an input method.
 */
function historyKey(e: KeyboardEvent): 'undo' | 'redo' | null {
  if (e.defaultPrevented || e.isComposing || e.altKey || e.ctrlKey === e.metaKey) return null;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest('textarea, dialog')) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  return key === 'y' && !e.shiftKey ? 'redo' : null;
}

/** The link's text for a serialised state: the state and the embedding keys. */
function linkText(stateText: string): string {
  const e = serialiseEmbed(embed);
  return stateText + (e ? '&' + e : '');
}

/** Embed mode: the chosen steps, the controls asked for, the link to the full page. */
function applyEmbed(root: HTMLElement, state: State): void {
  if (embed.theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = embed.theme;
  root.classList.toggle('embed', embed.embed);
  fullLink = null;
  if (!embed.embed) return;
  root.dataset.controls = embed.controls;
  const views = embed.views as readonly string[];
  for (const card of Array.from(root.querySelectorAll<HTMLElement>('.card.step[data-step]'))) {
    card.classList.toggle('embed-off', !views.includes(card.dataset.step ?? ''));
  }
  root.querySelector('.intro')?.classList.toggle('embed-off', !views.includes('formula'));
  fullLink = h('a', { text: t('embed.full'), attrs: { href: 'index.html#' + serialise(state, t), target: '_blank', rel: 'noopener',
    'data-full': '' } });
  root.append(h('p', { class: 'embed-foot' }, fullLink));
}

/**
 * Embed mode in a frame: tells the host page the content's height whenever it changes (the
 * host's embed-resize.js or <attention-playground> checks the sender, the type and the bounds).
 */
function postHeight(root: HTMLElement): void {
  if (window.parent === window || typeof ResizeObserver !== 'function') return;
  let last = -1;
  new ResizeObserver(() => {
    if (!embed.embed) return;
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'attention-playground:height', height }, '*');
  }).observe(root);
}

/** Writes the state into the link without a history entry, so a copied address reproduces it. */
function writeLink(stateText: string): void {
  if (fullLink) fullLink.href = 'index.html#' + stateText;
  let text = linkText(stateText);
  // A state too long for a link (large pasted matrices) leaves the address bare, so a reload
  // restores it from storage rather than from an older link; the share dialog says why.
  if (text.length > CAPS.link) text = '';
  const now = location.hash.replace(/^#/, '');
  if (now === text || (now === '' && text === serialise(defaults(), t))) return;
  try {
    history.replaceState(history.state, '', text ? '#' + text : location.pathname + location.search);
  } catch {
    // A sandboxed iframe may refuse; the page works the same without the link.
  }
}

/** Shown when a link or the stored state could not be read: the page then starts from its defaults. */
function notice(kind: NoticeKind): HTMLElement {
  const close = h('button', { class: 'btn ghost small', text: t('link.dismiss'), attrs: { type: 'button' } });
  const box = h('div', { class: 'notice', attrs: { role: 'status', 'data-notice': kind } },
    h('p', { text: t(kind === 'link' ? 'link.invalid' : 'stored.invalid') }), close);
  close.addEventListener('click', () => box.remove());
  return box;
}

/** The language the page shows: the state's (from the link or the switch), else the browser's. */
function applyLanguage(lang: string): void {
  setLanguage(resolveLanguage(lang || navigator.language));
  document.documentElement.lang = language();
}

async function start(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) return;
  const first = initialState(readLink());
  applyLanguage(first.state.lang);
  root.append(h('p', { class: 'loading', text: t('app.loading') }));
  postHeight(root); // from the start: an embed frame sized to its message if the engine fails
  try {
    const engine = await loadEngine();
    let app: App | null = null;
    // One history for the tab: a language switch mounts a new App and keeps the steps.
    const history = new History(historyText(first.state));
    const mount = (state: State, fileLexicon: { id: number } | null, focusSwitch = false, why: NoticeKind | null = null): void => {
      applyLanguage(state.lang);
      app?.dispose();
      clear(root);
      app = new App(engine, root, (next, lexicon) => {
        keep(next);
        mount(next, lexicon, true);
      }, history, state, fileLexicon);
      if (why) root.prepend(notice(why));
      applyEmbed(root, state);
      app.render();
      document.title = t('app.title');
      if (focusSwitch) (root.querySelector(`[data-lang="${language()}"]`) as HTMLElement | null)?.focus();
    };
    mount(first.state, null, false, first.notice);
    document.addEventListener('keydown', (e) => {
      const which = historyKey(e);
      if (!which || !app) return;
      e.preventDefault(); // also the browser's own undo in the text field
      app.step(which);
    });
    // A reload within persist()'s quarter second must not lose the last edit.
    window.addEventListener('pagehide', () => app?.flush());
    // Another link opened in the same tab (or the hash edited by hand) is the new state.
    window.addEventListener('hashchange', () => {
      const text = location.hash.replace(/^#/, '');
      if (app && text === linkText(serialise(app.current, t))) return;
      const next = readLink();
      history.record(historyText(next.state), '', performance.now()); // undo goes back to before the link
      mount(next.state, app?.lexiconFile ?? null, false, next.rejected.length > 0 ? 'link' : null);
    });
    root.removeAttribute('aria-busy');
  } catch (e) {
    clear(root);
    root.append(unavailableMessage(e));
    root.removeAttribute('aria-busy');
    console.error(e); // the cause, for a bug report; the reader has the message
  }
}

void start();
