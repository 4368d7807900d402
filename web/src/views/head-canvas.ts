// A head's map on a canvas, a pixel per (query, key) (the playground's colour scale for weights;
// above the diagonal, which a causal head never reads, the page's background), with its caption
// under it: for a language model's many heads over hundreds of tokens, too many cells to be
// elements. The numbers themselves are read in the playground, where the head opens.
import { weightColor } from './color';
import { h } from './dom';
import type { HeadForm, HeadMap } from './head-grid';
import type { HeadWeights } from '../engine/types';

/** The colour of a masked cell: the page's background, so the triangle reads as nothing. */
const MASKED = 0xffffff;

/** The most pixels a side of a head's square is drawn with: more than its size on screen at twice
 * the pixel density, and a bound on the work of drawing it however long the reading is. */
const MAX_SIDE = 128;

/** The first of `n` rows (or columns) that pixel `p` of `side` covers. */
const first = (p: number, n: number, side: number) => Math.floor((p * n) / side);

function paint(canvas: HTMLCanvasElement, w: HeadWeights): void {
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

class CanvasMap implements HeadMap {
  private readonly canvas = h('canvas', { attrs: { 'aria-hidden': 'true' } });
  private readonly name: HTMLElement;
  readonly el: HTMLElement;

  constructor(captionClass: string) {
    this.name = h('span', { class: captionClass });
    // Its two parts take their places in the head as if they were the head's own (styles).
    this.el = h('span', { class: 'head-canvas' }, this.canvas, this.name);
  }

  caption(text: string): void {
    if (this.name.textContent !== text) this.name.textContent = text;
  }

  draw(w: HeadWeights): void {
    paint(this.canvas, w);
  }
}

/** Heads drawn on canvases, one a task, captioned in elements of class `captionClass`. */
export function canvasForm(captionClass: string): HeadForm {
  return { create: () => new CanvasMap(captionClass), deferred: true };
}
