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
