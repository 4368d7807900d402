// The core's GPT-2 forward (cpp/core/lm/gpt2.hpp, run by build/native/tools/gpt2_run) against two
// independent forwards of the same file, NumPy's in float64 (tests/py/gpt2_reference.py) and
// PyTorch's in float32 (tests/py/torch_reference.py), on checkpoints of random weights written
// here (scripts/model/safetensors.mjs): every head's attention weights and every logit within
// 1e-4, with and without the "transformer." prefix, tied and untied, float32 and 8-bit; and the KV
// cache: tokens run after a cache of earlier ones give what one pass over all of them gives. And
// the page's own model as it ships, on real sentences in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModelModule, modelFile, root } from './engine-helpers.mjs';
import { maxDiff, python, run, tool } from './parity-helpers.mjs';
import { randomGpt2 } from '../../scripts/model/safetensors.mjs';

const references = [['NumPy', join(root, 'tests/py/gpt2_reference.py')], ['PyTorch', join(root, 'tests/py/torch_reference.py')]];

const CONFIGS = [
  { name: 'two layers of four heads, tied', vocab: 50, context: 16, width: 32, layers: 2, heads: 4, seed: 1 },
  { name: 'one layer of three heads, untied, with the transformer. prefix', vocab: 64, context: 12, width: 48, layers: 1, heads: 3, tied: false, prefix: 'transformer.', seed: 2 },
  { name: 'three layers, heads of 64 from the width (no metadata)', vocab: 97, context: 24, width: 128, layers: 3, heads: 2, metadata: false, seed: 3 },
  { name: 'two layers, 8-bit matrices with a scale a row', vocab: 80, context: 16, width: 64, layers: 2, heads: 4, int8: true, seed: 4 },
  // 124 M parameters, a 498 MB file: what a reader's own GPT-2 checkpoint is, with the prefix a
  // fine-tuned GPT2LMHeadModel saves and no lm_head (tied), heads of 64 as GPT-2's, from the width.
  { name: "GPT-2 small's shape (12 layers of 12 heads, width 768, 50,257 tokens, context 1,024)", vocab: 50257, context: 1024, width: 768, layers: 12, heads: 12, prefix: 'transformer.', metadata: false, seed: 5 },
];

for (const config of CONFIGS) {
  test(`gpt2: the core's forward equals NumPy's and PyTorch's, ${config.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpt2-'));
    try {
      const file = join(dir, 'model.safetensors');
      writeFileSync(file, randomGpt2(config));
      const tokens = Array.from({ length: Math.min(10, config.context) }, (_, i) => (i * 7 + config.seed) % config.vocab);
      const core = run(tool, [file, '--tokens', tokens.join(',')]);
      assert.deepEqual(core.config, { vocab: config.vocab, context: config.context, width: config.width, layers: config.layers,
        heads: config.heads, tied: config.tied ?? true });
      for (const [who, reference] of references) {
        const other = run(python, [reference, file, tokens.join(',')]);
        const logits = maxDiff(core.logits, other.logits), weights = maxDiff(core.weights, other.weights);
        console.log(`${config.name}, ${who}: logits within ${logits.toExponential(1)}, weights within ${weights.toExponential(1)}`);
        assert.ok(logits < 1e-4, `${who}: logits differ by ${logits}`);
        assert.ok(weights < 1e-4, `${who}: weights differ by ${weights}`);
        // The weights are not near-uniform: a test of softmax(1/n) would pass whatever Q and K were.
        const spread = Math.max(...other.weights.flat(2).map((row) => Math.max(...row)));
        assert.ok(spread > 0.5, `the largest weight is only ${spread}`);
      }
      // The KV cache: 4 tokens, then the rest against their keys and values, is one pass.
      const split = run(tool, [file, '--tokens', tokens.join(','), '--split', '4']);
      // Only the order of float32 sums differs (a block of tokens at a time, or one): at GPT-2's
      // width that moves the logits by a few 1e-6 of their size.
      const cached = [maxDiff(split.logits, core.logits), maxDiff(split.weights, core.weights)];
      assert.ok(cached[0] < 1e-4 && cached[1] < 1e-5, `after the cache: logits within ${cached[0]}, weights within ${cached[1]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("gpt2: the shipped model's forward equals NumPy's and PyTorch's on an English and a Chinese sentence", async () => {
  // The page's own file as it ships (8-bit matrices, its tokenizer in the metadata), on the tokens
  // its tokenizer gives in the wasm module: the forward a reader of the Real model view sees.
  const mod = await loadModelModule();
  const opened = mod.open(readFileSync(modelFile));
  assert.ok(opened.ok, opened.error?.message);
  for (const sentence of ['The cat sat on the mat, and the dog sat by the door.', '床前明月光，疑是地上霜。']) {
    const tokens = opened.model.run(sentence).tokens.map((t) => t.id);
    const core = run(tool, [modelFile, '--tokens', tokens.join(',')]);
    for (const [who, reference] of references) {
      const other = run(python, [reference, modelFile, tokens.join(',')]);
      const logits = maxDiff(core.logits, other.logits), weights = maxDiff(core.weights, other.weights);
      console.log(`the shipped model on ${JSON.stringify(sentence.slice(0, 12))}…, ${who}: logits within ` +
        `${logits.toExponential(1)}, weights within ${weights.toExponential(1)}`);
      assert.ok(logits < 1e-4, `${who}: logits differ by ${logits}`);
      assert.ok(weights < 1e-4, `${who}: weights differ by ${weights}`);
    }
  }
  opened.model.dispose();
});

test('gpt2: a damaged or foreign file is refused with the byte or the tensor named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpt2-'));
  const refuse = (bytes, args = ['--tokens', '1,2']) => {
    const file = join(dir, 'bad.safetensors');
    writeFileSync(file, bytes);
    const r = spawnSync(tool, [file, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stdout);
    return r.stderr.trim();
  };
  try {
    const good = randomGpt2({ vocab: 20, context: 8, width: 16, layers: 1, heads: 2 });
    assert.match(refuse(good.subarray(0, good.length - 3)), /^model: byte \d+: the tensors end at data byte \d+, but the file goes on|^model: byte \d+: tensor "[^"]+": data_offsets \[\d+, \d+\] lie outside/);
    assert.match(refuse(good.subarray(0, 100)), /^model: byte 0: the header says it is \d+ bytes, but the file has only 92 after the length: it is cut short/);
    assert.match(refuse(new TextEncoder().encode('not a model at all')), /^model: byte 0: this is not a safetensors file, or it is damaged: its first 8 bytes/);
    const other = randomGpt2({ vocab: 20, context: 8, width: 16, layers: 1, heads: 2, prefix: 'model.' });
    assert.match(refuse(other), /^model: this is not a GPT-2 model: it has no token embedding "wte.weight", no position embedding "wpe.weight", no blocks "h\.0\.…", no final LayerNorm "ln_f" \(its tensors begin model\.wte\.weight/);
    assert.match(refuse(good, ['--tokens', '1,25']), /^tokens: token 2 is 25, outside the vocabulary of 20\.$/);
    assert.match(refuse(good, ['--tokens', '1,2,3,4,5,6,7,8,9']), /^tokens: 9 tokens in all, but the model sees at most 8 \(its context\)\.$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
