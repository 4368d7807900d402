// The undo history (web/src/state/history.ts) is pure: its steps, how edits coalesce by kind and
// time, and its bounds are checked here under node; the keys and buttons that drive it on the
// page are in tests/e2e/page-persist.test.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let H;
before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/state/history.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  H = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

test('history: steps, coalescing by kind and time, redo cleared by an edit, the bounds', () => {
  const h = new H.History('s0', 3, 600, 1000);
  h.record('s1', 'text', 0);
  h.record('s2', 'text', 500); // same field within 600 ms: the same step
  h.record('s3', 'text', 1200); // 700 ms later: a new step
  h.record('s4', '', 1300);
  h.record('s5', '', 1301); // clicks never merge
  assert.equal(h.length, 4, 'three steps back kept, the oldest dropped');
  assert.equal(h.undo(), 's4');
  assert.equal(h.undo(), 's3');
  assert.equal(h.undo(), 's2');
  assert.equal(h.undo(), null);
  assert.equal(h.redo(), 's3');
  h.record('t', 'text', 1400); // a new edit: s4, s5 can no longer be redone, and it does not merge into s3
  assert.equal(h.canRedo, false);
  assert.equal(h.undo(), 's3');
  h.record('s3', 'x', 1500); // no change: no step
  assert.equal(h.canRedo, true);
  const typed = new H.History('a');
  typed.record('ab', 'cell:q:0:0', 0);
  typed.record('a', 'cell:q:0:0', 100); // typed and deleted back: nothing to undo
  assert.equal(typed.canUndo, false);
  const big = new H.History('x'.repeat(400), 200, 600, 1000);
  for (let k = 0; k < 5; k++) big.record(String(k).repeat(400), '', k * 1000);
  assert.equal(big.length, 2, 'a character budget of 1000 keeps two states of 400');
});
