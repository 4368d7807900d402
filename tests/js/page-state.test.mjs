// The page's state table (web/src/state/) without a browser: serialise and parse are pure, so
// they are bundled for node here and checked directly.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let S; // web/src/state/state.ts and link.ts, in English
let presets; // web/src/state/presets.ts, in English

// The link codec and the presets take the language to label presets in; English here, as a page
// that shows English.
const ENTRY = `import './i18n/catalog-en'; import './i18n/catalog-zh-CN';
export * from './state/state';
export { parse } from './state/link';
import { serialise as write } from './state/link';
import { preset as named } from './state/presets';
import { translator } from './i18n';
export const serialise = (state) => write(state, translator('en'));
export const preset = (id) => named(id, translator('en'));`;

async function load() {
  const out = await build({ stdin: { contents: ENTRY, resolveDir: join(root, 'web/src'), loader: 'ts' }, bundle: true,
    format: 'esm', platform: 'neutral', write: false, logLevel: 'silent' });
  const code = out.outputFiles[0].text;
  return import('data:text/javascript;base64,' + Buffer.from(code).toString('base64'));
}

before(async () => {
  S = await load();
  presets = S;
});

test('state: the defaults serialise to the version alone', () => {
  assert.equal(S.serialise(S.defaults()), 'ver=2');
  assert.deepEqual(S.parse('ver=2'), { state: S.defaults(), rejected: [] });
  assert.equal(S.defaults().lexicon, 'learned', 'a sentence of the reader\'s own is read with the learned vectors');
});

test('state: a version-1 link keeps the built-in words it was written with, unless it names a list', () => {
  assert.deepEqual(S.parse('ver=1'), { state: { ...S.defaults(), lexicon: 'builtin' }, rejected: [] });
  assert.equal(S.parse('ver=1&text=a+dog').state.lexicon, 'builtin');
  assert.equal(S.parse('ver=1&lexicon=fruit').state.lexicon, 'fruit');
  assert.equal(S.parse('ver=1&lexicon=learned').state.lexicon, 'learned');
  // An example's words are its own in either version.
  assert.deepEqual(S.parse('ver=1&preset=causal').state, S.parse('ver=2&preset=causal').state);
  assert.equal(S.parse('ver=2&preset=causal').state.lexicon, 'builtin');
  // It is written back as version 2, with the list named.
  assert.equal(S.serialise(S.parse('ver=1&text=a+dog').state), 'ver=2&text=a+dog&lexicon=builtin');
});

test('state: every preset survives serialise then parse unchanged', () => {
  for (const id of S.PRESETS) {
    const state = presets.preset(id);
    const text = S.serialise(state);
    const back = S.parse(text);
    assert.deepEqual(back.rejected, [], id);
    assert.deepEqual(back.state, state, id);
  }
});

test('state: a link that names only a preset is that preset; keys after it change it', () => {
  for (const id of S.PRESETS) {
    const r = S.parse('ver=1&preset=' + id);
    assert.deepEqual(r.rejected, [], id);
    assert.deepEqual(r.state, presets.preset(id), id);
  }
  const fruit = S.parse('ver=1&preset=fruit&mask=causal').state;
  assert.deepEqual([fruit.text, fruit.lexicon, fruit.compare, fruit.mask], ['apple orange iPhone', 'fruit', 'similarity', 'causal']);
  // The painting's labels in the link's language, whatever the language at hand.
  const zh = S.parse('ver=1&preset=painting&lang=zh-CN').state;
  assert.equal(zh.lang, 'zh-CN');
  assert.deepEqual(zh.kLabels, ['人', '山', '花', '鸟', '绸带']);
  assert.deepEqual(S.parse('ver=1&preset=painting').state.kLabels, ['person', 'mountain', 'flower', 'bird', 'ribbon']);
});

test('state: a preset with a setting put back to its default round-trips', () => {
  // Fruit compares dot with cosine; turned off again, "off" must stay in the link.
  const s = { ...presets.preset('fruit'), compare: 'off', lang: 'zh-CN' };
  const text = S.serialise(s);
  assert.match(text, /compare=off/);
  assert.deepEqual(S.parse(text).state, s);
  const q = { ...presets.preset('causal'), mask: 'none', text: 'the cat sat on the mat' };
  assert.deepEqual(S.parse(S.serialise(q)).state, q);
  // The painting in Chinese, serialised while the page's language is English, reads back whole.
  const zh = S.parse('ver=1&preset=painting&lang=zh-CN&temperature=5').state;
  assert.deepEqual(S.parse(S.serialise(zh)).state, zh);
  assert.deepEqual(S.parse(S.serialise({ ...zh, lang: 'en' })).state, { ...zh, lang: 'en' }, 'labels kept as they are');
});

test('state: edited cells, labels, a focus and a custom mask round-trip', () => {
  const s = { ...S.defaults(), mode: 'vectors', q: [['1', 'x'], ['-', '2e3']], qLabels: ['a & b', '<i>'],
    mask: 'custom', hidden: [[0, 1], [1, 0]], focus: { view: 'weights', row: 1, col: 0, side: 'b' },
    edits: [['cat', ['1', '2', '3']]], temperature: 0.25, text: '我喜欢苹果 🍎' };
  assert.deepEqual(S.parse(S.serialise(s)).state, s);
});

test('state: a leading # is accepted, as in location.hash', () => {
  const s = { ...S.defaults(), similarity: 'cosine' };
  assert.deepEqual(S.parse('#' + S.serialise(s)).state, s);
});

test('state: anything unknown or invalid gives the defaults and names what was wrong', () => {
  const cases = {
    'ver=1&similarity=cos': ['similarity'],
    'ver=1&nope=1': ['nope'],
    'ver=3': ['ver'],
    'ver=1&__proto__=x': ['__proto__'],
    'ver=1&constructor=x': ['constructor'],
    'ver=1&temperature=NaN': ['temperature'],
    'ver=1&temperature=Infinity': ['temperature'],
    'ver=1&temperature=0': ['temperature'],
    'ver=1&heads=17': ['heads'],
    'ver=1&q=[["1"],["1","2"]]': ['q'],
    'ver=1&q={"__proto__":1}': ['q'],
    'ver=1&focus={"view":"weights","row":0,"col":0,"side":"a","x":1}': ['focus'],
    'ver=1&mode=words&mode=vectors': ['mode'],
  };
  for (const [text, rejected] of Object.entries(cases)) {
    const r = S.parse(text);
    assert.deepEqual(r.rejected, rejected, text);
    assert.deepEqual(r.state, S.defaults(), text);
  }
  assert.deepEqual(S.parse('ver=1&text=' + 'a'.repeat(200000)).rejected, ['(too long)']);
  assert.equal(Object.prototype.polluted, undefined);
});
