// The model module (dist/attention-model.js) called as a hostile page would: sizes past what a
// 32-bit size_t counts, errors left behind by an earlier call, refusals that could keep memory,
// and work too large for one call. Each must be refused in words, and leave the module as it was.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadModelModule, modelFile } from './engine-helpers.mjs';

let mod, model;
const file = readFileSync(modelFile);
before(async () => {
  mod = await loadModelModule();
  const opened = mod.open(file);
  assert.ok(opened.ok, opened.error?.message);
  model = opened.model;
});

const allocated = () => mod.memoryStats().allocatedBytes;

test('model, hostile: room past 4 GiB is refused with both sizes, and the open model still runs', () => {
  const before = model.run('The cat sat on the mat.');
  assert.ok(before.ok);
  // As a 32-bit size_t, 2^32 + 16 is 16: the module once reserved 16 bytes and let 64 KiB in.
  for (const size of [2 ** 32 + 16, 2 ** 32 + 4096, 2 ** 40]) {
    const room = mod.reserve(size);
    assert.equal(room.ok, false, `reserve(${size}) was accepted`);
    assert.equal(room.error.code, 'too_large');
    assert.match(room.error.message, /^model: the file is [\d.]+ (GB|TB|bytes), more than the [\d.]+ (GB|MB|bytes) this page can still hold\.$/);
  }
  assert.equal(mod.reserve(-1).error.code, 'bad_argument');
  const after = model.run('The cat sat on the mat.');
  assert.ok(after.ok, after.error?.message);
  assert.deepEqual(after.predictions, before.predictions);
  const other = mod.open(file).model;
  assert.doesNotThrow(() => other.dispose());
});

test('model, hostile: a plan of a file past 4 GiB is refused before its header is read', () => {
  const plan = mod.plan(file.subarray(0, 4096), 2 ** 32 + 16);
  assert.equal(plan.ok, false);
  assert.equal(plan.error.code, 'too_large');
  assert.match(plan.error.message, /^model: the file is (4\.0 GB|4294967312 bytes), more than the [\d.]+ (GB|MB|bytes) this page can hold\.$/);
});

test("model, hostile: every call answers with its own error, never an earlier call's", () => {
  const damaged = Uint8Array.from(file.subarray(0, 100));
  const refused = mod.open(damaged);
  assert.equal(refused.ok, false);
  assert.match(refused.error.message, /^model: byte 0: the header says it is \d+ bytes/);
  // Right after it: an empty text, and an empty file, each say what they are.
  const none = model.run('');
  assert.equal(none.ok, false);
  assert.equal(none.error.code, 'empty_input');
  assert.equal(none.error.input, 'text');
  assert.equal(none.error.message, 'text: there is no text to read; give the model a word or a sentence.');
  mod.open(damaged);
  const empty = mod.open(new Uint8Array(0));
  assert.equal(empty.ok, false);
  assert.equal(empty.error.code, 'empty_input');
  assert.equal(empty.error.message,
    'model: the file is empty (0 bytes); a safetensors file begins with 8 bytes that give the length of its header.');
  assert.equal(empty.error.col, 0);
  // A good call after a refusal says nothing of it; the next refusal is its own.
  mod.open(damaged);
  assert.ok(model.run('x').ok);
  const head = model.head(0, 3);
  assert.ok(head.ok);
  const plan = mod.plan(new Uint8Array(0), 0);
  assert.equal(plan.ok, false);
  assert.equal(plan.error.code, 'empty_input');
});

test('model, hostile: refusals keep no memory, however many', () => {
  const checks = [
    () => mod.open(file, 'not an object'),
    () => mod.open(file, { tokenizer: 42 }),
    () => mod.open(file, { nonsense: 'x' }),
    () => mod.plan(file.subarray(0, 4096), file.length, []),
    () => mod.open(file.subarray(0, 200000)),
    () => mod.open(file.subarray(0, 200000), { config: '{"n_head": 4}' }),
    () => mod.open(file, { config: '{"n_layer": 9}' }),
    () => model.run('x'.repeat((1 << 20) + 1)),
  ];
  // Each kind on its own, from a heap as a run leaves it (a run gives back the bytes it read in).
  for (const [i, f] of checks.entries()) {
    assert.ok(model.run('x').ok);
    const start = allocated();
    for (let k = 0; k < 500; k++) assert.equal(f().ok, false);
    const grown = allocated() - start;
    // Refused so, the first of these once kept the 1.3 MB file in the heap until the next open.
    assert.ok(grown <= 64 * 1024, `refusal ${i + 1}: the heap kept ${grown} bytes after 500 of them`);
  }
});

test('model, hostile: a text or a survey too large for one call is refused in words', () => {
  const long = model.run('x'.repeat((1 << 20) + 1));
  assert.equal(long.ok, false);
  assert.equal(long.error.code, 'too_large');
  assert.equal(long.error.message, 'text: the text is 1048577 bytes, more than the 1048576 bytes a run reads.');
  // A refused run leaves no reading: no head of the one before it is shown as this one's.
  const stale = model.head(0, 0);
  assert.equal(stale.ok, false);
  assert.equal(stale.error.message, 'head: there is no head 0 of layer 0 with a run to show.');
  // 1000 probes of 2·63 + 1 tokens: 127,000 tokens through 4 layers of width 128 and the vocabulary.
  const survey = model.survey({ sequences: 1000, length: 4096 });
  assert.equal(survey.ok, false);
  assert.equal(survey.error.code, 'too_large');
  assert.match(survey.error.message, /^survey: 1000 probes of 127 tokens take about \d+ billion multiply-adds on this model, more than the 50 billion a survey may; ask for fewer sequences or a shorter length\.$/);
  assert.ok(model.survey({ sequences: 8, length: 32 }).ok);
  // The shipped model keeps its whole context: every head's weights fit.
  assert.equal(model.window, model.config.context);
});
