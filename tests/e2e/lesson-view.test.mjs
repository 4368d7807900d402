// A lesson step and the figure it talks about on one screen: the step's text sits right above the
// card it names (outlined), scrolled into view, at 1280 px and on a phone; on a phone the step
// dots are one bar, so Next stays on the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open } from './page-helpers.mjs';

const env = serveAndLaunch();

/** Where the lesson and its marked card are, once the page has settled. */
async function placed(page) {
  await page.waitForSelector('[data-lesson-text]');
  await page.waitForFunction(() => {
    const top = document.querySelector('.lesson').getBoundingClientRect().top;
    return Math.abs(top - 8) <= 3;
  }, null, { timeout: 30000 }); // 10 s was not always enough beside another browser suite on 2 loaded cores
  return page.evaluate(() => {
    const target = document.querySelector('[data-lesson-target]');
    const box = (el) => el && el.getBoundingClientRect().toJSON();
    return { lesson: box(document.querySelector('.lesson')), target: box(target), step: target?.dataset.step ?? null,
      next: box(document.querySelector('[data-lesson-next]')), height: innerHeight };
  });
}

for (const [lang, width, height] of [['en', 1280, 800], ['zh-CN', 375, 740]]) {
  test(`lesson view: at ${width} px (${lang}) each step's card comes right below its text, on the screen`, async () => {
    const context = await env.chromium.browser.newContext(width < 500
      ? { viewport: { width, height }, isMobile: true, hasTouch: true } : { viewport: { width, height } });
    // Step 10 asks for a cell of the similarity map; 14 is about the token plot; 5, the scaled scores.
    for (const [step, card] of [[10, 'scores'], [14, 'plot'], [6, 'scaled']]) {
      const { page, problems } = await open(context, env.server.url + `#ver=1&lesson=intro&step=${step}&lang=${lang}`, { width, height });
      const at = await placed(page);
      assert.equal(at.step, card, `step ${step} marks its card`);
      assert.ok(at.lesson.top >= 0, `step ${step}: the lesson's top at ${at.lesson.top}`);
      assert.ok(at.target.top >= at.lesson.bottom - 1 && at.target.top - at.lesson.bottom < 40,
        `step ${step}: the card starts ${at.target.top - at.lesson.bottom} px below the text`);
      assert.ok(at.target.top < at.height - 150, `step ${step}: the card starts at ${at.target.top} of ${at.height} px`);
      assert.ok(at.next.bottom <= at.height, `step ${step}: Next ends at ${at.next.bottom} of ${at.height} px`);
      assert.deepEqual(problems, []);
      await page.close();
    }
    await context.close();
  });
}

test('lesson view: leaving the lesson puts it back under the header and unmarks the card', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&lesson=intro&step=10');
  await placed(page);
  await page.click('[data-lesson-leave]');
  assert.equal(await page.locator('[data-lesson-target]').count(), 0);
  assert.equal(await page.evaluate(() => document.querySelector('header.top').nextElementSibling.matches('.lesson')), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('lesson view: "What real heads do" loads its own part, which the first lesson never asks for', async () => {
  const context = await env.chromium.browser.newContext();
  const scripts = [];
  context.on('request', (r) => { if (r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname.slice(1)); });
  const intro = await open(context, env.server.url + '#ver=1&lesson=intro&step=2');
  await placed(intro.page);
  assert.ok(scripts.includes('lesson.js'), scripts.join(', '));
  assert.ok(!scripts.includes('lesson-real.js'), 'the first lesson loaded lesson-real.js');
  await intro.page.close();
  const real = await open(context, env.server.url + '#ver=1&lesson=real-heads&step=1');
  await placed(real.page);
  assert.ok(scripts.includes('lesson-real.js'), scripts.join(', '));
  assert.match(await real.page.locator('.lesson').innerText(), /What real heads do/);
  assert.deepEqual([...intro.problems, ...real.problems], []);
  await real.page.close();
  await context.close();
});
