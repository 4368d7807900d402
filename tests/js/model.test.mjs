// The language model module (dist/attention-model.js) under node, on the page's own model
// (data/model/model.safetensors): what a reader of the Real model view and of README's example
// relies on. Its numbers are the native core's (checked against PyTorch and NumPy in
// tests/js/gpt2-parity.test.mjs), so here the wasm run is compared with the native one.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModelModule, modelFile, root } from './engine-helpers.mjs';

let mod, model;
before(async () => {
  mod = await loadModelModule();
  const opened = mod.open(readFileSync(modelFile));
  assert.ok(opened.ok, opened.error?.message);
  model = opened.model;
});

test('model: the shipped file opens as 4 layers of 4 heads with its own tokenizer', () => {
  assert.deepEqual({ ...model.config }, { vocab: 4165, context: 128, width: 128, layers: 4, heads: 4, tied: true });
  assert.equal(model.bos, 4164);
  assert.deepEqual(mod.patterns, ['previous', 'first', 'same', 'induction']);
});

test("model: headSize says how many of the file's first bytes plan() needs, and plan() plans from that many", () => {
  const file = readFileSync(modelFile);
  // The format's first 8 bytes are the header's length, little-endian.
  const header = Number(file.readBigUInt64LE(0));
  assert.equal(mod.headSize(file.subarray(0, 8)), 8 + header);
  assert.equal(mod.headSize(file), 8 + header);
  assert.equal(mod.headSize(file.subarray(0, 5)), 8); // the length is not all here yet
  const plan = mod.plan(file.subarray(0, 8 + header), file.length);
  assert.ok(plan.ok, plan.error?.message);
  assert.equal(plan.config.layers, 4);
  const short = mod.plan(file.subarray(0, 7 + header), file.length);
  assert.equal(short.ok, false);
  // A length past any header's: 8, and plan() says what is wrong from those 8.
  const huge = Buffer.from(file.subarray(0, 8));
  huge[7] = 1;
  assert.equal(mod.headSize(huge), 8);
  const refused = mod.plan(huge, file.length);
  assert.equal(refused.ok, false);
  assert.match(refused.error.message, /this is not a safetensors file/);
});

test('model: an English and a Chinese sentence, as the model sees them, and what it expects next', () => {
  for (const text of ['The cat sat on the mat.', '床前明月光，疑是地上霜。']) {
    const run = model.run(text);
    assert.ok(run.ok, run.error?.message);
    assert.equal(run.tokens[0].text, '<|endoftext|>');
    assert.equal(run.tokens.slice(1).map((t) => t.text).join(''), text);
    assert.equal(run.dropped, 0);
    assert.equal(run.predictions.length, 5);
    const p = run.predictions.map((x) => x.probability);
    assert.ok(p.every((x, i) => x > 0 && (i === 0 || x <= p[i - 1])), `descending: ${p}`);
    assert.ok(p.reduce((a, b) => a + b) <= 1 + 1e-9);
  }
  // Chinese goes by character: each of 床前明月光 is one token.
  assert.deepEqual(model.run('床前明月光').tokens.slice(1).map((t) => t.text), ['床', '前', '明', '月', '光']);
});

test("model: the wasm run's weights and predictions are the native core's", () => {
  const run = model.run('Call me Ishmael.');
  const ids = run.tokens.map((t) => t.id);
  const r = spawnSync(join(root, 'build/native/tools/gpt2_run'), [modelFile, '--tokens', ids.join(',')],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  const native = JSON.parse(r.stdout);
  let worst = 0;
  for (let l = 0; l < 4; l++) {
    for (let h = 0; h < 4; h++) {
      const { weights } = model.head(l, h);
      weights.forEach((row, i) => row.forEach((w, j) => { worst = Math.max(worst, Math.abs(w - native.weights[l][h][i][j])); }));
    }
  }
  assert.ok(worst < 1e-5, `weights differ by ${worst}`);
  const last = native.logits.at(-1), top = Math.max(...last);
  const total = last.reduce((s, z) => s + Math.exp(z - top), 0);
  const best = last.indexOf(top);
  assert.equal(run.predictions[0].id, best);
  assert.ok(Math.abs(run.predictions[0].probability - 1 / total) < 1e-5);
});

test('model: a character the tokenizer lacks falls back to its bytes, marked', () => {
  const run = model.run('🍎');
  assert.ok(run.ok);
  const pieces = run.tokens.slice(1);
  assert.ok(pieces.length >= 2 && pieces.every((t) => t.partial), JSON.stringify(pieces));
  assert.equal(pieces.map((t) => t.text).join(''), '⟨F0⟩⟨9F⟩⟨8D⟩⟨8E⟩');
});

test('model: a text longer than the context keeps its last 127 tokens and says how many it left', () => {
  const text = 'one two three four five six seven eight nine ten '.repeat(30);
  const run = model.run(text);
  assert.equal(run.tokens.length, 128);
  assert.ok(run.dropped > 0);
  assert.ok(text.endsWith(run.tokens.slice(1).map((t) => t.text).join('')), 'the tokens kept are the end of the text');
  const full = model.extend(5);
  assert.equal(full.ok, false);
  assert.equal(full.error.message, "tokens: the model's context of 128 tokens is full.");
});

test('model: generation adds a row of K and V, and the new query weighs every token before it', () => {
  const run = model.run('The cat');
  const n = run.tokens.length;
  const next = model.extend(run.predictions[0].id);
  assert.ok(next.ok);
  assert.equal(next.tokens.length, n + 1);
  const { k, v, weights } = model.head(1, 2);
  assert.equal(k.length, n + 1);
  assert.equal(v.length, n + 1);
  const row = weights[n];
  assert.ok(Math.abs(row.reduce((a, b) => a + b) - 1) < 1e-5);
  // The earlier rows did not change: row n − 1 still ends at its own token.
  assert.equal(weights[n - 1][n], 0);
});

test('model: bad bytes and a disposed model get words, not a crash', () => {
  const bad = mod.open(new TextEncoder().encode('not a model at all'));
  assert.equal(bad.ok, false);
  assert.match(bad.error.message, /^model: byte 0: this is not a safetensors file/);
  const cut = mod.open(readFileSync(modelFile).subarray(0, 100000));
  assert.equal(cut.ok, false);
  assert.match(cut.error.message, /^model: byte \d+: /);
  const other = mod.open(readFileSync(modelFile)).model;
  other.dispose();
  assert.equal(other.run('x').ok, false);
  assert.equal(model.head(9, 0).ok, false);
});
