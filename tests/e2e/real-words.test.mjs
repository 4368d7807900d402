// A reader's own words with the vectors learned from real text (docs/word-vectors.md): they come
// only when a sentence uses them, a sentence's similar words then attend to each other, and a
// file that cannot come is said, not shown as numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, readHeatmap, number, andRender, shot } from './page-helpers.mjs';

const env = serveAndLaunch();

/** For row `i` of the weights: the word it weighs most after itself, and whether itself is first. */
async function mostAlike(page, i) {
  const row = (await readHeatmap(page, 'weights'))[i].map(number);
  const tokens = await page.$$eval('.heatmap[data-view="weights"][data-side="a"] thead th', (ths) =>
    ths.map((th) => th.textContent.trim()).filter((x) => x && x !== 'Σ' && x !== 'H'));
  const others = row.map((w, j) => [w, j]).filter(([, j]) => j !== i).sort((a, b) => b[0] - a[0]);
  return { self: row[i] > others[0][0], next: tokens[others[0][1]], row, tokens };
}

test('learned vectors: not on the first load; a sentence typed over the painting uses them, and "apple" weighs "orange" most after itself', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url);
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('vectors')) asked.push(r.url()); });
  assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('vectors'))), false);
  // The painting divides by T = 20; a sentence of the reader's own starts from ÷ √d_k, and says so.
  await andRender(page, () => page.check('fieldset[data-control="mode"] input[value="words"]'));
  await andRender(page, () => page.fill('#words-text', 'I ate an apple and an orange'));
  assert.equal(asked.length, 1, asked.join(' '));
  assert.equal(await page.inputValue('select[data-control="lexicon"]'), 'learned');
  assert.match(await page.textContent('.lexicon-note'), /42,000 English and Chinese words, 32 learned numbers/);
  assert.match(await page.textContent('.story'), /^Your own sentence, .*The scores are dot products ÷ √d_k, made weights by softmax\. Alike words attend to each other, which is what word vectors measure/);
  const apple = await mostAlike(page, 3);
  assert.ok(apple.self, `apple weighs itself most: ${apple.row}`);
  assert.equal(apple.next, 'orange', `${apple.tokens} ${apple.row}`);
  // The link is written soon after: the sentence alone, its settings the version's defaults.
  await page.waitForFunction(() => location.hash === '#ver=2&text=I+ate+an+apple+and+an+orange', null, { timeout: 5000 });
  // A learned number has no name: pointing at apple's vector names the words nearest it.
  await page.hover('.input-grid[data-view="x"] input[data-i="3"][data-j="0"]');
  await page.waitForFunction(() => /words nearest it \(cosine\): .*\d\.\d\d/.test(document.querySelector('.explain')?.textContent ?? ''));
  // Each word weighs itself most: one button masks that, and apple's weight goes to the others.
  assert.match(await page.textContent('.self-note'), /Each word weighs itself most/);
  await andRender(page, () => page.click('button[data-action="hide-self"]'));
  const hidden = await mostAlike(page, 3);
  assert.equal(hidden.row[3], 0, `apple's weight on itself is masked: ${hidden.row}`);
  assert.equal(hidden.next, 'orange');
  assert.ok(Math.abs(hidden.row.reduce((a, b) => a + b) - 1) < 0.03, `${hidden.row}`);
  assert.match(await page.textContent('.self-note'), /masked from itself/);
  await shot(page, 'real-words-en-1280');
  // What word vectors cannot do, a trained model's heads can be looked at for: the same sentence
  // in the Real model view, one press away.
  await page.click('.story-action');
  await page.waitForFunction(() => document.querySelector('[data-real]')?.dataset.state === 'ready', null, { timeout: 30000 });
  assert.equal(await page.inputValue('[data-real-input]'), 'I ate an apple and an orange');
  assert.match(await page.evaluate(() => location.hash), /view=real&sentence=I\+ate\+an\+apple\+and\+an\+orange/);
  assert.deepEqual(problems, []);
});

test('learned vectors from a link, in Chinese: 苹果 weighs 香蕉 most after itself', async () => {
  const text = encodeURIComponent('我喜欢吃苹果和香蕉');
  const { page, problems } = await open(env.chromium.context,
    `${env.server.url}#ver=1&lang=zh-CN&lexicon=learned&text=${text}`, { width: 375, height: 800 });
  await page.waitForFunction(() => /学到的数/.test(document.querySelector('.lexicon-note')?.textContent ?? ''));
  await page.waitForSelector('.heatmap[data-view="weights"] tbody');
  const apple = await mostAlike(page, 3);
  assert.deepEqual(apple.tokens, ['我', '喜欢', '吃', '苹果', '和', '香蕉']);
  assert.equal(apple.next, '香蕉', `${apple.row}`);
  await shot(page, 'real-words-zh-375');
  // Words the vectors lack are named above the figure: zeros, and no meaning to attend to.
  await andRender(page, () => page.fill('#words-text', '🍎 zorblat'));
  assert.match(await page.textContent('.story'), /这些词都不在学到的词里，所以每个向量都是零/);
  assert.deepEqual((await readHeatmap(page, 'weights')).map((r) => r.map(number)), [[0.5, 0.5], [0.5, 0.5]]);
  await andRender(page, () => page.fill('#words-text', '🍎 苹果'));
  assert.match(await page.textContent('.story'), /学到的词里没有：🍎。这样的词得到全零向量/);
  assert.deepEqual(problems, []);
});

test('learned vectors that cannot come: the page says why and uses the built-in ones', async () => {
  const context = await env.chromium.browser.newContext();
  await context.route('**/vectors.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
  const { page } = await open(context, env.server.url + '#ver=1&text=the%20bird%20flies');
  await andRender(page, () => page.selectOption('select[data-control="lexicon"]', 'learned'));
  await page.waitForFunction(() => document.querySelector('.lexicon-note.error'));
  assert.match(await page.textContent('.lexicon-note'), /could not load \(vectors\.js did not load\)/);
  assert.equal(await page.inputValue('select[data-control="lexicon"]'), 'builtin');
  assert.ok((await readHeatmap(page, 'weights')).length === 3, 'the built-in figure is drawn');
  await context.close();
});
