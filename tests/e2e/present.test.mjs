// Present, for a teacher at a projector: the page fills the screen, every text grows with it
// (numbers of 28 px at 1920 wide), a 1024 × 768 projector shows the query's row, its weights and
// the output on one screen for every example, and the keys are said on the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, ready, renders } from './page-helpers.mjs';

const env = serveAndLaunch();
const PRESETS = ['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead'];

async function present(lang, width, height, preset = 'painting') {
  const { page, problems } = await open(env.chromium.context, env.server.url + `#ver=1&preset=${preset}&lang=${lang}`, { width, height });
  await page.click('button.present-open');
  await page.waitForSelector('button.present-open[aria-pressed="true"]'); // its keys and styles come then
  return { page, problems };
}

const px = (page, sel) => page.$eval(sel, (el) => parseFloat(getComputedStyle(el).fontSize));

test('present: at 1920 × 1080 the page fills the screen and its numbers are 28 px or more, its text grown with them', async () => {
  const { page, problems } = await present('en', 1920, 1080, 'fruit');
  const main = await page.$eval('.main-col', (el) => el.getBoundingClientRect().toJSON());
  assert.ok(main.left < 60 && main.right > 1860, `the figure spans ${main.left}–${main.right} of 1920`);
  for (const sel of ['.pipeline td[data-view="weights"]', '.pipeline-output td', '.heatmap[data-view="weights"] td[data-i="0"][data-j="0"]'])
    assert.ok((await px(page, sel)) >= 28, `${sel}: ${await px(page, sel)} px`);
  assert.ok((await px(page, '.story')) >= 22, `the story: ${await px(page, '.story')} px`);
  assert.ok((await px(page, '.legend')) >= 18, `a legend: ${await px(page, '.legend')} px`);
  assert.equal(await page.isVisible('.present-hint'), true);
  assert.equal(await page.textContent('.present-hint'), '← → examples · Esc leaves');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('.present-hint'), false);
  assert.ok((await px(page, '.pipeline td[data-view="weights"]')) < 20, 'out of Present, the page as it was');
  assert.deepEqual(problems, []);
  await page.close();
});

test('present: at 1920 × 1080 no step of any example scrolls sideways inside its card', async () => {
  const { page, problems } = await present('en', 1920, 1080);
  for (const preset of PRESETS) {
    if (preset !== 'painting') {
      const before = await renders(page);
      await page.keyboard.press('ArrowRight');
      await ready(page, before);
    }
    // The cards' widths grow with the numbers (rem), so multi-head's steps, 773 px of cells in a
    // 578 px card before, fit. Only a matrix wider than the whole screen may scroll, in a card as
    // wide as the steps: Why √d_k's vectors of 64 numbers, which no projector shows at 28 px.
    const scrolled = await page.evaluate(() => {
      const all = document.querySelector('.views').clientWidth;
      return [...document.querySelectorAll('.views .heatmap')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 && e.closest('.step').offsetWidth < 0.95 * all)
        .map((e) => `${e.closest('[data-step]')?.dataset.step}: ${e.scrollWidth}/${e.clientWidth}`);
    });
    assert.deepEqual(scrolled, [], `${preset}: heatmaps wider than their cards`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('present: at 1024 × 768, every example keeps its query row, every key\'s weight and the output on the screen', async () => {
  for (const lang of ['en', 'zh-CN']) {
    const { page, problems } = await present(lang, 1024, 768);
    await page.click('.pipeline-head h2');
    for (const preset of PRESETS) {
      if (preset !== 'painting') {
        const before = await renders(page);
        await page.keyboard.press('ArrowRight');
        await ready(page, before);
      }
      assert.equal(await page.getAttribute(`button[data-preset="${preset}"]`, 'aria-pressed'), 'true');
      await page.evaluate(() => scrollTo(0, 0));
      const place = await page.evaluate(() => {
        const bottom = (sel) => Math.max(...Array.from(document.querySelectorAll(sel), (el) => el.getBoundingClientRect().bottom));
        return { rows: bottom('.pipeline-table tbody tr'), output: bottom('.pipeline-output'), query: bottom('.pipeline-head'),
          keys: document.querySelectorAll('.pipeline-table tbody tr').length };
      });
      assert.ok(place.keys >= 3, `${preset}: ${place.keys} keys`);
      for (const [what, y] of Object.entries(place)) if (what !== 'keys')
        assert.ok(y <= 768, `${lang} ${preset}: the ${what} ends at ${y} px, below the 768 px screen`);
      assert.ok((await px(page, '.pipeline td[data-view="weights"]')) >= 19, preset);
    }
    assert.match(await page.textContent('.present-hint'), lang === 'en' ? /Esc leaves/ : /Esc 退出/);
    assert.deepEqual(problems, []);
    await page.close();
  }
});
