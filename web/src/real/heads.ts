// Every head of the model on the reader's sentence, as small multiples: a row per layer, a square
// per head, each the head's weights drawn a pixel per (query, key) on a canvas (the playground's
// colour scale for weights; above the diagonal, which a causal head never reads, the page's
// background). Each square is a button that opens the head in the playground, named by its
// measured pattern and score; the numbers themselves are read there, where each explains itself.
import { weightColor } from '../views/color';
import { h } from '../views/dom';
import type { HeadWeights } from '../engine/types';

export interface HeadGridWords {
  layer(layer: number): string;
  /** The caption under a square: its place, pattern and score. */
  name(layer: number, head: number): string;
  /** The button's accessible name: the same, and what pressing does. */
  label(layer: number, head: number): string;
}

interface Square {
  layer: number;
  head: number;
  button: HTMLButtonElement;
  canvas: HTMLCanvasElement;
}

/** The colour of a masked cell: the page's background, so the triangle reads as nothing. */
const MASKED = 0xffffff;

/** The most pixels a side of a head's square is drawn with: more than its size on screen at twice
 * the pixel density, and a bound on the work of drawing it however long the reading is. */
const MAX_SIDE = 128;

/** The first of `n` rows (or columns) that pixel `p` of `side` covers. */
const first = (p: number, n: number, side: number) => Math.floor((p * n) / side);

function draw(canvas: HTMLCanvasElement, w: HeadWeights): void {
  const n = w.n,
    side = Math.min(n, MAX_SIDE);
  canvas.width = canvas.height = side;
  const g = canvas.getContext('2d');
  if (!g || n === 0) return;
  const image = g.createImageData(side, side);
  // Past MAX_SIDE tokens a pixel covers a block of cells and shows the largest weight among them,
  // so that a pattern of one sharp cell a row (previous token) stays visible. Masked blocks (every
  // key after every query) are the background.
  for (let y = 0; y < side; y++) {
    const i0 = first(y, n, side),
      i1 = first(y + 1, n, side);
    for (let x = 0; x < side; x++) {
      const j0 = first(x, n, side),
        j1 = first(x + 1, n, side);
      let most = -1;
      for (let i = i0; i < i1; i++) for (let j = j0; j < j1 && j <= i; j++) most = Math.max(most, w.data[i * n + j]);
      const rgb = most < 0 ? MASKED : weightColor(most).rgb;
      const at = 4 * (y * side + x);
      image.data[at] = rgb >> 16;
      image.data[at + 1] = (rgb >> 8) & 255;
      image.data[at + 2] = rgb & 255;
      image.data[at + 3] = 255;
    }
  }
  g.putImageData(image, 0, 0);
}

export class HeadGrid {
  readonly el = h('div', { class: 'real-heads', attrs: { 'data-real-heads': '' } });
  private squares: Square[] = [];
  private shape = '';
  /** Numbers each draw, so that the heads of an older reading stop being painted. */
  private drawing = 0;

  constructor(
    private readonly words: HeadGridWords,
    private readonly onOpen: (layer: number, head: number) => void,
  ) {}

  /** The heads' weights, layer by layer; `open` is the head shown in the playground (counted from 0). */
  draw(weights: readonly HeadWeights[], open: { layer: number; head: number } | null): void {
    const shape = weights.map((w) => `${w.layer}.${w.head}`).join(' ');
    if (shape !== this.shape) this.build(weights);
    this.shape = shape;
    this.mark(open);
    // One head a task: a model of 144 heads over hundreds of tokens would otherwise hold the page
    // for seconds in one go. The first is painted now, with the rest of the reading.
    const drawing = ++this.drawing;
    const paint = (k: number) => {
      if (drawing !== this.drawing || k >= weights.length) return;
      draw(this.squares[k].canvas, weights[k]);
      if (k + 1 < weights.length) setTimeout(() => paint(k + 1), 0);
      else this.el.dataset.painted = String(drawing);
    };
    delete this.el.dataset.painted;
    paint(0);
  }

  /** Which head is open: its button is pressed. */
  mark(open: { layer: number; head: number } | null): void {
    for (const s of this.squares)
      s.button.setAttribute('aria-pressed', String(!!open && open.layer === s.layer && open.head === s.head));
  }

  private clear(): void {
    this.squares = [];
    this.shape = '';
    this.el.replaceChildren();
  }

  private build(weights: readonly HeadWeights[]): void {
    this.clear();
    // A model of many heads a layer (GPT-2's 12) gets smaller squares, so that a layer is one row.
    const heads = weights.filter((w) => w.layer === 0).length;
    this.el.toggleAttribute('data-many', heads > 8);
    let row: HTMLElement | null = null;
    let layer = -1;
    for (const w of weights) {
      if (w.layer !== layer) {
        layer = w.layer;
        row = h('div', { class: 'real-layer', attrs: { role: 'group', 'aria-label': this.words.layer(layer + 1) } });
        row.append(h('span', { class: 'real-layer-name', text: this.words.layer(layer + 1), attrs: { 'aria-hidden': 'true' } }));
        this.el.append(row);
      }
      const canvas = h('canvas', { attrs: { 'aria-hidden': 'true' } });
      const button = h(
        'button',
        {
          class: 'real-head',
          attrs: {
            type: 'button',
            'data-layer': String(w.layer + 1),
            'data-head': String(w.head + 1),
            'aria-label': this.words.label(w.layer + 1, w.head + 1),
            title: this.words.label(w.layer + 1, w.head + 1),
          },
        },
        canvas,
        h('span', { class: 'real-head-name', text: this.words.name(w.layer + 1, w.head + 1) }),
      );
      const at = { layer: w.layer, head: w.head };
      button.addEventListener('click', () => this.onOpen(at.layer, at.head));
      row?.append(button);
      this.squares.push({ ...at, button, canvas });
    }
  }
}
