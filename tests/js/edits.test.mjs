// The reader's edits (web/src/state/edits.ts) as pure functions on the state, without a page.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let E;
before(async () => {
  const out = await build({ stdin: { contents: "export * from './state/edits'; export { defaults, CAPS } from './state/state';",
    resolveDir: join(root, 'web/src'), loader: 'ts' }, bundle: true, format: 'esm', platform: 'neutral', write: false,
  logLevel: 'silent' });
  E = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

const vectors = () => ({ ...E.defaults(), mode: 'vectors', q: [['1', '0']], k: [['1', '2'], ['3', '4']],
  v: [['5'], ['6']], qLabels: ['a'], kLabels: ['x', 'y'], dkNames: ['f1', 'f2'], dvNames: ['out'] });

test('edits: a typed cell changes that cell only, and leaves the state it came from as it was', () => {
  const s = vectors();
  assert.deepEqual(E.editCell(s, 'k', 1, 0, '−7'), { k: [['1', '2'], ['−7', '4']] });
  assert.deepEqual(s.k, [['1', '2'], ['3', '4']]);
  assert.equal(E.editCell(s, 'k', 2, 0, '9'), null, 'a row the state no longer has');
  assert.equal(E.editCell(s, 'v', 0, 1, '9'), null, 'a column past the end');
});

test('edits: a word vector edit is kept by the word, newest last, and the oldest goes at the cap', () => {
  const s = { ...E.defaults(), edits: [['cat', ['1']], ['dog', ['2']]] };
  const words = { tokens: ['dog', 'sat'], cells: [['2', '0'], ['3', '4']] };
  assert.deepEqual(E.editWordCell(s, words, 0, 1, '5').edits, [['cat', ['1']], ['dog', ['2', '5']]]);
  assert.equal(E.editWordCell(s, words, 0, 2, '5'), null);
  const full = { ...E.defaults(), edits: Array.from({ length: E.CAPS.edits }, (_, k) => [`w${k}`, ['0']]) };
  const next = E.editWordCell(full, words, 1, 0, '8').edits;
  assert.equal(next.length, E.CAPS.edits);
  assert.deepEqual(next[0], ['w1', ['0']]);
  assert.deepEqual(next.at(-1), ['sat', ['8', '4']]);
});

test('edits: resizing adds zeros and names, removes from the end, and stops at one and at the caps', () => {
  const s = vectors();
  assert.deepEqual(E.resize(s, 'q', 1), { q: [['1', '0'], ['0', '0']], qLabels: ['a', 'q2'] });
  assert.deepEqual(E.resize(s, 'k', -1), { k: [['1', '2']], v: [['5']], kLabels: ['x', 'y'].slice(0, 1) });
  assert.deepEqual(E.resize(s, 'dk', 1), { q: [['1', '0', '0']], k: [['1', '2', '0'], ['3', '4', '0']], dkNames: ['f1', 'f2', '3'] });
  assert.deepEqual(E.resize(s, 'dv', -1), { v: [['5'], ['6']], dvNames: ['out'] }, 'd_v stays at one');
  const tall = { ...s, q: Array.from({ length: E.CAPS.rows }, () => ['0', '0']) };
  assert.equal(E.resize(tall, 'q', 1).q.length, E.CAPS.rows);
});

test('edits: a pasted matrix becomes the cells, keeping names and adding the missing ones', () => {
  const s = vectors();
  const m = { rows: 2, cols: 3, data: [1, 2, 3, 4.5, -6, 0] };
  assert.deepEqual(E.paste(s, 'q', m), { q: [['1', '2', '3'], ['4.5', '-6', '0']], qLabels: ['a', 'q2'], dkNames: ['f1', 'f2', '3'] });
  assert.deepEqual(E.paste(s, 'v', { rows: 1, cols: 2, data: [7, 8] }), { v: [['7', '8']], dvNames: ['out', '2'] });
  assert.equal(E.paste(s, 'k', { rows: E.CAPS.rows + 1, cols: 1, data: new Array(E.CAPS.rows + 1).fill(0) }), null);
});

test('edits: a click on the custom mask hides a pair, a second click shows it again', () => {
  const s = { ...E.defaults(), hidden: [[0, 1]] };
  assert.deepEqual(E.toggleHidden(s, 2, 0).hidden, [[0, 1], [2, 0]]);
  assert.deepEqual(E.toggleHidden(s, 0, 1).hidden, []);
  assert.deepEqual(E.editLabel(vectors(), 'k', 1, 'mountain'), { kLabels: ['x', 'mountain'] });
  assert.equal(E.editLabel(vectors(), 'q', 3, 'z'), null);
});

test('edits: Custom after Causal starts from the causal triangle; from no mask, from nothing', () => {
  const causal = { ...E.defaults(), mask: 'causal', hidden: [] };
  // 3 queries, 3 keys: the causal mask hides (0,1), (0,2), (1,2).
  assert.deepEqual(E.setMask(causal, 'custom', 3, 3), { mask: 'custom', hidden: [[0, 1], [0, 2], [1, 2]] });
  assert.deepEqual(E.setMask({ ...E.defaults(), mask: 'none', hidden: [] }, 'custom', 3, 3), { mask: 'custom' });
  assert.deepEqual(E.setMask(causal, 'none', 3, 3), { mask: 'none' });
});
