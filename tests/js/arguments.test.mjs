// What the caller's arguments can do that is their fault and not the engine's: a getter or a
// Proxy that throws, a seed at the edge of the documented range [0, 2⁵³], a text with no words.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, assertError, close } from './engine-helpers.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

const fruit = [[1, 2, 1], [2, 2, 0], [0, 2, 3]];
const thrower = (message) => { throw new Error(message); };

test("a getter of the caller's that throws is bad_argument naming the field, and the engine still works", () => {
  const cases = [
    [() => engine.attention({ get queries() { return thrower('x'); }, keys: fruit, values: fruit }), 'queries', 'x'],
    [() => engine.attention({ queries: fruit, keys: fruit, values: fruit, get mask() { return thrower('no mask'); } }), 'mask', 'no mask'],
    [() => engine.explainCell({ queries: fruit, keys: fruit, get values() { return thrower('v'); } }, 0, 0), 'values', 'v'],
    [() => engine.multiHead({ get x() { return thrower('x?'); } }), 'x', 'x?'],
    [() => engine.entropyByDk({ x: fruit, get seed() { return thrower('s'); } }), 'seed', 's'],
    [() => engine.attentionFast({ queries: fruit, keys: fruit, get values() { return thrower('f'); } }), 'values', 'f'],
    // Deeper: a row, a flat matrix's data, a lexicon's id, the list of d_k, a head's projection.
    [() => engine.attention({ queries: [[1, 2, 1], Object.defineProperty([0, 0, 0], 1, { get: () => thrower('row') })],
      keys: fruit, values: fruit }), 'queries', 'row'],
    [() => engine.attention({ queries: fruit, keys: { rows: 3, cols: 3, get data() { return thrower('data'); } }, values: fruit }),
      'keys', 'data'],
    [() => engine.embed('apple', { get id() { return thrower('id'); } }), 'lexicon', 'id'],
    [() => engine.entropyByDk({ x: fruit, dKs: new Proxy([1, 2], { get: (t, k) => (k === '0' ? thrower('dk') : t[k]) }) }), 'dKs', 'dk'],
    [() => engine.multiHead({ x: fruit, projection: 'given', wq: [fruit], wk: [fruit],
      wv: new Proxy([fruit], { get: (t, k) => (k === '0' ? thrower('wv') : t[k]) }), wo: fruit }), 'wv', 'wv'],
    // The options object itself: a Proxy whose keys cannot be listed; a thrown non-Error.
    [() => engine.attention(new Proxy({}, { ownKeys: () => thrower('keys') })), 'options', 'keys'],
    [() => engine.attention({ get queries() { throw 'plain'; }, keys: fruit, values: fruit }), 'queries', 'plain'], // eslint-disable-line no-throw-literal
  ];
  for (const [call, input, thrown] of cases) {
    const error = assertError(call(), 'bad_argument', { input });
    assert.equal(error.message, 'reading `' + input + '` threw: ' + thrown + '.');
  }
  // The engine is fine: the fruit example's first weight, e^(6/√3) / Σ_j e^(q0·k_j/√3), by hand.
  const r = engine.attention({ queries: fruit, keys: fruit, values: fruit });
  const scores = [6, 6, 7].map((s) => Math.exp(s / Math.sqrt(3)));
  close(r.weights.data[0], scores[0] / (scores[0] + scores[1] + scores[2]), 'w00');
});

// SplitMix64 as rng.hpp writes it, in BigInt: an independent reference for the seeded weights.
function splitMix(seed) {
  let state = BigInt(seed);
  const mask = (1n << 64n) - 1n;
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    return Number((z ^ (z >> 31n)) >> 11n) * 2 ** -53;
  };
}

test('seed: 2⁵³ is accepted as documented and gives the SplitMix64 numbers; outside [0, 2⁵³] is refused', () => {
  const x = [[1, 2], [3, 4]]; // d_model 2: W_Q is 2×2, uniform in ±√(3/2)
  for (const seed of [0, 2 ** 53 - 1, 2 ** 53]) {
    const r = engine.multiHead({ x, projection: 'random', seed });
    assert.equal(r.ok, true, `seed ${seed}: ${r.error?.message}`);
    const next = splitMix(seed), a = Math.sqrt(3 / 2);
    const expected = Array.from({ length: 4 }, () => -a + 2 * a * next());
    for (let k = 0; k < 4; k++) close(r.heads[0].wq.data[k], expected[k], `seed ${seed}, W_Q[${k}]`);
  }
  assert.notDeepEqual(engine.multiHead({ x, projection: 'random', seed: 2 ** 53 }).heads[0].wq.data,
    engine.multiHead({ x, projection: 'random', seed: 2 ** 53 - 1 }).heads[0].wq.data);
  assert.equal(engine.entropyByDk({ x, seed: 2 ** 53, dKs: [1, 2] }).ok, true);
  for (const seed of [2 ** 53 + 2, 2 ** 54, -1, 1.5, NaN, '1']) {
    for (const r of [engine.multiHead({ x, projection: 'random', seed }), engine.entropyByDk({ x, seed })]) {
      const error = assertError(r, 'bad_argument', { input: 'seed' });
      assert.match(error.message, /^seed must be a whole number from 0 to 9007199254740992; got /);
    }
  }
});

test('a text with no words is empty_input for tokenize() as for embed()', () => {
  for (const text of ['', '   ', ' \n\t', '.,!?']) {
    for (const r of [engine.tokenize(text), engine.embed(text), engine.tokenize(text, 'fruit')]) {
      const error = assertError(r, 'empty_input', { input: 'text', row: -1, col: -1 });
      assert.match(error.message, /^Type some words to see their (tokens|vectors): the text has no words in it yet\.$/);
    }
  }
  assert.deepEqual(engine.tokenize(' apple ').tokens, [{ text: 'apple', offset: 1, length: 5 }]);
});
