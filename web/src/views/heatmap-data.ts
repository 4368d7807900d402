// What a heatmap shows and how a reader moves through it, shared by its two forms: the table
// (views/heatmap-table.ts) and the canvas (views/heatmap-canvas.ts).
import { signedColor, weightColor, type Swatch } from './color';
import type { Mat } from '../engine/types';

/** Above this many cells a heatmap is drawn on a canvas. */
export const CANVAS_CELLS = 1000;

export interface Extra {
  header: string;
  title: string;
  cells: string[]; // (rows)
}

export interface HeatmapData {
  caption: string;
  rowLabels: string[];
  colLabels: string[];
  values: Mat; // (rows, cols)
  scale: 'weights' | 'signed';
  hidden?: Uint8Array; // (rows·cols) 1 = masked: drawn hatched
  extras?: Extra[];
  rowProblems?: Array<{ code: string; text: string } | null>; // (rows)
  numbers?: boolean; // print the numbers (a canvas only prints them when its cells are big enough)
}

export interface Pointer {
  (row: number, col: number, how: 'hover' | 'focus' | 'click'): void;
}

/** The scale the cells are drawn on, and for a signed one the |x| at full colour. */
export function scaleOf(d: HeatmapData): { scale: HeatmapData['scale']; limit: number } {
  const data = d.values.data;
  // Weights outside [0, 1] (sum-normalisation) are drawn on the signed scale, all of them.
  let scale = d.scale;
  if (scale === 'weights') {
    for (let k = 0; k < data.length; k++) {
      const x = data[k];
      if ((x < 0 || x > 1) && !(d.hidden && d.hidden[k])) {
        scale = 'signed';
        break;
      }
    }
  }
  let limit = 0;
  if (scale === 'signed') {
    for (let k = 0; k < data.length; k++) {
      const a = Math.abs(data[k]);
      if (a > limit && a !== Infinity) limit = a;
    }
  }
  return { scale, limit: Math.max(limit, 1e-12) };
}

/** The colour of every cell, the same in both forms. `null`: masked. `on`: scaleOf(d), if known. */
export function swatches(d: HeatmapData, on = scaleOf(d)): Array<Swatch | null> {
  const data = d.values.data;
  const { scale, limit } = on;
  const out = new Array<Swatch | null>(data.length);
  for (let k = 0; k < data.length; k++) {
    out[k] = d.hidden && d.hidden[k] === 1 ? null : scale === 'weights' ? weightColor(data[k]) : signedColor(data[k], limit);
  }
  return out;
}

/** Moves (i, j) by a navigation key; null for any other key. */
export function move(e: KeyboardEvent, i: number, j: number, rows: number, cols: number): [number, number] | null {
  switch (e.key) {
    case 'ArrowUp':
      return [Math.max(0, i - 1), j];
    case 'ArrowDown':
      return [Math.min(rows - 1, i + 1), j];
    case 'ArrowLeft':
      return [i, Math.max(0, j - 1)];
    case 'ArrowRight':
      return [i, Math.min(cols - 1, j + 1)];
    case 'Home':
      return [e.ctrlKey ? 0 : i, 0];
    case 'End':
      return [e.ctrlKey ? rows - 1 : i, cols - 1];
    case 'PageUp':
      return [Math.max(0, i - 10), j];
    case 'PageDown':
      return [Math.min(rows - 1, i + 10), j];
    default:
      return null;
  }
}

export interface Form {
  update(d: HeatmapData, colours: Array<Swatch | null>): void;
  highlight(rows: number[], cols: number[], cell?: [number, number]): void;
}
