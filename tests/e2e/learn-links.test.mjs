// What a Learn link does, in real Chromium, where nothing is timed (the runs and their tasks are in
// learn.test.mjs and learn-runs.test.mjs, which run on their own): a task and a seed give the same
// first losses; hostile links get the page's notice; a model in the link that cannot be read is
// said, and stays said; opening a Learn link leaves the playground the reader kept; the header's
// button opens the view, where at 375 px in Chinese axe finds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, shot, loadPreset, written } from './page-helpers.mjs';
import { axe as axeFindings } from './a11y-axe.mjs';

const env = serveAndLaunch();

const steps = (page) => page.locator('[data-learn-status]').evaluate((el) => Number(el.dataset.steps));
const ready = (page) =>
  page.waitForFunction(() => {
    const status = document.querySelector('[data-learn-status]');
    return status?.dataset.model === 'ready' && status.dataset.steps === '0';
  }, null, { timeout: 20000 });
const losses = (page) =>
  page.locator('[data-learn-table] td[data-loss]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.loss)));

/** axe's serious and critical findings in the Learn view, its table open. */
async function axe(page, what) {
  await page.locator('details.learn-numbers').evaluate((d) => { d.open = true; });
  await page.mouse.move(0, 0); // no button left in its hover colours
  const tags = ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'];
  return (await axeFindings(page, { only: '[data-learn]', tags })).map((v) => `${what}: ${v}`);
}

/** Presses Step `n` times, each time waiting for the trainer's update. */
async function stepTimes(page, n) {
  for (let k = 0; k < n; k++) {
    const before = await steps(page);
    await page.click('[data-learn-action="step"]');
    await page.waitForFunction((b) => Number(document.querySelector('[data-learn-status]').dataset.steps) > b, before);
  }
}

test('learn: a link with a task and a seed reproduces the first 20 losses; another seed does not', async () => {
  const context = await env.chromium.browser.newContext();
  const seedInLink = async (page) => new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('seed');
  const run = async () => {
    const { page, problems } = await open(context, `${env.server.url}#view=learn&task=copy&seed=7`);
    await ready(page);
    await stepTimes(page, 20);
    assert.equal(await seedInLink(page), '7');
    return { page, problems, shown: await losses(page) };
  };
  const a = await run();
  assert.equal(a.shown.length, 20);
  await a.page.close();
  const b = await run();
  assert.deepEqual(b.shown, a.shown, 'the same link, the same 20 losses, step by step');
  // Another seed, typed, then Step at once: the press waits for the new model, it is not lost.
  await b.page.fill('[data-learn-field="seed"]', '8');
  await b.page.click('[data-learn-action="step"]'); // leaving the field changes the seed
  await b.page.waitForFunction(() => document.querySelector('[data-learn-status]').dataset.steps === '1');
  assert.notEqual((await losses(b.page))[0], a.shown[0], 'another seed, another first loss');
  assert.equal(await seedInLink(b.page), '8');
  assert.deepEqual([...a.problems, ...b.problems], []);
  await context.close();
});

test('learn: a hostile learn link gives the page notice and nothing else', async () => {
  const context = await env.chromium.browser.newContext();
  // Two of the links tests/js/hostile-links.test.mjs refuses: what the page shows of them.
  for (const hash of ['view=learn&task=<script>&seed=1', 'view=learn&task=reverse&trained=5&weights=<img>']) {
    const { page, problems } = await open(context, `${env.server.url}#${hash}`);
    await page.locator('.notice[data-notice="link"]').waitFor();
    assert.equal(await page.locator('[data-learn]').count(), 0, `${hash}: no Learn view`);
    assert.doesNotMatch(await page.evaluate(() => location.hash), /view=/, `${hash}: the link forgets the keys`);
    assert.deepEqual(problems, []);
    await page.close();
  }
  await context.close();
});

test('learn: a model in the link that cannot be read is said, and stays said while the seed’s model trains', async () => {
  const context = await env.chromium.browser.newContext();
  // Bytes too few for a model; and a text cut to 4k + 1 letters, which cannot end a byte.
  for (const [weights, why] of [['QVBUTQ', /byte 4/], ['QVBUTQABC', /cut short/]]) {
    const { page, problems } = await open(context, `${env.server.url}#view=learn&task=reverse&seed=1&trained=120&weights=${weights}`);
    // Trained to the link's step, and done: the note is read once no more updates can replace it.
    await page.locator('[data-learn-status][data-steps="120"][data-run="done"]').waitFor({ timeout: 20000 });
    const note = await page.locator('[data-learn-note]').textContent();
    assert.match(note, /could not be read/, weights);
    assert.match(note, why, weights);
    assert.match(await page.locator('[data-learn-target]').textContent(), /Reached 99\s%/, 'the target, said beside it');
    assert.deepEqual(problems, []);
    await page.close();
  }
  await context.close();
});

/** Once the Learn view's model is ready, a bare visit still opens the reader's kept edit. */
async function editKeptAfterLearn(page) {
  await page.locator('[data-learn-status][data-model="ready"]').waitFor({ timeout: 20000 });
  await written(page); // whatever the page writes of the Learn link, written
  await page.goto('about:blank');
  await page.goto(env.server.url);
  await written(page);
  assert.match(await page.evaluate(() => location.hash), /preset=fruit/, 'the edit is still there');
}

test('learn: opening a Learn link keeps the playground the reader left, for the next visit too', async () => {
  // A context of its own: the suite's default one clears storage on every load.
  const context = await env.chromium.browser.newContext();
  const { page, problems } = await open(context, env.server.url);
  await loadPreset(page, 'fruit');
  await written(page); // stored a quarter second after the edit
  await page.goto('about:blank');
  await page.goto(env.server.url);
  await page.waitForFunction(() => /preset=fruit/.test(location.hash));
  // A Learn link, in the same tab.
  await page.evaluate(() => (location.hash = 'view=learn&task=reverse&seed=1'));
  await editKeptAfterLearn(page);
  // And a Learn link opened as a new page.
  await page.goto('about:blank');
  await page.goto(`${env.server.url}#view=learn&task=copy&seed=2`);
  await editKeptAfterLearn(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('learn: the header button opens the view; at 375 px in Chinese axe finds nothing and nothing scrolls sideways', async () => {
  const width = 375;
  const context = await env.chromium.browser.newContext({ viewport: { width, height: 800 } });
  const { page, problems } = await open(context, `${env.server.url}#lang=zh-CN`, { width, height: 800 });
  await page.click('[data-learn-open]');
  await page.locator('[data-learn]').waitFor();
  assert.match(await page.evaluate(() => location.hash), /view=learn/);
  await ready(page);
  await stepTimes(page, 2);
  assert.deepEqual(await axe(page, 'zh-CN 375'), []);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  await shot(page, 'learn-zh-CN-375');
  // Another task: the sequence to try is that task's own, not the old one's digits.
  assert.equal(await page.locator('[data-learn-try]').inputValue(), '3 1 4 1 5 | 5 1 4 1');
  await page.selectOption('[data-learn-field="task"]', 'find_match');
  // The old task's predictions are still listed while the new one starts: wait for the sequence.
  const sequence = '山 花 人 鸟 会飞的';
  await page.waitForFunction((v) => document.querySelector('[data-learn-try]')?.value === v, sequence, { timeout: 15000 })
    .catch(() => undefined);
  assert.equal(await page.locator('[data-learn-try]').inputValue(), sequence);
  // Back to the playground: the view goes, the link forgets it, focus is on the button.
  await page.click('[data-learn-close]');
  assert.equal(await page.locator('[data-learn]').count(), 0);
  assert.doesNotMatch(await page.evaluate(() => location.hash), /view=/);
  assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute('data-learn-open')), true);
  assert.deepEqual(problems, []);
  await context.close();
});
