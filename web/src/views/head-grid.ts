// Every head of a model on one sequence, as small multiples: each head's causal weights (n, n),
// row i reading positions 0 … i, drawn by a form the caller picks: a table of cells a reader can
// point at (head-table.ts), for Learn's few heads over a dozen tokens, or a canvas a pixel per
// cell (head-canvas.ts), for a language model's 144 heads over hundreds; captioned, with a button that acts on
// the head: a word beside its map ("Break", "Open"), or the whole head as the button. The heads
// the caller names are shown pressed (broken, or open in the playground). Built when the heads
// change, otherwise drawn again in place.
import { h } from './dom';
import type { HeadWeights } from '../engine/types';

/** One head's map: its element, captioned, drawn again for each reading. */
export interface HeadMap {
  readonly el: HTMLElement;
  caption(text: string): void;
  draw(w: HeadWeights, labels: readonly string[]): void;
}

export interface HeadForm {
  create(): HeadMap;
  /** Drawn one head a task (a canvas of a large reading is slow), rather than all at once. */
  readonly deferred: boolean;
}

export interface HeadGridWords {
  /** A head's caption (counted from 1), with its score when the grid was given scores. */
  caption(layer: number, head: number, score: number | undefined): string;
  /** The button's name: what pressing it does to this head. */
  press(layer: number, head: number): string;
  /** The button's visible word, beside the map; none: the whole head is the button. */
  button?: string;
  /** A row per layer, named so; none: the heads in one flow. */
  layer?(layer: number): string;
}

export interface HeadGridOptions {
  /** The class names' start: `<name>-heads`, `<name>-head`, `<name>-break`, `<name>-pressed`. */
  name: string;
  form: HeadForm;
  words: HeadGridWords;
  /** The buttons are toggles (aria-pressed), or plain actions. */
  toggles: boolean;
}

interface Head {
  layer: number;
  head: number;
  el: HTMLElement;
  button: HTMLButtonElement;
  map: HeadMap;
}

export class HeadGrid {
  readonly el: HTMLElement;
  private heads: Head[] = [];
  private shape = '';
  /** Numbers each draw, so that the heads of an older reading stop being drawn. */
  private drawing = 0;

  constructor(
    private readonly o: HeadGridOptions,
    private readonly onPress: (layer: number, head: number) => void,
  ) {
    this.el = h('div', { class: `head-grid ${o.name}-heads`, attrs: { [`data-${o.name}-heads`]: '' } });
  }

  /** No heads (a new model that has not come, or could not be made). */
  clear(): void {
    this.drawing++;
    this.heads = [];
    this.shape = '';
    this.el.replaceChildren();
  }

  /**
   * The heads' weights, layer by layer (counted from 0), over tokens named by `labels`, and their
   * scores (`scores[layer][head]`), which the captions say and each head keeps as data-score.
   */
  draw(weights: readonly HeadWeights[], labels: readonly string[] = [], scores?: readonly number[][]): void {
    const shape = weights.map((w) => `${w.layer}.${w.head}`).join(' ');
    if (shape !== this.shape) this.build(weights);
    this.shape = shape;
    weights.forEach((w, k) => {
      const head = this.heads[k];
      const score = scores?.[w.layer]?.[w.head];
      head.map.caption(this.o.words.caption(w.layer + 1, w.head + 1, score));
      if (scores) head.el.dataset.score = score === undefined ? '' : String(score);
    });
    const show = (k: number) => this.heads[k].map.draw(weights[k], labels);
    const drawing = ++this.drawing;
    if (!this.o.form.deferred) {
      weights.forEach((_, k) => show(k));
      return;
    }
    // One head a task: a model of 144 heads over hundreds of tokens would otherwise hold the page
    // for seconds in one go. The first is drawn now, with the rest of the reading.
    const paint = (k: number) => {
      if (drawing !== this.drawing || k >= weights.length) return;
      show(k);
      if (k + 1 < weights.length) setTimeout(() => paint(k + 1), 0);
      else this.el.dataset.painted = String(drawing);
    };
    delete this.el.dataset.painted;
    paint(0);
  }

  /** The heads shown pressed (counted from 0): broken, or open in the playground. */
  press(pressed: readonly { layer: number; head: number }[]): void {
    if (!this.o.toggles) return;
    const on = new Set(pressed.map((p) => `${p.layer}.${p.head}`));
    for (const head of this.heads) {
      const now = on.has(`${head.layer}.${head.head}`);
      // Written only when it changes: this runs on every update, and each write restyles the head.
      if (head.button.getAttribute('aria-pressed') === String(now)) continue;
      head.button.setAttribute('aria-pressed', String(now));
      head.el.classList.toggle(`${this.o.name}-pressed`, now);
    }
  }

  private build(weights: readonly HeadWeights[]): void {
    this.clear();
    const { name, words } = this.o;
    // A model of many heads a layer (GPT-2's 12) gets smaller heads, so that a layer is one row.
    this.el.toggleAttribute('data-many', weights.filter((w) => w.layer === 0).length > 8);
    let row: HTMLElement = this.el;
    let layer = -1;
    for (const w of weights) {
      if (words.layer && w.layer !== layer) {
        const title = words.layer(w.layer + 1);
        row = h('div', { class: `${name}-layer`, attrs: { role: 'group', 'aria-label': title } });
        row.append(h('span', { class: `${name}-layer-name`, text: title, attrs: { 'aria-hidden': 'true' } }));
        this.el.append(row);
      }
      layer = w.layer;
      const map = this.o.form.create();
      const at = { layer: w.layer, head: w.head };
      const label = words.press(w.layer + 1, w.head + 1);
      const place = { 'data-layer': String(w.layer + 1), 'data-head': String(w.head + 1) };
      let el: HTMLElement, button: HTMLButtonElement;
      if (words.button) {
        button = h('button', { class: `btn ${name}-break`, text: words.button, attrs: { type: 'button', 'aria-label': label } });
        el = h('figure', { class: `${name}-head`, attrs: place }, map.el, button);
      } else {
        button = el = h(
          'button',
          { class: `${name}-head`, attrs: { type: 'button', ...place, 'aria-label': label, title: label } },
          map.el,
        );
      }
      button.addEventListener('click', () => this.onPress(at.layer, at.head));
      if (this.o.toggles) button.setAttribute('aria-pressed', 'false');
      row.append(el);
      this.heads.push({ ...at, el, button, map });
    }
  }
}
