// What a reader meets first says what it means, in their language: a Chinese page opened from a
// Learn link keeps a Chinese sentence, the header's way into Learn and the view's Train have
// different names, the story says what T is before the figure uses it, and the note that the
// figure shows an older result sits above that figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, andRender } from './page-helpers.mjs';

const env = serveAndLaunch();

test('first screen: a Chinese page from a Learn link has a Chinese sentence, and 学习 (Learn) is not 训练 (Train)', async () => {
  const context = await env.chromium.browser.newContext({ locale: 'zh-CN' });
  const { page, problems } = await open(context, env.server.url + '#view=learn&task=reverse&lang=zh-CN');
  await page.waitForSelector('[data-learn] button');
  assert.match(await page.inputValue('#words-text'), /[\u4e00-\u9fff]/, 'the playground below speaks Chinese');
  const open_ = (await page.textContent('[data-learn-open]')).trim();
  const train = await page.evaluate(() => Array.from(document.querySelectorAll('[data-learn] button'), (b) => b.textContent.trim()));
  assert.ok(train.includes('训练'), train.join(' '));
  assert.notEqual(open_, '训练');
  assert.deepEqual(problems, []);
  await context.close();
});

test('first screen: the painting\'s story says what T is, in both languages', async () => {
  for (const [lang, said] of [['en', /temperature T = 20/], ['zh-CN', /温度 T = 20/]]) {
    const { page } = await open(env.chromium.context, env.server.url + `#ver=1&preset=painting&lang=${lang}`);
    assert.match(await page.textContent('.story'), said);
    await page.close();
  }
});

test('first screen: an error keeps the last figure, and the note saying so sits above it, on the first screen', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=fruit', { width: 1280, height: 800 });
  await andRender(page, () => page.fill('#words-text', ''));
  const place = await page.evaluate(() => ({ note: document.querySelector('.stale').getBoundingClientRect().toJSON(),
    figure: document.querySelector('.card.pipeline').getBoundingClientRect().top, visible: document.querySelector('.stale').offsetParent !== null }));
  assert.ok(place.visible, 'the note is shown');
  assert.ok(place.note.bottom <= place.figure, `the note ends at ${place.note.bottom}, the figure starts at ${place.figure}`);
  assert.ok(place.note.top < 800, `the note at ${place.note.top} px`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('first screen: on a 375 px phone the weights, their Σ and their H fit the card for the examples of five or fewer keys', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  for (const lang of ['en', 'zh-CN']) {
    for (const preset of ['painting', 'fruit', 'softmax']) {
      const { page, problems } = await open(context, env.server.url + `#ver=1&preset=${preset}&lang=${lang}`, { width: 375, height: 740 });
      const map = page.locator('.heatmap[data-view="weights"][data-side="a"]');
      await map.scrollIntoViewIfNeeded();
      const fit = await map.evaluate((el) => ({ scroll: el.scrollWidth, width: el.clientWidth,
        extras: Array.from(el.querySelectorAll('th.extra'), (th) => th.textContent) }));
      assert.deepEqual(fit.extras, ['Σ', 'H'], `${preset} ${lang}`);
      assert.ok(fit.scroll <= fit.width + 1, `${preset} (${lang}): ${fit.scroll} px of table in ${fit.width} px`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
  await context.close();
});

test('first screen: Multi-head\'s story quotes head 2 as the page shows it, after the press it names', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=multihead');
  assert.match(await page.textContent('.story'), /0\.98 of its weight to “mountain” in head 1, the figure below; press Head 2 under Steps and it gives 0\.83 to “bird”/);
  const weight = (key) => page.evaluate((k) => {
    const row = Array.from(document.querySelectorAll('.pipeline-table tbody tr')).find((tr) => tr.querySelector('th')?.textContent === k);
    return row?.querySelector('td[data-view="weights"]')?.textContent;
  }, key);
  assert.equal(await weight('mountain'), '0.98');
  await andRender(page, () => page.click('[role="tab"][data-head="1"]'));
  assert.equal(await weight('bird'), '0.83');
  assert.deepEqual(problems, []);
  await page.close();
});
