// The lesson's questions as a reader answers them: one chip a word (a word said three times is one
// answer), a slider that stays where the reader put it, and no legend that shows the answer while
// the question is open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, ready, renders } from './page-helpers.mjs';

const env = serveAndLaunch();

async function atStep(k) {
  const { page, problems } = await open(env.chromium.context, env.server.url + `#ver=1&lesson=intro&step=${k}`);
  await page.waitForSelector('[data-lesson-text]');
  return { page, problems };
}

test('lesson answers: the causal question offers each word once, and the one chip with the answer\'s word is right', async () => {
  const { page, problems } = await atStep(13);
  const chips = await page.locator('[data-choice]').allTextContents();
  const keys = await page.evaluate(() => Array.from(document.querySelectorAll('.heatmap[data-view="weights"][data-side="a"] thead th'), (th) => th.textContent.trim()).filter((x) => x && x !== 'Σ' && x !== 'H'));
  assert.ok(keys.length > new Set(keys).size, `the sentence repeats a word: ${keys.join(' ')}`);
  assert.deepEqual(chips, [...new Set(keys)], 'one chip a word, in the sentence\'s order');
  const right = [];
  for (const label of chips) {
    await page.click(`[data-choice]:text-is("${label}")`);
    const reply = page.locator('[data-lesson-reply]');
    if ((await reply.getAttribute('data-right')) === 'true') right.push([label, await reply.textContent()]);
  }
  assert.equal(right.length, 1, JSON.stringify(right));
  assert.ok(right[0][1].includes(right[0][0]), `the reply names the word: ${right[0][1]}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lesson answers: a checked slider answer stays where the reader put it, as the reply says', async () => {
  const { page, problems } = await atStep(9);
  const slider = page.locator('input[type="range"][data-lesson-number]');
  const [min, max] = [Number(await slider.getAttribute('min')), Number(await slider.getAttribute('max'))];
  const value = min + 0.85 * (max - min);
  await slider.evaluate((el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', { bubbles: true })); }, value);
  await page.click('[data-lesson-check]');
  await page.waitForSelector('[data-lesson-reply][data-right]');
  const after = Number(await page.locator('input[type="range"][data-lesson-number]').inputValue());
  assert.ok(Math.abs(after - value) < (max - min) / 100 + 1e-9, `the slider is at ${after}, the reader put it at ${value}`);
  const shown = await page.textContent('.lesson-number output');
  assert.equal(Number(shown.replace('−', '-')), Number(after.toFixed(2)), `the slider's number says ${shown}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lesson answers: while a step asks for a number of the similarity map, its legend (whose ends are the answer) is hidden', async () => {
  const { page, problems } = await atStep(5);
  const legend = page.locator('.heatmap[data-view="scores"][data-side="a"] .legend');
  assert.equal(await legend.evaluate((el) => getComputedStyle(el).visibility), 'hidden');
  const before = await renders(page);
  await page.click('[data-lesson-back]');
  await ready(page, before);
  assert.equal(await legend.evaluate((el) => getComputedStyle(el).visibility), 'visible', 'a step that does not ask shows it');
  assert.deepEqual(problems, []);
  await page.close();
});

test('lesson answers: the explanation that opens with an answer covers neither the reply nor Next', async () => {
  for (const step of [2, 5, 9, 13]) {
    const { page, problems } = await atStep(step);
    if (await page.locator('[data-choice]').count()) await page.click('[data-choice] >> nth=0');
    else {
      if (await page.locator('input[type="text"][data-lesson-number]').count()) await page.fill('[data-lesson-number]', '3');
      await page.click('[data-lesson-check]');
    }
    await page.waitForSelector('.explain.open[data-side]'); // placed (on the next frame), beside its cell
    const boxes = await page.evaluate(() => Object.fromEntries(['.explain.open', '[data-lesson-reply]', '[data-lesson-next]']
      .map((s) => [s, document.querySelector(s).getBoundingClientRect().toJSON()])));
    const panel = boxes['.explain.open'];
    for (const what of ['[data-lesson-reply]', '[data-lesson-next]']) {
      const b = boxes[what];
      const over = panel.left < b.right && b.left < panel.right && panel.top < b.bottom && b.top < panel.bottom;
      assert.ok(!over, `step ${step}: the explanation (${panel.top}–${panel.bottom}) covers ${what} (${b.top}–${b.bottom})`);
      assert.ok(b.top >= -1 && b.bottom <= 800, `step ${step}: ${what} on the screen (${b.top}–${b.bottom})`);
    }
    assert.ok(panel.bottom - panel.top > 120, `step ${step}: the explanation is ${panel.bottom - panel.top} px tall`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('lesson answers: the last step sums up how many questions were answered right and what to do next', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, problems } = await open(context, env.server.url + '#ver=1&lesson=intro&step=2');
  await page.waitForSelector('[data-choice]');
  await page.click('[data-choice] >> nth=0'); // one question answered, right or not
  const right = (await page.getAttribute('[data-lesson-reply]', 'data-right')) === 'true' ? 1 : 0;
  await page.evaluate(() => { location.hash = 'ver=1&lesson=intro&step=16'; });
  await page.waitForSelector('[data-lesson-summary]');
  const n = await page.evaluate(() => document.querySelectorAll('.lesson-dot').length);
  assert.equal(n, 16);
  const said = await page.textContent('[data-lesson-summary]');
  assert.match(said, new RegExp(`You answered ${right} of the \\d+ questions right; \\d+ are still open`));
  assert.match(said, /watch a model learn/);
  assert.equal(await page.locator('[data-lesson-learn]').count(), 1, 'the way on to Learn beside it');
  assert.deepEqual(problems, []);
  await context.close();
});
