// The inputs card: the words (a sentence, a query, the word list, a word-vector file) or the
// vectors Q, K and V typed into grids, pasted or resized. It shows the state through the
// bindings and what the model read (words, invalid cells); every change goes out through `on`.
import { h, setText } from './dom';
import { t, num, int, type MessageKey } from '../i18n';
import { CAPS, type Focus, type State, type ViewId } from '../state/state';
import { LearnedNotes } from './learned-notes';
import type { Words } from '../model/compute';
import { Grid } from './grid';
import { radios, select } from './controls';
import type { Bindings } from './bindings';

export interface InputsHandlers {
  set(patch: Partial<State>, kind?: string, e?: Event): void;
  editCell(view: string, i: number, j: number, text: string, e?: Event): void;
  editLabel(view: 'q' | 'k', i: number, text: string): void;
  point(focus: Focus, how: string): void;
  resize(what: 'q' | 'k' | 'dk' | 'dv', by: 1 | -1): void;
  /** Text pasted as a matrix for Q, K or V. */
  pasteMatrix(target: 'q' | 'k' | 'v', text: string): void;
  /** A word-vector file's text, or text pasted as one. */
  loadVectors(text: string): void;
  /** Whether a word-vector file is loaded (the word list may then be "file"). */
  hasFile(): boolean;
  /** The box where the errors of one input are shown. */
  errorBox(where: 'text' | 'queryText' | 'x' | 'qx' | 'q' | 'k' | 'v' | 'paste'): HTMLElement;
  /** A typed matrix as the model reads it: its numbers and the cells that are not numbers. */
  read(cells: string[][]): { values: number[][]; invalid: Set<string> };
}

export class InputsPanel {
  readonly el: HTMLElement;
  readonly wordsPanel = h('div', { class: 'panel words-panel' });
  readonly grids = new Map<string, Grid>();
  private readonly vectorsPanel = h('div', { class: 'panel vectors-panel' });
  private readonly fileStatus = h('p', { class: 'hint', attrs: { role: 'status' } });
  readonly learned: LearnedNotes;
  private readonly pasteStatus = h('p', { class: 'hint', attrs: { role: 'status' } });
  private readonly wordsInfo = h('p', { class: 'hint' });
  private readonly unknownInfo = h('p', { class: 'hint unknown-note' }); // the "?" before a word, said in words
  private shownInputs: unknown[] = [];

  constructor(
    b: Bindings,
    s: () => State,
    private readonly on: InputsHandlers,
    examples: string[],
  ) {
    const set = (patch: Partial<State>, kind = '', e?: Event) => on.set(patch, kind, e);

    // Words.
    const text = h('input', {
      class: 'text-input',
      attrs: {
        type: 'text',
        id: 'words-text',
        'data-input': 'text',
        placeholder: t('words.placeholder'),
        spellcheck: 'false',
        autocomplete: 'off',
        maxlength: String(CAPS.text),
      },
    });
    text.addEventListener('input', (e) => set({ text: text.value }, 'text', e));
    this.learned = new LearnedNotes((patch) => set(patch));
    const textCut = cutNote(text, CAPS.text);
    b.also(() => {
      if (document.activeElement !== text && text.value !== s().text) text.value = s().text;
    });
    const queryText = h('input', {
      class: 'text-input',
      attrs: {
        type: 'text',
        id: 'query-text',
        'data-input': 'queryText',
        spellcheck: 'false',
        autocomplete: 'off',
        maxlength: String(CAPS.text),
      },
    });
    queryText.addEventListener('input', (e) => set({ queryText: queryText.value }, 'queryText', e));
    const queryCut = cutNote(queryText, CAPS.text);
    b.also(() => {
      if (document.activeElement !== queryText && queryText.value !== s().queryText) queryText.value = s().queryText;
    });
    const pick = select(
      t('words.examples'),
      'example',
      [['', t('words.pick')], ...examples.map((x): [string, string] => [x, x])],
      (v) => {
        if (v) set({ text: v });
        pick.set('');
      },
    );
    const lexicon = select(
      t('words.lexicon'),
      'lexicon',
      [
        ['builtin', t('lexicon.builtin')],
        ['fruit', t('lexicon.fruit')],
        ['learned', t('lexicon.learned')],
        ['file', t('lexicon.file')],
      ],
      (v) => set({ lexicon: v }),
    );
    const fileOption = lexicon.select.querySelector('option[value="file"]') as HTMLOptionElement;
    b.also(() => {
      fileOption.disabled = !on.hasFile();
    });

    const file = h('input', {
      attrs: { type: 'file', accept: '.txt,.vec,.glove,text/plain', 'data-input': 'file', id: 'glove-file' },
    });
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (!f) return;
      if (f.size > CAPS.fileBytes) return this.refuseFile(f.name, f.size); // never read: it could freeze the page
      const reader = new FileReader();
      reader.onload = () => on.loadVectors(String(reader.result ?? ''));
      reader.readAsText(f);
    });
    const paste = h('textarea', {
      attrs: {
        rows: '4',
        'data-input': 'glove-paste',
        spellcheck: 'false',
        'aria-label': t('words.paste'),
        placeholder: 'apple 1 2 1\norange 2 2 0',
      },
    });
    const usePaste = h('button', { class: 'btn', text: t('words.use'), attrs: { type: 'button' } });
    usePaste.addEventListener('click', () => {
      if (paste.value.length > CAPS.fileBytes) return this.refuseFile(t('words.paste'), paste.value.length);
      on.loadVectors(paste.value);
    });

    const xGrid = this.grid('x', t('view.x'), false);
    const qxGrid = this.grid('qx', t('words.queryVectors'), false);
    const reset = h('button', { class: 'btn ghost', text: t('words.resetEdits'), attrs: { type: 'button' } });
    reset.addEventListener('click', () => set({ edits: [] }));
    b.also(() => {
      reset.hidden = s().edits.length === 0;
    });

    const queryRow = b.showWhen(
      h(
        'div',
        { class: 'field' },
        h('label', { text: t('words.query'), attrs: { for: 'query-text' } }),
        queryText,
        queryCut,
        on.errorBox('queryText'),
      ),
      () => s().setup === 'query',
    );
    const qxBlock = b.showWhen(h('div', {}, qxGrid.el, on.errorBox('qx')), () => s().setup === 'query');
    this.wordsPanel.append(
      h(
        'div',
        { class: 'field words-field' },
        h('label', { text: t('words.text'), attrs: { for: 'words-text' } }),
        text,
        textCut,
        on.errorBox('text'),
      ),
      h(
        'div',
        { class: 'row3' },
        pick.el,
        b.sync(lexicon, () => s().lexicon),
        b.sync(
          radios<State['setup']>(
            t('words.setup'),
            'setup',
            [
              ['self', t('setup.self')],
              ['query', t('setup.query')],
            ],
            (v) => set({ setup: v }),
          ),
          () => s().setup,
        ),
      ),
      ...this.learned.els,
      queryRow,
      h(
        'details',
        { class: 'file' },
        h('summary', { text: t('words.file') }),
        h('p', { class: 'hint', text: t('words.fileHint') }),
        file,
        paste,
        usePaste,
        this.fileStatus,
      ),
      this.wordsInfo,
      this.unknownInfo,
      h('div', { class: 'scroll' }, xGrid.el),
      on.errorBox('x'),
      reset,
      qxBlock,
    );

    // Vectors.
    const button = (key: MessageKey, action: () => void) => {
      const b = h('button', { class: 'btn small', text: t(key), attrs: { type: 'button', 'data-action': key } });
      b.addEventListener('click', action);
      return b;
    };
    const qGrid = this.grid('q', t('vectors.q'), true);
    const kGrid = this.grid('k', t('vectors.k'), true);
    const vGrid = this.grid('v', t('vectors.v'), false);
    const target = select(
      t('vectors.pasteInto'),
      'paste-target',
      [
        ['q', 'Q'],
        ['k', 'K'],
        ['v', 'V'],
      ],
      () => undefined,
    );
    const matrixText = h('textarea', {
      attrs: {
        rows: '4',
        'data-input': 'matrix-paste',
        spellcheck: 'false',
        'aria-label': t('vectors.paste'),
        placeholder: t('vectors.pastePlaceholder'),
      },
    });
    const usePasted = h('button', { class: 'btn', text: t('vectors.use'), attrs: { type: 'button', 'data-action': 'paste' } });
    usePasted.addEventListener('click', () => on.pasteMatrix(target.select.value as 'q' | 'k' | 'v', matrixText.value));
    this.vectorsPanel.append(
      h(
        'div',
        { class: 'toolbar' },
        button('vectors.addQuery', () => on.resize('q', 1)),
        button('vectors.removeQuery', () => on.resize('q', -1)),
        button('vectors.addKey', () => on.resize('k', 1)),
        button('vectors.removeKey', () => on.resize('k', -1)),
        button('vectors.addDk', () => on.resize('dk', 1)),
        button('vectors.removeDk', () => on.resize('dk', -1)),
        button('vectors.addDv', () => on.resize('dv', 1)),
        button('vectors.removeDv', () => on.resize('dv', -1)),
      ),
      h(
        'div',
        { class: 'qkv' },
        h('div', { class: 'scroll' }, qGrid.el, on.errorBox('q')),
        h('div', { class: 'scroll' }, kGrid.el, on.errorBox('k')),
        h('div', { class: 'scroll' }, vGrid.el, on.errorBox('v')),
      ),
      h(
        'details',
        { class: 'paste' },
        h('summary', { text: t('vectors.paste') }),
        h('div', { class: 'row3' }, target.el),
        matrixText,
        usePasted,
        on.errorBox('paste'),
        this.pasteStatus,
      ),
    );

    b.showWhen(this.wordsPanel, () => s().mode === 'words');
    b.showWhen(this.vectorsPanel, () => s().mode === 'vectors');
    this.el = h(
      'section',
      { class: 'card inputs', attrs: { 'aria-labelledby': 'inputs-title' } },
      h(
        'div',
        { class: 'inputs-head' },
        h('h2', { text: t('inputs.title'), attrs: { id: 'inputs-title' } }),
        b.sync(
          radios<State['mode']>(
            t('inputs.mode'),
            'mode',
            [
              ['words', t('mode.words')],
              ['vectors', t('mode.vectors')],
            ],
            (v) => set({ mode: v }),
          ),
          () => s().mode,
        ),
      ),
      this.wordsPanel,
      this.vectorsPanel,
    );
  }

  /** What became of a word-vector file: loaded (how many words), or why not. */
  fileMessage(text: string, error: boolean): void {
    this.fileStatus.textContent = text;
    this.fileStatus.classList.toggle('error', error);
    if (error) this.fileStatus.dataset.error = 'file';
    else delete this.fileStatus.dataset.error;
  }

  /** What became of a pasted matrix, when it was used. */
  pasteMessage(text: string): void {
    this.pasteStatus.textContent = text;
  }

  private refuseFile(name: string, bytes: number): void {
    this.fileMessage(t('file.tooLarge', { name, size: num(bytes / 2 ** 20), max: int(CAPS.fileBytes / 2 ** 20) }), true);
  }

  private grid(view: 'x' | 'qx' | 'q' | 'k' | 'v', name: string, editableLabels: boolean): Grid {
    const focusView: ViewId = view === 'qx' ? 'q' : view;
    const g = new Grid(view, name, {
      edit: (i, j, text, e) => this.on.editCell(view, i, j, text, e),
      label: editableLabels ? (i, text) => this.on.editLabel(view as 'q' | 'k', i, text) : undefined,
      point: (i, j, how) => this.on.point({ view: focusView, row: i, col: j, side: 'a' }, how),
    });
    g.el.dataset.editable = String(editableLabels);
    this.grids.set(view, g);
    return g;
  }

  /** The grids and notes for the words (or the vectors) as the model last read them. */
  update(s: State, words: Words | null, queryWords: Words | null): void {
    if (s.mode === 'words') {
      const learned = s.lexicon === 'learned'; // a word it lacks gets zeros (cpp/core/word_vectors.hpp)
      if (words) {
        this.wordGrid('x', t('words.vectors'), words, learned);
        setText(this.wordsInfo, t('words.tokenCount', { n: int(words.tokens.length), d: int(words.features.length) }));
      }
      const unknown = new Set<string>();
      for (const x of s.setup === 'query' ? [words, queryWords] : [words])
        x?.tokens.forEach((tok, i) => {
          if (x.unknown[i] && !x.edited[i]) unknown.add(tok);
        });
      const note = learned ? 'learned.unknownList' : 'words.unknownList';
      setText(this.unknownInfo, unknown.size ? t(note, { words: [...unknown].join(', ') }) : '');
      this.unknownInfo.hidden = unknown.size === 0;
      if (queryWords && s.setup === 'query') this.wordGrid('qx', t('words.queryVectors'), queryWords, learned);
      this.learned.update(s, words);
    } else {
      // The grids show what was typed: nothing to do unless it changed (a slider drag changes none).
      const shown = [s.mode, s.q, s.k, s.v, s.qLabels, s.kLabels, s.dkNames, s.dvNames];
      if (shown.every((x, k) => x === this.shownInputs[k])) return;
      this.shownInputs = shown;
      const dk = s.q[0]?.length ?? 0,
        dv = s.v[0]?.length ?? 0;
      const names = (list: string[], k: number) => Array.from({ length: k }, (_, i) => list[i] ?? String(i + 1));
      this.grids.get('q')!.update({
        caption: t('vectors.q'),
        ...this.typed(s.q),
        rowLabels: s.qLabels,
        colLabels: names(s.dkNames, dk),
        editableLabels: true,
      });
      this.grids.get('k')!.update({
        caption: t('vectors.k'),
        ...this.typed(s.k),
        rowLabels: s.kLabels,
        colLabels: names(s.dkNames, s.k[0]?.length ?? 0),
        editableLabels: true,
      });
      this.grids
        .get('v')!
        .update({ caption: t('vectors.v'), ...this.typed(s.v), rowLabels: s.kLabels, colLabels: names(s.dvNames, dv) });
    }
  }

  /** A typed matrix as the grid shows it: the cells, and the numbers and invalid cells the model read. */
  private typed(cells: string[][]): { cells: string[][]; numbers: number[][]; invalid: Set<string> } {
    const r = this.on.read(cells);
    return { cells, numbers: r.values, invalid: r.invalid };
  }

  /** The word vectors of the sentence (x) or of the query (qx), marked where edited, made up or zeros. */
  private wordGrid(view: 'x' | 'qx', caption: string, w: Words, zeros: boolean): void {
    const unknown = zeros ? 'zero' : 'unknown';
    this.grids.get(view)!.update({
      caption,
      ...this.typed(w.cells),
      rowLabels: w.tokens,
      colLabels: w.features,
      rowMarks: w.tokens.map((_, i) => (w.edited[i] ? 'edited' : w.unknown[i] ? unknown : '')),
    });
  }
}

/**
 * A field's `maxlength` cuts a paste without a word: this line says how long the text was and
 * what the field kept, until the next change that fits.
 */
function cutNote(field: HTMLInputElement, cap: number): HTMLElement {
  const note = h('p', { class: 'hint cut-note', attrs: { role: 'status', 'data-cut': field.id } });
  field.addEventListener('beforeinput', (e) => {
    const added = e.data ?? e.dataTransfer?.getData('text/plain') ?? '';
    const selected = (field.selectionEnd ?? 0) - (field.selectionStart ?? 0);
    const length = field.value.length - selected + added.length;
    note.textContent = added && length > cap ? t('words.cut', { given: int(length), cap: int(cap) }) : '';
  });
  return note;
}
