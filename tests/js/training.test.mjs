// The Learn view's training loop (web/src/learn/training.ts) under node, with the real trainer:
// whatever the target (a link's step, the task's accuracy, or none) it trains in chunks of about
// the time it is given, posts each one, reads the page's messages between them, and stops exactly
// where it was asked to.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { root } from './engine-helpers.mjs';

let L;
let trainers;
before(async () => {
  const out = await build({ stdin: { contents: "export * from './training'; export * from './chunks';",
    resolveDir: join(root, 'web/src/learn'), loader: 'ts' }, bundle: true, format: 'esm', platform: 'neutral',
  write: false, logLevel: 'silent' });
  L = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
  trainers = createRequire(import.meta.url)(join(root, 'dist/attention-trainer.js'))();
});

const REVERSE = { task: 'reverse', layers: 1, heads: 1, dModel: 16, mlp: 'none', learningRate: 0.01, seed: 1 };
const PROBE = [3, 1, 4, 1, 5, 10, 5, 1, 4, 1];

/** A loop that posts into a list; `wait(pred)` resolves with the first reply for which pred holds. */
function loop(chunkMs, config = REVERSE) {
  const replies = [];
  let waiting = [];
  const handle = L.training((reply) => {
    replies.push(reply);
    waiting = waiting.filter(([pred, done]) => !(pred(reply) && (done(reply), true)));
  }, trainers, chunkMs);
  const wait = (pred, ms = 60000) => new Promise((resolve, reject) => {
    const found = replies.find(pred);
    if (found) return resolve(found);
    const timer = setTimeout(() => reject(new Error('no such reply within ' + ms + ' ms; last: ' +
      JSON.stringify(replies.at(-1), (k, v) => (ArrayBuffer.isView(v) ? undefined : v)).slice(0, 300))), ms);
    waiting.push([pred, (r) => { clearTimeout(timer); resolve(r); }]);
  });
  handle({ type: 'create', run: 1, config, probe: PROBE });
  return { handle, replies, wait, updates: () => replies.filter((r) => r.type === 'update'), stop: () => handle({ type: 'dispose', run: 1 }) };
}

test("training: a link's step is trained in chunks, each posted, and the run stops exactly there", async () => {
  const t = loop(20);
  await t.wait((r) => r.type === 'update');
  t.handle({ type: 'train', run: 1, until: 600 });
  const last = await t.wait((r) => r.type === 'update' && !r.running && r.steps > 0);
  const updates = t.updates().filter((u) => u.steps > 0);
  t.stop();
  assert.equal(last.steps, 600, 'stopped at the step asked for');
  assert.equal(last.stopped, 'until');
  assert.ok(updates.length >= 4, `${updates.length} updates on the way to step 600`);
  const most = Math.max(...updates.map((u) => u.losses.length));
  assert.ok(most < 300, `a chunk of ${most} steps: chunks stay chunks`);
  assert.deepEqual(updates.map((u) => u.steps), [...updates.map((u) => u.steps)].sort((a, b) => a - b));
});

test('training: a pause between chunks stops a run before the step it was going to', async () => {
  const t = loop(20);
  await t.wait((r) => r.type === 'update');
  t.handle({ type: 'train', run: 1, until: 5000 });
  await t.wait((r) => r.type === 'update' && r.steps > 20);
  t.handle({ type: 'pause', run: 1 });
  const paused = await t.wait((r) => r.type === 'state' && !r.running);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const steps = t.updates().at(-1).steps;
  t.stop();
  assert.ok(paused.steps < 5000, `paused at ${paused.steps}`);
  assert.equal(steps, paused.steps, 'no step after the pause');
  assert.equal(paused.asked, 2, 'the page can tell it answers its second request');
});

test("training: with the task's target it stops at the first snapshot that reaches it", async () => {
  const t = loop(100);
  await t.wait((r) => r.type === 'update');
  t.handle({ type: 'train', run: 1, target: 0.99 });
  const last = await t.wait((r) => r.type === 'update' && !r.running && r.steps > 0, 30000);
  const snapshots = t.updates().flatMap((u) => u.snapshots);
  t.stop();
  assert.equal(last.stopped, 'target');
  assert.ok(last.accuracy >= 0.99, `accuracy ${last.accuracy}`);
  const first = snapshots.find((s) => s.accuracy >= 0.99);
  assert.equal(last.steps, first.steps, 'stopped at that snapshot, not a chunk later');
  console.log(`reverse: 99 % at step ${last.steps}, training stopped there`);
});

test('training: a chunk holds the steps that fit its time with the evaluation that ends each run', () => {
  // 2 ms a step and 12 ms a run's evaluation and snapshot: 20 ms holds 4 steps.
  assert.equal(L.stepsThatFit(20, { step: 2, run: 12 }, 500), 4);
  // A run alone over the budget: one step, never none, for the first run of a chunk.
  assert.equal(L.stepsThatFit(20, { step: 9, run: 35 }, 500), 0);
  assert.equal(Math.max(1, L.stepsThatFit(20, { step: 9, run: 35 }, 500)), 1);
  // Costs not yet measured: as many as asked.
  assert.equal(L.stepsThatFit(20, { step: 0, run: 0 }, 37), 37);
  assert.equal(L.stepsThatFit(100, { step: 0.1, run: 1 }, 500), 500);
});
