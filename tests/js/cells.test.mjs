// A typed cell (web/src/model/cells.ts) and a pasted matrix (the core's read_number, through
// engine.parseMatrix) are read by the same grammar: every text below gives the same number, or
// the same refusal, both ways.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { loadEngine, root } from './engine-helpers.mjs';

let cells, engine;
before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/model/cells.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  cells = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  engine = await loadEngine();
});

// [text, what a cell reads]: a number, or the kind of refusal.
const CASES = [
  ['1', 1], ['-2.5', -2.5], ['+3', 3], ['.5', 0.5], ['5.', 5], ['1e3', 1000], ['1E-2', 0.01], ['+.5e+1', 5],
  ['\u22122', -2], ['1e\u22125', 1e-5], ['\u2212.25e\u22121', -0.025], ['  7  ', 7], ['0', 0], ['-0', -0],
  ['1e308', 1e308], ['1.7976931348623157e308', 1.7976931348623157e308],
  ['1e400', 'too_large'], ['-1e400', 'too_large'],
  ['abc', 'not_a_number'], ['1..2', 'not_a_number'], ['e5', 'not_a_number'], ['1e', 'not_a_number'],
  ['.', 'not_a_number'], ['--1', 'not_a_number'], ['0x10', 'not_a_number'], ['NaN', 'not_a_number'],
  ['Infinity', 'not_a_number'], ['1_000', 'not_a_number'], ['١', 'not_a_number'], ['1e5.5', 'not_a_number'],
  ['', 'empty'], ['   ', 'empty'],
];

test('cells: a typed cell reads as the hand-written table says', () => {
  for (const [text, want] of CASES) {
    const got = cells.readCell(text);
    if (typeof want === 'number') assert.deepEqual(got, { kind: 'number', value: want }, JSON.stringify(text));
    else assert.equal(got.kind, want, JSON.stringify(text));
  }
});

test('cells: the core reads every one of them the same way in a pasted matrix', () => {
  for (const [text, want] of CASES) {
    if (want === 'empty') {
      assert.equal(engine.parseMatrix(text).error?.code, 'empty_input', JSON.stringify(text));
      continue;
    }
    const r = engine.parseMatrix(text);
    if (typeof want === 'number') {
      assert.ok(r.ok, `${JSON.stringify(text)}: ${r.error?.message}`);
      assert.equal(r.matrix.data[0], want, JSON.stringify(text));
    } else {
      assert.equal(r.ok, false, JSON.stringify(text));
      assert.equal(r.error.code, want === 'too_large' ? 'not_finite' : 'parse_error', JSON.stringify(text));
    }
  }
});

test('cells: a matrix is read once, its bad cells named by row and column', () => {
  const typed = [['1', 'x'], ['1e400', '\u22123']];
  const r = cells.readCells(typed);
  assert.deepEqual(r.values, [[1, 0], [0, -3]]);
  assert.deepEqual(r.bad.map((b) => [b.row, b.col, b.cell.kind]), [[0, 1, 'not_a_number'], [1, 0, 'too_large']]);
  assert.deepEqual([...r.invalid], ['0,1', '1,0']);
  assert.equal(cells.readCells(typed), r, 'the same array is not read twice');
});
