// The engine's public API under node, on the seed article's own examples: every function, the
// numbers a reader can check by hand, and every kind of bad input coming back as a value.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, close, at, rowsOf, assertError } from './engine-helpers.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

// 苹果 apple, 橘子 orange, iPhone over (colour, fruit, tech).
const fruit = [[1, 2, 1], [2, 2, 0], [0, 2, 3]];
const fruitOptions = { queries: fruit, keys: fruit, values: fruit };

// The painting: five elements scored under the condition "flying".
const elements = ['person', 'mountain', 'flower', 'bird', 'ribbon'];
const flying = { queries: [[1]], keys: [[20], [30], [10], [100], [10]],
  values: elements.map((_, i) => elements.map((__, j) => (i === j ? 1 : 0))), scale: 'none' };

test('createAttentionEngine resolves to a frozen engine with its limits', () => {
  assert.ok(Object.isFrozen(engine));
  for (const name of ['attention', 'explainCell', 'explainOutput', 'multiHead', 'project2d', 'tokenize',
    'embed', 'parseMatrix', 'parseEmbeddings', 'loadVectors', 'nearestWords', 'wordSimilarity', 'freeLexicon',
    'lexiconInfo', 'exampleSentences', 'memoryStats', 'difference', 'entropyByDk', 'explainProjection']) {
    assert.equal(typeof engine[name], 'function', name);
  }
  assert.deepEqual(engine.limits, { maxTokens: 1024, maxDim: 1024, maxCells: 1 << 20, maxHeads: 16,
    maxTextBytes: 1 << 20, maxEmbeddingBytes: 64 << 20, maxWords: 200000, maxVectorFileBytes: 16 << 20,
    maxNeighbours: 50 });
});

test('fruit: apple·orange is 1×2 + 2×2 + 1×0 = 6', () => {
  const r = engine.attention(fruitOptions);
  assert.equal(r.ok, true);
  assert.deepEqual(rowsOf(r.scores), [[6, 6, 7], [6, 8, 4], [7, 4, 13]]);
  assert.equal(r.n, 3);
  assert.equal(r.dV, 3);
  close(r.divisor, Math.sqrt(3));
  close(at(r.scaled, 0, 1), 6 / Math.sqrt(3));
  const cell = engine.explainCell(fruitOptions, 0, 1);
  assert.equal(cell.ok, true);
  assert.deepEqual(Array.from(cell.query), [1, 2, 1]);
  assert.deepEqual(Array.from(cell.key), [2, 2, 0]);
  assert.deepEqual(Array.from(cell.terms), [2, 4, 0]);
  assert.equal(cell.dot, 6);
  assert.equal(cell.score, 6);
  assert.equal(cell.visible, true);
  close(cell.weight, at(r.weights, 0, 1));
  close(cell.expValue / cell.expSum, cell.weight);
});

test('fruit: every softmax row sums to one and the output mixes the value rows', () => {
  const r = engine.attention(fruitOptions);
  for (let i = 0; i < 3; i++) {
    close(r.rowStats[i].weightSum, 1);
    assert.equal(r.rowStats[i].problem, 'none');
    assert.equal(r.rowStats[i].visible, 3);
    for (let t = 0; t < 3; t++) {
      const mix = [0, 1, 2].reduce((s, j) => s + at(r.weights, i, j) * fruit[j][t], 0);
      close(at(r.output, i, t), mix);
    }
  }
  const o = engine.explainOutput(fruitOptions, 2, 1);
  assert.equal(o.ok, true);
  close(o.terms.reduce((a, b) => a + b, 0), o.output);
  close(o.output, at(r.output, 2, 1));
  assert.deepEqual(Array.from(o.values), [2, 2, 2]);
});

test('fruit: cosine similarity is the dot product over the lengths', () => {
  const r = engine.attention({ ...fruitOptions, similarity: 'cosine' });
  close(at(r.scores, 0, 1), 6 / (Math.sqrt(6) * Math.sqrt(8)));
  close(at(r.scores, 0, 0), 1);
  close(r.queryNorms[2], Math.sqrt(13));
  const cell = engine.explainCell({ ...fruitOptions, similarity: 'cosine' }, 0, 1);
  close(cell.queryNorm, Math.sqrt(6));
  close(cell.keyNorm, Math.sqrt(8));
});

test('painting: under "flying" the bird takes the most attention', () => {
  const r = engine.attention(flying);
  assert.equal(r.ok, true);
  assert.deepEqual(Array.from(r.scores.data), [20, 30, 10, 100, 10]);
  const weights = Array.from(r.weights.data);
  assert.equal(elements[weights.indexOf(Math.max(...weights))], 'bird');
  // With a temperature the others keep some attention, and the bird still leads.
  const warm = engine.attention({ ...flying, scale: 'temperature', temperature: 25 });
  const w = Array.from(warm.weights.data);
  assert.equal(elements[w.indexOf(Math.max(...w))], 'bird');
  assert.ok(w[1] > 0.01, `mountain keeps ${w[1]}`);
  close(warm.divisor, 25);
});

test('causal mask: the upper triangle is hidden and gets no weight', () => {
  const r = engine.attention({ ...fruitOptions, mask: 'causal' });
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const hidden = j > i;
      assert.equal(at(r.visible, i, j), hidden ? 0 : 1);
      if (hidden) {
        assert.equal(at(r.masked, i, j), -Infinity);
        assert.equal(at(r.weights, i, j), 0);
        assert.equal(at(r.exps, i, j), 0);
      }
    }
    assert.equal(r.rowStats[i].visible, i + 1);
  }
  assert.equal(at(r.weights, 0, 0), 1);
  assert.ok(r.visible.data instanceof Uint8Array);
});

test('custom mask: a fully masked row has zero weights and a zero output', () => {
  const mask = [[true, false, true], [false, false, false], [1, 1, 0]];
  const r = engine.attention({ ...fruitOptions, mask });
  assert.equal(r.ok, true);
  assert.equal(r.rowStats[1].problem, 'fully_masked');
  assert.equal(r.rowStats[1].max, -Infinity);
  assert.deepEqual(rowsOf(r.weights)[1], [0, 0, 0]);
  assert.deepEqual(rowsOf(r.output)[1], [0, 0, 0]);
  assert.equal(at(r.weights, 0, 1), 0);
  // The same mask as {rows, cols, data}.
  const flat = engine.attention({ ...fruitOptions, mask: { rows: 3, cols: 3, data: new Uint8Array([1, 0, 1, 0, 0, 0, 1, 1, 0]) } });
  assert.deepEqual(Array.from(flat.weights.data), Array.from(r.weights.data));
});

test('sum-normalisation: a row that sums to zero is reported, not divided', () => {
  // Scores 1 and −1: the naive "divide by the sum" has nothing to divide by.
  const r = engine.attention({ queries: [[1], [2]], keys: [[1], [-1]], values: [[1, 0], [0, 1]],
    scale: 'none', normalization: 'sum' });
  assert.equal(r.ok, true);
  assert.equal(r.rowStats[0].problem, 'zero_sum');
  assert.equal(r.rowStats[0].scoreSum, 0);
  assert.deepEqual(rowsOf(r.weights), [[0, 0], [0, 0]]);
  // Softmax has no such problem.
  const soft = engine.attention({ queries: [[1]], keys: [[1], [-1]], values: [[1, 0], [0, 1]], scale: 'none' });
  assert.equal(soft.rowStats[0].problem, 'none');
  close(soft.rowStats[0].weightSum, 1);
  // Negative scores with a non-zero sum give negative "weights".
  const negative = engine.attention({ queries: [[1]], keys: [[3], [-1]], values: [[1], [1]], scale: 'none', normalization: 'sum' });
  assert.equal(negative.rowStats[0].problem, 'negative_weights');
  close(at(negative.weights, 0, 1), -0.5);
});

test('matrices may be rows, or {rows, cols, data} of any numeric array', () => {
  const expected = Array.from(engine.attention(fruitOptions).output.data);
  const flat = [1, 2, 1, 2, 2, 0, 0, 2, 3];
  for (const data of [new Float64Array(flat), new Float32Array(flat), flat]) {
    const m = { rows: 3, cols: 3, data };
    const r = engine.attention({ queries: m, keys: m, values: m });
    assert.deepEqual(Array.from(r.output.data), expected, data.constructor.name);
  }
});

test('results are JS-owned copies that survive later calls and memory growth', () => {
  const first = engine.attention(fruitOptions);
  const before = Array.from(first.weights.data);
  // A large call grows the wasm memory and reuses the engine's buffers.
  const big = { rows: 512, cols: 64, data: new Float64Array(512 * 64).map((_, k) => Math.sin(k)) };
  const r = engine.attention({ queries: big, keys: big, values: big });
  assert.equal(r.ok, true);
  assert.equal(r.weights.data.length, 512 * 512);
  assert.deepEqual(Array.from(first.weights.data), before);
  assert.deepEqual(first.scores.data.length, 9);
});

test('into: a result of the same shape is rewritten in place with the new steps, any other is left alone', () => {
  const earlier = engine.attention(fruitOptions);
  const kept = engine.attention(fruitOptions);
  const buffer = earlier.weights.data.buffer;
  // The fruit at temperature 0.5: a different problem of the same 3 × 3 shape.
  const hotter = { ...fruitOptions, scale: 'temperature', temperature: 0.5 };
  const r = engine.attention({ ...hotter, into: earlier });
  assert.equal(r, earlier);
  assert.equal(r.weights.data.buffer, buffer);
  const fresh = engine.attention(hotter);
  for (const step of ['scores', 'scaled', 'masked', 'exps', 'weights', 'output']) {
    assert.deepEqual(Array.from(r[step].data), Array.from(fresh[step].data), step);
  }
  assert.equal(r.divisor, 0.5);
  assert.deepEqual(r.rowStats, fresh.rowStats);
  // apple·iPhone = 7, halved by the temperature 0.5: 14.
  close(at(r.scaled, 0, 2), 14);
  // The result not handed over keeps its own numbers: 7 / √3.
  close(at(kept.scaled, 0, 2), 7 / Math.sqrt(3));

  // Another shape: a new result, and `into` untouched.
  const before = Array.from(earlier.weights.data);
  const other = engine.attention({ ...flying, into: earlier });
  assert.equal(other.ok, true);
  assert.notEqual(other, earlier);
  assert.deepEqual(Array.from(earlier.weights.data), before);
  // A failed call leaves it as it was, and so does a call after its buffer went to a worker.
  assertError(engine.attention({ ...fruitOptions, queries: [[1, 2, NaN], [2, 2, 0], [0, 2, 3]], into: earlier }),
    'not_finite', { input: 'queries', row: 0, col: 2 });
  assert.deepEqual(Array.from(earlier.weights.data), before);
  structuredClone(earlier.weights.data.buffer, { transfer: [earlier.weights.data.buffer] });
  const afterTransfer = engine.attention({ ...fruitOptions, into: earlier });
  assert.notEqual(afterTransfer, earlier);
  assert.deepEqual(rowsOf(afterTransfer.scores), [[6, 6, 7], [6, 8, 4], [7, 4, 13]]);

  // Anything but a result of attention() is refused, by name.
  for (const into of [{}, fresh.weights, engine.multiHead({ x: fruit, heads: 1 }).heads[0], null]) {
    assertError(engine.attention({ ...fruitOptions, into }), 'bad_argument', { input: 'into' });
  }
  assertError(engine.explainCell({ ...fruitOptions, into: fresh }, 0, 0), 'bad_argument');
});

test('multiHead: identity, seeded random and given projections', () => {
  const x = [[1, 0, 2, 1], [0, 1, 1, 3], [2, 2, 0, 1]];
  const id = engine.multiHead({ x, heads: 2, dK: 4, dV: 4 });
  assert.equal(id.ok, true, id.error?.message);
  assert.equal(id.heads.length, 2);
  assert.deepEqual([id.concat.rows, id.concat.cols], [3, 8]);
  assert.deepEqual([id.output.rows, id.output.cols], [3, 4]);
  assert.deepEqual(rowsOf(id.heads[0].wq), [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
  assert.deepEqual(rowsOf(id.heads[0].queries), x);

  const a = engine.multiHead({ x, heads: 2, projection: 'random', seed: 42, mask: 'causal' });
  const b = engine.multiHead({ x, heads: 2, projection: 'random', seed: 42, mask: 'causal' });
  const c = engine.multiHead({ x, heads: 2, projection: 'random', seed: 43, mask: 'causal' });
  assert.deepEqual(Array.from(a.output.data), Array.from(b.output.data));
  assert.notDeepEqual(Array.from(a.output.data), Array.from(c.output.data));
  assert.equal(at(a.heads[1].weights, 0, 2), 0);
  assert.deepEqual([a.heads[0].wq.rows, a.heads[0].wq.cols], [4, 2]);

  const eye = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => +(i === j)));
  // Two heads of d_v 2: concat's columns are head 0's 0 and 1, then head 1's 0 and 1.
  assert.ok(a.columnHead instanceof Int32Array && a.columnInHead instanceof Int32Array);
  assert.deepEqual(Array.from(a.columnHead), [0, 0, 1, 1]);
  assert.deepEqual(Array.from(a.columnInHead), [0, 1, 0, 1]);
  for (let c = 0; c < 4; c++) {
    for (let i = 0; i < 3; i++) assert.equal(at(a.concat, i, c), at(a.heads[a.columnHead[c]].output, i, a.columnInHead[c]));
  }
  assert.deepEqual(Array.from(id.columnHead), [0, 0, 0, 0, 1, 1, 1, 1]);
  assert.deepEqual(Array.from(id.columnInHead), [0, 1, 2, 3, 0, 1, 2, 3]);

  const given = engine.multiHead({ x, heads: 1, projection: 'given', wq: [eye(4)], wk: [eye(4)], wv: [eye(4)], wo: eye(4) });
  assert.equal(given.ok, true, given.error?.message);
  const plain = engine.attention({ queries: x, keys: x, values: x });
  for (let k = 0; k < 12; k++) close(given.output.data[k], plain.output.data[k]);
});

test('difference: the causal fruit weights minus the unmasked ones', () => {
  const a = engine.attention(fruitOptions), b = engine.attention({ ...fruitOptions, mask: 'causal' });
  const d = engine.difference(a.weights, b.weights);
  assert.equal(d.ok, true, d.error?.message);
  assert.deepEqual([d.difference.rows, d.difference.cols], [3, 3]);
  for (let k = 0; k < 9; k++) close(d.difference.data[k], b.weights.data[k] - a.weights.data[k], `cell ${k}`);
  // Apple sees only itself under the causal mask: weight 1, so 1 − w(apple, apple) more.
  close(at(d.difference, 0, 0), 1 - at(a.weights, 0, 0));
  assert.deepEqual(rowsOf(engine.difference([[0.25, 0.75]], [[0.5, 0.5]]).difference), [[0.25, -0.25]]);
  assertError(engine.difference([[1, 2]], [[1, 2, 3]]), 'shape_mismatch', { input: 'right' });
  assertError(engine.difference([[1, 2]], [[1, NaN]]), 'not_finite', { input: 'right', row: 0, col: 1 });
  assertError(engine.difference([[-1e308]], [[1e308]]), 'not_finite', { input: 'difference', row: 0, col: 0 });
  assertError(engine.difference([[1]]), 'bad_argument', { input: 'right' });
  assertError(engine.difference('1 2', [[1, 2]]), 'bad_argument', { input: 'left' });
});

test('explainProjection: an entry of X·W_Q, X·W_K, X·W_V or concat·W_O, term by term', () => {
  const x = [[1, 0, 2, 1], [0, 1, 1, 3], [2, 2, 0, 1]];
  const options = { x, heads: 2, dK: 2, dV: 3, projection: 'random', seed: 42, mask: 'causal' };
  const m = engine.multiHead(options);
  for (const [kind, step, w] of [['q', 'queries', 'wq'], ['k', 'keys', 'wk'], ['v', 'values', 'wv']]) {
    const head = m.heads[1];
    const e = engine.explainProjection({ ...options, head: 1 }, kind, 2, 1);
    assert.equal(e.ok, true, e.error?.message);
    assert.deepEqual([e.row, e.col], [2, 1]);
    assert.deepEqual(Array.from(e.left), x[2]);
    assert.deepEqual(Array.from(e.right), [0, 1, 2, 3].map((t) => at(head[w], t, 1)));
    e.terms.forEach((term, t) => assert.equal(term, e.left[t] * e.right[t]));
    assert.equal(e.value, at(head[step], 2, 1));
    close(e.terms.reduce((a, b) => a + b, 0), e.value);
  }
  const f = engine.explainProjection(options, 'final', 1, 3);
  assert.equal(f.terms.length, 6);  // H·d_v = 2 × 3
  assert.deepEqual(Array.from(f.left), Array.from(m.concat.data.subarray(6, 12)));
  assert.deepEqual(Array.from(f.right), [0, 1, 2, 3, 4, 5].map((s) => at(m.wo, s, 3)));
  assert.equal(f.value, at(m.output, 1, 3));
  // Identity: q of "1 0 2 1" in column 2 is its third feature, 1×0 + 0×0 + 2×1 + 1×0 = 2.
  const id = engine.explainProjection({ x }, 'q', 0, 2);
  assert.deepEqual(Array.from(id.terms), [0, 0, 2, 0]);
  assert.equal(id.value, 2);
  assertError(engine.explainProjection(options, 'q', 3, 0), 'bad_argument', { input: 'queries', row: 3, col: 0 });
  assertError(engine.explainProjection(options, 'final', 0, 4), 'bad_argument', { input: 'output', row: 0, col: 4 });
  assertError(engine.explainProjection({ ...options, head: 2 }, 'k', 0, 0), 'bad_argument', { input: 'head' });
  assertError(engine.explainProjection(options, 'o', 0, 0), 'bad_argument', { input: 'kind' });
  assertError(engine.explainProjection(options, 'v', -1, 0), 'bad_argument', { input: 'row' });
  assertError(engine.explainProjection(options, 'v', 0, 1000), 'bad_argument', { input: 'values', col: 1000, message: /\(1, 1001\) of values: it is 3×3/ });
  assertError(engine.explainProjection({ ...options, heads: 17 }, 'v', 0, 0), 'bad_dimension', { input: 'heads' });
});

// The page's own loop before the core had entropyByDk(): the numbers it must still give.
function entropyLoop(x, heads, head, seed, similarity, mask) {
  const mean = (r) => {
    const stats = r.heads[head]?.rowStats ?? [];
    let total = 0;
    for (const st of stats) total += st.entropy;
    return stats.length ? total / stats.length : NaN;
  };
  const rows = [];
  for (const dK of [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]) {
    if (dK * heads > engine.limits.maxDim) break;
    const run = (scale) => engine.multiHead({ x, heads, dK, projection: 'random', seed, similarity, scale, mask,
      normalization: 'softmax' });
    const a = run('sqrt'), b = run('none');
    if (!a.ok || !b.ok) break;
    rows.push({ dK, scaled: mean(a), unscaled: mean(b) });
  }
  return rows;
}

test('entropyByDk: the same numbers as running multiHead scaled and unscaled for each d_k', () => {
  const x = [[1, 0, 2, 1], [0, 1, 1, 3], [2, 2, 0, 1], [-1, 0.5, 1, 0]];
  for (const [heads, head, seed, similarity, mask] of [[2, 1, 42, 'dot', 'causal'], [4, 3, 7, 'cosine', 'none'], [1, 0, 1, 'dot', 'none']]) {
    const r = engine.entropyByDk({ x, heads, head, seed, similarity, mask });
    assert.equal(r.ok, true, r.error?.message);
    const expected = entropyLoop(x, heads, head, seed, similarity, mask);
    // 1024 / 4 heads: d_k up to 256; with 1 or 2 heads up to 512.
    assert.equal(r.rows.length, heads === 4 ? 9 : 10);
    assert.deepEqual(r.rows.map((row) => row.dK), expected.map((row) => row.dK));
    r.rows.forEach((row, k) => {
      close(row.scaled, expected[k].scaled, `scaled at d_k ${row.dK}`);
      close(row.unscaled, expected[k].unscaled, `unscaled at d_k ${row.dK}`);
    });
  }
});

test('entropyByDk: three equal tokens spread evenly: ln 3 at every d_k, ln 6 / 3 when causal', () => {
  const same = [[1, 2], [1, 2], [1, 2]];
  const r = engine.entropyByDk({ x: same, dKs: [1, 8, 64] });
  assert.deepEqual(r.rows.map((row) => row.dK), [1, 8, 64]);
  for (const row of r.rows) {
    close(row.scaled, Math.log(3));
    close(row.unscaled, Math.log(3));
  }
  const causal = engine.entropyByDk({ x: same, dKs: [4], mask: 'causal' });
  close(causal.rows[0].scaled, Math.log(6) / 3);  // (ln 1 + ln 2 + ln 3) / 3
  // 4 heads × 512 is above 1024: the sweep stops before it.
  assert.deepEqual(engine.entropyByDk({ x: same, heads: 4, dKs: [128, 256, 512] }).rows.map((row) => row.dK), [128, 256]);
  assert.deepEqual(engine.entropyByDk({ x: same, dKs: [] }).rows, []);
});

test('entropyByDk: errors name the head, the d_k entry and the mask', () => {
  const x = [[1, 2], [3, 4]];
  assertError(engine.entropyByDk({ x, heads: 2, head: 2 }), 'bad_argument', { input: 'head', message: /no head 3/ });
  assertError(engine.entropyByDk({ x, dKs: [1, 4, 2] }), 'bad_argument', { input: 'dKs', col: 2 });
  assertError(engine.entropyByDk({ x, dKs: [0] }), 'bad_argument', { input: 'dKs', col: 0 });
  assertError(engine.entropyByDk({ x, dKs: [1.5] }), 'bad_argument', { input: 'dKs' });
  assertError(engine.entropyByDk({ x, dKs: 4 }), 'bad_argument', { input: 'dKs' });
  assertError(engine.entropyByDk({ x, mask: [[true, true], [true, true]] }), 'bad_argument', { input: 'mask' });
  assertError(engine.entropyByDk({ x, heads: 0 }), 'bad_dimension', { input: 'heads' });
  assertError(engine.entropyByDk({ x: [[1, 2], [0, 0]], similarity: 'cosine' }), 'zero_vector',
    { input: 'queries', row: 1, message: /^With d_k = 1: Head 1: / });
  assertError(engine.entropyByDk({ x, scale: 'none' }), 'bad_argument', { input: 'scale' });
  assertError(engine.entropyByDk({ heads: 1 }), 'bad_argument', { input: 'x' });
});

test('project2d: values and outputs in one plane', () => {
  const r = engine.attention(fruitOptions);
  const p = engine.project2d(r.values, r.output);
  assert.equal(p.ok, true);
  assert.deepEqual([p.axes.rows, p.axes.cols, p.values2d.rows, p.outputs2d.rows], [2, 3, 3, 3]);
  assert.equal(p.mean.length, 3);
  assert.ok(p.variance[0] >= p.variance[1]);
  close(p.axes.data[0] ** 2 + p.axes.data[1] ** 2 + p.axes.data[2] ** 2, 1);
  close(p.shown, (p.variance[0] + p.variance[1]) / p.totalVariance);
  assert.ok(p.shown > 0 && p.shown <= 1 + 1e-12);
  // ±2, ±1 and ±0.5 along three axes: variances (8, 2, 0.5) / 6, of which the plane shows 20/21.
  const s = engine.project2d([[2, 0, 0], [0, 1, 0], [0, 0, 0.5]], [[-2, 0, 0], [0, -1, 0], [0, 0, -0.5]]);
  close(s.shown, 20 / 21);
  // Every point the same: no variance at all, and nothing hidden.
  const same = engine.project2d([[1, 2, 3]], [[1, 2, 3]]);
  assert.equal(same.totalVariance, 0);
  assert.equal(same.shown, 1);
});

test('tokenize and embed: words, Chinese without spaces, emoji, unknown words', () => {
  const text = 'The bird 飞过高山 👩‍💻 zorblat';
  const t = engine.tokenize(text);
  assert.equal(t.ok, true);
  for (const token of t.tokens) assert.equal(text.slice(token.offset, token.offset + token.length), token.text);
  assert.deepEqual(t.tokens.map((k) => k.text).slice(0, 2), ['The', 'bird']);
  assert.ok(t.tokens.some((k) => k.text === '👩‍💻'));

  const e = engine.embed(text);
  assert.equal(e.ok, true);
  assert.equal(e.vectors.rows, e.tokens.length);
  assert.equal(e.vectors.cols, 8);
  assert.deepEqual(e.features, ['animal', 'plant', 'food', 'technology', 'person', 'place', 'can_fly', 'size']);
  assert.equal(e.unknown.at(-1), true);
  assert.equal(e.unknown[1], false);
  assert.equal(at(e.vectors, 1, e.features.indexOf('can_fly')), 1);  // birds fly

  const f = engine.embed('apple orange iPhone', 'fruit');
  assert.deepEqual(f.features, ['colour', 'fruit', 'tech']);
  assert.deepEqual(rowsOf(f.vectors), fruit);
  assert.deepEqual(f.unknown, [false, false, false]);
});

test('parseMatrix: rows by lines or semicolons, and JSON', () => {
  const a = engine.parseMatrix('1 2 1; 2 2 0\n0 2 3', 'keys');
  assert.equal(a.ok, true);
  assert.deepEqual(rowsOf(a.matrix), fruit);
  const b = engine.parseMatrix('[[1.5, -2e3], [0.25, 7]]');
  assert.deepEqual(rowsOf(b.matrix), [[1.5, -2000], [0.25, 7]]);
  assertError(engine.parseMatrix('1 2\n3 x', 'keys'), 'parse_error', { input: 'keys', row: 1, col: 2 });
});

test('parseEmbeddings: a loaded lexicon embeds until it is freed', () => {
  const lexicon = engine.parseEmbeddings('cat 0.9 0.1\ndog 0.8 0.3\n');
  assert.equal(lexicon.ok, true);
  assert.deepEqual(lexicon.words, ['cat', 'dog']);
  assert.deepEqual(lexicon.features, ['f1', 'f2']);
  assert.equal(lexicon.size, 2);
  const e = engine.embed('dog cat bird', lexicon);
  assert.deepEqual(rowsOf(e.vectors).slice(0, 2), [[0.8, 0.3], [0.9, 0.1]]);
  assert.deepEqual(e.unknown, [false, false, true]);
  assert.deepEqual(engine.embed('cat', lexicon.id).vectors.data, e.vectors.data.subarray(2, 4));
  const info = engine.lexiconInfo(lexicon);
  assert.deepEqual(rowsOf(info.vectors), [[0.9, 0.1], [0.8, 0.3]]);
  assert.equal(engine.freeLexicon(lexicon), true);
  assert.equal(engine.freeLexicon(lexicon), false);
  assertError(engine.embed('cat', lexicon), 'bad_argument', { input: 'lexicon' });
  assertError(engine.parseEmbeddings('cat 1 2\ndog 1\n'), 'parse_error', { row: 1 });
});

test('lexiconInfo and exampleSentences', () => {
  const builtin = engine.lexiconInfo('builtin');
  assert.equal(builtin.ok, true);
  for (const word of ['bird', 'mountain', 'apple', 'iPhone', '鸟', '苹果', '飞行']) assert.ok(builtin.words.includes(word), word);
  assert.equal(builtin.vectors.rows, builtin.words.length);
  assert.equal(builtin.vectors.cols, 8);
  const f = engine.lexiconInfo('fruit');
  const apple = f.words.indexOf('apple');
  assert.deepEqual(Array.from(f.vectors.data.subarray(apple * 3, apple * 3 + 3)), [1, 2, 1]);
  assert.ok(engine.exampleSentences('en').length > 0);
  assert.ok(engine.exampleSentences('zh').some((s) => s.includes('苹果')));
  assert.deepEqual(engine.exampleSentences('xx'), []);
});

test('errors: NaN and Infinity name the input, row and column', () => {
  const e = assertError(engine.attention({ ...fruitOptions, keys: [[1, 2, 1], [2, 2, NaN], [0, 2, 3]] }), 'not_finite',
    { input: 'keys', row: 1, col: 2 });
  assert.match(e.message, /row 2, column 3/);
  assertError(engine.attention({ ...fruitOptions, values: { rows: 3, cols: 3, data: [1, 2, 1, 2, 2, 0, 0, 2, Infinity] } }),
    'not_finite', { input: 'values', row: 2, col: 2 });
});

test('errors: mismatched, ragged and empty inputs', () => {
  assertError(engine.attention({ ...fruitOptions, keys: [[1, 2], [3, 4], [5, 6]] }), 'shape_mismatch', { input: 'keys' });
  assertError(engine.attention({ ...fruitOptions, values: [[1], [2]] }), 'shape_mismatch', { input: 'values' });
  assertError(engine.attention({ ...fruitOptions, queries: [[1, 2, 1], [2, 2]] }), 'shape_mismatch', { input: 'queries', row: 1 });
  assertError(engine.attention({ ...fruitOptions, queries: { rows: 2, cols: 3, data: [1, 2] } }), 'shape_mismatch', { input: 'queries' });
  assertError(engine.attention({ ...fruitOptions, queries: [] }), 'empty_input', { input: 'queries' });
  assertError(engine.attention({ ...fruitOptions, keys: [[]] }), 'bad_dimension', { input: 'keys' });
  assertError(engine.embed(''), 'empty_input');
  assertError(engine.parseMatrix('  \n '), 'empty_input');
});

test('parseMatrix: a byte-order mark before JSON, a lone carriage return, a leading comma', () => {
  assert.deepEqual(Array.from(engine.parseMatrix('\uFEFF[[1,2],[3,4]]').matrix.data), [1, 2, 3, 4]);
  const cr = engine.parseMatrix('1 2\r3 4').matrix;
  assert.deepEqual([cr.rows, cr.cols], [2, 2], 'a lone CR ends a row, as in files saved on old Macs');
  assertError(engine.parseMatrix(',1,2'), 'parse_error', { row: 0, col: 0, message: /no number before this comma/ });
});

test('errors: text holding half of an emoji names its line and column', () => {
  // '🍎' is two UTF-16 units, \uD83C\uDF4E; text cut after the first has no UTF-8 form.
  const cut = 'I like \uD83C';
  assertError(engine.tokenize(cut), 'parse_error',
    { input: 'text', row: 0, col: 7, message: /line 1, column 8 holds half of a character/ });
  assertError(engine.embed('a\uDF4Eb'), 'parse_error', { input: 'text', row: 0, col: 1 });
  // Columns count UTF-16 units, as JS indexes the string: the whole 🍎 before it is two.
  assertError(engine.parseMatrix('1 2\n🍎 \uD83C', 'keys'), 'parse_error',
    { input: 'keys', row: 1, col: 3, message: /^keys: line 2, column 4/ });
  // A word-vector file's errors are the file's, whether the core or the JS layer finds them.
  assertError(engine.parseEmbeddings('cat 1\n\uD83D 2'), 'parse_error',
    { input: 'embeddings', row: 1, col: 0, message: /^embeddings: line 2, column 1/ });
  assert.equal(engine.parseEmbeddings('cat 1\ndog x').error.input, 'embeddings');
  // Whole emoji are fine.
  assert.deepEqual(engine.tokenize('I like 🍎').tokens.map((t) => t.text), ['I', 'like', '🍎']);
});

test('errors: temperature, cosine of a zero vector, mask shape', () => {
  for (const temperature of [0, -1]) {
    assertError(engine.attention({ ...fruitOptions, scale: 'temperature', temperature }), 'bad_temperature', { input: 'temperature' });
  }
  assertError(engine.attention({ ...fruitOptions, scale: 'temperature' }), 'bad_argument', { input: 'temperature' });
  assertError(engine.attention({ ...fruitOptions, scale: 'temperature', temperature: '2' }), 'bad_argument', { input: 'temperature' });
  assertError(engine.attention({ ...fruitOptions, keys: [[1, 2, 1], [0, 0, 0], [0, 2, 3]], similarity: 'cosine' }),
    'zero_vector', { input: 'keys', row: 1 });
  assertError(engine.attention({ ...fruitOptions, mask: [[true, true], [true, true]] }), 'shape_mismatch', { input: 'mask' });
  assertError(engine.attention({ ...fruitOptions, mask: [[true, 'yes', true], [1, 1, 1], [1, 1, 1]] }), 'bad_argument',
    { input: 'mask', row: 0, col: 1 });
  assertError(engine.attention({ ...fruitOptions, mask: 'upper' }), 'bad_argument', { input: 'mask' });
});

test('errors: too large', () => {
  const tall = { rows: 1025, cols: 2, data: new Float64Array(2050).fill(1) };
  assertError(engine.attention({ queries: tall, keys: tall, values: tall }), 'too_large', { input: 'queries' });
  // Above maxCells the engine refuses before copying anything into the heap.
  const huge = { rows: 2048, cols: 1024, data: new Float64Array(2048 * 1024) };
  assertError(engine.attention({ queries: huge, keys: fruit, values: fruit }), 'too_large', { input: 'queries' });
  assertError(engine.multiHead({ x: fruit, heads: 17 }), 'bad_dimension', { input: 'heads' });
});

test('errors: multiHead products that overflow name the step, never return Infinity', () => {
  const one = [[[1]]];
  // One token: the head's output is its value, 1e10; times W_O = 1e300 it is beyond a double.
  assertError(engine.multiHead({ x: [[1e10]], projection: 'given', wq: one, wk: one, wv: one, wo: [[1e300]] }),
    'not_finite', { input: 'output', row: 0, col: 0, message: /concat·W_O at row 1, column 1/ });
  assertError(engine.multiHead({ x: [[1], [1e200]], projection: 'given', wq: [[[1e200]]], wk: one, wv: one, wo: [[1]] }),
    'not_finite', { input: 'queries', row: 1, col: 0, message: /^Head 1: X·W_Q at row 2, column 1/ });
});

test('errors: wrong argument types never throw', () => {
  const calls = [
    () => engine.attention(),
    () => engine.attention(null),
    () => engine.attention([fruit, fruit, fruit]),
    () => engine.attention('fruit'),
    () => engine.attention({ queries: 'apple', keys: fruit, values: fruit }),
    () => engine.attention({ keys: fruit, values: fruit }),
    () => engine.attention({ queries: fruit, keys: fruit }),
    () => engine.attention({ ...fruitOptions, queries: [1, 2, 3] }),
    () => engine.attention({ ...fruitOptions, queries: [['1', 2, 1], [2, 2, 0], [0, 2, 3]] }),
    () => engine.attention({ ...fruitOptions, queries: { rows: 3, cols: 3 } }),
    () => engine.attention({ ...fruitOptions, queries: { rows: -1, cols: 3, data: [] } }),
    () => engine.attention({ ...fruitOptions, queries: { rows: 1, cols: 1, data: new BigInt64Array(1) } }),
    () => engine.attention({ ...fruitOptions, queries: new Float64Array(9) }),
    () => engine.attention({ ...fruitOptions, similarity: 'euclid' }),
    () => engine.attention({ ...fruitOptions, normalisation: 'sum' }),
    () => engine.attention({ ...fruitOptions, normalization: 'max' }),
    () => engine.explainCell(fruitOptions, -1, 0),
    () => engine.explainCell(fruitOptions, 0, 1.5),
    () => engine.explainCell(fruitOptions),
    () => engine.explainOutput(fruitOptions, 0, '1'),
    () => engine.multiHead({ x: fruit, heads: 'two' }),
    () => engine.multiHead({ x: fruit, projection: 'learned' }),
    () => engine.multiHead({ x: fruit, projection: 'random', seed: -1 }),
    () => engine.multiHead({ x: fruit, projection: 'given' }),
    () => engine.multiHead({ x: fruit, projection: 'given', wq: fruit, wk: [fruit], wv: [fruit], wo: fruit }),
    () => engine.project2d(fruit),
    () => engine.difference(fruit),
    () => engine.difference(null, fruit),
    () => engine.entropyByDk(),
    () => engine.entropyByDk({ x: fruit, dKs: ['1'] }),
    () => engine.explainProjection({ x: fruit }),
    () => engine.explainProjection({ x: fruit }, 'q', 0, '1'),
    () => engine.explainProjection(null, 'q', 0, 0),
    () => engine.tokenize(42),
    () => engine.embed(['apple']),
    () => engine.embed('apple', 'klingon'),
    () => engine.embed('apple', { name: 'mine' }),
    () => engine.parseMatrix(null),
    () => engine.parseMatrix('1 2', 7),
    () => engine.parseEmbeddings(undefined),
    () => engine.lexiconInfo('klingon'),
  ];
  for (const [k, call] of calls.entries()) {
    let r;
    assert.doesNotThrow(() => { r = call(); }, `call ${k}`);
    assert.equal(r.ok, false, `call ${k}: ${call}`);
    assert.match(r.error.code, /^[a-z_]+$/);
    assert.ok(r.error.message.length > 10, `call ${k}: ${r.error.message}`);
    assert.equal(typeof r.error.input, 'string');
    assert.ok(Number.isInteger(r.error.row) && Number.isInteger(r.error.col));
  }
  assertError(engine.attention({ ...fruitOptions, queries: 'apple' }), 'bad_argument', { input: 'queries' });
  assertError(engine.attention({ keys: fruit, values: fruit }), 'bad_argument', { input: 'queries', message: /missing/ });
  assertError(engine.attention({ ...fruitOptions, normalisation: 'sum' }), 'bad_argument', { input: 'normalisation' });
  assertError(engine.explainCell(fruitOptions, 3, 0), 'bad_argument', { row: 3, col: 0 });
  assertError(engine.explainOutput(fruitOptions, 0, 3), 'bad_argument', { row: 0, col: 3 });
  assertError(engine.attention({ ...fruitOptions, queries: [['1', 2, 1], [2, 2, 0], [0, 2, 3]] }), 'bad_argument',
    { input: 'queries', row: 0, col: 0 });
  assertError(engine.multiHead({ x: fruit, projection: 'given', wq: [fruit], wk: [fruit], wv: [fruit], wo: [[1, 2]] }),
    'shape_mismatch', { input: /wo/ });
});

test('memoryStats reports the heap', () => {
  const m = engine.memoryStats();
  assert.ok(m.heapBytes >= 16 << 20);
  assert.ok(m.allocatedBytes > 0 && m.allocatedBytes < m.heapBytes);
});
