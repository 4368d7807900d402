// The Learn view's timeline (web/src/learn/timeline.ts): the worker takes a snapshot exactly at
// the steps the page keeps, the page never holds more than MAX_SNAPSHOTS + 1 whatever the run's
// length, and a head's pattern is marked as formed at the first snapshot whose score reaches 0.5.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let T;
before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/learn/timeline.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  T = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

const snap = (steps, scores = [[0]]) => ({ steps, accuracy: 0, headScores: scores, weights: [] });

test('timeline: every 5 steps for the first 1,000, then every 10 to 2,000, every 20 to 4,000', () => {
  assert.equal(T.spacing(0), 5);
  assert.equal(T.spacing(1000), 5);
  assert.equal(T.spacing(1001), 10);
  assert.equal(T.spacing(2000), 10);
  assert.equal(T.spacing(2001), 20);
  assert.equal(T.nextSnapshot(0), 5);
  assert.equal(T.nextSnapshot(998), 1000);
  assert.equal(T.nextSnapshot(1000), 1010, 'past 1,000 the spacing is 10: 1,005 is not taken');
});

test('timeline: the worker snapshots at exactly the steps the page keeps', () => {
  for (let s = 1; s <= 9000; s++) {
    assert.equal(T.nextSnapshot(s - 1) === s, T.kept(s, s), `step ${s}`);
  }
});

test('timeline: a run of 20,000 steps keeps at most 201 snapshots, evenly spaced, step 0 among them', () => {
  const t = new T.Timeline();
  let s = 0;
  t.add(snap(0));
  let most = 1;
  while (s < 20000) {
    s = T.nextSnapshot(s);
    t.add(snap(s));
    most = Math.max(most, t.snapshots.length);
  }
  assert.ok(most <= T.MAX_SNAPSHOTS + 1, `held ${most}`);
  const steps = t.snapshots.map((x) => x.steps);
  assert.equal(steps[0], 0);
  assert.equal(steps.at(-1), s);
  const gaps = new Set(steps.slice(1).map((x, k) => x - steps[k]));
  assert.deepEqual([...gaps], [T.spacing(s)]);
});

test("timeline: a head is marked formed at the first snapshot where its score reaches 0.5, once", () => {
  const t = new T.Timeline();
  t.add(snap(0, [[0.1, 0.2]]));
  t.add(snap(5, [[0.49, 0.3]]));
  t.add(snap(10, [[0.5, 0.3]]));
  t.add(snap(15, [[0.2, 0.9]]));
  t.add(snap(20, [[0.9, 0.9]]));
  assert.deepEqual(t.formed, [{ layer: 0, head: 0, steps: 10 }, { layer: 0, head: 1, steps: 15 }]);
  assert.equal(t.snapshots[t.nearest(12)].steps, 10);
  assert.equal(t.snapshots[t.nearest(13)].steps, 15);
  t.clear();
  assert.deepEqual([t.snapshots.length, t.formed.length], [0, 0]);
  assert.equal(t.nearest(3), -1);
});

test("timeline: a head's formation step stays a snapshot however long the run, so it can be shown exactly", () => {
  const t = new T.Timeline();
  t.add(snap(0, [[0.1]]));
  let s = 0;
  while (s < 20000) {
    s = T.nextSnapshot(s);
    t.add(snap(s, [[s >= 35 ? 0.8 : 0.1]]));
  }
  assert.deepEqual(t.formed, [{ layer: 0, head: 0, steps: 35 }]);
  assert.equal(t.snapshots[t.nearest(35)].steps, 35, 'its "See that step" shows step 35');
  assert.ok(t.snapshots.length <= T.MAX_SNAPSHOTS + 2, `held ${t.snapshots.length}: the spaced ones and the formation`);
  const steps = t.snapshots.map((x) => x.steps);
  assert.deepEqual(steps, [...steps].sort((a, b) => a - b), 'in order of steps');
});

test('timeline: a step the view marks (the target reached) is kept too', () => {
  const t = new T.Timeline();
  t.add(snap(0));
  let s = 0;
  while (s < 5000) {
    s = T.nextSnapshot(s);
    t.add(snap(s));
    if (s === 55) t.keep(55);
  }
  assert.equal(t.snapshots[t.nearest(55)].steps, 55);
  t.clear();
  t.add(snap(0));
  for (let k = 5; k <= 5000; k += 5) t.add(snap(k));
  assert.notEqual(t.snapshots[t.nearest(55)].steps, 55, 'unmarked, it is thinned out');
});
