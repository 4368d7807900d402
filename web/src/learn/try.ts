// "Try your own sequence": the reader types tokens of the task, the worker runs them through the
// model (again after every update), and the panel shows the next token the model predicts after
// each position, with its probability, and every head's weights on them. A head opens in the
// playground below, where its Q, K and V go through the explainer's own steps.
import { translator, percent } from '../i18n';
import { h } from '../views/dom';
import { HeadGrid } from '../views/head-grid';
import { tableForm } from '../views/head-table';
import type { Tried, TriedHead } from './protocol';
import { readSequence, tokenWord } from './sequence';
import { trainerFailure } from './failures';
import { askedPositions, type TaskName } from './tasks';

export class TryPanel {
  readonly el: HTMLElement;
  private readonly field: HTMLInputElement;
  private readonly message: HTMLElement;
  private readonly note = h('p', { class: 'learn-note', attrs: { role: 'status', 'data-learn-try-note': '' } });
  private readonly unasked: HTMLElement;
  private task: TaskName = 'find_match';
  private readonly answer: HTMLElement;
  private readonly predictions: HTMLElement;
  private readonly heads: HeadGrid;
  private readonly headsPart: HTMLElement;
  private tokens: readonly string[] = [];
  private max = 0;
  private last: Tried | null = null;

  constructor(
    private readonly lang: string,
    /** The token ids to run (null: none). */
    private readonly submit: (ids: number[] | null) => void,
    /** Opens one head, on the sequence as last run, in the playground. */
    private readonly open: (head: TriedHead, labels: string[], steps: number) => void,
  ) {
    const id = 'learn-try-field';
    this.field = h('input', {
      attrs: {
        id,
        type: 'text',
        autocomplete: 'off',
        spellcheck: 'false',
        'data-learn-try': '',
        'aria-describedby': 'learn-try-message',
      },
    });
    this.message = h('p', {
      class: 'learn-try-message',
      attrs: { id: 'learn-try-message', role: 'alert', 'data-learn-try-message': '' },
    });
    this.answer = h('p', { class: 'learn-answer', attrs: { 'data-learn-answer': '', 'aria-live': 'polite' } });
    this.predictions = h('ol', { class: 'learn-predictions', attrs: { 'data-learn-predictions': '' } });
    this.unasked = h('p', {
      class: 'learn-note',
      text: translator(lang)('learn.tryUnasked'),
      attrs: { 'data-learn-unasked': '', hidden: '' },
    });
    this.heads = new HeadGrid(
      {
        name: 'learn',
        form: tableForm(lang),
        toggles: false,
        words: {
          caption: (layer, head) => translator(lang)('learn.head', { layer, head }),
          press: (layer, head) => translator(lang)('learn.tryOpen', { layer, head }),
          button: translator(lang)('learn.tryOpenButton'),
        },
      },
      (layer, head) => this.openHead(layer, head),
    );
    delete this.heads.el.dataset.learnHeads; // that name is the training heads'
    this.heads.el.dataset.learnTryHeads = '';
    this.headsPart = h(
      'div',
      { class: 'learn-try-heads', attrs: { hidden: '' } },
      h('h4', { text: translator(lang)('learn.tryHeads') }),
      h('p', { class: 'learn-note', text: translator(lang)('learn.tryOpenNote') }),
      this.heads.el,
    );
    const run = h('button', {
      class: 'btn',
      text: translator(lang)('learn.tryRun'),
      attrs: { type: 'submit', 'data-learn-try-run': '' },
    });
    const form = h(
      'form',
      { class: 'learn-try-form' },
      h('label', { class: 'learn-field learn-try-label', attrs: { for: id } }, translator(lang)('learn.tryLabel')),
      h('div', { class: 'learn-try-row' }, this.field, run),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.read();
    });
    this.el = h(
      'section',
      { class: 'learn-try', attrs: { 'aria-labelledby': 'learn-try-title' } },
      h('h3', { text: translator(lang)('learn.tryTitle'), attrs: { id: 'learn-try-title' } }),
      h('p', { class: 'learn-note', text: translator(lang)('learn.tryNote') }),
      form,
      this.message,
      this.note,
      this.answer,
      this.predictions,
      this.unasked,
      this.headsPart,
    );
  }

  /** A new model: its tokens, its longest sequence, and the probe sequence as the field's start. */
  reset(tokens: readonly string[], max: number, probe: readonly number[], task: TaskName): void {
    this.task = task;
    // Another task's tokens: the reader's sequence was of the old ones, so the field starts again.
    if (tokens.join(' ') !== this.tokens.join(' ')) this.field.value = '';
    this.tokens = tokens;
    this.max = max;
    this.last = null;
    if (!this.field.value) this.field.value = probe.map((t) => tokenWord(this.lang, tokens[t] ?? '')).join(' ');
    this.message.textContent = '';
    this.clear();
    // The sequence in the field runs at once, so its predictions change as the model learns.
    this.read(false);
  }

  /** The model's numbers on the sequence, as they come after each update. */
  show(t: Tried): void {
    if (t.error) {
      this.message.textContent = translator(this.lang)('learn.tryFailed', { message: trainerFailure(this.lang, t.error) });
      return this.clear();
    }
    this.last = t;
    const word = (id: number) => tokenWord(this.lang, this.tokens[id] ?? '?');
    const n = t.tokens.length;
    this.answer.textContent = translator(this.lang)('learn.tryAnswer', {
      last: word(t.tokens[n - 1]),
      next: word(t.predicted[n - 1]),
      p: percent(t.confidence[n - 1], 0, this.lang),
    });
    this.answer.dataset.next = this.tokens[t.predicted[n - 1]] ?? '';
    this.predictions.setAttribute('aria-label', translator(this.lang)('learn.tryPredicts', { n: t.steps }));
    this.predictions.dataset.steps = String(t.steps);
    const asked = askedPositions(this.task, this.tokens, t.tokens);
    this.unasked.hidden = asked.every(Boolean);
    this.predictions.replaceChildren(
      ...t.tokens.map((id, i) =>
        h(
          'li',
          {
            class: asked[i] ? '' : 'learn-unasked',
            attrs: { 'data-next': this.tokens[t.predicted[i]] ?? '', 'data-asked': String(asked[i]) },
          },
          h('span', { class: 'learn-tok', text: word(id) }),
          h('span', { class: 'learn-next', text: '→ ' + word(t.predicted[i]) }),
          h('span', { class: 'learn-p', text: percent(t.confidence[i], 0, this.lang) }),
        ),
      ),
    );
    const labels = t.tokens.map(word);
    this.heads.draw(
      t.heads.map((x) => ({ layer: x.layer, head: x.head, n: x.weights.rows, data: x.weights.data })),
      labels,
    );
    this.headsPart.hidden = false;
  }

  private read(pressed = true): void {
    const r = readSequence(this.field.value, this.tokens, this.max);
    this.note.textContent = r.ok && r.dropped ? translator(this.lang)('learn.tryDropped') : '';
    if (!r.ok) {
      if (!pressed) return;
      // The numbers below were the last sequence's: gone with it, and the worker stops running it.
      this.clear();
      this.submit(null);
      const tokens = this.tokens.map((t) => tokenWord(this.lang, t)).join(' ');
      this.message.textContent = translator(this.lang)(r.key, { ...r.params, tokens });
      this.field.setAttribute('aria-invalid', 'true');
      this.field.focus();
      return;
    }
    this.field.removeAttribute('aria-invalid');
    this.message.textContent = '';
    this.submit(r.ids);
  }

  /** No numbers shown: those on screen were of a sequence that is no longer the one asked about. */
  private clear(): void {
    this.last = null;
    this.answer.textContent = '';
    this.predictions.replaceChildren();
    this.unasked.hidden = true;
    this.heads.clear();
    this.headsPart.hidden = true;
  }

  private openHead(layer: number, head: number): void {
    const t = this.last;
    const found = t?.heads.find((x) => x.layer === layer && x.head === head);
    if (!t || !found) return;
    this.open(
      found,
      t.tokens.map((id) => tokenWord(this.lang, this.tokens[id] ?? '?')),
      t.steps,
    );
  }
}
