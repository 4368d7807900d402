// Hostile links and stored records, read by the page's pure parsers (web/src/state/link.ts,
// learn-link.ts, storage.ts): every one is refused, naming what it refused, and falls back to the
// defaults, with nothing added to any object's prototype. The browser tests open a few of each
// (tests/e2e/share.test.mjs, learn-links.test.mjs, page-persist.test.mjs) to check what the page
// then shows: a notice, the default figure, no element or script of the payload's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { root } from './engine-helpers.mjs';

let S;
before(async () => {
  const contents = "export { parse } from './web/src/state/link.ts'; export { decodeRecord } from './web/src/state/storage.ts';" +
    " export { takeLearn, parseLearn } from './web/src/state/learn-link.ts';";
  const out = await build({ stdin: { contents, resolveDir: root, loader: 'ts' }, bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  S = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
// Pairs, not an object: an object literal's `__proto__:` would set its prototype, not add a case.
const HOSTILE_LINKS = [
  ['markup as a key', 'ver=1&' + encodeURIComponent(PAYLOAD) + '=1', PAYLOAD.slice(0, 40)],
  ['script as a value', 'ver=1&mode=' + encodeURIComponent('<script>alert(1)</script>'), 'mode'],
  ['markup in a matrix', 'ver=1&q=' + encodeURIComponent(JSON.stringify([[PAYLOAD]])), 'q'],
  ['100 KB', 'ver=1&text=' + 'a'.repeat(100 * 1024), '(too long)'],
  ['NaN', 'ver=1&temperature=NaN', 'temperature'],
  ['Infinity', 'ver=1&temperature=Infinity&scale=temperature', 'temperature'],
  ['an unknown key', 'ver=1&similarity=dot&exploit=1', 'exploit'],
  ['__proto__', 'ver=1&__proto__[polluted]=1', '__proto__[polluted]'],
  ['constructor', 'constructor=x&ver=1', 'constructor'],
  ['__proto__ in JSON', 'ver=1&focus=' + encodeURIComponent('{"__proto__":{"polluted":1},"view":"weights","row":0,"col":0}'), 'focus'],
  ['a newer version', 'ver=99&mode=vectors', 'ver'],
  ['an empty key', 'ver=1&=x', ''],
];

test('hostile links: each is refused by name and gives the default state, and no prototype gains a key', () => {
  const defaults = JSON.stringify(S.parse('ver=2').state);
  for (const [name, hash, refused] of HOSTILE_LINKS) {
    const r = S.parse(hash);
    assert.ok(r.rejected.length > 0, `${name}: refused`);
    assert.equal(r.rejected[0].slice(0, 40), refused, `${name}: names what it refused`);
    assert.equal(JSON.stringify(r.state), defaults, `${name}: the defaults`);
  }
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
});

test('hostile Learn links: each is refused whole, the playground keeping only its own keys', () => {
  const links = ['view=learn&task=<script>&seed=1', 'view=learn&task=reverse&seed=99999999999999999999&dmodel=100000&lr=1e308',
    'view=learn&task=reverse&dmodel=7', 'view=learn&task=reverse&task=copy', 'view=learn&task=constructor',
    'view=learn&task=__proto__', `view=learn&task=reverse&trained=5&weights=${'A'.repeat(48001)}`,
    'view=learn&task=reverse&trained=5&weights=<img>'];
  for (const link of links) {
    const { keys, rest } = S.takeLearn(link);
    assert.equal(rest, '', link);
    assert.equal(S.parseLearn(keys), null, link);
  }
  assert.deepEqual(S.parseLearn(S.takeLearn('view=learn&task=copy&seed=7').keys), { task: 'copy', seed: 7 }, 'a good one is read');
});

test('stored records: anything but a record this version wrote is broken, and a good one reads back', () => {
  const broken = [
    ['not JSON', '{"v":1,"state":'],
    ['a newer version', JSON.stringify({ v: 2, state: 'ver=1&similarity=cosine' })],
    ['the version as text', JSON.stringify({ v: '1', state: 'ver=1&similarity=cosine' })],
    ['a bare string', JSON.stringify('ver=1&similarity=cosine')],
    ['null', 'null'],
    ['an array', JSON.stringify([1, 'ver=1'])],
    ['markup as a value', JSON.stringify({ v: 1, state: 'ver=1&mode=' + encodeURIComponent(PAYLOAD) })],
    ['markup in a cell', JSON.stringify({ v: 1, state: 'ver=1&mode=vectors&q=' + encodeURIComponent(JSON.stringify([[PAYLOAD]])) })],
    ['markup as a key', JSON.stringify({ v: 1, state: 'ver=1&' + encodeURIComponent(PAYLOAD) + '=1' })],
    ['a state of another version', JSON.stringify({ v: 1, state: 'ver=3&similarity=cosine' })],
    ['__proto__ as the record', '{"__proto__":{"v":1,"state":"ver=1"}}'],
  ];
  for (const [name, text] of broken) assert.equal(S.decodeRecord(text), null, name);
  const good = S.decodeRecord(JSON.stringify({ v: 1, state: 'ver=1&similarity=cosine', saved: '2026-01-01T00:00:00Z' }));
  assert.equal(good.similarity, 'cosine');
  assert.equal(S.decodeRecord(JSON.stringify({ v: 1, state: 'ver=1&lexicon=file' })) !== null, true, 'a word-vector file falls back, as in a link');
  assert.equal({}.polluted, undefined);
});
