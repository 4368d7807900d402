// What a pointed-at cell lights up: its query row, its key row (a column of the scores), and the
// features it is made of, in every view; and which field keeps the focus across a re-render.
import type { Focus, State } from '../state/state';

export interface Lit {
  query: number | null;
  key: number | null;
  feat: number | null; // a feature of Q and K (d_k)
  vfeat: number | null; // a feature of V and of the output (d_v)
}

export function lit(f: Focus | null, setup: State['setup']): Lit {
  const none: Lit = { query: null, key: null, feat: null, vfeat: null };
  if (!f) return none;
  switch (f.view) {
    case 'scores':
    case 'scaled':
    case 'masked':
    case 'weights':
      return { ...none, query: f.row, key: f.col };
    case 'output':
      return { ...none, query: f.row, vfeat: f.col };
    case 'q':
      return { ...none, query: f.row, feat: f.col };
    case 'k':
      return { ...none, key: f.row, feat: f.col };
    case 'v':
      return { ...none, key: f.row, vfeat: f.col };
    // X holds the keys and values; in self-attention each of its rows is a query as well.
    case 'x':
      return { query: setup === 'self' ? f.row : null, key: f.row, feat: f.col, vfeat: f.col };
  }
  return none;
}

/**
 * `field` after a render, or the input of the same cell of grid `grid` if the grid was rebuilt
 * (the grid writes data-i and data-j on its inputs); null if hidden or gone.
 */
export function sameField(root: Element, field: HTMLInputElement, grid: string | undefined): HTMLInputElement | null {
  let same: HTMLInputElement | null = field;
  if (!field.isConnected && grid !== undefined) {
    const { i, j } = field.dataset;
    same = root.querySelector<HTMLInputElement>(
      `.input-grid[data-view="${grid}"] input[data-i="${i}"]` + (j === undefined ? ':not([data-j])' : `[data-j="${j}"]`),
    );
  }
  return same && same.isConnected && !same.closest('[hidden]') ? same : null;
}

/**
 * After one step of the history: a focused text field is refreshed too (a render leaves a focused
 * field alone so typing is never overwritten) and keeps the focus, or its cell does if the grid
 * was rebuilt; failing both, `fallback` (the button of this action) takes it. Without a focused
 * field the render is scheduled: a held-down Ctrl+Z costs one render a frame, as a drag does.
 */
export function refreshFocused(root: HTMLElement, render: () => void, schedule: () => void, fallback: () => HTMLElement): void {
  const active = document.activeElement;
  const field =
    active instanceof HTMLInputElement && root.contains(active) && /^(text|number)$/.test(active.type) ? active : null;
  if (!field) return schedule();
  const grid = field.closest<HTMLElement>('.input-grid')?.dataset.view; // before a rebuild detaches it
  field.blur();
  render();
  (sameField(root, field, grid) ?? fallback()).focus();
}
