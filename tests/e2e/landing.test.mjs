// What a new reader meets: the first visit opens on an example whose weights make the point, in
// the reader's language, and no step repeats the one before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, readHeatmap, number, loadPreset } from './page-helpers.mjs';

const env = serveAndLaunch();

/** The H column of the weights, as printed. */
const entropies = (page, side = 'a') =>
  page.$$eval(`.heatmap[data-view="weights"][data-side="${side}"] tbody tr`, (rows) =>
    rows.map((tr) => tr.querySelector('td:last-child').textContent));

test('first visit: the painting, where "flying" puts 0.93 of its weight on the bird', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url, { width: 1280, height: 800 });
  assert.equal(await page.getAttribute('button[data-preset="painting"]', 'aria-pressed'), 'true');
  const weights = await readHeatmap(page, 'weights');
  // Scores (20, 30, 10, 100, 10) / T = 20: the bird gets e⁵ / (e¹ + e¹·⁵ + e⁰·⁵ + e⁵ + e⁰·⁵) = 0.934.
  assert.deepEqual(weights[1].map(number), [0.02, 0.03, 0.01, 0.93, 0.01]);
  assert.match(await page.textContent('.story'), /0\.93/);
  assert.deepEqual(problems, []);
});

test('?lang=zh-CN and #lang=zh-CN: the page, its first example and its default sentence are Chinese', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '?lang=zh-CN');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.match(await page.textContent('.story'), /画里有五样东西/);
  assert.match(await page.textContent('.heatmap[data-view="weights"] tbody'), /飞行/);
  const { page: words } = await open(env.chromium.context, env.server.url + '#ver=1&lang=zh-CN');
  assert.equal(await words.inputValue('#words-text'), '猫坐在垫子上');
  // The link the Chinese page writes carries its sentence, so it reads the same in any language.
  assert.match(decodeURIComponent(await words.evaluate(() => location.hash)), /lang=zh-CN/);
});

test('no step repeats the one before it: no scaling and no mask are one line each', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&scale=none');
  const shown = (step) => page.$eval(`.step[data-step="${step}"] .sides`, (el) => getComputedStyle(el).display !== 'none');
  assert.equal(await shown('scores'), true);
  assert.equal(await shown('scaled'), false);
  assert.equal(await shown('masked'), false);
  assert.match(await page.textContent('.step[data-step="masked"] .hint'), /No mask/);
  await loadPreset(page, 'causal'); // ÷√d_k and the causal mask: every step changes something
  assert.equal(await shown('scaled'), true);
  assert.equal(await shown('masked'), true);
  assert.deepEqual(problems, []);
});

test('one head: no "heads joined" or "multi-head output"; two heads: both, and the tabs', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=sqrtdk');
  assert.equal(await page.isVisible('.step[data-step="concat"]'), false);
  assert.equal(await page.isVisible('.step[data-step="final"]'), false);
  assert.ok(Math.max(...(await entropies(page, 'b')).map(number)) <= 0.01, 'unscaled at d_k = 512 is one-hot');
  await loadPreset(page, 'multihead');
  assert.equal(await page.isVisible('.step[data-step="concat"]'), true);
  assert.equal(await page.isVisible('.step[data-step="final"]'), true);
});

test('an edited example says its text no longer matches, and starts again on request', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=causal');
  assert.equal(await page.isVisible('.story-changed'), false);
  await page.fill('#words-text', 'the dog sleeps');
  await page.waitForSelector('.story-changed', { state: 'visible' });
  await page.click('.story-changed button');
  await page.waitForSelector('.story-changed', { state: 'hidden' });
  assert.equal(await page.inputValue('#words-text'), 'the dog chases the cat in the garden');
});

test('flat weights from the built-in words say why', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1');
  assert.match(await page.textContent('.step[data-step="weights"] .hint'), /almost even/);
  const { page: painting } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting');
  assert.doesNotMatch(await painting.textContent('.step[data-step="weights"] .hint'), /almost even/);
});
