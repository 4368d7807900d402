// The lesson "What real heads do" (web/src/lesson/real-heads.ts) is what scripts/model/lesson.mjs
// writes from the shipped model, run by the core: every state and every number in its text. So
// it holds for the model the page ships, and a retrained model fails here until it is written
// again. It is a valid lesson whose every question is followed by its answer.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './engine-helpers.mjs';
import { buildLesson, lessonSource, openShipped, LESSON_FILE } from '../../scripts/model/lesson.mjs';

let lesson, schema, link;
async function load(file) {
  const out = await build({ entryPoints: [join(root, file)], bundle: true, format: 'esm', platform: 'neutral', write: false,
    logLevel: 'silent' });
  return import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
}
before(async () => {
  lesson = await buildLesson(await openShipped());
  schema = await load('web/src/lesson/schema.ts');
  link = await load('web/src/state/link.ts');
});

test('real heads lesson: the committed file is what the shipped model gives, number for number', async () => {
  assert.equal(readFileSync(LESSON_FILE, 'utf8'), await lessonSource(lesson), 'run node scripts/model/lesson.mjs');
});

test('real heads lesson: a valid lesson, each of its parts a question about a real head and then its answer', () => {
  const checked = schema.validateLesson(lesson);
  assert.ok(checked.ok, JSON.stringify(checked.problems));
  assert.ok(lesson.steps.length >= 4 && lesson.steps.length % 2 === 0, `${lesson.steps.length} steps`);
  assert.deepEqual(lesson.steps.map((s) => s.predict?.kind ?? null), lesson.steps.map((_, k) => (k % 2 ? null : 'token')));
  lesson.steps.forEach((s, k) => k % 2 && assert.equal(s.state, lesson.steps[k - 1].state, 'an answer shows the question\'s head'));
  for (const s of lesson.steps) {
    assert.match(s.state, /^ver=2&mode=vectors&/);
    const { state, rejected } = link.parse(s.state);
    assert.deepEqual(rejected, [], 'the playground reads every key of the state');
    assert.equal(state.q[0].length, 32, 'a head of 32 dimensions');
    assert.equal(state.kLabels[0], '<|endoftext|>');
  }
});
