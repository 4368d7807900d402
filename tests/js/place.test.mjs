// Where the explanation panel goes (web/src/views/place.ts): beside the cell, never over its row,
// inside the viewport. Boxes in CSS pixels, as getBoundingClientRect gives them.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let P;
before(async () => {
  const out = await build({ stdin: { contents: "export * from './views/place';", resolveDir: join(root, 'web/src'), loader: 'ts' },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent' });
  P = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

const viewport = { width: 1280, height: 800 };
const box = (left, top, width, height) => ({ left, top, right: left + width, bottom: top + height });
const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('place: below the row when it fits, lined up with the cell', () => {
  const cell = box(600, 100, 50, 28), row = box(360, 100, 700, 28);
  const p = P.placeBeside(cell, row, { width: 440, height: 300 }, viewport);
  // 128 + 8 = 136: the row ends at 128 and a gap of 8 follows.
  assert.deepEqual(p, { left: 600, top: 136, maxHeight: 800 - 128 - 16, side: 'below' });
});

test('place: above the row when below is too short, and never over it', () => {
  const cell = box(600, 493, 80, 25), row = box(360, 493, 450, 25);
  const p = P.placeBeside(cell, row, { width: 440, height: 317 }, viewport);
  assert.equal(p.side, 'above');
  assert.equal(p.top, 493 - 8 - 317); // 168: the panel ends 8 px above the row
  assert.ok(!overlaps(box(p.left, p.top, 440, 317), row));
});

test('place: kept inside the viewport at the right edge and on a narrow screen', () => {
  const right = P.placeBeside(box(1200, 50, 60, 28), box(360, 50, 900, 28), { width: 440, height: 200 }, viewport);
  assert.equal(right.left, 1280 - 440 - 8);
  const narrow = P.placeBeside(box(10, 50, 60, 28), box(0, 50, 375, 28), { width: 359, height: 200 }, { width: 375, height: 800 });
  assert.equal(narrow.left, 8);
});

test('place: a panel taller than either side takes the larger one, cut to it', () => {
  const row = box(0, 300, 1000, 30); // 284 above, 454 below
  const p = P.placeBeside(box(100, 300, 50, 30), row, { width: 440, height: 600 }, viewport);
  assert.deepEqual([p.side, p.top, p.maxHeight], ['below', 338, 800 - 330 - 16]);
});
