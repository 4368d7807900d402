// The trainer module's API under node: config errors name their field, saved models round-trip
// and damaged ones are refused where they are damaged, memory comes back, and the wasm trainer
// computes what the native one does (tests/fixtures/write_trainer_fixtures.cpp).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrainer, assertError, root } from './engine-helpers.mjs';

const writer = join(root, 'build', 'native', 'tests', 'fixtures', 'write_trainer_fixtures');
const fixtures = join(root, 'build', 'fixtures', 'trainer.json');

let T;
before(async () => {
  T = await loadTrainer();
});

function create(config) {
  const r = T.create(config);
  assert.equal(r.ok, true, r.ok ? '' : r.error.message);
  return r.trainer;
}

// One layer, one head of 16 dimensions: the Catch2 suite's reverse model.
const REVERSE = { task: 'reverse', dModel: 16, layers: 1, heads: 1, seed: 1 };

test('trainer: a bad config is refused with the field it names', () => {
  const bad = [
    [{ seqLen: 4 }, 'bad_dimension', 'seqLen'], // find_match's sequences are longer
    [{ vocab: 3 }, 'bad_dimension', 'vocab'],
    [{ heldOut: 0 }, 'bad_argument', 'heldOut'],
    [{ batch: 65 }, 'too_large', 'batch'],
    [{ dModel: 16, heads: 3 }, 'bad_dimension', 'heads'],
    [{ dModel: 100 }, 'too_large', 'dModel'],
    [{ layers: 0 }, 'bad_dimension', 'layers'],
    [{ task: 'induction', layers: 1 }, 'bad_dimension', 'layers'],
    [{ task: 'copy', length: 40 }, 'bad_argument', 'length'],
    [{ learningRate: 0 }, 'bad_argument', 'learningRate'],
    [{ beta2: 1 }, 'bad_argument', 'beta2'],
    [{ task: 'juggle' }, 'bad_argument', 'task'],
    [{ mlp: 'tanh' }, 'bad_argument', 'mlp'],
    [{ layerNorm: 1 }, 'bad_argument', 'layerNorm'],
    [{ batch: 1.5 }, 'bad_argument', 'batch'],
    [{ seed: -1 }, 'bad_argument', 'seed'],
    [{ clip: NaN }, 'bad_argument', 'clip'],
    [{ colour: 'red' }, 'bad_argument', 'colour'], // not an option
  ];
  for (const [config, code, input] of bad) {
    const e = assertError(T.create(config), code, { input });
    assert.ok(e.message.includes(input), `${JSON.stringify(config)}: ${e.message}`);
  }
  assertError(T.create('reverse'), 'bad_argument', { input: 'options' });
  assert.equal(T.memoryStats().trainers, 0, 'no refused config left a trainer behind');
});

test('trainer: the config in effect has the defaults and the task filled in', () => {
  const t = create({ task: 'reverse' });
  assert.equal(t.config.task, 'reverse');
  assert.equal(t.config.seqLen, 10); // five digits and five answers
  assert.equal(t.config.vocab, 11); // ten digits and the separator
  assert.equal(t.config.dModel, T.defaults.dModel);
  assert.equal(t.task.name, 'reverse');
  assert.equal(t.task.tokens.length, 11);
  assert.ok(t.task.description.length > 10);
  assert.deepEqual([...T.tasks], ['find_match', 'copy', 'reverse', 'sort', 'induction']);
  t.dispose();
});

test('trainer: step, evaluate, probe and ablate give their documented shapes', () => {
  const t = create({ task: 'copy', dModel: 16, layers: 2, heads: 2, mlp: 'relu', layerNorm: true });
  const s = t.step(5);
  assert.equal(s.ok, true);
  assert.equal(s.losses.length, 5);
  assert.equal(s.steps, 5);
  assert.equal(t.steps, 5);
  assert.ok(Math.abs(s.loss - s.losses.reduce((a, b) => a + b) / 5) < 1e-12, 'loss is the mean');
  assert.ok(s.stepsPerSecond > 0);
  assert.equal(s.diverged, null);
  assert.equal(s.headScores.length, 2);
  assert.equal(s.headScores[0].length, 2);
  const n = t.config.seqLen;
  const p = t.probe(Array.from({ length: n }, (_, k) => k % 10));
  assert.equal(p.ok, true);
  assert.equal(p.layers.length, 2);
  const h = p.layers[1].heads[1];
  assert.deepEqual([h.queries.rows, h.queries.cols, h.scores.rows, h.scores.cols], [n, 8, n, n]);
  assert.ok(h.weights.data instanceof Float32Array);
  assert.equal(h.weights.data[1], 0, 'the causal mask: row 0 sees only key 0');
  assert.ok(Math.abs(h.weights.data.subarray(n, 2 * n).reduce((a, b) => a + b) - 1) < 1e-5);
  assert.deepEqual([p.probs.rows, p.probs.cols, p.predicted.length], [n, t.config.vocab, n]);
  assertError(t.probe([]), 'empty_input', { input: 'tokens' });
  assertError(t.probe([0, 99]), 'bad_argument', { input: 'tokens', col: 1 });
  assertError(t.probe([0, -1]), 'bad_argument', { input: 'tokens', col: 1 });
  assert.equal(t.ablate(1, 1).ok, true);
  const ablated = t.probe([1, 2, 3]);
  assert.ok(ablated.layers[1].heads[1].output.data.every((x) => x === 0), 'an ablated head outputs 0');
  assert.equal(t.ablate(1, 1, false).ok, true);
  assertError(t.ablate(2, 0), 'too_large', { input: 'layer' });
  assertError(t.ablate(0, 2), 'too_large', { input: 'head' });
  assertError(t.step(0), 'bad_argument', { input: 'steps' });
  t.dispose();
  assert.equal(t.disposed, true);
  assertError(t.step(1), 'bad_argument', { input: 'trainer' });
  assertError(t.save(), 'bad_argument', { input: 'trainer' });
  t.dispose(); // twice is harmless
});

test('trainer: a saved model round-trips and damaged bytes are refused with the byte', () => {
  const t = create(REVERSE);
  t.step(20);
  const saved = t.save().bytes;
  assert.ok(saved instanceof Uint8Array);
  assert.equal(String.fromCharCode(...saved.subarray(0, 4)), 'APTM');
  const tokens = [3, 1, 4, 1, 5, 10, 5, 1, 4, 1];
  const before = t.probe(tokens);
  const loaded = T.load(saved, { seed: 1 });
  assert.equal(loaded.ok, true, loaded.ok ? '' : loaded.error.message);
  const u = loaded.trainer;
  assert.deepEqual(u.config, t.config);
  assert.deepEqual(u.probe(tokens).probs.data, before.probs.data);
  assert.deepEqual(u.save().bytes, saved, 'saving again gives the same bytes');

  const bad = saved.slice();
  bad[0] = 0x58; // "X"
  let e = assertError(T.load(bad), 'parse_error', { input: 'model', col: 0 });
  assert.match(e.message, /byte 0/);
  bad.set(saved);
  bad[100] ^= 0x40; // one bit of one weight
  e = assertError(u.load(bad), 'parse_error', { input: 'model', col: saved.length - 4 });
  assert.match(e.message, /checksum/);
  e = assertError(u.load(saved.subarray(0, saved.length - 10)), 'parse_error', { input: 'model', col: saved.length - 10 });
  assertError(u.load('APTM'), 'bad_argument', { input: 'model' });
  assert.deepEqual(u.probe(tokens).probs.data, before.probs.data, 'a refused load keeps the model');
  assert.equal(u.load(saved).ok, true);
  t.dispose();
  u.dispose();
});

test('trainer: 1,000 create/dispose cycles leave the wasm heap as it was', () => {
  // Every kind of buffer (MLP, LayerNorm, two layers); few held-out sequences, as each step() ends
  // with an evaluation on them and the point here is allocation, not time.
  const config = { task: 'induction', length: 6, dModel: 32, layers: 2, heads: 2, mlp: 'gelu', layerNorm: true, batch: 4, heldOut: 8 };
  const cycle = () => {
    const t = create(config);
    t.step(1);
    t.probe([0, 1, 2]);
    t.save();
    t.dispose();
  };
  cycle(); // the first call grows the buffers that every later one reuses
  const start = T.memoryStats();
  const started = Date.now();
  for (let k = 0; k < 1000; k++) cycle();
  const end = T.memoryStats();
  assert.equal(end.heapBytes, start.heapBytes, 'the heap did not grow');
  // emmalloc counts a block whose leftover was too small to split as in use, so the count moves
  // by a few bytes with how the free blocks lie; one trainer left behind would be 40 KB.
  const drift = end.allocatedBytes - start.allocatedBytes;
  assert.ok(Math.abs(drift) <= 256, `${drift} bytes more allocated than before the cycles`);
  assert.equal(end.trainers, start.trainers);
  console.log(`1,000 cycles in ${Date.now() - started} ms; heap ${start.heapBytes} bytes, ${end.allocatedBytes - start.allocatedBytes} bytes allocated more`);
});

test('trainer: wasm losses agree with the native trainer within 1e-4 over 50 steps', () => {
  assert.ok(existsSync(writer), `${writer} is missing: run bash scripts/build.sh native`);
  const r = spawnSync(writer, [join(root, 'build', 'fixtures')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { cases } = JSON.parse(readFileSync(fixtures, 'utf8'));
  assert.ok(cases.length >= 2);
  const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-4 * Math.abs(b), `${what}: wasm ${a}, native ${b}`);
  for (const c of cases) {
    const t = create(c.config);
    const s = t.step(50);
    c.losses.forEach((x, k) => near(s.losses[k], x, `${c.config.task} step ${k + 1}`));
    near(s.heldOutLoss, c.evaluation.loss, `${c.config.task} held-out loss`);
    near(s.score, c.evaluation.score, `${c.config.task} score`);
    assert.ok(Math.abs(s.accuracy - c.evaluation.accuracy) <= 0.01, `${c.config.task} accuracy`);
    t.dispose();
  }
});

test('trainer: reverse reaches 99 percent held-out accuracy within 150 steps in wasm', () => {
  const t = create(REVERSE);
  let reached = 0;
  for (let s = 10; s <= 150 && !reached; s += 10) if (t.step(10).accuracy >= 0.99) reached = s;
  t.dispose();
  assert.ok(reached > 0, 'not at 99 % after 150 steps');
  console.log(`reverse: 99 % held-out accuracy at step ${reached}`);
});

// The saved format's checksum (FNV-1a, 32-bit, of every byte before it), rewritten after an edit.
function reseal(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length - 4; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(bytes.length - 4, h, true);
  return bytes;
}

// Every weight of a saved model set to w (they start at byte 52, one float32 each).
function everyWeight(saved, w) {
  const bytes = saved.slice();
  const view = new DataView(bytes.buffer);
  for (let at = 52; at < bytes.length - 4; at += 4) view.setFloat32(at, w, true);
  return reseal(bytes);
}

test('trainer: weights too large to compute with are refused, never NaN with ok: true', () => {
  const t = create({ task: 'copy', dModel: 16, layers: 4, heads: 1, seed: 3 });
  const saved = t.save().bytes;
  // 1e20 is refused at the door, with the first weight (entry 1 of the token embedding) named.
  const e = assertError(T.load(everyWeight(saved, 1e20)), 'parse_error', { input: 'model', col: 52 });
  assert.match(e.message, /^Saved model, byte 52: entry 1 of token_embedding is 1e\+20; a weight's size must be at most 1000000\.$/);
  assertError(t.load(everyWeight(saved, -1e20)), 'parse_error', { input: 'model', col: 52 });
  // A million loads, and four layers of it overflow float32: every result says so.
  const loaded = T.load(everyWeight(saved, 1e6));
  assert.equal(loaded.ok, true, loaded.error?.message);
  const u = loaded.trainer;
  const overflow = { input: 'model', message: /^The model's numbers overflowed: .* gave (NaN|-?Infinity)\. Its weights are too large/ };
  assertError(u.evaluate(), 'not_finite', overflow);
  assertError(u.probe([1, 2, 3]), 'not_finite', overflow);
  const s = u.step(3);
  assertError(s, 'not_finite', { input: 'loss' });
  assert.equal(u.steps, 0, 'no step was applied');
  // The trainer that was loaded over is refused nothing: its own model is sound.
  assert.equal(t.evaluate().ok, true);
  assert.ok(Number.isFinite(t.step(2).loss));
  t.dispose();
  u.dispose();
});
