// attention() and multiHead() read one steps layout (cpp/wasm/stream.hpp, StepsLayout, and
// cpp/wasm/api/steps.js): one head with identity projections is attention(X, X, X), field by field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, close } from './engine-helpers.mjs';

const engine = await loadEngine();

function sameArray(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let k = 0; k < expected.length; k++) close(actual[k], expected[k], `${what}[${k}]`);
}

function sameSteps(actual, expected) {
  for (const key of ['n', 'm', 'dK', 'dV', 'divisor']) assert.equal(actual[key], expected[key], key);
  for (const key of ['queryNorms', 'keyNorms']) sameArray(actual[key], expected[key], key);
  for (const key of ['queries', 'keys', 'values', 'scores', 'scaled', 'masked', 'exps', 'weights',
    'output', 'visible']) {
    assert.equal(actual[key].rows, expected[key].rows, `${key}.rows`);
    assert.equal(actual[key].cols, expected[key].cols, `${key}.cols`);
    sameArray(actual[key].data, expected[key].data, key);
  }
  assert.deepEqual(actual.rowStats, expected.rowStats);
}

test('one identity head of a 3×2 x under a causal mask has the steps of attention(x, x, x)', () => {
  const x = [[1, 0], [0, 2], [1, 1]];
  const options = { similarity: 'cosine', mask: 'causal' };
  const single = engine.attention({ queries: x, keys: x, values: x, ...options });
  const multi = engine.multiHead({ x, heads: 1, ...options });
  assert.ok(single.ok && multi.ok);
  sameSteps(multi.heads[0], single);
  assert.deepEqual(single.visible.data, Uint8Array.from([1, 0, 0, 1, 1, 0, 1, 1, 1]));
  assert.equal(single.rowStats[0].visible, 1);
  assert.equal(single.rowStats[2].problem, 'none');
});

test('a fully masked row reads back as "fully_masked" from attention() and from each head', () => {
  const x = [[1, 2], [3, 4]];
  const mask = [[false, false], [true, true]];
  const single = engine.attention({ queries: x, keys: x, values: x, mask });
  const multi = engine.multiHead({ x, heads: 1, mask });
  assert.equal(single.rowStats[0].problem, 'fully_masked');
  assert.equal(multi.heads[0].rowStats[0].problem, 'fully_masked');
  sameSteps(multi.heads[0], single);
});

test('each of two random heads of a 3×4 x reads back as attention() of its own Q, K and V', () => {
  const x = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]];
  const multi = engine.multiHead({ x, heads: 2, dK: 2, dV: 2, projection: 'random', seed: 7 });
  assert.ok(multi.ok, multi.error?.message);
  for (const head of multi.heads) {
    const single = engine.attention({ queries: head.queries, keys: head.keys, values: head.values });
    sameSteps(head, single);
  }
});
