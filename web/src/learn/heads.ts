// Every layer's and head's attention on the probe sequence: one small heatmap per head (the
// trainer's weights, row i reading positions 0 … i), captioned with its score for the task's
// pattern, each cell's number in its tooltip. A head is a button: a toggle that breaks it (its
// output zeroed when the model is measured), or an action. The cells are recoloured in place.
import { decimals } from '../i18n';
import { h, ns, SVG } from '../views/dom';
import { weightColor } from '../views/color';
import type { HeadWeights } from './protocol';

const CELL = 12;
/** Label text size, and the room a label takes beside the map (Han and kana are a full em wide). */
const FONT = 9;
const width = (t: string) => [...t].reduce((w, c) => w + (/[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(c) ? 1 : 0.62), 0);
const room = (tokens: readonly string[]) => 8 + FONT * Math.max(1, ...tokens.map(width));
/** Screen pixels per unit of the map's drawing. */
const SCALE = 1.3;

interface Map {
  figure: HTMLElement;
  button: HTMLButtonElement;
  caption: HTMLElement;
  cells: Element[];
  titles: Element[];
}

export interface HeadWords {
  /** A head's caption: its place and its pattern score. */
  caption(layer: number, head: number, score: string): string;
  /** The button's name: what pressing it does to this head. */
  press(layer: number, head: number): string;
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
    if (shape !== this.shape) this.build(weights, tokens);
    this.shape = shape;
    weights.forEach((w, k) => {
      const map = this.maps[k];
      for (let i = 0; i < w.n; i++) {
        for (let j = 0; j <= i; j++) {
          const x = w.data[i * w.n + j];
          map.cells[i * w.n + j].setAttribute('fill', weightColor(x).background);
          map.titles[i * w.n + j].textContent = `${tokens[i] ?? i} → ${tokens[j] ?? j}: ${decimals(x, 3, lang)}`;
        }
      }
      const score = scores[w.layer]?.[w.head];
      map.caption.textContent = this.words.caption(w.layer + 1, w.head + 1, score === undefined ? '—' : decimals(score, 2, lang));
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

  /** One figure per head, its cells in rows (masked ones, above the diagonal, stay blank). */
  private build(weights: readonly HeadWeights[], tokens: readonly string[]): void {
    this.maps = weights.map((w) => {
      const cells: Element[] = [];
      const titles: Element[] = [];
      // Row labels (the position reading) on the left, column labels (the position read) on top.
      // Column labels stand upright when every token is a character or so (digits, letters).
      const upright = tokens.every((t) => width(t) <= 1.3);
      const m = room(tokens);
      const top = upright ? 8 + FONT : m;
      const svg = ns(SVG, 'svg', {
        class: 'learn-map',
        viewBox: `0 0 ${m + w.n * CELL} ${top + w.n * CELL}`,
        width: String(Math.round((m + w.n * CELL) * SCALE)),
        height: String(Math.round((top + w.n * CELL) * SCALE)),
        'aria-hidden': 'true',
      });
      const grid = ns(SVG, 'g', { transform: `translate(${m} ${top})` });
      for (let i = 0; i < w.n; i++) {
        const at = String(i * CELL + CELL / 2);
        svg.append(
          ns(
            SVG,
            'text',
            {
              class: 'learn-label',
              x: String(m - 3),
              y: String(top + i * CELL + CELL / 2),
              'text-anchor': 'end',
              'dominant-baseline': 'central',
            },
            tokens[i] ?? '',
          ),
          ns(
            SVG,
            'text',
            upright
              ? { class: 'learn-label', x: String(m + Number(at)), y: String(top - 4), 'text-anchor': 'middle' }
              : {
                  class: 'learn-label',
                  transform: `translate(${m + Number(at)} ${top - 3}) rotate(-90)`,
                  'dominant-baseline': 'central',
                },
            tokens[i] ?? '',
          ),
        );
        for (let j = 0; j < w.n; j++) {
          const title = ns(SVG, 'title');
          const cell = ns(
            SVG,
            'rect',
            {
              x: String(j * CELL),
              y: String(i * CELL),
              width: String(CELL),
              height: String(CELL),
              class: j > i ? 'learn-masked' : 'learn-cell',
            },
            title,
          );
          cells.push(cell);
          titles.push(title);
          grid.append(cell);
        }
      }
      svg.append(grid);
      // The broken mark: a cross over the map.
      const end = String(w.n * CELL);
      grid.append(ns(SVG, 'path', { class: 'learn-cross', d: `M0 0L${end} ${end}M${end} 0L0 ${end}` }));
      const button = h(
        'button',
        {
          class: 'learn-break',
          attrs: { type: 'button', 'aria-label': this.words.press(w.layer + 1, w.head + 1) },
        },
        svg,
      );
      button.addEventListener('click', () => this.onPress(w.layer, w.head));
      const caption = h('figcaption');
      const figure = h(
        'figure',
        { class: 'learn-head', attrs: { 'data-layer': String(w.layer), 'data-head': String(w.head) } },
        button,
        caption,
      );
      const map = { figure, button, caption, cells, titles };
      this.mark(map);
      return map;
    });
    this.el.replaceChildren(...this.maps.map((m) => m.figure));
  }
}
