// A checkpoint as people bring one (attention-model.js's open, plan and reserve): the model file
// with its tokenizer and config.json beside it, as Hugging Face writes them (scripts/model/
// hf-files.mjs), random weights of GPT-2's layout (scripts/model/safetensors.mjs) over the page's
// own vocabulary, so that the tokens can be checked against the shipped model's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadModelModule, modelFile } from './engine-helpers.mjs';
import { gpt2Header, randomGpt2, readSafetensorsHeader, writeSafetensors } from '../../scripts/model/safetensors.mjs';
import { configJson, tokenizerJson } from '../../scripts/model/hf-files.mjs';

let mod, shipped, vocab, merges;
const SIZE = { vocab: 4165, context: 32, width: 32, layers: 2, heads: 4 };
const SENTENCE = 'The cat sat on the mat. 床前明月光';

before(async () => {
  mod = await loadModelModule();
  shipped = readFileSync(modelFile);
  ({ 'vocab.json': vocab, 'merges.txt': merges } = readSafetensorsHeader(shipped).metadata);
});

const opened = (bytes, files) => {
  const o = mod.open(bytes, files);
  assert.ok(o.ok, o.error?.message);
  return o.model;
};
const refusal = (bytes, files) => {
  const o = mod.open(bytes, files);
  assert.equal(o.ok, false, 'opened what it should refuse');
  return o.error.message;
};

test('own model: tokenizer.json (merges in both forms), or vocab.json and merges.txt, read text as the shipped model does', () => {
  const ids = (m) => m.run(SENTENCE).tokens.map((t) => t.id);
  const reference = opened(shipped);
  const want = ids(reference);
  reference.dispose();
  assert.ok(want.length > 10);
  const file = randomGpt2({ ...SIZE, prefix: 'transformer.', metadata: false });
  const config = configJson(SIZE);
  for (const files of [
    { tokenizer: tokenizerJson(vocab, merges), config },
    { tokenizer: tokenizerJson(vocab, merges, { pairs: true }), config },
    { vocab, merges, config },
  ]) {
    const m = opened(file, files);
    assert.deepEqual(m.config, { ...SIZE, tied: true });
    assert.deepEqual(ids(m), want);
    // Its own heads, from its own weights: 2 layers of 4 scored.
    const survey = m.survey({ sequences: 2 });
    assert.ok(survey.ok);
    assert.equal(survey.heads.flat().length, 8);
    m.dispose();
  }
  // Without config.json the width of 32 does not divide into heads of 64: say so.
  assert.equal(refusal(file, { vocab, merges }), 'model: its width, 32, does not divide into heads of 64 heads: give the head count.');
});

test('own model: a plan from the header alone gives the sizes and the memory, and refuses what will not fit', () => {
  const file = randomGpt2({ ...SIZE, metadata: false });
  const { dataStart } = readSafetensorsHeader(file);
  const files = { vocab, merges, config: configJson(SIZE) };
  const plan = mod.plan(file.subarray(0, dataStart), file.length, files);
  assert.ok(plan.ok, plan.error?.message);
  assert.deepEqual(plan.config, { ...SIZE, tied: true });
  assert.equal(plan.weightBytes, file.length - dataStart); // F32 already: the weights are the data
  assert.equal(plan.needBytes, file.length + plan.weightBytes + (64 << 20));
  assert.ok(plan.freeBytes > plan.needBytes);
  // GPT-2 large's shape, its header alone (3.1 GB of data never written): it cannot fit in wasm32's
  // 4 GiB beside its own file, and the plan says so before a byte of it is read.
  const large = { vocab: 4165, context: 1024, width: 1280, layers: 36, heads: 20 };
  const header = gpt2Header(large);
  const big = mod.plan(header.bytes, header.size, { vocab, merges, config: configJson(large) });
  assert.ok(big.ok, big.error?.message);
  assert.ok(big.needBytes > big.freeBytes, `${big.needBytes} should be more than ${big.freeBytes}`);
  // A file cut short, by its size.
  assert.match(mod.plan(file.subarray(0, dataStart), file.length - 1, files).error.message, /lie outside the \d+ bytes of data/);
});

test('own model: a file read in pieces into a reserved buffer opens as the whole file does', () => {
  const file = randomGpt2({ ...SIZE, seed: 7, metadata: false });
  const files = { tokenizer: tokenizerJson(vocab, merges), config: configJson(SIZE) };
  const whole = opened(file, files);
  const want = whole.run(SENTENCE);
  whole.dispose();
  const room = mod.reserve(file.length);
  assert.ok(room.ok);
  for (let at = 0; at < file.length; at += 65536) assert.ok(room.write(file.subarray(at, at + 65536), at).ok);
  const o = room.open(files);
  assert.ok(o.ok, o.error?.message);
  assert.deepEqual(o.model.run(SENTENCE), want);
  o.model.dispose();
  // The room went into that model: a second open of it is refused, not a model of stale bytes.
  assert.match(room.open(files).error.message, /Another call has used the buffer/);
  const other = mod.reserve(10);
  assert.match(other.write(new Uint8Array(11), 0).error.message, /11 bytes at 0 go past the file's 10/);
});

test('own model: bfloat16 weights are widened, and give what the same values in float32 give', () => {
  const files = { vocab, merges, config: configJson(SIZE) };
  const half = opened(randomGpt2({ ...SIZE, seed: 3, bf16: true, metadata: false }), files);
  const full = opened(randomGpt2({ ...SIZE, seed: 3, bf16Values: true, metadata: false }), files);
  assert.deepEqual(half.run(SENTENCE), full.run(SENTENCE));
  half.dispose();
  full.dispose();
});

test('own model: files that do not belong are refused by name, and the module opens the next one', () => {
  const file = randomGpt2({ ...SIZE, metadata: false });
  const config = configJson(SIZE);
  assert.match(refusal(new TextEncoder().encode('{"not": "a model"}'), { vocab, merges }), /^model: byte 0: this is not a safetensors file, or it is damaged: its first 8 bytes should give the length of its header, but they read as \d+ bytes, more than any model file's header \(at most 100\.0 MB\)\.$/);
  assert.match(refusal(file.subarray(0, file.length - 100), { vocab, merges, config }), /^model: byte \d+: tensor "[^"]+": data_offsets .* lie outside/);
  // A tokenizer of another size: GPT-2's is 50,257 tokens, this model's 4,165.
  const small = randomGpt2({ ...SIZE, vocab: 300, metadata: false });
  assert.equal(refusal(small, { vocab, merges, config: configJson({ ...SIZE, vocab: 300 }) }),
    'model: its tokenizer has 4165 tokens, but its embedding has 300 rows: they do not belong together.');
  assert.equal(refusal(file, { vocab, merges, config: configJson({ ...SIZE, layers: 12 }) }),
    'config.json says n_layer 12, but the model file has 2 blocks: they do not belong together.');
  // A Llama-family file without its config.json: only the config says its heads and positions.
  const llama = writeSafetensors([['model.embed_tokens.weight', [8, 4], new Float32Array(32)],
    ['model.layers.0.self_attn.q_proj.weight', [4, 4], new Float32Array(16)], ['model.norm.weight', [4], new Float32Array(4)]]);
  assert.equal(refusal(llama, { vocab, merges }),
    'model: it is a Llama-family model (its tensors are named model.layers.N.self_attn.q_proj …), whose heads, ' +
    'context and rotary positions only its config.json says: give its config.json with it.');
  // Another family altogether names what a GPT-2 model needs, and what it looks like.
  const neox = writeSafetensors([['gpt_neox.embed_in.weight', [8, 4], new Float32Array(32)]]);
  assert.equal(refusal(neox, { vocab, merges }),
    'model: this is not a GPT-2 model: it has no token embedding "wte.weight", no position embedding "wpe.weight", ' +
    'no blocks "h.0.…", no final LayerNorm "ln_f", and it looks like a GPT-NeoX-family model (Pythia …) ' +
    '(its tensors begin gpt_neox.embed_in.weight).');
  assert.match(refusal(file, { tokenizer: '{"model": {"type": "WordPiece"}}', config }), /its model is "WordPiece", not a byte-pair encoding/);
  assert.match(refusal(file, { vocab, config }), /needs both vocab\.json and merges\.txt; merges\.txt is missing/);
  assert.match(refusal(file, { tokenizer: 42 }), /tokenizer is the text of tokenizer\.json/);
  // After all that, a good one opens.
  opened(file, { vocab, merges, config }).dispose();
  assert.equal(mod.memoryStats().models, 0);
});

