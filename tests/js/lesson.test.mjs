// The lesson format (web/src/lesson/schema.ts) and the built-in lesson: every step's state is a
// link the playground reads whole, the texts are in both languages, and a broken lesson is refused
// with a message that says where.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let L;
before(async () => {
  const contents = "export * from './lesson/schema'; export { intro } from './lesson/intro'; export { parse } from './state/link';";
  const out = await build({ stdin: { contents, resolveDir: join(root, 'web/src'), loader: 'ts' },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent' });
  L = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

test('lesson: "Attention from scratch" is valid, has at least 12 steps and 5 questions, and every state reads whole', () => {
  const r = L.validateLesson(L.intro);
  assert.deepEqual(r.ok ? [] : r.problems, []);
  assert.ok(L.intro.steps.length >= 12, `${L.intro.steps.length} steps`);
  assert.ok(L.intro.steps.filter((s) => s.predict).length >= 5);
  // Every kind of answer is asked for at least once: a token, a number, a slider, a cell.
  assert.deepEqual([...new Set(L.intro.steps.map((s) => s.predict?.kind).filter(Boolean))].sort(), ['cell', 'number', 'slider', 'token']);
  for (const [k, step] of L.intro.steps.entries()) {
    assert.deepEqual(L.parse(step.state).rejected, [], `step ${k + 1}: ${step.state}`);
    // Chinese text is Chinese: at least as many Han characters as Latin letters.
    const han = (step.text['zh-CN'].match(/\p{Script=Han}/gu) ?? []).length;
    const latin = (step.text['zh-CN'].match(/[A-Za-z]/g) ?? []).length;
    assert.ok(han > latin, `step ${k + 1}: ${han} Han, ${latin} Latin`);
  }
});

test('lesson: a broken lesson is refused, each problem with where it is', () => {
  const step = { state: 'ver=1&preset=painting', text: { en: 'a', 'zh-CN': '一' } };
  const bad = {
    id: 'Intro!',
    title: { en: 'x' },
    steps: [
      step,
      { ...step, state: 'preset=painting' },
      { ...step, focus: { step: 'nowhere', row: -1 } },
      { ...step, predict: { kind: 'token', row: 1.5, question: { en: 'q', 'zh-CN': '问' } } },
      { ...step, predict: { kind: 'number', step: 'weights', row: 0, question: { en: 'q', 'zh-CN': '问' } } },
      { ...step, predict: { kind: 'guess', row: 0, question: { en: 'q', 'zh-CN': '问' } } },
      { ...step, extra: 1 },
      { ...step, play: { frame: 0 } },
      { ...step, play: { speed: 2 } },
      { ...step, predict: { kind: 'slider', step: 'weights', row: 0, col: 0, min: 1, max: 0, question: { en: 'q', 'zh-CN': '问' } } },
      { ...step, predict: { kind: 'cell', step: 'nowhere', question: { en: 'q', 'zh-CN': '问' } } },
    ],
  };
  const r = L.validateLesson(bad);
  assert.equal(r.ok, false);
  assert.deepEqual(r.problems.map((p) => p.where), [
    'id', 'title.zh-CN', 'steps[1].state', 'steps[2].focus.step', 'steps[2].focus.row', 'steps[3].predict.row',
    'steps[4].predict.col', 'steps[5].predict.kind', 'steps[6].extra', 'steps[7].play.frame', 'steps[8].play.speed',
    'steps[9].predict.max', 'steps[10].predict.step',
  ]);
  assert.match(r.problems[2].message, /ver=1/);
  assert.deepEqual(L.validateLesson('[]').ok, false);
  assert.deepEqual(L.validateLesson({ id: 'a', title: step.text, steps: [] }).problems.map((p) => p.where), ['steps']);
});
