// The Learn view in real Chromium: a small model learns "reverse" in the training worker to the
// task's accuracy target within a stated number of steps and stops there, its loss falls and its
// head's attention changes, it trains on when asked, Pause stops the steps, Reset starts again from
// the same first loss, and no task holds the page for long while it trains. The timeline goes back
// to the step a head's pattern formed, with the trainer's numbers there; breaking the head gives
// the trainer's accuracy without it; the reader's own digits get the trainer's predictions, and its
// head opens in the playground's views with the trainer's weights and an explanation of a cell. A
// link holds the steps (retrained to the same heads) and, on request, the weights (opened at once);
// a damaged model is said. Autoplay trains in an embed but not under reduced motion; the intro
// lesson leads on to find the match, where the learned query "flying" reads "bird"; from a file
// and in a sandboxed frame the model trains on the page; axe finds nothing in English at 1280 px.
// What a Learn link does that times nothing is in learn-links.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { serveAndLaunch, open, dist, shot, readHeatmap, cell, number } from './page-helpers.mjs';
import { axe as axeFindings } from './a11y-axe.mjs';

const env = serveAndLaunch();

// Reverse, 1 layer of 1 head of 16 dimensions, seed 1: the trainer's own tests reach 99 % near
// step 60; the view's chunks add evaluations, not steps, so it must be there by step 300.
const TARGET_STEPS = 300;

const steps = (page) => page.locator('[data-learn-status]').evaluate((el) => Number(el.dataset.steps));
/** Waits until the status reports the run as `word`: paused and done mean the trainer has answered every press. */
const run = (page, word) => page.locator(`[data-learn-status][data-run="${word}"]`).waitFor({ timeout: 20000 });
const ready = (page) =>
  page.waitForFunction(() => {
    const status = document.querySelector('[data-learn-status]');
    return status?.dataset.model === 'ready' && status.dataset.steps === '0';
  }, null, { timeout: 20000 });
const fills = (page) =>
  page.locator('[data-learn-heads] td[data-i]:not([data-ink="masked"])').evaluateAll((cells) => cells.map((c) => c.style.backgroundColor));
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

/** The numbers in one head's heatmap, as its cells' tooltips print them: rows of 0 … i. */
const shownWeights = (page, k = 0) =>
  page.locator('.learn-head').nth(k).locator('td[data-i][title]').evaluateAll((cells) =>
    cells.map((c) => Number(c.title.split(': ').pop())));

/**
 * The same model, made again in the page by the trainer module from the view's config and seed:
 * the numbers the view showed must be the trainer's own at that step.
 */
const REVERSE = { task: 'reverse', layers: 1, heads: 1, dModel: 16, mlp: 'none', learningRate: 0.01, seed: 1 };
const REVERSE_PROBE = [3, 1, 4, 1, 5, 10, 5, 1, 4, 1];
/** "2 7 1 8 2 |": the reader's own digits (10 is the bar); reversed, the first answer is 2. */
const TRIED = [2, 7, 1, 8, 2, 10];

/**
 * Under node: the model at `then` (its weights on the probe, its score) and at `now` (its accuracy
 * with every head and without its only one).
 */
async function retrain(then, now) {
  const mod = await createRequire(import.meta.url)(join(dist, 'attention-trainer.js'))();
  const t = mod.create(REVERSE).trainer;
  t.step(then);
  const p = t.probe(REVERSE_PROBE).layers[0].heads[0].weights;
  const at = { weights: [], score: t.evaluate().headScores[0][0] };
  for (let i = 0; i < p.rows; i++) for (let j = 0; j <= i; j++) at.weights.push(p.data[i * p.cols + j]);
  t.step(now - then);
  const tried = t.probe(TRIED);
  const weights = tried.layers[0].heads[0].weights;
  const own = { predicted: tried.predicted, weights: Array.from({ length: weights.rows }, (_, i) =>
    Array.from(weights.data.subarray(i * weights.cols, (i + 1) * weights.cols))) };
  const accuracy = t.evaluate().accuracy;
  t.ablate(0, 0, true);
  const without = t.evaluate().accuracy;
  t.dispose();
  return { then: at, now: accuracy, without, own };
}

async function timelineAndBreak(page, steps) {
  // The head's pattern formed at a step the list names and the curves mark.
  const formedStep = Number(await page.locator('[data-formed-step]').first().getAttribute('data-formed-step'));
  assert.ok(formedStep > 0 && formedStep <= steps, `formed at ${formedStep}`);
  assert.ok(await page.locator(`.learn-formed-mark[data-step="${formedStep}"]`).count() >= 1, 'the curves mark it');
  const live = await fills(page);
  // Back to that step: the heatmap is the snapshot's, and the snapshot is the trainer's.
  await page.click('[data-formed-step]');
  assert.equal(await page.locator('[data-learn-at]').getAttribute('data-step'), String(formedStep));
  assert.equal(await page.locator('[data-learn-heads]').getAttribute('data-step'), String(formedStep));
  assert.notDeepEqual(await fills(page), live, 'the heatmap went back in time');
  const shown = await shownWeights(page);
  const shownScore = Number(await page.locator('.learn-head').first().getAttribute('data-score'));
  const trainer = await retrain(formedStep, steps);
  assert.equal(shown.length, trainer.then.weights.length);
  shown.forEach((w, k) => assert.ok(Math.abs(w - trainer.then.weights[k]) <= 0.0005, `cell ${k}: ${w} shown, ${trainer.then.weights[k]}`));
  assert.ok(Math.abs(shownScore - trainer.then.score) < 1e-6, `score ${shownScore} shown, ${trainer.then.score}`);
  assert.ok(trainer.then.score >= 0.5, 'formed: the score had reached 0.5');
  // Replay starts from step 0; the slider's right end follows training again.
  await page.click('[data-learn-replay]');
  assert.ok(Number(await page.locator('[data-learn-at]').getAttribute('data-step')) < formedStep, 'replay starts at the beginning');
  await page.locator('[data-learn-timeline]').focus();
  await page.keyboard.press('End');
  assert.equal(await page.locator('[data-learn-heads]').getAttribute('data-step'), String(steps));
  assert.deepEqual(await fills(page), live, 'at the end of the timeline, the model as it is now');
  // Break the head: the accuracy without it is the trainer's, and far below the accuracy with it.
  await page.locator('.learn-break').first().click();
  await page.locator('[data-learn-ablation][data-without]').waitFor();
  const ablation = await page.locator('[data-learn-ablation]').evaluate((el) => ({ ...el.dataset }));
  assert.equal(Number(ablation.step), steps);
  assert.equal(Number(ablation.with), trainer.now);
  assert.equal(Number(ablation.without), trainer.without);
  assert.ok(trainer.without < trainer.now - 0.5, `without its only head: ${trainer.without}, with it: ${trainer.now}`);
  assert.equal(await page.locator('.learn-break').first().getAttribute('aria-pressed'), 'true');
  await shot(page, 'learn-broken-en-1280');
  await page.locator('.learn-break').first().click();
  assert.equal(await page.locator('.learn-break').first().getAttribute('aria-pressed'), 'false');
  assert.equal(await page.locator('[data-learn-ablation][data-without]').count(), 0, 'mended: no numbers without it');
  await tryIt(page, steps, trainer.own);
}

/** The reader's own digits through the trained model, then its head in the playground's views. */
async function tryIt(page, steps, own) {
  await page.fill('[data-learn-try]', '2 7 x');
  await page.click('[data-learn-try-run]');
  assert.match(await page.locator('[data-learn-try-message]').textContent(), /“x” \(token 3\) is not one of this task’s tokens: 0 1 2/);
  assert.equal(await page.locator('[data-learn-try]').getAttribute('aria-invalid'), 'true');
  await page.fill('[data-learn-try]', '2 7 1 8 2 |');
  await page.click('[data-learn-try-run]');
  await page.waitForFunction((n) => document.querySelector('[data-learn-predictions]')?.dataset.steps === String(n) &&
    document.querySelectorAll('[data-learn-predictions] li').length === 6, steps);
  const next = await page.locator('[data-learn-predictions] li').evaluateAll((lis) => lis.map((li) => li.dataset.next));
  assert.deepEqual(next, own.predicted.map(String).map((d) => (d === '10' ? '|' : d)), "each position's next token, the trainer's");
  assert.equal(await page.locator('[data-learn-answer]').getAttribute('data-next'), '2', 'after the bar: the last digit, 2');
  // The head in the playground: its weights there are the trainer's, and each explains itself.
  await page.locator('.learn-try .learn-break').first().click();
  await page.locator('.heatmap[data-view="weights"][data-side="a"] tbody tr').first().waitFor();
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /mode=vectors/);
  assert.match(hash, /view=learn&task=reverse/, 'the Learn view stays open above');
  const printed = await readHeatmap(page, 'weights');
  assert.equal(printed.length, 6);
  printed.forEach((row, i) => row.forEach((text, j) => {
    const w = own.weights[i][j];
    assert.ok(Math.abs(number(text) - w) <= 0.006, `weight (${i}, ${j}): ${text} shown, ${w} trained`);
  }));
  await cell(page, 'weights', 5, 0).click();
  await page.waitForSelector('.explain.open');
  assert.match(await page.locator('.explain-body').textContent(), /[0-9]/);
}

/**
 * "Link with weights": the address then opens the trained heads at once, with no training; with
 * its weights damaged, it says so and trains the seed's model to the same step, the same heads.
 */
async function linkWithWeights(context, page, steps) {
  const heads = await fills(page);
  const accuracy = await page.locator('[data-learn-status]').textContent();
  await page.click('[data-learn-action="share"]');
  await page.waitForFunction(() => /[&#]weights=[A-Za-z0-9_-]+/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, new RegExp(`trained=${steps}(&|$)`));
  assert.match(await page.locator('[data-learn-note]').textContent(), /address now holds this model at step \d+ \([0-9.]+ KB of text\)/);
  const opened = await open(context, env.server.url + hash, { width: 1280, height: 900 });
  await opened.page.waitForFunction((n) => document.querySelector('[data-learn-status]')?.dataset.steps === String(n), steps);
  assert.match(await opened.page.locator('[data-learn-note]').textContent(), new RegExp(`came with the link: trained for ${steps} steps`));
  assert.deepEqual(await fills(opened.page), heads, 'the trained heads, at once');
  assert.equal(await opened.page.locator('[data-learn-status]').textContent(), accuracy.replace(/ · [0-9]+ steps\/s/, ''),
    'the same step and accuracy, and no training');
  await opened.page.close();
  // A damaged model: said, and the same model trained again from its seed.
  const damaged = hash.replace(/weights=([A-Za-z0-9_-]{40})([A-Za-z0-9_-])/, (_, a, c) => `weights=${a}${c === 'A' ? 'B' : 'A'}`);
  const again = await open(context, env.server.url + damaged, { width: 1280, height: 900 });
  await again.page.locator('[data-learn-note]').filter({ hasText: 'could not be read' }).waitFor();
  assert.match(await again.page.locator('[data-learn-note]').textContent(), /checksum|byte \d+/);
  await again.page.waitForFunction((n) => document.querySelector('[data-learn-status]')?.dataset.steps === String(n) &&
    !document.querySelector('[data-learn-action="train"]').disabled, steps);
  assert.deepEqual(await fills(again.page), heads, 'trained again to the same step: the same heads');
  assert.deepEqual([...opened.problems, ...again.problems], []);
  await again.page.close();
}

test('learn: reverse trains to 99 % within the stated steps and stops there, no task holding the page for long; train on, pause and reset', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await open(context, `${env.server.url}#view=learn&task=reverse&seed=1`, { width: 1280, height: 900 });
  await page.locator('[data-learn]').waitFor();
  await ready(page);
  const start = await fills(page);
  assert.equal(start.length, 55, 'one head on 10 tokens: 55 cells on and below the diagonal');
  await stepTimes(page, 1);
  const first = Number(await page.locator('[data-learn-first]').getAttribute('data-loss'));
  assert.ok(first > 1.5 && first < 4, `first loss ${first}: near ln 11, the guess of an untrained model`);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  const began = Date.now();
  await page.click('[data-learn-action="train"]');
  await page.locator('[data-learn-target][data-stopped]').waitFor({ timeout: 20000 });
  const ran = Date.now() - began;
  const reached = Number(await page.locator('[data-learn-target]').getAttribute('data-reached'));
  console.log(`reverse: 99 % held-out accuracy at step ${reached} (stated limit ${TARGET_STEPS})`);
  assert.ok(reached <= TARGET_STEPS, `reached at step ${reached}`);
  // It stops there by itself, says so, and the link keeps the step.
  await run(page, 'done');
  assert.equal(await steps(page), reached, 'training stopped at the step the target was reached');
  assert.match(await page.locator('[data-learn-target]').textContent(), /Reached 99\s% at step \d+: the task is learned, so training stopped there/);
  assert.equal(await page.locator('[data-learn-action="pause"]').isDisabled(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute('data-learn-train-on')), true,
    'focus moves from Pause, now disabled, to Train on');
  assert.match(await page.evaluate(() => location.hash), new RegExp(`trained=${reached}(&|$)`));
  // A generous bound: 100 ms held on a quiet machine, tasks took up to 227 ms at a load average of
  // 15 on two cores. npm run measure reports the longest task against the 100 ms target.
  const long = await page.evaluate(() => window.__long);
  assert.deepEqual(long.filter((d) => d > 1500), [], `no task over 1.5 s while training (${ran} ms)`);
  assert.ok((await losses(page)).at(-1) < first / 2, 'the loss has fallen by the target');
  assert.notDeepEqual(await fills(page), start, "the head's heatmap changed");
  const score = Number(await page.locator('.learn-head').first().getAttribute('data-score'));
  assert.ok(score > 0.5, `anti-diagonal score ${score}`);
  // Train on, then Pause: the step count stays.
  await page.click('[data-learn-train-on]');
  await page.waitForFunction((r) => Number(document.querySelector('[data-learn-status]').dataset.steps) > r + 200, reached);
  assert.match(await page.locator('[data-learn-target]').textContent(), new RegExp(`^Reached 99\\s% at step ${reached}\\.$`),
    'training on: the note keeps the step, without the button');
  await page.click('[data-learn-action="pause"]');
  // The trainer has read the pause (after a chunk under way) once the link keeps the shown step.
  await page.waitForFunction((r) => Number(/[#&]trained=(\d+)/.exec(location.hash)?.[1]) > r + 200 &&
    /[#&]trained=(\d+)/.exec(location.hash)[1] === document.querySelector('[data-learn-status]').dataset.steps,
  reached, { timeout: 20000 });
  await run(page, 'paused');
  const paused = await steps(page);
  assert.equal(await steps(page), paused, 'pause stops the steps');
  const shown = await losses(page);
  assert.ok(shown.at(-1) < first / 4, `loss ${shown.at(-1)} after training on, ${first} at first`);
  assert.equal(await page.locator('[data-learn-action="train"]').evaluate((b) => document.activeElement === b), true,
    'focus moves to Train when Pause is pressed');
  await timelineAndBreak(page, paused);
  await linkWithWeights(context, page, paused);
  // Reset: step 0, and the same first loss.
  await page.click('[data-learn-action="reset"]');
  await ready(page);
  await stepTimes(page, 1);
  assert.equal(Number(await page.locator('[data-learn-first]').getAttribute('data-loss')), first, 'reset: the same first loss');
  assert.deepEqual(await axe(page, 'en 1280'), []);
  await shot(page, 'learn-en-1280');
  assert.deepEqual(problems, []);
  await context.close();
});

test('learn: an embed with autoplay trains on opening without taking focus, and not under reduced motion; the lesson ends at Learn', async () => {
  for (const reducedMotion of ['no-preference', 'reduce']) {
    const context = await env.chromium.browser.newContext({ reducedMotion });
    const page = await context.newPage();
    await page.goto(`${env.server.url}embed.html#view=learn&task=reverse&seed=1&autoplay=1`);
    await page.locator('[data-learn-status][data-model="ready"]').waitFor();
    if (reducedMotion === 'reduce') {
      await run(page, 'paused'); // the model's first numbers, and no press of its own
      assert.equal(await steps(page), 0, 'reduced motion: no autoplay');
    } else {
      await page.locator('[data-learn-target][data-stopped]').waitFor({ timeout: 20000 });
      const reached = Number(await page.locator('[data-learn-target]').getAttribute('data-reached'));
      await run(page, 'done');
      assert.equal(await steps(page), reached, 'autoplay stops at the target');
      assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'focus stays where it was');
    }
    await context.close();
  }
  // The intro lesson's last step leads on to the painting, learned; in Chinese, its words too.
  const context = await env.chromium.browser.newContext();
  const { page, problems } = await open(context, `${env.server.url}#lesson=intro&step=16&lang=zh-CN`, { width: 1280, height: 800 });
  await page.click('[data-lesson-learn]');
  await page.locator('[data-learn-status][data-model="ready"]').waitFor();
  assert.equal(await page.locator('[data-learn-field="task"]').inputValue(), 'find_match');
  assert.match(await page.evaluate(() => location.hash), /view=learn&task=find_match/);
  const labels = await page.locator('.learn-head').first().locator('tbody th').allTextContents();
  assert.deepEqual(labels, ['山', '花', '人', '鸟', '会飞的'], 'mountain flower person bird · flying');
  // Trained, the query 会飞的 (flying) puts most of a head's weight on 鸟 (bird): learned, not set.
  await page.click('[data-learn-action="train"]');
  await page.locator('[data-learn-target][data-stopped]').waitFor({ timeout: 20000 });
  const reached = Number(await page.locator('[data-learn-target]').getAttribute('data-reached'));
  console.log(`find the match: 99 % held-out accuracy at step ${reached} (stated limit ${TARGET_STEPS})`);
  assert.ok(reached <= TARGET_STEPS, `reached at step ${reached}`);
  const flying = await page.locator('.learn-head').evaluateAll((heads) => heads.map((head) =>
    [...head.querySelectorAll('td[data-i][title]')].map((t) => t.title).filter((t) => t.startsWith('会飞的 → '))));
  const best = flying.map((row) => row.map((t) => [t.split(' → ')[1].split(':')[0], Number(t.split(': ')[1])])
    .sort((a, b) => b[1] - a[1])[0]);
  assert.ok(best.some(([word, w]) => word === '鸟' && w > 0.5), `flying's largest weights: ${JSON.stringify(best)}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('learn: from a file and in a sandboxed frame, where no worker starts, the model trains on the page itself', async () => {
  const context = await env.chromium.browser.newContext();
  const file = pathToFileURL(join(dist, 'attention-playground.html')).href;
  const { page, problems } = await open(context, `${file}#view=learn&task=reverse&seed=1`);
  await ready(page);
  assert.match(await page.locator('[data-learn-where]').innerText(), /runs on this page itself/);
  await stepTimes(page, 1);
  const mod = await createRequire(import.meta.url)(join(dist, 'attention-trainer.js'))();
  const t = mod.create(REVERSE).trainer;
  const first = t.step(1).losses[0];
  t.dispose();
  assert.equal(Number(await page.locator('[data-learn-first]').getAttribute('data-loss')), first, "the trainer's own first loss");
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  const began = Date.now();
  await page.click('[data-learn-action="train"]');
  await page.locator('[data-learn-target][data-stopped]').waitFor({ timeout: 20000 });
  const ran = Date.now() - began;
  // Chunks of 20 ms on the page's thread: 100 ms held on a quiet machine, tasks took up to 745 ms
  // at a load average of 15 (npm run measure has the target); no task may be half the run.
  const long = await page.evaluate(() => window.__long);
  assert.deepEqual(long.filter((d) => d > 1500), [], 'no task over 1.5 s on the page');
  assert.ok(long.every((d) => d < ran / 2), `a task of ${Math.max(...long)} ms in a run of ${ran} ms`);
  assert.deepEqual(problems, []);
  // A frame with an opaque origin, as WordPress embeds: a link's steps, trained in the frame.
  const host = await context.newPage();
  await host.setContent(`<iframe sandbox="allow-scripts" style="width:900px;height:700px"
    src="${env.server.url}embed.html#view=learn&task=copy&seed=7&trained=20"></iframe>`);
  const frame = host.frameLocator('iframe');
  await frame.locator('[data-learn-status][data-steps="20"]').waitFor({ timeout: 20000 });
  assert.match(await frame.locator('[data-learn-where]').innerText(), /runs on this page itself/);
  await context.close();
});
