// The model module attacked through the files a reader brings: config.json values of every wrong
// kind, a position table of millions of rows, tokenizer.json files with merges of tokens they do
// not have, tokens of a megabyte and bytes that are not UTF-8, and twenty models in a row. Each
// hostile file is refused in words (or, where it is a model after all, runs within its window),
// and the module keeps working and gives its memory back. Every count below is what the note of
// the last run printed.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadModelModule, modelFile } from './engine-helpers.mjs';
import { randomGpt2, readSafetensorsHeader } from '../../scripts/model/safetensors.mjs';
import { configJson, tokenizerJson } from '../../scripts/model/hf-files.mjs';

let mod, vocab, merges, tokenizer;
const SIZE = { vocab: 4165, context: 16, width: 16, layers: 1, heads: 2 };
let small;

before(async () => {
  mod = await loadModelModule();
  ({ 'vocab.json': vocab, 'merges.txt': merges } = readSafetensorsHeader(readFileSync(modelFile)).metadata);
  tokenizer = tokenizerJson(vocab, merges);
  small = randomGpt2({ ...SIZE, metadata: false });
});

/** Opens and reads a sentence, then disposes: the message of the first refusal, or null. */
function attempt(bytes, files) {
  const o = mod.open(bytes, files);
  if (!o.ok) return o.error;
  const run = o.model.run('The cat sat on the mat.');
  o.model.dispose();
  return run.ok ? null : run.error;
}

test('attack: config.json values of every wrong kind are refused by field and byte', () => {
  const wrong = [0, -1, 2.5, 1e9 + 1, 1e300, '12', true, [], {}];
  const fields = ['n_head', 'n_layer', 'n_embd', 'n_positions', 'vocab_size', 'n_inner'];
  let refused = 0;
  for (const field of fields) {
    for (const value of wrong) {
      const config = JSON.stringify({ ...JSON.parse(configJson(SIZE)), [field]: value });
      const error = attempt(small, { tokenizer, config });
      assert.ok(error, `${field}: ${JSON.stringify(value)} was accepted`);
      assert.match(error.message, new RegExp(`^config.json: byte \\d+: its ${field} is not a positive whole number\\.$`));
      refused++;
    }
    // A size a model could have but this one has not: said as a mismatch, with both numbers.
    const config = JSON.stringify({ ...JSON.parse(configJson(SIZE)), [field]: 1e9 });
    const error = attempt(small, { tokenizer, config });
    assert.ok(error, `${field}: 1e9 was accepted`);
    assert.match(error.message, /^config\.json says \w+ 1000000000, but the model file has \d+ .*: they do not belong together\.$|^model: /);
    refused++;
  }
  assert.equal(refused, 60);
  assert.equal(attempt(small, { tokenizer, config: configJson(SIZE) }), null, 'the right config still opens');
});

test('attack: a position table of 3,000,000 rows opens, and a text of 10,000 tokens runs in its window', () => {
  const huge = randomGpt2({ vocab: 4165, context: 3000000, width: 4, layers: 1, heads: 2, metadata: false });
  const o = mod.open(huge, { tokenizer, config: configJson({ vocab: 4165, context: 3000000, width: 4, layers: 1, heads: 2 }) });
  assert.ok(o.ok, o.error?.message);
  // √(2^25 / 2 heads) = 4096: a reading holds 4,096 tokens, whatever the table says.
  assert.equal(o.model.window, 4096);
  const text = Array.from({ length: 10000 }, (_, i) => ['the', 'cat', 'sat', 'on', 'mat'][i % 5]).join(' ');
  const run = o.model.run(text);
  assert.ok(run.ok, run.error?.message);
  assert.equal(run.tokens.length, 4096);
  assert.ok(run.dropped >= 10000 - 4095, `dropped ${run.dropped}`);
  assert.ok(run.tokens.every((t) => Number.isFinite(t.bits)));
  const full = o.model.extend(run.predictions[0].id);
  assert.equal(full.ok, false);
  assert.match(full.error.message, /^tokens: this page shows at most 4096 tokens of this model/);
  o.model.dispose();
});

test("attack: tokenizer.json files with merges of tokens they lack, megabyte tokens and bytes that are not UTF-8", () => {
  const base = JSON.parse(tokenizer);
  // The last merge made the last token before <|endoftext|>: without both, a token of a megabyte
  // takes its id, one no merge makes.
  const last = base.model.merges.length - 1;
  const id = Object.keys(base.model.vocab).length - 2;
  const kept = Object.fromEntries(Object.entries(base.model.vocab).filter(([, i]) => i !== id));
  const variants = [
    ['a merge of tokens not in the vocabulary', { merges: ['zzqq xxyy', ...base.model.merges] },
      /^tokenizer: byte \d+: merge 1 makes "zzqqxxyy", which the vocabulary lacks\.$/],
    ['a merge of one token', { merges: ['Ġthe', ...base.model.merges] },
      /^tokenizer: byte \d+: merge 1 is not two tokens \("left right" or \[left, right\]\)\.$/],
    ['an id past the vocabulary', { vocab: { ...base.model.vocab, the: 99999999 } },
      /^tokenizer: byte \d+: the id of "the" is not a whole number below 4166, the vocabulary's size\.$/],
    ['one token more than the embedding', { vocab: { ...base.model.vocab, ['b'.repeat(1 << 20)]: 4165 } },
      /^model: its tokenizer has 4166 tokens, but its embedding has 4165 rows: they do not belong together\.$/],
    ['a token of a megabyte', { vocab: { ...kept, ['a'.repeat(1 << 20)]: id }, merges: base.model.merges.slice(0, last) }, null],
  ];
  for (const [what, model, refusal] of variants) {
    const json = JSON.stringify({ ...base, model: { ...base.model, ...model } });
    const error = attempt(small, { tokenizer: json, config: configJson(SIZE) });
    if (refusal) assert.match(error?.message ?? 'opened', refusal, what);
    else assert.equal(error, null, `${what}: ${error?.message}`);
  }
  // A config.json and a tokenizer.json that are not UTF-8: refused at the byte.
  const latin1 = new Uint8Array([...new TextEncoder().encode('{"n_head": 2, "x": "caf'), 0xe9, ...new TextEncoder().encode('"}')]);
  const config = attempt(small, { tokenizer, config: latin1 });
  assert.equal(config?.message, 'config: byte 23: this is not UTF-8 text, as JSON must be.');
  const bytes = new TextEncoder().encode(tokenizer);
  const cut = Uint8Array.from([...bytes.subarray(0, 40), 0xff, ...bytes.subarray(40)]);
  assert.equal(attempt(small, { tokenizer: cut })?.message, 'tokenizer: byte 40: this is not UTF-8 text, as JSON must be.');
});

test('attack: twenty models opened and disposed in a row give their memory back', () => {
  const files = { tokenizer, config: configJson(SIZE) };
  const one = () => {
    const o = mod.open(small, files);
    assert.ok(o.ok, o.error?.message);
    assert.ok(o.model.run('The cat sat on the mat.').ok);
    o.model.dispose();
  };
  one();
  const start = mod.memoryStats();
  for (let i = 0; i < 20; i++) one();
  const end = mod.memoryStats();
  assert.equal(end.models, start.models);
  assert.ok(end.allocatedBytes - start.allocatedBytes <= 64 * 1024, `grew by ${end.allocatedBytes - start.allocatedBytes} bytes`);
});
