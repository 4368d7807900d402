// The small things a reader trips on: the first Tab stop, the temperature slider's steps and what
// it announces, a custom mask that starts from the causal one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, andRender, readHeatmap, cell, pasteMatrix } from './page-helpers.mjs';

const env = serveAndLaunch();

/**
 * Waits until `fn(arg)` is true in the page, for at most `seconds`: a page that never gets there
 * fails the test with `what`, rather than leaving the run waiting.
 */
async function until(page, what, fn, arg, seconds = 20) {
  try {
    await page.waitForFunction(fn, arg, { timeout: seconds * 1000, polling: 50 });
  } catch (e) {
    assert.fail(`not within ${seconds} s: ${what} (${String(e.message).split('\n')[0]})`);
  }
}

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
  await page.waitForSelector('button.present-open[aria-pressed="true"]'); // its keys and styles come then
  const size = (sel) => page.$eval(sel, (el) => parseFloat(getComputedStyle(el).fontSize));
  assert.ok((await size('.heatmap[data-view="weights"] td[data-i="0"][data-j="0"]')) >= 20);
  assert.ok((await size('.pipeline td[data-view="weights"]')) >= 20);
  assert.equal(await page.isVisible('.controls'), false);
  await page.click('.pipeline-head h2'); // the arrows belong to the page, not to a grid
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
  await until(page, 'the plot draws its value dots', () => document.querySelector('[data-view="plot"] circle.value-dot'));
  const visible = await page.$$eval('[data-view="plot"] text.value-label', (ts) =>
    ts.filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.textContent));
  assert.deepEqual(visible.filter((x) => x === 'the'), ['the']);
  assert.equal(visible.length, 5, `labels: ${visible}`);
  // Weights: 0 to 1, light to dark; the scores: signed, ± the largest |score| (cat·cat = 1.16).
  const legend = (view) => page.$eval(`.heatmap[data-view="${view}"][data-side="a"] .legend`, (l) => l.textContent);
  assert.equal(await legend('weights'), '01');
  assert.equal(await legend('scores'), '−1.161.16');
});

test('output rings that land on one another are named once, as one pile, at 1280 and 375 px', async () => {
  for (const width of [1280, 375]) {
    const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=causal', { width, height: 800 });
    await page.locator('[data-view="plot"]').scrollIntoViewIfNeeded();
    await until(page, `${width}: the plot draws its output rings`, () => document.querySelector('[data-view="plot"] circle.output-dot'));
    const { rings, piles } = await page.$eval('[data-view="plot"] svg', (svg) => ({
      rings: Array.from(svg.querySelectorAll('circle.output-dot'), (c) => ({
        x: c.cx.baseVal.value, y: c.cy.baseVal.value, r: c.r.baseVal.value,
        name: c.querySelector('title').textContent.replace(/ \(.*\)$/, ''),
      })),
      piles: Array.from(svg.querySelectorAll('text.pile-label'))
        .filter((t) => getComputedStyle(t).display !== 'none').map((t) => t.textContent),
    }));
    // The rings that overlap another, from where the page drew them; each must be named by a pile.
    const piled = rings.filter((a) => rings.some((b) => b !== a && Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r));
    assert.ok(piled.length >= 2, `${width}: the causal row averages pile up (${piled.length})`);
    const named = piles.flatMap((p) => p.split(', '));
    for (const ring of piled) assert.ok(named.includes(ring.name), `${width}: "${ring.name}" is in a pile label: ${JSON.stringify(piles)}`);
    assert.ok(piles.length < piled.length, `${width}: one label per pile, not per ring`);
    assert.deepEqual(problems, []);
    await page.close();
  }
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
    await until(page, 'the tapped cell opens its explanation', () => document.querySelector('.explain.open'));
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

test('each input grid is one Tab stop, with the arrow keys inside it; the page has few stops before the first heatmap', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting');
  const where = () => page.evaluate(() => {
    const el = document.activeElement;
    return { grid: el.closest('.input-grid')?.dataset.view ?? null, i: el.dataset.i ?? null, j: el.dataset.j ?? null, value: el.value };
  });
  // Queries Q: a label column ("no condition", "flying") and two features.
  await page.focus('.input-grid[data-view="q"] input.label-input[data-i="0"]');
  await page.keyboard.press('Tab');
  assert.deepEqual(await where(), { grid: 'k', i: '0', j: null, value: 'person' }, 'Tab leaves Q for the keys');
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await where(), { grid: 'q', i: '0', j: null, value: 'no condition' });
  await page.keyboard.press('ArrowRight'); // the label is all selected on arrival: → moves on
  assert.deepEqual(await where(), { grid: 'q', i: '0', j: '0', value: '1' });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await where(), { grid: 'q', i: '1', j: '1', value: '1' }, '"flying", about flying');
  // Inside a longer number ← moves the caret first, and leaves the cell from its start.
  await page.keyboard.type('25');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await where(), { grid: 'q', i: '1', j: '1', value: '25' });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual((await where()).j, '0');
  // Tab out and back: the grid remembers the cell last used.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await where(), { grid: 'q', i: '1', j: '0', value: '0' });
  // From the top of the page to the first heatmap's cell, in Tab presses.
  await page.goto(env.server.url + '#ver=1&preset=painting');
  await until(page, 'the page renders after a reload', () => Number(document.getElementById('app')?.dataset.renders ?? 0) > 0);
  let stops = 0;
  while (stops < 200) {
    await page.keyboard.press('Tab');
    stops++;
    if (await page.evaluate(() => !!document.activeElement.closest('.card.step .heatmap'))) break;
  }
  console.log(`Tab stops to the first heatmap: ${stops}`);
  assert.ok(stops <= 45, `${stops} Tab stops before the first heatmap`);
  assert.deepEqual(problems, []);
});

test('a large map keeps its labels: upright above 40 columns, and the pointed-at row and column beyond 76', async () => {
  const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join('+');
  const { page, problems } = await open(env.chromium.context, env.server.url + `#ver=1&mode=words&text=${words}`, { width: 1280, height: 800 });
  const canvas = (view) => page.locator(`.heatmap[data-view="${view}"][data-side="a"] canvas`);
  await canvas('weights').first().scrollIntoViewIfNeeded();
  await until(page, 'the 40-word map is drawn on a canvas', () => document.querySelector('.heatmap[data-view="weights"] canvas.hm-base'));
  // Ink in the band above each column of the base canvas (the map itself starts below it): 40 labels.
  const inked = (which) => canvas('weights').nth(which).evaluate((c) => {
    const g = c.getContext('2d');
    const ratio = c.width / parseFloat(c.style.width);
    const cols = 40, left = 96, cw = Math.floor(760 / cols), band = 64;
    const img = g.getImageData(0, 0, c.width, Math.round(band * ratio)).data;
    return Array.from({ length: cols }, (_, j) => {
      let ink = 0;
      for (let y = 0; y < Math.round(band * ratio); y++)
        for (let x = Math.round((left + j * cw + 2) * ratio); x < Math.round((left + (j + 1) * cw - 2) * ratio); x++) ink += img[4 * (y * c.width + x) + 3] > 0;
      return ink;
    });
  });
  const height = await canvas('weights').first().evaluate((c) => parseFloat(c.style.height));
  assert.ok(height >= 40 * 19 + 40, `room above the 40 rows of 19 px for the labels: ${height} px`);
  const labels = await inked(0);
  assert.ok(labels.every((n) => n > 0), `every column labelled: ${labels.join(' ')}`);
  // 90 queries and keys pasted as vectors: too narrow for a label per column, so the overlay names
  // the column (and row) under the pointer, and only that one.
  await andRender(page, () => page.check('fieldset[data-control="mode"] input[value="vectors"]'));
  const rows = (n) => Array.from({ length: n }, (_, i) => `${i % 7} ${(i * 3) % 5}`).join('\n');
  for (const target of ['q', 'k', 'v']) await pasteMatrix(page, target, rows(90));
  await canvas('weights').first().scrollIntoViewIfNeeded();
  const overlay = page.locator('.heatmap[data-view="weights"][data-side="a"] canvas.hm-overlay');
  const cw = Math.max(4, Math.floor(760 / 90));
  // A map this large is drawn in a later task: measure it once it is 90 × 90 cells.
  await until(page, 'the map is redrawn at 90 × 90 cells', (width) => parseFloat(
    document.querySelector('.heatmap[data-view="weights"][data-side="a"] canvas.hm-overlay')?.style.width) === width, 96 + 90 * cw);
  await overlay.scrollIntoViewIfNeeded();
  const box = await overlay.boundingBox();
  await page.mouse.move(box.x + 96 + 45 * cw + cw / 2, box.y + 18 + 30 * cw + cw / 2); // row 30, column 45
  await until(page, 'the pointed-at cell q31 → k46 is explained',
    () => /q31 → k46/.test(document.querySelector('.explain-body')?.textContent ?? ''));
  const band = await overlay.evaluate((c, cwidth) => {
    const g = c.getContext('2d');
    const ratio = c.width / parseFloat(c.style.width);
    const img = g.getImageData(0, 0, c.width, Math.round(18 * ratio)).data;
    const inkAt = (x0, x1) => {
      let ink = 0;
      for (let y = 0; y < Math.round(18 * ratio); y++) for (let x = Math.round(x0 * ratio); x < Math.round(x1 * ratio); x++) ink += img[4 * (y * c.width + x) + 3] > 200;
      return ink;
    };
    return { at: inkAt(96 + 45 * cwidth - 10, 96 + 46 * cwidth + 10), far: inkAt(96, 96 + 20 * cwidth) };
  }, cw);
  assert.ok(band.at > 0 && band.far === 0, `the pointed-at column is named, no other: ${JSON.stringify(band)}`);
  assert.deepEqual(problems, []);
});
