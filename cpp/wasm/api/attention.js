// attention() and what shares its inputs: explainCell(), explainOutput(), traceRow(); and difference().
import { refuse, describe, options, choice, index, scaling } from './checks.js';
import { matrix, boolean, write, Output, LARGE } from './matrices.js';
import { stepsShape, arraysStart, rowStats, stepsResult } from './steps.js';

export const STEP_OPTIONS = ['similarity', 'scale', 'temperature', 'mask', 'normalization'];
const ATTENTION_OPTIONS = ['queries', 'keys', 'values'].concat(STEP_OPTIONS);
const ATTENTION_CALL_OPTIONS = ATTENTION_OPTIONS.concat(['into']); // attention() alone

// The step options shared by attention() and multiHead(), as the bindings' five arguments; a
// custom mask joins `inputs`.
export function stepOptions(e, o, inputs) {
  const similarity = choice(o.similarity, e.names.similarity, 'similarity', 'dot');
  const [scale, temperature] = scaling(e, o);
  let mask;
  if (typeof o.mask === 'string' || o.mask === undefined) {
    mask = choice(o.mask, e.names.mask, 'mask', 'none', e.maskStrings);
  } else {
    mask = e.names.mask.indexOf('custom');
    inputs.push(matrix(e, o.mask, 'mask', boolean));
  }
  const normalization = choice(o.normalization, e.names.normalization, 'normalization', 'softmax');
  return [similarity, scale, temperature, mask, normalization];
}

// What attention(), explainCell() and explainOutput() share: copy Q, K, V (and a custom mask) of
// the options (as options() copied them) into the heap, and return the step options for the
// binding.
function attentionInputs(e, o) {
  const inputs = [matrix(e, o.queries, 'queries'), matrix(e, o.keys, 'keys'), matrix(e, o.values, 'values')];
  const config = stepOptions(e, o, inputs);
  write(e, inputs);
  return config;
}

export function attention(e, given) {
  const o = options(given, ATTENTION_CALL_OPTIONS, 'attention()');
  const c = attentionInputs(e, o);
  const into = o.into;
  if (into !== undefined && !e.ownBuffers.has(into)) {
    refuse('bad_argument', 'into', "into must be a result of this engine's attention(); got " + describe(into) + '.');
  }
  const at = e.M._attn_attention(c[0], c[1], c[2], c[3], c[4]);
  return at ? readAttention(e, at, into) : e.coreError();
}

const sameShape = (a, b) => a.n === b.n && a.m === b.m && a.dK === b.dK && a.dV === b.dV;

// attention()'s result: the steps (steps.js) read where they lie, and only their arrays copied out
// of the heap: V8 charges for an ArrayBuffer by its size (600 doubles cost 1.7 µs, 300 cost
// 1.3 µs). With `into`, an earlier result of the same shape whose buffer is still here (not
// transferred), the arrays are copied into its buffer and `into` itself is returned: at 8 × 4 a
// new ArrayBuffer is about 2 µs of a 5–7 µs call. e.ownBuffers maps each result to its buffer.
function readAttention(e, address, into) {
  const heap = e.M.HEAPF64;
  const at = address / 8 + 1; // past the result's length: the steps are all of the result
  const shape = stepsShape(heap, at);
  const rows = rowStats(heap, at, shape.n, e.names.problem);
  const data = heap.subarray(at + arraysStart(shape), at + heap[at - 1]);
  if (heap[at - 1] > LARGE) e.release = true;
  const own = into && e.ownBuffers.get(into);
  if (own && own.buffer.byteLength === data.byteLength && sameShape(own, shape)) {
    new Float64Array(own.buffer).set(data);
    into.divisor = shape.divisor;
    into.rowStats = rows;
    return into;
  }
  const buffer = data.slice().buffer;
  const result = stepsResult(shape, buffer, -arraysStart(shape), rows);
  e.ownBuffers.set(result, Object.assign({ buffer }, shape));
  return result;
}

export function explainCell(e, o, i, j) {
  const c = attentionInputs(e, options(o, ATTENTION_OPTIONS, 'explainCell()'));
  index(i, 'row');
  index(j, 'col');
  const at = e.M.explainCell(c[0], c[1], c[2], c[3], c[4], i, j);
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const x = {
    ok: true,
    row: r.num(),
    col: r.num(),
    dot: r.num(),
    queryNorm: r.num(),
    keyNorm: r.num(),
    score: r.num(),
    divisor: r.num(),
    scaled: r.num(),
    visible: r.num() === 1,
    rowMax: r.num(),
    expValue: r.num(),
    expSum: r.num(),
    scoreSum: r.num(),
    weight: r.num(),
  };
  const dK = r.num();
  x.query = r.arr(dK);
  x.key = r.arr(dK);
  x.terms = r.arr(dK);
  return x;
}

export function explainOutput(e, o, i, t) {
  const c = attentionInputs(e, options(o, ATTENTION_OPTIONS, 'explainOutput()'));
  index(i, 'row');
  index(t, 'col');
  const at = e.M.explainOutput(c[0], c[1], c[2], c[3], c[4], i, t);
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const x = { ok: true, row: r.num(), col: r.num(), output: r.num() };
  const m = r.num();
  x.weights = r.arr(m);
  x.values = r.arr(m);
  x.terms = r.arr(m);
  return x;
}

// One query row operation by operation (row_trace.hpp), in the order the bindings write it.
export function traceRow(e, o, i) {
  const c = attentionInputs(e, options(o, ATTENTION_OPTIONS, 'traceRow()'));
  index(i, 'row');
  const at = e.M.traceRow(c[0], c[1], c[2], c[3], c[4], i);
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const row = r.num(),
    m = r.num(),
    dK = r.num(),
    dV = r.num();
  const x = { ok: true, row, m, dK, dV, queryNorm: r.num(), divisor: r.num(), max: r.num(), expSum: r.num(), scoreSum: r.num() };
  x.problem = e.names.problem[r.num()];
  x.query = r.arr(dK);
  x.terms = { rows: m, cols: dK, data: r.arr(m * dK) };
  x.partial = { rows: m, cols: dK, data: r.arr(m * dK) };
  x.keyNorms = r.arr(m);
  x.scores = r.arr(m);
  x.scaled = r.arr(m);
  x.visible = Uint8Array.from(r.arr(m));
  x.masked = r.arr(m);
  x.shifted = r.arr(m);
  x.exps = r.arr(m);
  x.weights = r.arr(m);
  x.mixed = { rows: m, cols: dV, data: r.arr(m * dV) };
  x.filled = { rows: m, cols: dV, data: r.arr(m * dV) };
  x.output = r.arr(dV);
  return x;
}

export function difference(e, left, right) {
  write(e, [matrix(e, left, 'left'), matrix(e, right, 'right')]);
  const at = e.M.difference();
  return at ? { ok: true, difference: new Output(e, at).mat() } : e.coreError();
}
