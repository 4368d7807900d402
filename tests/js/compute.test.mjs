// The page's model (web/src/model/compute.ts) under node, on the real engine: a state in, the
// engine's steps and error values out, with no page and no message catalog. Every number is
// worked out by hand beside it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { loadEngine, root, rowsOf } from './engine-helpers.mjs';

let M, engine;
before(async () => {
  const out = await build({ stdin: { contents: "export * from './model/compute'; export { defaults } from './state/state';",
    resolveDir: join(root, 'web/src'), loader: 'ts' }, bundle: true, format: 'esm', platform: 'neutral', write: false,
  logLevel: 'silent' });
  M = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  engine = await loadEngine();
});

const words = (patch) => ({ ...M.defaults(), mode: 'words', ...patch });
const vectors = (patch) => ({ ...M.defaults(), mode: 'vectors', ...patch });

test('compute: the fruit words give apple·orange = 1×2 + 2×2 + 1×0 = 6, one run per side', () => {
  const r = M.compute(engine, words({ text: 'apple orange iPhone', lexicon: 'fruit', scale: 'none' }), 'fruit');
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.model.keyLabels, ['apple', 'orange', 'iPhone']);
  assert.deepEqual(r.words.cells, [['1', '2', '1'], ['2', '2', '0'], ['0', '2', '3']]);
  // apple: (1,2,1)·(1,2,1) = 6, ·(2,2,0) = 6, ·(0,2,3) = 7.
  assert.deepEqual(rowsOf(r.model.a.steps.scores)[0], [6, 6, 7]);
  assert.equal(r.model.b, null);
  assert.equal(r.model.arrows, true, 'self-attention: value i and output i are the same word');
});

test('compute: a cell that is not a number is an error value at its matrix, row and column', () => {
  const r = M.compute(engine, vectors({ q: [['1', 'x'], ['0', '1']] }), 'builtin');
  assert.equal(r.model, null);
  assert.deepEqual(r.errors, [{ where: 'q', kind: 'cell', matrix: 'q', row: 0, col: 1, rowLabel: 'q1', text: 'x', cell: 'not_a_number' }]);
  const big = M.compute(engine, vectors({ v: [['1', '0'], ['0', '1e400'], ['1', '1']] }), 'builtin');
  assert.deepEqual(big.errors.map((e) => [e.where, e.row, e.col, e.rowLabel, e.cell]), [['v', 1, 1, 'k2', 'too_large']]);
});

test('compute: an engine error says which input, with the shapes the page knows', () => {
  // Q has 2 features, K has 3: the engine names the keys.
  const r = M.compute(engine, vectors({ k: [['1', '0', '0'], ['0', '1', '0'], ['1', '1', '0']] }), 'builtin');
  assert.equal(r.errors.length, 1);
  const [e] = r.errors;
  assert.equal(e.kind, 'engine');
  assert.equal(e.where, 'k');
  assert.equal(e.error.code, 'shape_mismatch');
  assert.deepEqual([e.shapes.queryCols, e.shapes.keyCols], [2, 3]);
});

test('compute: more words than the page draws is refused with the count', () => {
  const r = M.compute(engine, words({ text: Array.from({ length: 65 }, () => 'cat').join(' ') }), 'builtin');
  assert.equal(r.model, null);
  assert.deepEqual(r.errors, [{ where: 'text', kind: 'tooManyTokens', count: 65, max: 64 }]);
});

test('compute: a comparison runs both sides and names them through the names it is given', () => {
  const s = vectors({ q: [['1', '0']], qLabels: ['q1'], compare: 'similarity', scale: 'none' });
  const plain = M.compute(engine, s, 'builtin');
  assert.deepEqual([plain.model.sideA, plain.model.sideB], ['dot', 'cosine']);
  // q = (1, 0) against k = (1,0), (0,1), (1,1): dot 1, 0, 1; cosine 1, 0, 1/√2.
  assert.deepEqual(rowsOf(plain.model.a.steps.scores), [[1, 0, 1]]);
  const cos = rowsOf(plain.model.b.steps.scores)[0];
  assert.deepEqual(cos.slice(0, 2), [1, 0]);
  assert.ok(Math.abs(cos[2] - Math.SQRT1_2) < 1e-15);
  const named = M.compute(engine, s, 'builtin', { feature: (f) => f, side: (kind, o) => `${kind}:${o.similarity}` });
  assert.deepEqual([named.model.sideA, named.model.sideB], ['similarity:dot', 'similarity:cosine']);
});

test('compute: the built-in features are named through `names`; two heads give two heads of steps', () => {
  const r = M.compute(engine, words({ text: 'the cat sat', heads: 2, projection: 'random' }), 'builtin', { ...M.PLAIN_NAMES, feature: (f) => f.toUpperCase() });
  assert.deepEqual(r.errors, []);
  assert.ok(r.words.features.every((f) => f === f.toUpperCase()), r.words.features.join());
  assert.equal(r.model.multiA.heads.length, 2);
  assert.equal(r.model.a.steps.dK, r.words.features.length / 2, 'd_k = d_model / heads');
});

test('compute: a word vector the reader typed is read as text (a bad cell an error at its word); the others are the engine’s numbers', () => {
  // orange typed as (3, 1, 0): apple·orange = 1×3 + 2×1 + 1×0 = 5.
  const typed = M.compute(engine, words({ text: 'apple orange', lexicon: 'fruit', scale: 'none', edits: [['orange', ['3', '1', '0']]] }), 'fruit');
  assert.deepEqual(typed.errors, []);
  assert.deepEqual(typed.words.edited, [false, true]);
  assert.deepEqual(rowsOf(typed.model.a.steps.scores)[0], [6, 5]);
  const bad = M.compute(engine, words({ text: 'apple orange', lexicon: 'fruit', edits: [['orange', ['3', 'two', '0']]] }), 'fruit');
  assert.equal(bad.model, null);
  assert.deepEqual(bad.errors, [{ where: 'x', kind: 'cell', matrix: 'x', row: 1, col: 1, rowLabel: 'orange', text: 'two', cell: 'not_a_number' }]);
  assert.deepEqual([...bad.words.invalid], ['1,1']);
});
