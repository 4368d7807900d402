// The reader's edits as pure functions: the state (and what the edit says) in, the part of the
// state that changes out, or null when the edit no longer applies. The page shows the last
// render, which can be a frame behind the state (a resize or an undo in this frame renders on
// the next), so a cell or a label the state no longer has is dropped rather than written past
// the end of a row.
import { CAPS, type Cells, type State } from './state';

export type Patch = Partial<State>;
export type MatrixKey = 'q' | 'k' | 'v';

/** A typed cell of Q, K or V. */
export function editCell(s: State, key: MatrixKey, i: number, j: number, text: string): Patch | null {
  if (!(j < (s[key][i]?.length ?? 0))) return null;
  const cells = s[key].map((r) => r.slice());
  cells[i][j] = text;
  return { [key]: cells };
}

/**
 * A typed cell of a word's vector. A word has one vector wherever it occurs, so the edit is kept
 * by the word (the newest CAPS.edits words), as the whole row the reader now sees.
 */
export function editWordCell(
  s: State,
  words: { tokens: string[]; cells: Cells },
  i: number,
  j: number,
  text: string,
): Patch | null {
  if (!(j < (words.cells[i]?.length ?? 0))) return null;
  const token = words.tokens[i];
  const row = words.cells[i].slice();
  row[j] = text;
  const edits = s.edits.filter(([w]) => w !== token);
  if (edits.length >= CAPS.edits) edits.shift();
  edits.push([token, row]);
  return { edits };
}

/** The name of a query (row i of Q) or a key (row i of K and V). */
export function editLabel(s: State, view: 'q' | 'k', i: number, text: string): Patch | null {
  const key = view === 'q' ? 'qLabels' : 'kLabels';
  if (!(i < s[key].length)) return null;
  const labels = s[key].slice();
  labels[i] = text;
  return { [key]: labels };
}

const grow = (cells: Cells, rows: number, cols: number): Cells =>
  Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => cells[i]?.[j] ?? '0'));
const names = (list: string[], k: number, prefix: string) => Array.from({ length: k }, (_, i) => list[i] ?? `${prefix}${i + 1}`);

/**
 * One query, one key (a row of K and of V), one feature of Q and K (d_k) or one of V (d_v) more
 * or fewer: new cells are 0, new rows are named q4, k5, new features 3, 4; never below 1 or
 * above the caps.
 */
export function resize(s: State, what: 'q' | 'k' | 'dk' | 'dv', by: 1 | -1): Patch {
  const n = s.q.length,
    m = s.k.length,
    dk = s.q[0]?.length ?? 0,
    dv = s.v[0]?.length ?? 0;
  const clamp = (x: number, max: number) => Math.max(1, Math.min(max, x));
  if (what === 'q') {
    const rows = clamp(n + by, CAPS.rows);
    return { q: grow(s.q, rows, dk), qLabels: names(s.qLabels, rows, 'q') };
  }
  if (what === 'k') {
    const rows = clamp(m + by, CAPS.rows);
    return { k: grow(s.k, rows, dk), v: grow(s.v, rows, dv), kLabels: names(s.kLabels, rows, 'k') };
  }
  if (what === 'dk') {
    const cols = clamp(dk + by, CAPS.cols);
    return { q: grow(s.q, n, cols), k: grow(s.k, m, cols), dkNames: names(s.dkNames, cols, '') };
  }
  const cols = clamp(dv + by, CAPS.cols);
  return { v: grow(s.v, m, cols), dvNames: names(s.dvNames, cols, '') };
}

/**
 * A matrix the engine parsed from pasted text, as the new Q, K or V: rows and features keep
 * their names where they have one. Null when it is larger than the page keeps (CAPS).
 */
export function paste(
  s: State,
  target: MatrixKey,
  matrix: { rows: number; cols: number; data: ArrayLike<number> },
): Patch | null {
  const { rows, cols } = matrix;
  if (rows > CAPS.rows || cols > CAPS.cols) return null;
  const cells = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => String(matrix.data[i * cols + j])));
  const range = (k: number, list: string[]) => Array.from({ length: k }, (_, i) => list[i] ?? String(i + 1));
  const patch: Patch = { [target]: cells };
  if (target === 'q') {
    patch.qLabels = names(s.qLabels, rows, 'q');
    patch.dkNames = range(cols, s.dkNames);
  }
  if (target === 'k') {
    patch.kLabels = names(s.kLabels, rows, 'k');
    patch.dkNames = range(cols, s.dkNames);
  }
  if (target === 'v') patch.dvNames = range(cols, s.dvNames);
  return patch;
}

/** A click on a cell of the custom mask: a visible pair becomes hidden, a hidden one visible. */
export function toggleHidden(s: State, i: number, j: number): Patch {
  const hidden = s.hidden.filter(([a, b]) => !(a === i && b === j));
  if (hidden.length === s.hidden.length) hidden.push([i, j]);
  return { hidden };
}

/**
 * The mask set to `mask`. Custom starts from what was shown: after the causal mask, the pairs it
 * hid (key after query) among the `n` queries and `m` keys, so a reader edits that triangle
 * rather than start over from nothing.
 */
export function setMask(s: State, mask: State['mask'], n: number, m: number): Patch {
  if (mask !== 'custom' || s.mask !== 'causal') return { mask };
  const hidden: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < m; j++) hidden.push([i, j]);
  return { mask, hidden };
}

/** The custom mask that hides each query from the key at its own place, and nothing else: under
 * self-attention a word's vector is most like itself, so its own weight hides which other word
 * it is most like. */
export function hideSelf(n: number): Patch {
  return { mask: 'custom', hidden: Array.from({ length: n }, (_, i): [number, number] => [i, i]) };
}

/** Whether the mask is hideSelf's for `n` queries. */
export function hidesSelf(s: State, n: number): boolean {
  return s.mask === 'custom' && s.hidden.length === n && s.hidden.every(([i, j]) => i === j && i < n);
}
