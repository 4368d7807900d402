// Whether the Learn view trains (web/src/learn/run-state.ts): a press shows at once, a reply the
// trainer sent before it read the press does not undo it, a link's run goes to its step and not
// to the target, and a run out of sight is held and goes on when the view is seen again.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let R;
before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/learn/run-state.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  R = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

function state(target = 0.99) {
  const sent = [];
  const run = new R.RunState((r) => sent.push(r), () => target);
  return { run, sent };
}

test("run state: a link's run goes to its step, and the model's first numbers, sent before, do not stop it", () => {
  const { run, sent } = state();
  run.start(true, 300);
  assert.deepEqual(sent, [{ type: 'train', until: 300, target: undefined }]);
  assert.equal(run.running, true);
  // The numbers of the model as it was made (running: false) read no press yet.
  assert.equal(run.follow(false, 0), false);
  assert.equal(run.running, true, 'Pause stays pressable');
  assert.equal(run.follow(true, 1), false);
  assert.equal(run.follow(false, 1, 'until'), true, 'stopped at the link’s step: the link keeps it');
  assert.equal(run.until, null);
});

test('run state: Train goes to the target until it is reached, and stops there; Train on goes on', () => {
  const { run, sent } = state();
  run.pressed('train');
  assert.deepEqual(sent.at(-1), { type: 'train', until: undefined, target: 0.99 });
  assert.equal(run.follow(false, 1, 'target'), true);
  assert.equal(run.stoppedAtTarget, true);
  run.pressed('train');
  assert.equal(run.stoppedAtTarget, false);
  // A reply from before the press says nothing of it.
  assert.equal(run.follow(false, 1, 'target'), false);
  assert.equal(run.running, true);
});

test('run state: out of sight a run is held, and goes on when seen; a run asked for out of sight waits', () => {
  const { run, sent } = state();
  run.pressed('train');
  run.sighted(false);
  assert.deepEqual(sent.at(-1), { type: 'pause' });
  assert.equal(run.running, false);
  run.sighted(true);
  assert.equal(sent.at(-1).type, 'train');
  assert.equal(run.running, true);
  const later = state();
  later.run.start(false, null); // autoplay, far down a page
  assert.deepEqual(later.sent, []);
  later.run.sighted(true);
  assert.equal(later.sent.length, 1);
  // The reader's own pause is not undone by coming back into sight.
  later.run.pressed('pause');
  later.run.sighted(false);
  later.run.sighted(true);
  assert.equal(later.sent.at(-1).type, 'pause');
});
