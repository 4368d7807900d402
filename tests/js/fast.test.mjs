// engine.attentionFast(): the float32 kernels through the public API, checked against the
// double-precision explainer path (engine.attention) on awkward shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, assertError } from './engine-helpers.mjs';

const engine = await loadEngine();

function random(count, seed) {  // a small LCG, values in [−1, 1)
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}

// Every entry within 1e-5 of the reference, relative to the largest magnitude in its row.
function assertRowsClose(fast, reference, what) {
  assert.equal(fast.rows, reference.rows);
  assert.equal(fast.cols, reference.cols);
  for (let i = 0; i < reference.rows; i++) {
    let scale = 0;
    for (let j = 0; j < reference.cols; j++) scale = Math.max(scale, Math.abs(reference.data[i * reference.cols + j]));
    for (let j = 0; j < reference.cols; j++) {
      const k = i * reference.cols + j;
      assert.ok(Math.abs(fast.data[k] - reference.data[k]) <= 1e-5 * scale,
        `${what} (${i}, ${j}): fast ${fast.data[k]}, reference ${reference.data[k]}`);
    }
  }
}

test('attentionFast agrees with attention() on awkward shapes and masks', () => {
  const shapes = [[1, 1, 1, 1], [3, 5, 7, 13], [13, 7, 5, 3], [65, 129, 33, 65], [129, 65, 64, 7]];
  let seed = 1;
  for (const [n, m, d, dV] of shapes) {
    const q = { rows: n, cols: d, data: random(n * d, seed++) };
    const k = { rows: m, cols: d, data: random(m * d, seed++) };
    const v = { rows: m, cols: dV, data: random(m * dV, seed++) };
    for (const mask of ['none', 'causal']) {
      const reference = engine.attention({ queries: q, keys: k, values: v, mask });
      assert.ok(reference.ok, reference.error?.message);
      for (const materialize of [false, true]) {
        const fast = engine.attentionFast({ queries: q, keys: k, values: v, mask, materialize });
        assert.ok(fast.ok, fast.error?.message);
        assert.ok(fast.output.data instanceof Float32Array);
        const what = `${n}×${m}×${d}×${dV} ${mask}${materialize ? ' materialised' : ''}`;
        assertRowsClose(fast.output, reference.output, what);
        if (materialize) assertRowsClose(fast.weights, reference.weights, what + ' weights');
        else assert.equal(fast.weights, undefined);
      }
    }
  }
});

test('attentionFast: the fruit example with a temperature and a custom mask', () => {
  const fruit = [[1, 2, 1], [2, 2, 0], [0, 2, 3]];
  const mask = [[true, true, false], [false, true, true], [false, false, false]];
  const options = { queries: fruit, keys: fruit, values: fruit, scale: 'temperature', temperature: 4, mask };
  const reference = engine.attention(options);
  const fast = engine.attentionFast({ ...options, materialize: true });
  assert.ok(fast.ok, fast.error?.message);
  assertRowsClose(fast.weights, reference.weights, 'weights');
  assertRowsClose(fast.output, reference.output, 'output');
  // apple sees apple and orange, both scoring 6: half each. iPhone sees nothing: zeros.
  assert.ok(Math.abs(fast.weights.data[0] - 0.5) < 1e-6);
  assert.deepEqual(Array.from(fast.output.data.subarray(6, 9)), [0, 0, 0]);
  // The same mask as bytes gives the same numbers.
  const bytes = Uint8Array.from(mask.flat(), (b) => (b ? 1 : 0));
  const again = engine.attentionFast({ ...options, mask: bytes });
  assert.deepEqual(Array.from(again.output.data), Array.from(fast.output.data));
});

test('attentionFast fills the caller\'s buffers and reuses them', () => {
  const n = 16, d = 8;
  const q = { rows: n, cols: d, data: random(n * d, 40) };
  const out = new Float32Array(n * d);
  const first = engine.attentionFast({ queries: q, keys: q, values: q, out });
  assert.ok(first.ok);
  assert.equal(first.output.data, out);  // the same array, not a copy
  const before = Float32Array.from(out);
  const second = engine.attentionFast({ queries: q, keys: q, values: q, out, scale: 'none' });
  assert.equal(second.output.data, out);
  assert.notDeepEqual(Array.from(out), Array.from(before));
  assertError(engine.attentionFast({ queries: q, keys: q, values: q, out: new Float32Array(3) }),
    'bad_argument', { input: 'out' });
});

test('attentionFast: errors name the input and where', () => {
  const good = { rows: 2, cols: 2, data: new Float32Array([1, 2, 3, 4]) };
  assertError(engine.attentionFast({ queries: good, keys: good, values: { rows: 2, cols: 2, data: new Float32Array([1, NaN, 3, 4]) } }),
    'not_finite', { input: 'values', row: 0, col: 1 });
  // Finite inputs, but float32 cannot hold 1e20 · 1e20. (The mean of two values of 3e38 it
  // can, though their sum it cannot: 3e38.)
  const huge = { rows: 2, cols: 2, data: new Float32Array([1, 0, 1e20, 1e20]) };
  for (const materialize of [false, true]) {
    const r = engine.attentionFast({ queries: huge, keys: huge, values: good, scale: 'none', materialize });
    assertError(r, 'not_finite', { input: 'scores', row: 1 });
    assert.match(r.error.message, /row 2 .*float32/);
  }
  const zeros = { rows: 2, cols: 2, data: new Float32Array(4) };
  for (const materialize of [false, true]) {
    const mean = engine.attentionFast({ queries: zeros, keys: zeros, values: { rows: 2, cols: 2, data: new Float32Array([1, 3e38, 1, 3e38]) }, materialize });
    assert.ok(mean.ok, mean.error?.message);
    assert.deepEqual(Array.from(mean.output.data), Array.from(new Float32Array([1, 3e38, 1, 3e38])));
  }
  assertError(engine.attentionFast({ queries: good, keys: { rows: 2, cols: 3, data: new Float32Array(6) }, values: good }),
    'shape_mismatch', { input: 'keys' });
  assertError(engine.attentionFast({ queries: { rows: 4097, cols: 1, data: new Float32Array(4097) }, keys: good, values: good }),
    'shape_mismatch');
  const tall = { rows: 4097, cols: 1, data: new Float32Array(4097) };
  assertError(engine.attentionFast({ queries: tall, keys: tall, values: tall }), 'too_large', { input: 'queries' });
  for (const [temperature, got] of [[0, '(got 0)'], [-1, '(got -1)'], [NaN, '(got NaN)'], [Infinity, '(got Infinity)']]) {
    const r = engine.attentionFast({ queries: good, keys: good, values: good, scale: 'temperature', temperature });
    assertError(r, 'bad_temperature', { input: 'temperature' });
    assert.match(r.error.message, new RegExp(got.replace(/[()]/g, '\\$&')));
  }
  assertError(engine.attentionFast({ queries: good, keys: good, values: good, scale: 'temperature', temperature: '2' }),
    'bad_argument', { input: 'temperature' });
  assertError(engine.attentionFast({ queries: good, keys: good, values: good, mask: new Uint8Array(3) }),
    'shape_mismatch', { input: 'mask' });
  assertError(engine.attentionFast({ queries: 'apple', keys: good, values: good }), 'bad_argument', { input: 'queries' });
  assertError(engine.attentionFast({ queries: good, keys: good, values: good, speed: 'max' }), 'bad_argument');
});

test('streaming 4096 tokens × 64 features grows the wasm heap by less than 8 MB', () => {
  const n = 4096, d = 64;
  const before = engine.memoryStats().heapBytes;
  const data = (seed) => ({ rows: n, cols: d, data: random(n * d, seed) });
  const r = engine.attentionFast({ queries: data(1), keys: data(2), values: data(3) });
  assert.ok(r.ok, r.error?.message);
  const grown = engine.memoryStats().heapBytes - before;
  console.log(`streaming 4096×64: heap grew by ${(grown / 2 ** 20).toFixed(2)} MB`);
  assert.ok(grown < 8 * 2 ** 20, `the heap grew by ${grown} bytes`);
});
