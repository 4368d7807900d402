// A reader's own sequence for the Learn view's trained model (web/src/learn/sequence.ts): words
// read into the trainer's token ids, in either language's names, or what is wrong and where.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let S;
before(async () => {
  // With the Learn view's words registered, as learn.js does before the view runs.
  const out = await build({ stdin: { contents: "import './i18n/section-learn'; export * from './learn/sequence';",
    resolveDir: join(root, 'web/src'), loader: 'ts' }, bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  S = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '|'];
const PAINTING = ['bird', 'kite', 'butterfly', 'mountain', 'tree', 'tower', 'flower', 'ribbon', 'rainbow', 'person',
  'dog', 'horse', 'sun', 'moon', 'lamp', 'flying', 'tall', 'colourful', 'walking', 'shining'];

test('sequence: digits and the bar become their ids, whatever the spaces', () => {
  assert.deepEqual(S.readSequence('  2 7 1   8 2 | ', DIGITS, 22), { ok: true, ids: [2, 7, 1, 8, 2, 10], dropped: 0 });
});

test('sequence: the painting in English or in Chinese, with the example\'s "·" left out and counted, so the page says so', () => {
  const want = { ok: true, ids: [3, 6, 9, 0, 15], dropped: 1 };
  assert.deepEqual(S.readSequence('mountain flower person bird · flying', PAINTING, 5), want);
  assert.deepEqual(S.readSequence('Mountain FLOWER person bird flying', PAINTING, 5), { ...want, dropped: 0 });
  assert.deepEqual(S.readSequence('山 花 人 鸟 · 会飞的', PAINTING, 5), want);
});

test('sequence: a token as each language writes it; digits, letters and the bar are the same in every one', () => {
  assert.equal(S.tokenWord('zh-CN', 'flying'), '会飞的');
  assert.equal(S.tokenWord('en', 'flying'), 'flying');
  assert.equal(S.tokenWord('zh-CN', '7'), '7');
  assert.equal(S.tokenWord('zh-CN', '|'), '|');
});

test('sequence: an unknown word is named with its place; too many or none are refused', () => {
  assert.deepEqual(S.readSequence('2 7 x', DIGITS, 22), { ok: false, key: 'learn.tryUnknown', params: { token: 'x', k: 3 } });
  assert.deepEqual(S.readSequence('1 2 3 4 5 6', PAINTING.slice(0, 2), 5),
    { ok: false, key: 'learn.tryTooLong', params: { n: 5, given: 6 } });
  assert.deepEqual(S.readSequence(' · ', DIGITS, 22), { ok: false, key: 'learn.tryEmpty', params: {} });
});

test('sequence: the positions a task asks about, as its generator marks targets', async () => {
  const { build } = await import('esbuild');
  const { join } = await import('node:path');
  const { root } = await import('./engine-helpers.mjs');
  const out = await build({ entryPoints: [join(root, 'web/src/learn/tasks.ts')], bundle: true, format: 'esm', platform: 'neutral',
    write: false, logLevel: 'silent' });
  const T = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  // reverse: 3 1 4 | 4 1 — the bar and after; nothing before it.
  assert.deepEqual(T.askedPositions('reverse', DIGITS, [3, 1, 4, 10, 4, 1]), [false, false, false, true, true, true]);
  assert.deepEqual(T.askedPositions('copy', DIGITS, [3, 1, 4]), [false, false, false], 'no bar: nothing asked yet');
  // The painting: only the query word, last.
  assert.deepEqual(T.askedPositions('find_match', PAINTING, [3, 6, 9, 0, 15]), [false, false, false, false, true]);
  // induction: A B C A B — the second A and B (seen before).
  assert.deepEqual(T.askedPositions('induction', DIGITS, [0, 1, 2, 0, 1]), [false, false, false, true, true]);
});
