// What a link or a paste does to the page when it asks for more than the page gives: every change
// of the reader's input is said where it happens, a lookup by link text finds only the page's
// own keys, and a page mounted again answers its keys once, from the App now on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, ready, renders } from './page-helpers.mjs';

const env = serveAndLaunch();

test('hardened: a paste longer than the field keeps its first 2,000 characters and says how long it was, in both languages', async () => {
  for (const [lang, said] of [['en', /That text has 2,503 characters; the field keeps the first 2,000\./],
    ['zh-CN', /这段文字有 2,503 个字符；输入框只保留前 2,000 个。/]]) {
    const { page, problems } = await open(env.chromium.context, env.server.url + `#ver=1&lang=${lang}`);
    const long = 'word '.repeat(500) + 'end';
    assert.equal(long.length, 2503);
    const before = await renders(page);
    await page.focus('#words-text');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(long); // an input method's or a paste's insertion, through beforeinput
    await ready(page, before);
    assert.equal((await page.inputValue('#words-text')).length, 2000);
    assert.match(await page.textContent('[data-cut="words-text"]'), said);
    // The next change that fits clears it.
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('the cat sat');
    assert.equal(await page.textContent('[data-cut="words-text"]'), '');
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('hardened: a lesson link past the last step opens the last step and says so', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&lesson=intro&step=99');
  await page.waitForSelector('[data-lesson-text]');
  const count = await page.textContent('.lesson-count');
  const n = Number(count.match(/(\d+)\D*$/)[1]);
  assert.match(count, new RegExp(`${n}\\D+${n}`), `the last step: ${count}`);
  // Said in the step itself, where the page scrolled to.
  assert.equal(await page.textContent('[data-lesson] [data-notice="link"]'),
    `This lesson has ${n} steps; the link asked for step 99, so it opens at step ${n}.`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('hardened: #lesson=constructor (a key of every object) is refused as a lesson the page has not, with no error', async () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const { page, problems } = await open(env.chromium.context, env.server.url + `#ver=1&preset=fruit&lesson=${name}`);
    await page.waitForSelector('[data-notice="link"]');
    assert.equal(await page.locator('[data-lesson]').count(), 0, name);
    assert.equal(await page.evaluate(() => document.getElementById('app').dataset.state), 'ok');
    assert.deepEqual(problems, [], name);
    await page.close();
  }
});

test('hardened: Present answers → after two language switches (the App before them is gone, its keys too)', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=fruit');
  for (const tag of ['zh-CN', 'en']) {
    const before = await renders(page);
    await page.click(`[data-lang="${tag}"]`);
    await ready(page, before);
  }
  await page.click('button.present-open');
  await page.waitForSelector('button.present-open[aria-pressed="true"]'); // its keys and styles come then
  const preset = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('preset'));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('preset') !== 'fruit', null, { timeout: 5000 });
  const next = await preset();
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('preset') === 'fruit', null, { timeout: 5000 });
  assert.notEqual(next, 'fruit');
  assert.deepEqual(problems, []);
  await page.close();
});

test('hardened: a link opened in the tab during a lesson sets the lesson aside; its button brings back that step and its figure', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&lesson=intro&step=13');
  await page.waitForSelector('[data-lesson-text]');
  const question = await page.textContent('[data-lesson-text]');
  let before = await renders(page);
  await page.evaluate(() => { location.hash = 'ver=1&preset=fruit'; });
  await ready(page, before);
  await page.waitForSelector('[data-lesson-resume]');
  assert.equal(await page.locator('[data-lesson-text]').count(), 0, 'no question about a figure that is gone');
  assert.match(await page.textContent('[data-lesson-resume]'), /13/);
  assert.equal(new URLSearchParams(await page.evaluate(() => location.hash.slice(1))).get('preset'), 'fruit');
  before = await renders(page);
  await page.click('[data-lesson-resume]');
  await ready(page, before);
  assert.equal(await page.textContent('[data-lesson-text]'), question);
  assert.deepEqual(problems, []);
  await page.close();
});
