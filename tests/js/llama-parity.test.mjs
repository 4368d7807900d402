// The core's Llama-family forward (cpp/core/lm/llama.hpp read into decoder.hpp, run by
// build/native/tools/gpt2_run with the model's config.json) against an independent PyTorch forward
// written from Hugging Face's LlamaForCausalLM, Qwen2ForCausalLM and Qwen3ForCausalLM
// (tests/py/llama_reference.py), on checkpoints of random weights in their layout: every head's
// attention weights and every logit within 1e-4. Each shape tries one of what the family changed
// since GPT-2: rotary positions (and Llama 3's stretching of them), key/value heads shared by
// groups of query heads (and one shared by all), Qwen2's q/k/v biases, Qwen3's q and k norms with
// a head size that is not width / heads, bfloat16 weights; and the KV cache, which holds only the
// key/value heads and gives, token by token, what one pass gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';
import { maxDiff, python, run, tool } from './parity-helpers.mjs';
import { randomLlama } from '../../scripts/model/safetensors.mjs';

const reference = join(root, 'tests/py/llama_reference.py');

const LLAMA3_SCALING = { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 32 };
const SHAPES = [
  { name: 'Llama, 4 query heads sharing 2 key/value heads, tied', vocab: 50, context: 64, width: 32, layers: 2, heads: 4, kvHeads: 2, seed: 1 },
  { name: 'multi-query: 4 query heads reading one key/value head, untied, without the model. prefix', vocab: 40, context: 32, width: 32, layers: 2, heads: 4, kvHeads: 1, tied: false, prefix: '', seed: 2 },
  { name: 'Qwen2: q/k/v biases, θ 1,000,000, 6 query heads in groups of 3', modelType: 'qwen2', vocab: 60, context: 64, width: 48, layers: 3, heads: 6, kvHeads: 2, qkvBias: true, ropeTheta: 1e6, tied: false, seed: 3 },
  { name: "Qwen3: each head's q and k normalised, heads of 16 on a width of 32", modelType: 'qwen3', vocab: 50, context: 64, width: 32, layers: 2, heads: 4, kvHeads: 2, headDim: 16, qkNorm: true, ropeTheta: 1e6, seed: 4 },
  // Wavelengths 6.3, 19.9 and 62.8 positions against an original context of 32: kept, blended, stretched.
  { name: "Llama 3's rope_scaling (each of its three cases), heads of 16", vocab: 50, context: 128, width: 32, layers: 2, heads: 2, kvHeads: 1, ropeScaling: LLAMA3_SCALING, seed: 5 },
  { name: 'bfloat16 weights, as Hugging Face ships them', vocab: 50, context: 64, width: 32, layers: 2, heads: 4, kvHeads: 2, bf16: true, seed: 6 },
  // 135 M parameters, a 540 MB file: the shape of SmolLM2-135M, the smallest model readers have.
  { name: "SmolLM2-135M's shape (30 layers, 9 query heads sharing 3, width 576, 49,152 tokens)", vocab: 49152, context: 8192, width: 576, layers: 30, heads: 9, kvHeads: 3, mlp: 1536, ropeTheta: 100000, eps: 1e-5, seed: 7 },
];

for (const shape of SHAPES) {
  test(`llama: the core's forward equals PyTorch's, ${shape.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'llama-'));
    try {
      const { file: bytes, config } = randomLlama(shape);
      const file = join(dir, 'model.safetensors'), configFile = join(dir, 'config.json');
      writeFileSync(file, bytes);
      writeFileSync(configFile, JSON.stringify(config));
      // Positions far apart in the context, so that every frequency turns through many angles.
      const count = Math.min(12, shape.context);
      const tokens = Array.from({ length: count }, (_, i) => (i * 7 + shape.seed) % shape.vocab);
      const core = run(tool, [file, '--config', configFile, '--tokens', tokens.join(',')]);
      const d = shape.headDim || shape.width / shape.heads, kvHeads = shape.kvHeads ?? shape.heads;
      assert.deepEqual(core.config, {
        vocab: shape.vocab, context: shape.context, width: shape.width, layers: shape.layers, heads: shape.heads,
        tied: shape.tied ?? true, kv_heads: kvHeads, head_dim: d, mlp: shape.mlp ?? 2 * shape.width,
        // A cache row holds the key/value heads' keys only, not one per query head.
        cache_row: kvHeads * d,
      });
      const other = run(python, [reference, file, configFile, tokens.join(',')]);
      const logits = maxDiff(core.logits, other.logits), weights = maxDiff(core.weights, other.weights);
      // float32 sums in another order drift with depth and with the logits' size: 30 layers of
      // logits up to ~60 differ by ~2e-4, so the logits are held to 1e-5 of the largest.
      const largest = other.logits.flat().reduce((m, x) => Math.max(m, Math.abs(x)), 0);
      console.log(`${shape.name}: logits (up to ${largest.toFixed(1)}) within ${logits.toExponential(1)}, weights within ${weights.toExponential(1)}`);
      assert.ok(largest > 1, `the logits are all near 0 (${largest})`);
      assert.ok(logits < 1e-5 * largest, `logits differ by ${logits}, more than 1e-5 of ${largest}`);
      assert.ok(weights < 1e-4, `weights differ by ${weights}`);
      // Not near-uniform weights, which any Q and K would give.
      const spread = Math.max(...other.weights.flat(2).map((row) => Math.max(...row.slice(1))));
      assert.ok(spread > 0.3, `the largest weight past the first key is only ${spread}`);
      // The KV cache: 5 tokens, then the rest against their rotated keys, is one pass.
      const split = run(tool, [file, '--config', configFile, '--tokens', tokens.join(','), '--split', '5']);
      const cached = [maxDiff(split.logits, core.logits), maxDiff(split.weights, core.weights)];
      assert.ok(cached[0] < 1e-4 && cached[1] < 1e-5, `after the cache: logits within ${cached[0]}, weights within ${cached[1]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
