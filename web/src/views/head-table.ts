// A head's map as the playground's own heatmap (views/heatmap.ts): a table of the head's weights,
// the later positions masked as a causal mask is in the playground, captioned, each cell's number
// in its tooltip to three decimals; for a few heads over a few tokens (Learn's), whose cells a
// reader points at and a screen reader reads.
import { decimals } from '../i18n';
import { Heatmap, type HeatmapData } from './heatmap';
import type { HeadForm, HeadMap } from './head-grid';
import type { HeadWeights } from '../engine/types';

/** Position i reads positions 0 … i: the rest of its row is masked. */
function causal(n: number): Uint8Array {
  const hidden = new Uint8Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) hidden[i * n + j] = 1;
  return hidden;
}

class TableMap implements HeadMap {
  private readonly heatmap: Heatmap;
  /** The cells of the map's table (n · n), found again when its shape changes. */
  private cells: HTMLElement[] = [];
  private titles: string[] = [];
  private text = '';

  constructor(private readonly lang: string) {
    const heatmap = (this.heatmap = new Heatmap('learn-head', 'a', (i, j, how) => {
      if (how !== 'click') heatmap.highlight([i], [j], [i, j]);
    }));
    heatmap.el.addEventListener('mouseleave', () => heatmap.highlight([], []));
  }

  get el(): HTMLElement {
    return this.heatmap.el;
  }

  caption(text: string): void {
    this.text = text;
  }

  draw(w: HeadWeights, tokens: readonly string[]): void {
    const labels = Array.from({ length: w.n }, (_, i) => tokens[i] ?? String(i));
    const data: HeatmapData = {
      caption: this.text,
      rowLabels: labels,
      colLabels: labels,
      values: { rows: w.n, cols: w.n, data: Float64Array.from(w.data) },
      scale: 'weights',
      hidden: causal(w.n),
    };
    this.heatmap.update(data);
    if (this.cells.length !== w.n * w.n || !this.cells[0]?.isConnected) {
      this.cells = Array.from(this.heatmap.el.querySelectorAll<HTMLElement>('td[data-i]'));
      this.titles = [];
    }
    for (let i = 0; i < w.n; i++) {
      for (let j = 0; j <= i; j++) {
        const title = `${labels[i]} → ${labels[j]}: ${decimals(w.data[i * w.n + j], 3, this.lang)}`;
        if (this.titles[i * w.n + j] === title) continue;
        this.titles[i * w.n + j] = title;
        this.cells[i * w.n + j]?.setAttribute('title', title);
      }
    }
  }
}

/** Heads drawn as tables, their numbers worded in `lang`. */
export function tableForm(lang: string): HeadForm {
  return { create: () => new TableMap(lang), deferred: false };
}
