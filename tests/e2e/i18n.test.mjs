// The page in English and in Chinese: the catalogs are complete, the language comes from the link
// or the browser and switches live, the Chinese page shows no English UI string, and the engine's
// errors, and the trainer's, reach a Chinese reader in Chinese. A screenshot per language and
// viewport is written to build/test-results/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import {
  root, serve, launch, open, andRender, readHeatmap, cell, shot, loadPreset, ready,
} from './page-helpers.mjs';
import { decodePng, rgb, colours } from './png.mjs';

const PRESETS = ['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead'];
let server, chromium, en, zh;

async function load(entry) {
  const out = await build({ entryPoints: [join(root, entry)], bundle: true, format: 'esm', platform: 'neutral',
    write: false, logLevel: 'silent' });
  return import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
}

before(async () => {
  en = (await load('web/src/i18n/en.ts')).en;
  zh = (await load('web/src/i18n/zh-CN.ts')).zhCN;
  server = await serve();
  chromium = await launch();
});
after(async () => {
  await chromium?.close();
  await server?.close();
});

const params = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('catalogs: every key in both languages, with the same parameters, none empty', () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en)) {
    assert.ok(en[key].trim() !== '' && zh[key].trim() !== '', key);
    assert.deepEqual(params(zh[key]), params(en[key]), key);
  }
});

/**
 * English catalog text a Chinese page must not show: each English message that the Chinese
 * catalog words differently, cut at its parameters, keeping the pieces that hold an English word.
 * Symbols and names that both catalogs share (Σ, ÷ √d_k, softmax, iPhone, GloVe) are allowed.
 */
function englishFragments() {
  const shared = new Set(Object.values(zh).flatMap((v) => v.match(/[A-Za-z][A-Za-z_]+/g) ?? []));
  const fragments = new Set();
  for (const [key, value] of Object.entries(en)) {
    if (zh[key] === value) continue;
    for (const piece of value.split(/\{\w+\}/)) {
      const words = (piece.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !shared.has(w));
      if (words.length) fragments.add(piece.trim());
    }
  }
  return [...fragments].filter((f) => f.length >= 3);
}

/** Whether `text` holds `fragment` as whole words ("tech" is not in "technology"). */
function shows(text, fragment) {
  const escaped = fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z])${escaped}($|[^A-Za-z])`).test(text);
}

/** Everything the page says to a reader: its text, and labels, titles and placeholders. */
function pageText(page) {
  return page.evaluate(() => {
    // Text nodes rather than innerText: cards off screen (content-visibility) have no innerText,
    // and what only a screen reader hears counts too.
    const parts = [document.title];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.parentElement.closest('[hidden], script, style, noscript, details:not([open]) > :not(summary)')) parts.push(n.data);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (el.closest('[hidden]')) continue;
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(name);
        if (v) parts.push(v);
      }
    }
    return parts.join('\n');
  });
}

/** Tokens, feature names and example sentences are data: the words a reader typed or loaded. */
function dataWords(page) {
  return page.evaluate(() => {
    const words = new Set();
    for (const el of document.querySelectorAll('.heatmap th, .input-grid th, select[data-control="example"] option')) {
      for (const w of el.textContent.match(/[A-Za-z]+/g) ?? []) words.add(w);
    }
    for (const el of document.querySelectorAll('.input-grid input.label-input')) {
      for (const w of el.value.match(/[A-Za-z]+/g) ?? []) words.add(w);
    }
    return [...words];
  });
}

test('the Chinese page shows no English UI string, on every preset', async () => {
  const { page, problems } = await open(chromium.context, server.url + '#lang=zh-CN');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  const fragments = englishFragments();
  assert.ok(fragments.length > 100, `the scan checks ${fragments.length} English fragments`);
  const check = async (where) => {
    const text = await pageText(page);
    const data = new Set(await dataWords(page));
    const found = fragments.filter((f) => shows(text, f) &&
      !(f.match(/[A-Za-z]{3,}/g) ?? []).every((w) => data.has(w)));
    assert.deepEqual(found, [], where);
    assert.match(text, /[\u4e00-\u9fff]/, where);
  };
  await check('default');
  for (const id of PRESETS) {
    await loadPreset(page, id);
    await cell(page, 'weights', 0, 0).hover();
    await check(id);
  }
  // The explanation of an output entry and of an input, and a comparison's side names.
  await loadPreset(page, 'fruit');
  await cell(page, 'output', 0, 0).hover();
  await check('fruit, output explained');
  assert.deepEqual(problems, []);
  await page.close();
});

test('language: the link’s lang= wins, else the browser’s language', async () => {
  const context = await chromium.browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
  try {
    const { page } = await open(context, server.url + '#ver=1');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.equal(await page.locator('h1').innerText(), zh['app.title']);
    await page.evaluate(() => { location.hash = 'lang=en'; });
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.locator('h1').innerText(), en['app.title']);
    await page.close();
  } finally {
    await context.close();
  }
});

test('the Chinese catalog reads as UTF-8 in a page of another encoding, from a server that names none', async () => {
  // A blog in a legacy encoding, its server silent about the script's: the catalog's byte-order
  // mark decides, not the page's encoding.
  const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.route(/\/(index\.html)?(#.*)?$|i18n-zh-CN\.js$/, async (route) => {
      const response = await route.fetch();
      const html = response.headers()['content-type'].startsWith('text/html');
      await route.fulfill({ response, headers: { ...response.headers(), 'content-type': html ? 'text/html; charset=gbk' : 'text/javascript' } });
    });
    const { page, problems } = await open(context, server.url + '#lang=zh-CN');
    assert.equal(await page.evaluate(() => document.characterSet), 'GBK');
    assert.equal(await page.locator('h1').innerText(), zh['app.title']);
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await context.close();
  }
});

test('the switch changes the language live and keeps the state; numbers stay the engine’s', async () => {
  const { page, problems } = await open(chromium.context, server.url + '#ver=1');
  await loadPreset(page, 'painting');
  await andRender(page, () => page.check('fieldset[data-control="mask"] input[value="causal"]'));
  const weights = await readHeatmap(page, 'weights', 'a');
  await page.click('button[data-lang="zh-CN"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await ready(page);
  assert.equal(await page.locator('h1').innerText(), zh['app.title']);
  assert.equal(await page.title(), zh['app.title']);
  assert.match(await page.evaluate(() => location.hash), /lang=zh-CN/);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.lang), 'zh-CN', 'focus stays on the switch');
  assert.equal(await page.locator('button[data-lang="zh-CN"]').getAttribute('aria-pressed'), 'true');
  // The preset's labels are now Chinese words; the settings and the numbers are unchanged.
  const labels = await page.locator('.heatmap[data-view="weights"][data-side="a"] thead th').allInnerTexts();
  assert.deepEqual(labels.slice(0, 5), ['人', '山', '花', '鸟', '绸带']);
  assert.ok(await page.locator('fieldset[data-control="mask"] input[value="causal"]').isChecked());
  assert.deepEqual(await readHeatmap(page, 'weights', 'a'), weights);
  await cell(page, 'scores', 1, 3).hover();
  assert.match(await page.locator('.explain-body').innerText(), /“飞行”与“鸟”的相似度/);
  // And back.
  await page.click('button[data-lang="en"]');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.locator('h1').innerText(), en['app.title']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the built-in word list’s features are named in the page’s language; the vectors stay the same', async () => {
  // A sentence of the reader's own: the default one would be translated with the page.
  const { page, problems } = await open(chromium.context, server.url + '#ver=1&text=a+cat+and+a+dog&lang=en');
  const headers = () => page.locator('.input-grid[data-view="x"] thead th').allInnerTexts();
  const cells = () => page.locator('.input-grid[data-view="x"] tbody input').evaluateAll((els) => els.map((e) => e.value));
  const names = ['animal', 'plant', 'food', 'technology', 'person', 'place', 'can_fly', 'size'];
  assert.deepEqual((await headers()).filter((h) => h.trim()).slice(-8), names.map((n) => en['feature.' + n]));
  assert.ok((await headers()).includes('can fly'));
  const vectors = await cells();
  await page.click('button[data-lang="zh-CN"]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await ready(page);
  assert.deepEqual((await headers()).filter((h) => h.trim()).slice(-8),
    ['动物', '植物', '食物', '科技', '人物', '地点', '会飞', '大小']);
  assert.deepEqual(await cells(), vectors);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the engine’s errors reach a Chinese reader in Chinese, with their place', async () => {
  const { page, problems } = await open(chromium.context, server.url + '#lang=zh-CN');
  await loadPreset(page, 'painting');
  // A letter in a number cell (the page's own check).
  await andRender(page, () => page.locator('.input-grid[data-view="q"] input[data-i="1"][data-j="0"]').fill('0x'));
  assert.match(await page.locator('[data-errors="q"]').innerText(), /第 2 行.*第 1 列：“0x”不是数字/);
  await andRender(page, () => page.locator('.input-grid[data-view="q"] input[data-i="1"][data-j="0"]').fill('0'));
  // A ragged row in a pasted matrix (the engine's parser).
  await page.click('details.paste summary');
  await page.selectOption('select[data-control="paste-target"]', 'k');
  await page.fill('textarea[data-input="matrix-paste"]', '1 2\n3');
  await page.click('button[data-action="paste"]');
  const ragged = await page.locator('[data-errors="paste"]').innerText();
  assert.match(ragged, /第 2 行/);
  assert.doesNotMatch(ragged, /[A-Za-z]{4,}/, 'no English words');
  // A matrix of the wrong width (the engine's shape check), said next to the inputs.
  await page.fill('textarea[data-input="matrix-paste"]', '1 2 3\n4 5 6\n7 8 9\n1 1 1\n2 2 2');
  await andRender(page, () => page.click('button[data-action="paste"]'));
  const shape = (await page.locator('.vectors-panel [data-errors]').allInnerTexts()).join('\n');
  assert.match(shape, /Q 有 2 列，K 有 3 列/);
  // A file that is not word vectors.
  await andRender(page, () => page.click('fieldset[data-control="mode"] input[value="words"]'));
  await page.click('details.file summary');
  await page.setInputFiles('#glove-file', { name: 'notes.txt', mimeType: 'text/plain',
    buffer: Buffer.from('apple 1 2 3\norange 1 two 3\n') });
  await page.waitForSelector('[data-error="file"]');
  const file = await page.locator('[data-error="file"]').innerText();
  assert.match(file, /词向量文件：第 2 行/);
  // An empty sentence.
  await andRender(page, () => page.fill('#words-text', '  '));
  assert.match(await page.locator('[data-errors="text"]').innerText(), /先输入几个词/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the trainer’s errors reach a Chinese reader in Chinese: a model in the link that cannot be read', async () => {
  const { page, problems } = await open(chromium.context,
    `${server.url}#lang=zh-CN&view=learn&task=reverse&seed=1&trained=20&weights=QVBUTQ`);
  await page.waitForFunction(() => document.querySelector('[data-learn-status]')?.dataset.steps === '20', null, { timeout: 30000 });
  const note = await page.locator('[data-learn-note]').textContent();
  assert.match(note, /无法读取链接中的模型（第 4 个字节：/);
  assert.doesNotMatch(note, /[A-Za-z]{4,}/, 'no English words');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a screenshot per language and viewport shows the title, the weights in their colours, no sideways scroll', async () => {
  for (const lang of ['en', 'zh-CN']) {
    const catalog = lang === 'en' ? en : zh;
    for (const width of [1280, 375]) {
      const what = `${lang} ${width}`;
      const { page, problems } = await open(chromium.context, `${server.url}#lang=${lang}`, { width, height: 900 });
      await loadPreset(page, 'fruit');
      await cell(page, 'scores', 0, 1).hover();
      const png = decodePng(await shot(page, `i18n-${lang}-${width}`));
      const full = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
      // The whole page: as wide as the screen, and at least a screen high (its height can still grow
      // between the shot and the measure, as the plot and the cost view arrive after the first draw).
      assert.equal(png.width, full[0], `${what}: the shot is as wide as the page`);
      assert.ok(png.height >= 900, `${what}: the whole page, ${png.height} px high`);
      assert.equal(full[0], width, `${what}: the page scrolls sideways`);
      assert.equal(await page.locator('h1').innerText(), catalog['app.title'], what);
      assert.ok(await page.locator('h1').isVisible(), what);
      // The weights, as a reader sees them: three rows of numbers, each cell in its colour.
      const weights = await readHeatmap(page, 'weights');
      assert.equal(weights.length, 3, what);
      for (const row of weights) for (const x of row) assert.match(x, /^\d(\.\d+)?$/, what);
      for (const [i, j] of [[0, 0], [1, 2], [2, 1]]) {
        const seen = await cell(page, 'weights', i, j).evaluate((td) => {
          const box = td.getBoundingClientRect();
          return { x: box.left + scrollX, y: box.top + scrollY, w: box.width, h: box.height,
            colour: getComputedStyle(td).backgroundColor };
        });
        // The cell's commonest pixel, its edges (a highlight's inset ring) left out, is its fill.
        const count = new Map();
        for (let y = Math.ceil(seen.y + 4); y < seen.y + seen.h - 4; y++) {
          for (let x = Math.ceil(seen.x + 4); x < seen.x + seen.w - 4; x++) {
            const key = png.pixel(x, y).slice(0, 3).join();
            count.set(key, (count.get(key) ?? 0) + 1);
          }
        }
        const commonest = [...count].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
        assert.ok(rgb(seen.colour).every((v, k) => Math.abs(commonest[k] - v) <= 2),
          `${what}: weights (${i}, ${j}) is mostly ${commonest}, styled ${seen.colour}`);
      }
      assert.ok(colours(png) > 20, `${what}: the screenshot is not blank`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
});
