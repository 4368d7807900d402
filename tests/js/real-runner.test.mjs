// The Real model view's runner (web/src/real/runner.ts) under node, with the real model module:
// which model ends up open when the reader's own files come while the page's model is still on
// its way, as when files dropped on the page open the view for them.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { loadModelModule, modelFile, root } from './engine-helpers.mjs';
import { randomGpt2, readSafetensorsHeader } from '../../scripts/model/safetensors.mjs';
import { configJson, tokenizerJson } from '../../scripts/model/hf-files.mjs';

const SIZE = { vocab: 4165, context: 32, width: 32, layers: 2, heads: 4 };
let R, mod, shipped, files;

before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/real/runner.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  R = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  mod = await loadModelModule();
  shipped = new Uint8Array(readFileSync(modelFile));
  const { 'vocab.json': vocab, 'merges.txt': merges } = readSafetensorsHeader(shipped).metadata;
  files = [
    new File([randomGpt2({ ...SIZE, metadata: false })], 'model.safetensors'),
    new File([tokenizerJson(vocab, merges)], 'tokenizer.json'),
    new File([configJson(SIZE)], 'config.json'),
  ];
});

/** A promise and the function that settles it: the module and the page's file, arriving when the test says. */
function later() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

/** A runner whose module and shipped file come only when `arrive` is called; `posts` collects its replies. */
function runner() {
  const posts = [];
  const module = later(), file = later();
  const handle = R.modelRunner((m) => posts.push(m), module.promise, () => file.promise);
  const until = async (check) => {
    for (let k = 0; k < 500 && !check(); k++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(check(), `never came; replies: ${posts.map((p) => p.type).join(', ')}`);
  };
  const opened = () => posts.filter((p) => p.type === 'opened').map((p) => p.own);
  return { handle, posts, until, opened, module: () => module.resolve(mod), file: () => file.resolve(shipped) };
}

test("runner: the reader's files, asked for before the module is ready, stay open when the page's model arrives after", async () => {
  const r = runner();
  r.handle({ type: 'own', files });
  r.module();
  await r.until(() => r.opened().includes('model.safetensors'));
  r.file();
  r.handle({ type: 'run', id: 1, text: 'The cat', generate: 0 });
  await r.until(() => r.posts.some((p) => p.type === 'read' && p.id === 1));
  assert.deepEqual(r.opened(), ['model.safetensors'], "the page's model, asked for first, was passed over");
  assert.equal(r.posts.find((p) => p.type === 'read').weights.length, SIZE.layers * SIZE.heads);
});

test("runner: the reader's files refused before anything opened: the page's model opens after all", async () => {
  const r = runner();
  const cut = [new File([(await files[0].arrayBuffer()).slice(0, 1000)], 'model.safetensors'), files[1], files[2]];
  r.handle({ type: 'own', files: cut });
  r.module();
  await r.until(() => r.posts.some((p) => p.type === 'own-failed'));
  assert.equal(r.posts.find((p) => p.type === 'own-failed').failure.reason, 'refused');
  r.file();
  await r.until(() => r.opened().length > 0);
  assert.deepEqual(r.opened(), [null], "the page's own model");
});

test("runner: with no reader's files, the page's model opens and reads", async () => {
  const r = runner();
  r.module();
  r.file();
  r.handle({ type: 'run', id: 3, text: 'The cat', generate: 1 });
  await r.until(() => r.posts.some((p) => p.type === 'read'));
  const read = r.posts.find((p) => p.type === 'read');
  assert.deepEqual(r.opened(), [null]);
  assert.equal(read.generated, 1);
  assert.equal(read.weights.length, 16);
});
