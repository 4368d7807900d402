// attentionFast(): large inputs, float32, only the output (and the weights if materialize); see
// the .d.ts. The shapes are checked by the core (check_fast_shapes in fast_attention.hpp).
import { refuse, describe, isCount, options, choice, scaling, readFailed } from './checks.js';
import { matrix, boolean, LARGE } from './matrices.js';

const FAST_OPTIONS = ['queries', 'keys', 'values', 'scale', 'temperature', 'mask', 'materialize', 'out', 'weightsOut'];

// A float matrix: {rows, cols, data: Float32Array} is used as it is (no copy into JS);
// anything else matrix() accepts is converted.
function floatMatrix(e, value, input) {
  let float32;
  try {
    float32 = value && value.data instanceof Float32Array && isCount(value.rows) && isCount(value.cols);
  } catch (x) {
    readFailed(x, input);
  }
  if (float32) {
    if (value.data.length !== value.rows * value.cols) {
      refuse(
        'shape_mismatch',
        input,
        input +
          '.data has ' +
          value.data.length +
          ' entries, but ' +
          input +
          ' is ' +
          value.rows +
          '×' +
          value.cols +
          ' = ' +
          value.rows * value.cols +
          '.',
      );
    }
    return { rows: value.rows, cols: value.cols, data: value.data };
  }
  const m = matrix(e, value, input);
  const data = new Float32Array(m.rows * m.cols);
  try {
    if (m.nested) m.value.forEach((row, i) => data.set(row, i * m.cols));
    else data.set(m.value);
  } catch (x) {
    readFailed(x, input);
  }
  return { rows: m.rows, cols: m.cols, data };
}

function floatBuffer(value, length, input) {
  if (value === undefined) return new Float32Array(length);
  if (!(value instanceof Float32Array) || value.length !== length) {
    refuse('bad_argument', input, input + ' must be a Float32Array of ' + length + ' entries; got ' + describe(value) + '.');
  }
  return value;
}

// The mask option as [its FastMask index, the custom mask's bytes or null].
function fastMask(e, mask) {
  const names = e.names.fastMask;
  if (mask instanceof Uint8Array) return [names.indexOf('custom'), mask];
  if (typeof mask === 'string' || mask === undefined) {
    return [choice(mask, names, 'mask', 'none', e.fastMaskStrings), null];
  }
  const b = matrix(e, mask, 'mask', boolean);
  const bytes = new Uint8Array(b.rows * b.cols);
  try {
    copyMask(b, bytes);
  } catch (x) {
    readFailed(x, 'mask');
  }
  return [names.indexOf('custom'), bytes];
}

function copyMask(b, bytes) {
  if (b.nested)
    b.value.forEach((row, i) =>
      row.forEach((x, j) => {
        bytes[i * b.cols + j] = x ? 1 : 0;
      }),
    );
  else
    b.value.forEach((x, i) => {
      bytes[i] = x ? 1 : 0;
    });
}

// Copies q, k, v and the mask's bytes into the fast input buffer, one after another.
function writeFast(e, q, k, v, maskBytes) {
  const M = e.M;
  const floats = q.data.length + k.data.length + v.data.length + (maskBytes ? Math.ceil(maskBytes.length / 4) : 0);
  if (floats > 2 * LARGE) e.release = true; // LARGE counts doubles
  const at = M.fastInput(floats) / 4;
  const heap = M.HEAPF32; // read after fastInput(), which may have grown the memory
  heap.set(q.data, at);
  heap.set(k.data, at + q.data.length);
  heap.set(v.data, at + q.data.length + k.data.length);
  if (maskBytes) M.HEAPU8.set(maskBytes, (at + q.data.length + k.data.length + v.data.length) * 4);
}

export function attentionFast(e, given) {
  const o = options(given, FAST_OPTIONS, 'attentionFast()');
  const q = floatMatrix(e, o.queries, 'queries'),
    k = floatMatrix(e, o.keys, 'keys');
  const v = floatMatrix(e, o.values, 'values');
  const n = q.rows,
    m = k.rows,
    dV = v.cols;
  const [scale, temperature] = scaling(e, o);
  const [mask, maskBytes] = fastMask(e, o.mask);
  const materialize = o.materialize === true;
  const out = floatBuffer(o.out, n * dV, 'out');
  const weightsOut = materialize ? floatBuffer(o.weightsOut, n * m, 'weightsOut') : null;
  writeFast(e, q, k, v, maskBytes);
  if (n * dV + (materialize ? n * m : 0) > 2 * LARGE) e.release = true;
  const result =
    e.M.fastRun(
      q.rows,
      q.cols,
      k.rows,
      k.cols,
      v.rows,
      v.cols,
      maskBytes ? maskBytes.length : 0,
      scale,
      temperature,
      mask,
      materialize,
    ) / 4;
  if (!result) return e.coreError();
  const f32 = e.M.HEAPF32;
  out.set(f32.subarray(result, result + n * dV));
  const r = { ok: true, output: { rows: n, cols: dV, data: out } };
  if (materialize) {
    weightsOut.set(f32.subarray(result + n * dV, result + n * dV + n * m));
    r.weights = { rows: n, cols: m, data: weightsOut };
  }
  return r;
}
