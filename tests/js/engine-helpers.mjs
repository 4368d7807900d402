// Shared by the engine's node tests: load dist/attention-engine.js the way a node user does
// (require), and compare numbers with the one tolerance the project uses across platforms.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const artifact = join(root, 'dist', 'attention-engine.js');
export const trainerArtifact = join(root, 'dist', 'attention-trainer.js');
export const modelArtifact = join(root, 'dist', 'attention-model.js');
export const modelFile = join(root, 'data', 'model', 'model.safetensors');

/** The engine, as `require('attention-engine.js')()` gives it. */
export async function loadEngine() {
  assert.ok(existsSync(artifact), `${artifact} is missing: run bash scripts/build.sh wasm`);
  const createAttentionEngine = createRequire(import.meta.url)(artifact);
  return createAttentionEngine();
}

/** The trainer module, as `require('attention-trainer.js')()` gives it. */
export async function loadTrainer() {
  assert.ok(existsSync(trainerArtifact), `${trainerArtifact} is missing: run bash scripts/build.sh wasm`);
  const createAttentionTrainer = createRequire(import.meta.url)(trainerArtifact);
  return createAttentionTrainer();
}

/** The language model module, as `require('attention-model.js')()` gives it. */
export async function loadModelModule() {
  assert.ok(existsSync(modelArtifact), `${modelArtifact} is missing: run bash scripts/build.sh wasm`);
  const createAttentionModel = createRequire(import.meta.url)(modelArtifact);
  return createAttentionModel();
}

// Native and wasm libm differ by up to ~3e-16 relative (docs/toolchain.md, "Catch2 2.13"): compare
// at 1e-12, with a tiny absolute margin for values that are zero up to rounding.
export const tolerance = 1e-12;
export const margin = 1e-14;

export function close(actual, expected, what = 'value') {
  if (Number.isNaN(expected) || !Number.isFinite(expected)) {
    assert.ok(Object.is(actual, expected), `${what}: ${actual} ≠ ${expected}`);
    return;
  }
  const bound = tolerance * Math.max(Math.abs(actual), Math.abs(expected)) + margin;
  assert.ok(Math.abs(actual - expected) <= bound, `${what}: ${actual} ≠ ${expected}`);
}

/** Cell (i, j) of a {rows, cols, data} matrix. */
export const at = (m, i, j) => m.data[i * m.cols + j];

/** A {rows, cols, data} matrix as rows of plain numbers. */
export const rowsOf = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));

/** Asserts an {ok: false} result with this code, a message, and (optionally) where. */
export function assertError(r, code, where = {}) {
  assert.equal(r.ok, false, `expected an error ${code}, got ${JSON.stringify(r).slice(0, 200)}`);
  assert.equal(r.error.code, code, r.error.message);
  assert.equal(typeof r.error.message, 'string');
  assert.ok(r.error.message.length > 10, `message too short: ${r.error.message}`);
  for (const [key, value] of Object.entries(where)) {
    if (value instanceof RegExp) assert.match(String(r.error[key]), value, `error.${key}`);
    else assert.equal(r.error[key], value, `error.${key}: ${r.error.message}`);
  }
  return r.error;
}
