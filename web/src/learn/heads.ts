// Every layer's and head's attention on the probe sequence: one small heatmap per head, drawn by
// the playground's own heatmap (views/heatmap.ts: a table of the trainer's weights, row i reading
// positions 0 … i, the later positions masked as a causal mask is in the playground), captioned
// with its score for the task's pattern, each cell's number in its tooltip to three decimals.
// Beside each map a button: a toggle that breaks the head (its output zeroed when the model is
// measured), or an action. The maps are updated in place.
import { decimals } from '../i18n';
import { h } from '../views/dom';
import { Heatmap, type HeatmapData } from '../views/heatmap';
import type { HeadWeights } from '../engine/types';

interface Map {
  figure: HTMLElement;
  button: HTMLButtonElement;
  heatmap: Heatmap;
  /** The cells of the map's table (rows · n), found again when its shape changes. */
  cells: HTMLElement[];
  titles: string[];
}

export interface HeadWords {
  /** A head's caption: its place and its pattern score. */
  caption(layer: number, head: number, score: string): string;
  /** The button's name: what pressing it does to this head. */
  press(layer: number, head: number): string;
  /** The button's visible word ("Break", "Open"), the start of its name. */
  button: string;
}

/** Position i reads positions 0 … i: the rest of its row is masked. */
function causal(n: number): Uint8Array {
  const hidden = new Uint8Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) hidden[i * n + j] = 1;
  return hidden;
}

export class HeadMaps {
  readonly el = h('div', { class: 'learn-heads', attrs: { 'data-learn-heads': '' } });
  private maps: Map[] = [];
  private shape = '';
  private broken = new Set<string>();

  constructor(
    private readonly words: HeadWords,
    private readonly onPress: (layer: number, head: number) => void,
    /** Toggles (aria-pressed, shown broken) or plain actions. */
    private readonly toggles = true,
  ) {}

  /** No heads (a new model that has not come, or could not be made). */
  clear(): void {
    this.maps = [];
    this.shape = '';
    this.broken.clear();
    this.el.replaceChildren();
  }

  /** The heads shown as broken, as "layer.head". */
  setBroken(heads: readonly [number, number][]): void {
    this.broken = new Set(heads.map(([l, k]) => `${l}.${k}`));
    for (const map of this.maps) this.mark(map);
  }

  draw(weights: readonly HeadWeights[], scores: readonly number[][], tokens: readonly string[], lang: string): void {
    const shape = weights.map((w) => `${w.layer}.${w.head}.${w.n}`).join(' ') + '|' + tokens.join(' ');
    if (shape !== this.shape) this.build(weights);
    this.shape = shape;
    weights.forEach((w, k) => {
      const map = this.maps[k];
      const score = scores[w.layer]?.[w.head];
      const labels = Array.from({ length: w.n }, (_, i) => tokens[i] ?? String(i));
      const data: HeatmapData = {
        caption: this.words.caption(w.layer + 1, w.head + 1, score === undefined ? '—' : decimals(score, 2, lang)),
        rowLabels: labels,
        colLabels: labels,
        values: { rows: w.n, cols: w.n, data: Float64Array.from(w.data) },
        scale: 'weights',
        hidden: causal(w.n),
      };
      map.heatmap.update(data);
      if (map.cells.length !== w.n * w.n || !map.cells[0]?.isConnected) {
        map.cells = Array.from(map.heatmap.el.querySelectorAll<HTMLElement>('td[data-i]'));
        map.titles = [];
      }
      for (let i = 0; i < w.n; i++) {
        for (let j = 0; j <= i; j++) {
          const title = `${labels[i]} → ${labels[j]}: ${decimals(w.data[i * w.n + j], 3, lang)}`;
          if (map.titles[i * w.n + j] === title) continue;
          map.titles[i * w.n + j] = title;
          map.cells[i * w.n + j]?.setAttribute('title', title);
        }
      }
      map.figure.dataset.score = score === undefined ? '' : String(score);
    });
  }

  private mark(map: Map): void {
    if (!this.toggles) return;
    const on = this.broken.has(`${map.figure.dataset.layer}.${map.figure.dataset.head}`);
    // Written only when it changes: this runs on every update, and each write restyles the head.
    if (map.button.getAttribute('aria-pressed') === String(on)) return;
    map.button.setAttribute('aria-pressed', String(on));
    map.figure.classList.toggle('learn-broken', on);
  }

  /** One figure per head: its map, and its button. */
  private build(weights: readonly HeadWeights[]): void {
    this.maps = weights.map((w) => {
      const heatmap = new Heatmap('learn-head', 'a', (i, j, how) => {
        if (how !== 'click') heatmap.highlight([i], [j], [i, j]);
      });
      heatmap.el.addEventListener('mouseleave', () => heatmap.highlight([], []));
      const button = h('button', {
        class: 'btn learn-break',
        text: this.words.button,
        attrs: { type: 'button', 'aria-label': this.words.press(w.layer + 1, w.head + 1) },
      });
      button.addEventListener('click', () => this.onPress(w.layer, w.head));
      const figure = h(
        'figure',
        { class: 'learn-head', attrs: { 'data-layer': String(w.layer), 'data-head': String(w.head) } },
        heatmap.el,
        button,
      );
      const map = { figure, button, heatmap, cells: [], titles: [] };
      this.mark(map);
      return map;
    });
    this.el.replaceChildren(...this.maps.map((m) => m.figure));
  }
}
