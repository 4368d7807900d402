// The engine is one file that a blog post embeds: it must stay small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { artifact, trainerArtifact, modelArtifact, modelFile, root } from './engine-helpers.mjs';

const budget = 100 * 1024;  // gzipped bytes

test('dist/attention-engine.js is at most 100 KB gzipped', () => {
  const bytes = readFileSync(artifact);
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`attention-engine.js: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped ` +
    `(budget ${budget / 1024} KB)`);
  assert.ok(gzipped <= budget, `${gzipped} bytes gzipped, above the budget of ${budget}`);
});

// The trainer is its own module, loaded only where a model is trained; the engine must not grow
// by it (its code is left out of the engine by the linker: CMakeLists.txt).
const trainerBudget = 80 * 1024;

test('dist/attention-trainer.js is at most 80 KB gzipped', () => {
  const bytes = readFileSync(trainerArtifact);
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`attention-trainer.js: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped ` +
    `(budget ${trainerBudget / 1024} KB)`);
  assert.ok(gzipped <= trainerBudget, `${gzipped} bytes gzipped, above the budget of ${trainerBudget}`);
});

// The language model's runner and the model itself load only where a real model runs. 122 KB:
// 109.5 KB of runner, tokenizers and survey for GPT-2, 0.7 KB for results read by their fields'
// names (cpp/wasm/model_records.hpp) rather than by positions kept alike by hand on both sides,
// and 10.4 KB for the Llama family: its loader and config (3.2 KB), the forward's rotary
// positions, shared heads, RMSNorm and SwiGLU, and libm's sin and cos, which RoPE's angles of up
// to a context's length in radians need with their full range reduction (4.6 KB).
const modelBudget = 122 * 1024, modelFileBudget = 2 * 1024 * 1024;

test('dist/attention-model.js is at most 122 KB gzipped, and the model at most 2 MB', () => {
  const bytes = readFileSync(modelArtifact);
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  const model = gzipSync(readFileSync(modelFile), { level: 9 }).length;
  console.log(`attention-model.js: ${(gzipped / 1024).toFixed(1)} KB gzipped (budget ${modelBudget / 1024} KB); ` +
    `model.safetensors: ${(model / 1024).toFixed(1)} KB gzipped (budget ${modelFileBudget / 1024} KB)`);
  assert.ok(gzipped <= modelBudget, `${gzipped} bytes gzipped, above the budget of ${modelBudget}`);
  assert.ok(model <= modelFileBudget, `the model is ${model} bytes gzipped, above the budget of ${modelFileBudget}`);
});

test('the whole page (HTML, JS, CSS, engine and its language) is at most 150 KB gzipped, in every language', () => {
  const gz = (f) => gzipSync(readFileSync(join(root, 'dist', f)), { level: 9 }).length;
  let shared = 0;
  for (const f of ['index.html', 'app.js', 'app.css', 'attention-engine.js']) {
    console.log(`${f}: ${(gz(f) / 1024).toFixed(1)} KB gzipped`);
    shared += gz(f);
  }
  // A reader downloads the catalog of the language the page shows, and only that one.
  const catalogs = readdirSync(join(root, 'dist')).filter((f) => /^i18n-.+\.js$/.test(f));
  assert.deepEqual(catalogs.sort(), ['i18n-en.js', 'i18n-zh-CN.js']);
  for (const f of catalogs) {
    const total = shared + gz(f);
    console.log(`the page with ${f}: ${(total / 1024).toFixed(1)} KB gzipped (budget 150 KB)`);
    assert.ok(total <= 150 * 1024, `${f}: ${total} bytes gzipped, above the budget of ${150 * 1024}`);
  }
});

// The learned word vectors (docs/word-vectors.md) come only when a reader's words need them.
test('dist/vectors.bin is the shipped file and at most 1 MB gzipped', () => {
  const bytes = readFileSync(join(root, 'dist', 'vectors.bin'));
  assert.ok(bytes.equals(readFileSync(join(root, 'data/vectors/words.bin'))), 'dist/vectors.bin is not data/vectors/words.bin');
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`vectors.bin: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped (budget 1024 KB)`);
  assert.ok(gzipped <= 1024 * 1024, `${gzipped} bytes gzipped, above the budget of ${1024 * 1024}`);
});
