// The Learn view's link keys (web/src/state/learn-link.ts): taken out of a link only beside
// `view=`, read back within the view's ranges, refused whole when any is out of them, and
// written so that a link read back gives the same place.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let L;
before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/state/learn-link.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  L = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

test('learn link: the keys come out only beside view=, and the playground keeps the rest', () => {
  assert.deepEqual(L.takeLearn('mode=words&seed=3&heads=2'), { keys: null, rest: 'mode=words&seed=3&heads=2' });
  assert.deepEqual(L.takeLearn('mode=words&seed=3&view=learn&task=copy&seed=7'),
    { keys: 'seed=3&view=learn&task=copy&seed=7', rest: 'mode=words' });
});

test("learn link: a place reads back whole; the view's seed, written last, wins over the playground's", () => {
  assert.deepEqual(L.parseLearn('view=learn'), { task: 'reverse', seed: 1 });
  assert.deepEqual(L.parseLearn('seed=3&view=learn&task=copy&seed=7'), { task: 'copy', seed: 7 });
  const place = { task: 'induction', seed: 42, layers: 2, heads: 4, dModel: 32, mlp: 'gelu', lr: 0.003, autoplay: true,
    trained: 615, weights: 'QVBUTQEAAAA-_' };
  assert.deepEqual(L.parseLearn(L.serialiseLearn(place)), place);
  assert.equal(L.serialiseLearn(null), '');
});

test('learn link: a bad task, a huge number or a wrong view is refused whole', () => {
  for (const keys of ['view=learn&task=steal', 'view=learn&seed=99999999999999999999', 'view=learn&dmodel=100000',
    'view=learn&layers=5', 'view=learn&heads=0', 'view=learn&lr=1e308', 'view=learn&lr=0.5', 'view=learn&mlp=tanh',
    'view=other&task=copy', 'view=learn&seed=-1', 'view=learn&autoplay=yes', 'view=learn&trained=1000001',
    'view=learn&weights=QVBU', 'view=learn&trained=5&weights=QV%2BU', `view=learn&trained=5&weights=${'A'.repeat(48001)}`]) {
    assert.equal(L.parseLearn(keys), null, keys);
  }
});

test('learn link: a width the form cannot show, or a key said twice, is refused whole', () => {
  for (const keys of ['view=learn&dmodel=7', 'view=learn&dmodel=12', 'view=learn&dmodel=08', 'view=learn&task=reverse&task=copy',
    'view=learn&view=learn', 'view=learn&mlp=gelu&mlp=relu', 'view=learn&trained=5&trained=6', 'view=learn&task=constructor',
    'view=learn&task=__proto__', 'view=learn&mlp=toString']) {
    assert.equal(L.parseLearn(keys), null, keys);
  }
  for (const d of [8, 16, 32, 64]) assert.equal(L.parseLearn(`view=learn&dmodel=${d}`).dModel, d);
  // The playground's own seed and heads come before the view's, which win.
  assert.deepEqual(L.parseLearn('seed=3&heads=2&view=learn&task=copy&seed=7&heads=4'), { task: 'copy', seed: 7, heads: 4 });
});

test('learn link: the widths the form offers are the ones a link may name', () => {
  for (let d = 1; d <= 64; d++) assert.equal(L.parseLearn(`view=learn&dmodel=${d}`) !== null, L.D_MODELS.includes(d), `dmodel=${d}`);
});
