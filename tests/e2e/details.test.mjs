// The small things a reader trips on: the first Tab stop, the temperature slider's steps and what
// it announces, a custom mask that starts from the causal one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, andRender, readHeatmap, cell } from './page-helpers.mjs';

const env = serveAndLaunch();

test('the first Tab stop skips to the figure', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
  assert.ok(await page.isVisible('.skip-link'));
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'pipeline');
  // The next Tab is inside the figure: its query chips, one stop for the group.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.query), '1');
  assert.deepEqual(problems, []);
});

test('the temperature slider says "T = 20" and its arrow keys step through round values', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting');
  const slider = page.locator('input[data-control="temperature"]');
  assert.equal(await slider.getAttribute('aria-valuetext'), 'T = 20');
  await slider.focus();
  await andRender(page, () => page.keyboard.press('ArrowRight'));
  assert.equal(await slider.getAttribute('aria-valuetext'), 'T = 30');
  await andRender(page, () => page.keyboard.press('ArrowLeft'));
  await andRender(page, () => page.keyboard.press('ArrowLeft'));
  assert.equal(await slider.getAttribute('aria-valuetext'), 'T = 15');
  // "flying" at T = 15: scores 20 30 10 100 10 ÷ 15; the bird's weight is e^(100/15) over the row's sum.
  const bird = Math.exp(100 / 15) / [20, 30, 10, 100, 10].reduce((a, x) => a + Math.exp(x / 15), 0);
  assert.equal((await readHeatmap(page, 'weights'))[1][3], bird.toFixed(2));
  await andRender(page, () => page.keyboard.press('PageDown'));
  assert.equal(await slider.getAttribute('aria-valuetext'), 'T = 1.5');
});

test('Custom after Causal starts from the causal mask, and a click then changes one pair', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=causal');
  const before = await readHeatmap(page, 'weights');
  await andRender(page, () => page.check('fieldset[data-control="mask"] input[value="custom"]'));
  assert.deepEqual(await readHeatmap(page, 'weights'), before, 'the same weights: the same pairs hidden');
  await andRender(page, () => page.click('.heatmap[data-view="masked"][data-side="a"] td[data-i="0"][data-j="1"]'));
  const after = await readHeatmap(page, 'weights');
  assert.notEqual(after[0][1], '0', 'the first word now sees the second');
});

test('presentation mode: numbers of at least 20 px, no controls, → and ← through the examples, Escape leaves', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting', { width: 1280, height: 800 });
  await page.click('button.present-open');
  const size = (sel) => page.$eval(sel, (el) => parseFloat(getComputedStyle(el).fontSize));
  assert.ok((await size('.heatmap[data-view="weights"] td[data-i="0"][data-j="0"]')) >= 20);
  assert.ok((await size('.pipeline td[data-view="weights"]')) >= 20);
  assert.equal(await page.isVisible('.controls'), false);
  await page.click('h1'); // the arrows belong to the page, not to a grid
  await andRender(page, () => page.keyboard.press('ArrowRight'));
  assert.equal(await page.getAttribute('button[data-preset="fruit"]', 'aria-pressed'), 'true');
  await andRender(page, () => page.keyboard.press('ArrowLeft'));
  await andRender(page, () => page.keyboard.press('ArrowLeft'));
  assert.equal(await page.getAttribute('button[data-preset="multihead"]', 'aria-pressed'), 'true');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('.controls'), true);
  assert.deepEqual(problems, []);
});

test('printing draws every card: none is left blank for being off screen', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=fruit', { width: 1280, height: 800 });
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  const skipped = await page.$$eval('.views > .step:not([hidden]), .multi-cards > .step:not([hidden])', (cards) =>
    cards.filter((c) => getComputedStyle(c).contentVisibility !== 'visible').map((c) => c.dataset.step));
  assert.deepEqual(skipped, []);
  assert.equal(await page.locator('[data-view="plot"] circle.value-dot').count(), 3);
  const pdf = await page.pdf({ format: 'A4' });
  assert.ok(pdf.length > 20000, `a PDF of ${pdf.length} bytes`);
});

test('a comparison of 8 words at 1280 px shows both heatmaps whole: every column, Σ and H, no label cut', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=sqrtdk', { width: 1280, height: 800 });
  await page.locator('.step[data-step="weights"]').scrollIntoViewIfNeeded();
  const cut = await page.$$eval('.step[data-step="weights"] .side .heatmap', (maps) =>
    maps.map((m) => ({
      overflow: m.scrollWidth - m.clientWidth,
      labels: Array.from(m.querySelectorAll('thead th'), (th) => th.scrollWidth > th.clientWidth + 1 ? th.textContent : null).filter(Boolean),
    })),
  );
  assert.equal(cut.length, 2);
  for (const side of cut) assert.deepEqual(side, { overflow: 0, labels: [] });
});

test('the plot labels a word that appears twice once, and colour scales are shown under the maps', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1'); // "the cat sat on the mat"
  await page.locator('[data-view="plot"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-view="plot"] circle.value-dot');
  const visible = await page.$$eval('[data-view="plot"] text.value-label', (ts) =>
    ts.filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.textContent));
  assert.deepEqual(visible.filter((x) => x === 'the'), ['the']);
  assert.equal(visible.length, 5, `labels: ${visible}`);
  // Weights: 0 to 1, light to dark; the scores: signed, ± the largest |score| (cat·cat = 1.16).
  const legend = (view) => page.$eval(`.heatmap[data-view="${view}"][data-side="a"] .legend`, (l) => l.textContent);
  assert.equal(await legend('weights'), '01');
  assert.equal(await legend('scores'), '−1.161.16');
});

test('on a phone, eight features of touch-sized cells do not widen the page, and the tapped row stays above the sheet', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
  try {
    const { page, problems } = await open(context, env.server.url + '#ver=1&preset=causal', { width: 375, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    const target = cell(page, 'weights', 3, 1);
    await target.scrollIntoViewIfNeeded();
    await target.tap();
    await page.waitForSelector('.explain.open');
    const [sheet, row] = await page.evaluate(() => [
      document.querySelector('.explain').getBoundingClientRect().toJSON(),
      document.querySelector('.heatmap[data-view="weights"][data-side="a"] td[data-i="3"][data-j="1"]').closest('tr').getBoundingClientRect().toJSON(),
    ]);
    assert.ok(sheet.bottom <= 800.5 && sheet.left >= 0 && sheet.right <= 375.5, `the sheet at ${JSON.stringify(sheet)}`);
    assert.ok(row.bottom <= sheet.top, `the row ends at ${row.bottom}, the sheet starts at ${sheet.top}`);
    await page.locator('.explain-close').tap();
    assert.equal(await page.isVisible('.explain'), false);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
