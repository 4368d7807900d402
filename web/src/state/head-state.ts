// One learned head on a sequence (the Learn view's trained heads, the Real model view's), as a
// playground state: its Q, K and V typed in as vectors, under a model's own steps (dot product,
// ÷ √d_head, the causal mask, softmax), so the playground's views show the learned numbers and
// explain each one.
import { defaults, type Cells, type State } from './state';

interface Mat {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** A head's queries, keys and values (n, d_head) and its weights (n, n). */
export interface LearnedHead {
  queries: Mat;
  keys: Mat;
  values: Mat;
  weights: Mat;
}

/** Six significant digits: the float32 numbers as the reader can read them, within 1e-6. */
function cells(m: Mat): Cells {
  return Array.from({ length: m.rows }, (_, i) =>
    Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), (x) => String(Number(x.toPrecision(6)))),
  );
}

export function headState(head: LearnedHead, labels: readonly string[], lang: string): State {
  const features = Array.from({ length: head.queries.cols }, (_, k) => String(k + 1));
  return {
    ...defaults(),
    mode: 'vectors',
    q: cells(head.queries),
    k: cells(head.keys),
    v: cells(head.values),
    qLabels: [...labels],
    kLabels: [...labels],
    dkNames: features,
    dvNames: features,
    similarity: 'dot',
    scale: 'sqrt',
    mask: 'causal',
    normalization: 'softmax',
    // The last position is the one the model answers from: the page opens on its row.
    focus: { view: 'weights', row: head.weights.rows - 1, col: 0, side: 'a' },
    lang,
  };
}
