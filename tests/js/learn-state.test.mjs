// The Learn view's state (web/src/learn/learn-state.ts) under node: the trainer's updates in; the
// curves' points, the table's rows, the step the target was reached at, the heads the timeline
// shows and the status line out. Each expectation is counted by hand from the updates below.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let L;
before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/learn/learn-state.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  L = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

const heads = (x) => [{ layer: 0, head: 0, n: 1, data: new Float32Array([x]) }];
const snap = (steps, accuracy, score = 0) => ({ steps, accuracy, headScores: [[score]], weights: heads(steps) });
/** An update at `steps` after `losses.length` steps, with its snapshots. */
const update = (steps, losses, accuracy, snapshots = [], stepsPerSecond = 0) => ({
  type: 'update', run: 1, steps, losses, loss: losses.length ? losses.at(-1) : NaN, accuracy, heldOutLoss: 1,
  headScores: [[0]], stepsPerSecond, weights: heads(100 + steps), snapshots, diverged: null, running: true, asked: 0,
  stopped: null,
});

test('learn state: each step’s loss is a point at its step, accuracy a point per snapshot and update, a table row per update that trained', () => {
  const s = new L.LearnState();
  assert.deepEqual(s.take(update(0, [], 0.1, [snap(0, 0.1)]), 0.99, 0), { row: null, reachedNow: false });
  const { row } = s.take(update(3, [2.0, 1.5, 1.2], 0.4), 0.99, 0);
  assert.deepEqual(row, [3, 1.2, 0.4]);
  assert.deepEqual(s.progress.lossSteps, [1, 2, 3]);
  assert.deepEqual(s.progress.losses, [2.0, 1.5, 1.2]);
  assert.deepEqual(s.progress.accSteps, [0, 3], 'step 0 once, though its snapshot and its update both say it');
  assert.deepEqual(s.progress.accuracies, [0.1, 0.4]);
  assert.equal(s.progress.firstLoss, 2.0);
  assert.equal(s.steps, 3);
});

test('learn state: the target is reached at the first snapshot past the loaded steps that meets it, and kept on the timeline', () => {
  const s = new L.LearnState();
  // A loaded model had 10 steps: its own snapshot at 10 (accuracy 1) is not this run's.
  let r = s.take(update(10, [], 1, [snap(10, 1)]), 0.9, 10);
  assert.equal(r.reachedNow, false);
  assert.equal(s.reached, null);
  r = s.take(update(17, [1, 1, 1, 1, 1, 1, 1], 0.95, [snap(15, 0.91)]), 0.9, 10);
  assert.equal(r.reachedNow, true);
  assert.equal(s.reached, 15, 'the snapshot at 15, not the update at 17');
  r = s.take(update(20, [1, 1, 1], 0.99, [snap(20, 0.99)]), 0.9, 10);
  assert.equal(r.reachedNow, false, 'reached once');
  assert.equal(s.reached, 15);
  assert.ok(s.timeline.snapshots.some((x) => x.steps === 15));
});

test('learn state: the heads shown are the model’s now, or the snapshot nearest the timeline’s cursor; the formed steps mark the curves', () => {
  const s = new L.LearnState();
  assert.equal(s.shown(null), null, 'nothing before the first update');
  assert.equal(s.status, null);
  s.take(update(0, [], 0, [snap(0, 0, 0.1)]), 0.99, 0);
  s.take(update(5, [1, 1, 1, 1, 1], 0.2, [snap(5, 0.2, 0.6)], 250.4), 0.99, 0);
  s.take(update(10, [1, 1, 1, 1, 1], 0.3, [snap(10, 0.3, 0.7)]), 0.99, 0);
  assert.deepEqual(s.shown(null).step, 10);
  assert.equal(s.shown(null).weights[0].data[0], 110, 'the update’s own heads');
  assert.equal(s.shown(6).step, 5, 'the snapshot nearest step 6');
  assert.equal(s.shown(6).weights[0].data[0], 5);
  assert.deepEqual(s.formed, [5], 'the head formed at the first snapshot with score ≥ 0.5');
  assert.deepEqual(s.status, { steps: 10, speed: 0, accuracy: 0.3 });
  s.clear();
  assert.equal(s.shown(null), null);
  assert.deepEqual([s.steps, s.reached, s.progress.losses.length, s.timeline.snapshots.length], [0, null, 0, 0]);
});

test('learn state: a made model names the probe in its tokens, "?" for an id it lacks', () => {
  const s = new L.LearnState();
  s.created({ type: 'created', run: 1, description: '', tokens: ['a', 'b', 'c'], parameters: 10, seqLen: 8, loaded: false, loadError: null }, [2, 0, 7]);
  assert.deepEqual(s.tokens, ['c', 'a', '?']);
  assert.deepEqual(s.made, { tokens: ['a', 'b', 'c'], seqLen: 8 });
});
