// engine.traceRow(): one query row operation by operation, the numbers the animation plays. Its
// partial results end where attention()'s steps are, for every option the steps have.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, assertError, close, at } from './engine-helpers.mjs';

let engine;
before(async () => {
  engine = await loadEngine();
});

const fruit = [[1, 2, 1], [2, 2, 0], [0, 2, 3]]; // apple, orange, iPhone over (colour, fruit, tech)

test('trace: apple·orange adds up 2, then 6, then 6; apple·iPhone ends at 7, the row max', () => {
  const r = engine.traceRow({ queries: fruit, keys: fruit, values: fruit, scale: 'none' }, 0);
  assert.equal(r.ok, true);
  assert.deepEqual(Array.from(r.terms.data.subarray(3, 6)), [2, 4, 0]);
  assert.deepEqual(Array.from(r.partial.data.subarray(3, 6)), [2, 6, 6]);
  assert.equal(at(r.partial, 2, 2), 7);
  assert.equal(r.max, 7);
  assert.deepEqual(Array.from(r.shifted), [-1, -1, 0]);
  close(r.expSum, 1 + 2 / Math.E);
  // Each value row scaled by its weight, added in: after apple and orange, the first column is
  // 1·w_apple + 2·w_orange.
  close(at(r.filled, 1, 0), r.weights[0] * 1 + r.weights[1] * 2);
});

const custom = [[true, true, false], [false, false, false], [true, false, true]]; // row 1 sees nothing

test('trace: every option ends where attention() does, row by row, and a fully masked row has no NaN', () => {
  const q = [[0.5, -1, 2], [1, 1, 0], [-2, 0.3, 1]];
  const k = [[1, 0, -1], [0.2, 2, 1], [3, -1, 0.5]];
  const v = [[1, 2], [-3, 0.5], [4, 1]];
  let cases = 0;
  for (const similarity of ['dot', 'cosine'])
    for (const scale of ['sqrt', 'none', 'temperature'])
      for (const mask of ['none', 'causal', custom])
        for (const normalization of ['softmax', 'sum']) {
          const o = { queries: q, keys: k, values: v, similarity, scale, temperature: 0.7, mask, normalization };
          const steps = engine.attention(o);
          assert.equal(steps.ok, true);
          for (let i = 0; i < 3; i++) {
            const r = engine.traceRow(o, i);
            const what = `${similarity} ${scale} ${JSON.stringify(mask)} ${normalization} row ${i}`;
            assert.equal(r.ok, true, what);
            for (let j = 0; j < 3; j++) {
              const dot = at(r.partial, j, 2);
              close(similarity === 'dot' ? dot : dot / (r.queryNorm * r.keyNorms[j]), at(steps.scores, i, j), what);
              for (const step of ['scaled', 'masked', 'exps', 'weights']) assert.equal(r[step][j], at(steps[step], i, j), `${what} ${step}`);
              assert.equal(r.visible[j], at(steps.visible, i, j));
              for (const x of [r.shifted[j], r.exps[j], r.weights[j]]) assert.ok(!Number.isNaN(x), what);
            }
            for (let c = 0; c < 2; c++) close(at(r.filled, 2, c), at(steps.output, i, c), what);
            assert.equal(r.problem, steps.rowStats[i].problem);
            cases++;
          }
        }
  assert.equal(cases, 108);
  const empty = engine.traceRow({ queries: q, keys: k, values: v, mask: custom }, 1);
  assert.equal(empty.problem, 'fully_masked');
  assert.deepEqual(Array.from(empty.shifted), [-Infinity, -Infinity, -Infinity]);
  assert.deepEqual(Array.from(empty.output), [0, 0]);
});

test('trace: a row that is not there, and inputs that are not sound, are refused by name', () => {
  assertError(engine.traceRow({ queries: fruit, keys: fruit, values: fruit }, 3), 'bad_argument', { input: 'row' });
  assertError(engine.traceRow({ queries: fruit, keys: fruit, values: fruit }, -1), 'bad_argument', { input: 'row' });
  assertError(engine.traceRow({ queries: fruit, keys: [[1, 2]], values: fruit }, 0), 'shape_mismatch');
});
