// The lesson "Attention from scratch" in real Chromium: walked by the keyboard in both languages,
// each question answered right (English) and wrong (Chinese) with the engine's answer in the
// reply, a step's link opening that step, progress kept over a reload, and "explore from here".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, number } from './page-helpers.mjs';
import { axe } from './a11y-axe.mjs';

const LESSON_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'];

const env = serveAndLaunch();

// The answers, from the numbers each step's example states (the engine computes what the page checks).
const ANSWERS = {
  1: { kind: 'token', right: 0, wrong: 3, reply: /0\.59/ }, // no condition: the person (80 → 0.59)
  2: { kind: 'token', right: 3, wrong: 0, reply: /0\.93/ }, // flying: the bird (100 → 0.93)
  5: { kind: 'number', right: '100', wrong: '30', reply: /100/ }, // (0, 1)·(30, 100)
  6: { kind: 'number', right: '5', wrong: '100', reply: /5/ }, // 100 ÷ 20
  7: { kind: 'number', right: '6', wrong: '7', reply: /6/ }, // 1×2 + 2×2 + 1×0
  8: { kind: 'token', right: 2, wrong: 1, reply: /0\.99/ }, // apple gives iPhone 0.99
  9: { kind: 'slider', right: -23, wrong: 40, reply: /0\.27/ }, // by cosine apple gives orange 0.27 (arrow presses from 0.5)
  10: { kind: 'cell', right: [2, 2], wrong: [0, 1], reply: /iPhone · iPhone \(13\)/ }, // 0² + 2² + 3² = 13
  13: { kind: 'token', right: 0, wrong: 1, reply: /\(1\)/ }, // the first word sees only itself
};
// The steps that open the animation of their row, at this frame: "flying" from its first frame,
// and the mix from its first key (2 terms, ÷ T, − max, exp, Σ, ÷ Σ: frame 8).
const PLAYS = { 4: 1, 12: 8 };

const step = (page) => page.locator('[data-lesson] .lesson-count').innerText();
const linkStep = (page) => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('step'));

async function walk(lang, how) {
  const context = await env.chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, problems } = await open(context, `${env.server.url}#lesson=intro&step=1&lang=${lang}`, { width: 1280, height: 800 });
  await page.locator('[data-lesson]').waitFor();
  const n = await page.locator('.lesson-dot').count();
  assert.ok(n >= 12, `${n} steps`);
  let asked = 0;
  for (let k = 1; k <= n; k++) {
    assert.match(await step(page), new RegExp(`\\b${k}\\b`));
    assert.equal(await linkStep(page), String(k), 'each step is its own link');
    const a = ANSWERS[k];
    if (PLAYS[k]) {
      await page.locator('[data-play]').waitFor();
      assert.equal(await page.inputValue('[data-play-scrub]'), String(PLAYS[k]), `step ${k}: the animation at its frame`);
      assert.match(await page.locator('[data-play] .play-title').innerText(), /flying|飞行/);
      // Its keys are its own while the focus is in it: → moves a frame, not the lesson.
      await page.focus('[data-play-next]');
      await page.keyboard.press('ArrowRight');
      assert.equal(await page.inputValue('[data-play-scrub]'), String(PLAYS[k] + 1));
      assert.match(await step(page), new RegExp(`\\b${k}\\b`));
    } else assert.equal(await page.locator('[data-play]').count(), 0, `step ${k}: no animation`);
    const predict = page.locator('[data-predict]');
    assert.equal(await predict.count(), a ? 1 : 0, `step ${k}: a question or none`);
    if (a) {
      asked++;
      // Until it is answered the numbers it asks about are hidden.
      assert.ok(await page.evaluate(() => !!document.getElementById('app').dataset.asking), `step ${k} hides its answer`);
      const given = a[how];
      if (a.kind === 'token') {
        await page.focus(`[data-predict] [data-choice="${given}"]`);
        await page.keyboard.press('Enter');
      } else if (a.kind === 'slider') {
        await page.focus('[data-lesson-number]');
        for (let n = 0; n < Math.abs(given); n++) await page.keyboard.press(given < 0 ? 'ArrowLeft' : 'ArrowRight');
        await page.keyboard.press('Enter');
      } else if (a.kind === 'cell') {
        await page.focus(`.heatmap[data-view="scores"][data-side="a"] td[data-i="${given[0]}"][data-j="${given[1]}"]`);
        await page.keyboard.press('Enter');
      } else {
        await page.focus('[data-lesson-number]');
        await page.keyboard.type(given);
        await page.keyboard.press('Enter');
      }
      const reply = page.locator('[data-lesson-reply]');
      await page.waitForFunction(() => document.querySelector('[data-lesson-reply]')?.dataset.right !== undefined);
      assert.equal(await reply.getAttribute('data-right'), String(how === 'right'), `step ${k}`);
      assert.match(await reply.innerText(), a.reply, `step ${k}`);
      assert.equal(await page.evaluate(() => document.getElementById('app').dataset.asking ?? ''), '', 'answered: shown');
      // The engine's explanation of the answer is open beside its cell.
      await page.waitForFunction(() => document.querySelector('.explain.open'));
    }
    if (k < n) {
      await page.focus('[data-lesson-next]');
      await page.keyboard.press('Enter');
      await page.waitForFunction((want) => document.querySelector('[data-lesson] .lesson-count')?.textContent.includes(String(want)), k + 1);
    }
  }
  assert.equal(asked, Object.keys(ANSWERS).length);
  // ← goes back a step from anywhere outside a control.
  await page.locator('[data-lesson-text]').click();
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((want) => new URLSearchParams(location.hash.slice(1)).get('step') === want, String(n - 1));
  assert.deepEqual(problems, []);
  return { context, page };
}

test('lesson: walked by the keyboard in English, every question answered right', async () => {
  const { context, page } = await walk('en', 'right');
  assert.equal(await page.locator('.lesson-dot[data-answered="right"]').count(), Object.keys(ANSWERS).length);
  await context.close();
});

test('lesson: walked in Chinese, every question answered wrong, each reply giving the engine’s answer', async () => {
  const { context, page } = await walk('zh-CN', 'wrong');
  assert.match(await page.locator('[data-lesson-text]').innerText(), /\p{Script=Han}/u);
  assert.equal(await page.locator('.lesson-dot[data-answered="wrong"]').count(), Object.keys(ANSWERS).length);
  await context.close();
});

test('lesson: a step’s link opens that step with its state; progress survives a reload; explore and come back', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, problems } = await open(context, env.server.url + '#lesson=intro&step=7', { width: 1280, height: 800 });
  await page.locator('[data-lesson]').waitFor();
  assert.match(await step(page), /7/);
  assert.equal(await page.inputValue('[data-input="text"]').catch(() => page.locator('input.text-input').inputValue()), 'apple orange iPhone');
  await page.fill('[data-lesson-number]', '6');
  await page.click('[data-lesson-check]');
  await page.click('[data-lesson-next]');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('step') === '8');
  // The bare lesson link, opened again, goes on where the reader was, with the answer kept.
  await page.goto('about:blank');
  await page.goto(env.server.url + '#lesson=intro');
  await page.locator('[data-lesson]').waitFor();
  assert.match(await step(page), /8/);
  assert.equal(await page.locator('.lesson-dot[data-dot="6"]').getAttribute('data-answered'), 'right');
  await page.click('.lesson-dot[data-dot="6"]');
  assert.equal(await page.locator('[data-lesson-reply]').innerText(), 'The answer: 6.', 'answered before: the answer, shown');
  await page.click('.lesson-dot[data-dot="7"]');
  // Explore from here: the step's state stays, the lesson keys leave the link; and back.
  await page.click('[data-lesson-explore]');
  await page.waitForFunction(() => !/lesson=/.test(location.hash));
  assert.equal(await page.locator('[data-lesson-resume]').isVisible(), true);
  assert.match(await page.locator('.pipeline h2').innerText(), /apple/);
  await page.click('button[data-preset="painting"]');
  await page.click('[data-lesson-resume]');
  await page.waitForFunction(() => /lesson=intro&step=8/.test(location.hash));
  assert.match(await page.locator('.pipeline h2').innerText(), /apple/, 'back at the step’s own state');
  // The dots are a progress bar: drag along them, and the step where the pointer lets go opens.
  const box = async (j) => (await page.locator(`.lesson-dot[data-dot="${j}"]`).boundingBox());
  const from = await box(1),
    to = await box(4);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 6 });
  assert.equal(await page.locator('.lesson-dot[data-preview]').getAttribute('data-dot'), '4', 'the step under the pointer is marked');
  assert.equal(await linkStep(page), '8', 'nothing opens until the pointer lets go');
  await page.mouse.up();
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('step') === '5');
  assert.deepEqual(problems, []);
  await context.close();
});

test('lesson: on a phone the reply stays on screen and says where to tap; a language switch redraws it', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
  const { page, problems } = await open(context, env.server.url + '#lesson=intro&step=7', { width: 375, height: 800 });
  await page.fill('[data-lesson-number]', '7');
  await page.tap('[data-lesson-check]');
  const reply = page.locator('[data-lesson-reply]');
  await page.waitForFunction(() => document.querySelector('[data-lesson-reply]')?.dataset.right === 'false');
  assert.match(await reply.innerText(), /^Not quite: it is 6\. You said 7\. Tap that number/);
  const box = await reply.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 800, `the reply on screen: ${JSON.stringify(box)}`);
  await page.click('button[data-lang="zh-CN"]');
  await page.waitForFunction(() => /答案是 6/.test(document.querySelector('[data-lesson-reply]')?.textContent ?? ''));
  assert.deepEqual(problems, []);
  await context.close();
});

test('lesson: axe finds no serious problem in the lesson, asking and answered, nor in its animation: English at 1280 px, Chinese at 375', async () => {
  const found = [];
  for (const [lang, width] of [['en', 1280], ['zh-CN', 375]]) {
    {
      const context = await env.chromium.browser.newContext({ viewport: { width, height: 800 } });
      const { page, problems } = await open(context, `${env.server.url}#lesson=intro&step=2&lang=${lang}`, { width, height: 800 });
      await page.locator('[data-predict]').waitFor();
      for (const when of ['asking', 'answered']) {
        if (when === 'answered') await page.click('[data-choice="3"]');
        // The lesson's own card: the page around it is the a11y suite's.
        found.push(...(await axe(page, { only: '[data-lesson]', tags: LESSON_TAGS })).map((v) => `${lang} ${width} ${when}: ${v}`));
      }
      // The animation a step opens, in the middle of its frames.
      await page.goto(`${env.server.url}#lesson=intro&step=4&lang=${lang}`);
      await page.locator('[data-play]').waitFor();
      await page.locator('[data-play-scrub]').fill('5');
      found.push(...(await axe(page, { only: '[data-play]', tags: LESSON_TAGS })).map((v) => `${lang} ${width} play: ${v}`));
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});
