// The trainer's wasm heap when a call needs room, or asks for too much: a load that grows the
// memory still loads, and a refused request leaves neither the memory nor the allocations larger.
// Each test takes fresh modules, as the heap can only grow and what one test does moves the next.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadTrainer, assertError } from './engine-helpers.mjs';

// The largest model the limits allow (837,176 bytes saved), with as little else as a trainer has.
const LARGEST = { task: 'copy', vocab: 64, seqLen: 32, dModel: 64, layers: 4, heads: 4, mlp: 'gelu', layerNorm: true };
const SMALL = { batch: 1, heldOut: 1 };
const FILLER = { task: 'reverse', dModel: 32, batch: 4, heldOut: 1 }; // about 200 KB of heap

let saved, tokens, probs;
before(async () => {
  const T = await loadTrainer();
  const t = T.create({ ...LARGEST, ...SMALL }).trainer;
  t.step(2);
  saved = t.save().bytes;
  tokens = Array.from({ length: 32 }, (_, k) => (k * 7) % 10);
  probs = t.probe(tokens).probs.data;
});

function fill(T, n) {
  for (let k = 0; k < n; k++) assert.equal(T.create(FILLER).ok, true);
}

// A fresh module whose heap has no free block as large as the largest saved model: fillers are
// made in one module until one of them grows the memory; a second module gets one filler fewer,
// so the block the next filler would not fit in is all that is free, and copying the saved bytes
// in has to grow the memory.
async function fullModule() {
  const trial = await loadTrainer();
  const start = trial.memoryStats().heapBytes;
  let n = 0;
  while (trial.memoryStats().heapBytes === start) fill(trial, 1), n++;
  const T = await loadTrainer();
  fill(T, n - 1);
  return T;
}

test('trainer heap: a saved model loads when copying it in grows the memory, 10 times', async () => {
  for (let k = 0; k < 10; k++) {
    const T = await fullModule();
    const heap = T.memoryStats().heapBytes;
    // Into a new trainer, or in place of one's model.
    const r = k % 2 ? T.load(saved, SMALL) : T.create({ task: 'reverse', ...SMALL }).trainer.load(saved);
    assert.equal(r.ok, true, `load ${k + 1}: ${r.error?.message}`);
    assert.ok(T.memoryStats().heapBytes > heap, `load ${k + 1} grew the memory`);
    if (r.trainer) assert.deepEqual(r.trainer.probe(tokens).probs.data, probs, 'the loaded model predicts as the saved one');
  }
});

test('trainer heap: 10 MB of zeros is a parse_error that gives the size and the limit', async () => {
  const T = await fullModule();
  const t = T.create({ task: 'reverse', ...SMALL }).trainer;
  for (const r of [T.load(new Uint8Array(10e6)), t.load(new Uint8Array(10e6).buffer)]) {
    const e = assertError(r, 'parse_error', { input: 'model', col: 837176 });
    assert.equal(e.message, 'Saved model, byte 837176: the data has 10000000 bytes; the largest model this build makes has 837176.');
  }
  assert.equal(t.load(saved).ok, true, 'the trainer still loads a model');
});

test('trainer heap: refused huge requests leave the memory and the allocations as they were', async () => {
  // A reader's page keeps whatever the wasm memory grew to (it never shrinks): a refused request
  // must not cost it megabytes, nor leave them allocated for the next model to find taken.
  const T = await loadTrainer();
  const t = T.create({ task: 'reverse', ...SMALL }).trainer;
  t.probe([1, 2, 3]);
  const start = T.memoryStats();
  for (const list of [new Uint8Array(1e6), new Array(1e6).fill(1)]) {
    const e = assertError(t.probe(list), 'too_large', { input: 'tokens' });
    assert.equal(e.message, 'tokens: 1000000 of them, but the model reads at most 10.');
  }
  const huge = new Uint8Array(5e7); // 50 MB
  huge.set(saved); // a sound header: only the size is wrong
  for (const r of [t.load(huge), T.load(huge)]) {
    const e = assertError(r, 'parse_error', { input: 'model', col: 837176 });
    assert.match(e.message, /the data has 50000000 bytes; the largest model this build makes has 837176\.$/);
  }
  t.dispose();
  const end = T.memoryStats();
  assert.equal(end.heapBytes, start.heapBytes, 'the memory did not grow');
  // One trainer fewer; anything the refusals left would be megabytes.
  assert.ok(end.allocatedBytes < start.allocatedBytes, `${end.allocatedBytes - start.allocatedBytes} bytes more allocated`);
  // The memory it has is still there for a model: the largest one loads without growing it.
  const big = T.load(saved, SMALL);
  assert.equal(big.ok, true, big.error?.message);
  assert.deepEqual(big.trainer.probe(tokens).probs.data, probs);
});
