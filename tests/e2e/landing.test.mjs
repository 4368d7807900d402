// What a new reader meets: the first visit opens on an example whose weights make the point, in
// the reader's language, and no step repeats the one before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, readHeatmap, number, loadPreset, andRender } from './page-helpers.mjs';

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
  assert.match(await page.textContent('.story'), /画里五样东西/);
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

test('an edited example says its text no longer matches, and starts again on request; a sentence typed over it is the reader\'s own', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=causal');
  assert.equal(await page.isVisible('.story-changed'), false);
  const mask = (value) => page.locator(`fieldset[data-control="mask"] input[value="${value}"]`);
  await andRender(page, () => mask('none').check());
  await page.waitForSelector('.story-changed', { state: 'visible' });
  await page.click('.story-changed button');
  await page.waitForSelector('.story-changed', { state: 'hidden' });
  assert.equal(await mask('causal').isChecked(), true);
  // Typed over, the example's text no longer applies at all: the story says what does.
  await andRender(page, () => page.fill('#words-text', 'the dog sleeps'));
  await page.waitForFunction(() => /^Your own sentence,/.test(document.querySelector('.story')?.textContent ?? ''));
  assert.match(await page.textContent('.story'), /each word sees only itself and the words before it/);
  assert.equal(await page.isVisible('.story-changed'), false);
  assert.equal(await mask('causal').isChecked(), true, 'the mask the reader sees stays');
});

test('flat weights from the built-in words say why', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1');
  assert.match(await page.textContent('.step[data-step="weights"] .hint'), /almost even/);
  const { page: painting } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting');
  assert.doesNotMatch(await painting.textContent('.step[data-step="weights"] .hint'), /almost even/);
});

test('at 1280×800 the query, every key’s weight and the output row are on the first screen, for the first visit and every example', async () => {
  const hashes = ['', ...['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead'].map((id) => `#ver=1&preset=${id}`)];
  for (const lang of ['en', 'zh-CN']) {
    for (const hash of hashes) {
      const url = env.server.url + (hash ? `${hash}&lang=${lang}` : `?lang=${lang}`);
      const { page, problems } = await open(env.chromium.context, url, { width: 1280, height: 800 });
      const boxes = await page.evaluate(() => {
        const box = (el) => {
          const r = el.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, text: el.textContent };
        };
        const p = document.querySelector('.pipeline');
        return {
          query: box(p.querySelector('.pipeline-queries [aria-pressed="true"]')),
          weights: Array.from(p.querySelectorAll('td[data-view="weights"]'), box),
          output: Array.from(p.querySelectorAll('td[data-view="output"]'), box),
        };
      });
      const inView = (b) => b.top >= 0 && b.bottom <= 800 && b.left >= 0 && b.right <= 1280;
      const where = `${lang} ${hash || 'first visit'}`;
      assert.ok(inView(boxes.query), `${where}: the query ${JSON.stringify(boxes.query)}`);
      const outside = (list) => JSON.stringify(list.filter((b) => !inView(b)).slice(0, 3));
      assert.ok(boxes.weights.length >= 3 && boxes.weights.every(inView), `${where}: weights outside ${outside(boxes.weights)}`);
      assert.ok(boxes.output.length >= 1 && boxes.output.every(inView), `${where}: output outside ${outside(boxes.output)}`);
      assert.deepEqual(problems, [], where);
      await page.close();
    }
  }
});

test('the pipeline shows the engine’s numbers for the query picked, and pointing at one explains it', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting', { width: 1280, height: 800 });
  const column = (view) => page.$$eval(`.pipeline td[data-view="${view}"]`, (tds) => tds.map((td) => td.textContent));
  // It opens on the sharpest row, "flying": scores 20 30 10 100 10, ÷ T = 20.
  assert.deepEqual((await column('scores')).map(number), [20, 30, 10, 100, 10]);
  assert.deepEqual((await column('scaled')).map(number), [1, 1.5, 0.5, 5, 0.5]);
  assert.deepEqual((await column('weights')).map(number), [0.02, 0.03, 0.01, 0.93, 0.01]);
  // "no condition": 80 60 50 30 10 → e⁴, e³, e²·⁵, e¹·⁵, e⁰·⁵ over their sum: the person 0.59.
  await page.click('.pipeline-queries button[data-query="0"]');
  assert.deepEqual((await column('scores')).map(number), [80, 60, 50, 30, 10]);
  assert.deepEqual((await column('weights')).map(number), [0.59, 0.22, 0.13, 0.05, 0.02]);
  assert.equal(await readHeatmap(page, 'weights').then((w) => w[0].join(' ')), (await column('weights')).join(' '));
  // The chips are one Tab stop: → moves to the next query.
  await page.focus('.pipeline-queries button[data-query="0"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('.pipeline-queries button[data-query="1"]', 'aria-pressed'), 'true');
  await page.hover('.pipeline td[data-view="weights"][data-col="3"]');
  await page.waitForFunction(() => /0\.93/.test(document.querySelector('.explain')?.textContent ?? ''));
});

test('a comparison shows both configurations in the pipeline, each named, with its own numbers and explanations', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&preset=fruit', { width: 1280, height: 800 });
  const column = (side, view) => page.$$eval(`.pipeline td[data-side="${side}"][data-view="${view}"]`, (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(await page.$$eval('.pipeline caption.side-name', (c) => c.map((x) => x.textContent)), ['Dot product', 'Cosine']);
  // apple: by dot product 6, 6, 7 → 0.01 0.01 0.99; by cosine 1, 0.87, 0.79 → 0.54 0.27 0.19 (÷ T = 0.2 on both).
  assert.deepEqual((await column('a', 'scores')).map(number), [6, 6, 7]);
  assert.deepEqual((await column('b', 'scores')).map(number), [1, 0.87, 0.79]);
  assert.deepEqual((await column('b', 'weights')).map(number), [0.54, 0.27, 0.19]);
  assert.equal((await readHeatmap(page, 'weights', 'b'))[0].join(' '), (await column('b', 'weights')).join(' '));
  assert.equal((await column('b', 'output')).length, 3, 'an output row per side');
  assert.match(await page.locator('.pipeline .hint').innerText(), /H = 0\.08 by Dot product, 1 by Cosine/);
  await page.hover('.pipeline td[data-side="b"][data-view="weights"][data-col="1"]');
  await page.waitForFunction(() => /0\.27/.test(document.querySelector('.explain')?.textContent ?? '') &&
    /cos/i.test(document.querySelector('.explain')?.textContent ?? ''));
  // Without a comparison there is one table and no side names.
  await page.selectOption('[data-control="compare"]', 'off');
  await page.waitForFunction(() => document.querySelector('.pipeline table[data-side="b"]')?.closest('[hidden]'));
  assert.equal(await page.locator('.pipeline caption.side-name').count(), 0);
  assert.deepEqual(problems, []);
});

test('the formula, in both languages: brackets as tall as what they hold, √ over all of d_k, ᵀ clear of the radical', async () => {
  for (const lang of ['en', 'zh-CN']) {
    const { page } = await open(env.chromium.context, env.server.url + `#ver=1&preset=causal&lang=${lang}`, { width: 1280, height: 800 });
    const m = await page.evaluate(() => {
      const math = document.querySelector('.formula math');
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width };
      };
      const mos = Array.from(math.querySelectorAll('mo'));
      const open = mos.filter((mo) => mo.textContent === '(');
      return {
        q: box(math.querySelector('mi')), // "Attention"
        args: box(open[0]),
        frac: box(math.querySelector('mfrac')),
        soft: box(open[open.length - 1]),
        sqrt: box(math.querySelector('msqrt')),
        sub: box(math.querySelector('msqrt msub')),
        t: box(math.querySelector('msup > mi:last-child')),
      };
    });
    assert.ok(m.args.height <= 1.6 * m.q.height, `${lang}: Attention's brackets are ${m.args.height} px for text ${m.q.height} px`);
    assert.ok(m.soft.height >= 0.9 * m.frac.height, `${lang}: softmax's brackets ${m.soft.height} px around a fraction of ${m.frac.height} px`);
    assert.ok(m.sqrt.width >= m.sub.width + 4 && m.sqrt.left <= m.sub.left - 4, `${lang}: √ ${JSON.stringify(m.sqrt)} over d_k ${JSON.stringify(m.sub)}`);
    assert.ok(m.t.bottom <= m.sqrt.top + 1, `${lang}: ᵀ ends at ${m.t.bottom}, the radical starts at ${m.sqrt.top}`);
    await page.close();
  }
});

test('a row label box has nothing drawn beside it (an overflowing header drew an ellipsis dot)', async () => {
  const { page } = await open(env.chromium.context, env.server.url + '#ver=1&preset=painting');
  const overflowing = await page.$$eval('.grid.editable tbody th', (ths) =>
    ths.filter((th) => th.scrollWidth > th.clientWidth && getComputedStyle(th).textOverflow === 'ellipsis').map((th) => th.querySelector('input')?.value),
  );
  assert.deepEqual(overflowing, []);
});

/** The explanation panel and the row of the cell it explains, as the viewport has them. */
async function explained(page, selector) {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.hover(selector);
  await page.waitForSelector('.explain.open');
  return page.evaluate((sel) => {
    const panel = document.querySelector('.explain').getBoundingClientRect();
    const row = document.querySelector(sel).closest('tr').getBoundingClientRect();
    const el = document.querySelector('.explain');
    return { panel: [panel.top, panel.bottom, panel.left, panel.right], row: [row.top, row.bottom, row.left, row.right],
      hidden: el.scrollHeight - el.clientHeight, view: [innerWidth, innerHeight], text: el.textContent };
  }, selector);
}

const clear = ({ panel: [top, bottom, left, right], row: [rTop, rBottom, rLeft, rRight], view: [w, h] }) =>
  top >= 0 && bottom <= h && left >= 0 && right <= w && (bottom <= rTop || top >= rBottom || right <= rLeft || left >= rRight);

test('the explanation opens beside the number, whole, off its row: the pipeline, a heatmap, an embed without controls', async () => {
  const cases = [
    ['#ver=1&preset=painting', '.pipeline td[data-view="weights"][data-col="3"]', /exp\(5 − 5\) ÷ 1\.0707/],
    ['#ver=1&preset=fruit', '.heatmap[data-view="weights"][data-side="a"] td[data-i="0"][data-j="2"]', /apple → iPhone/],
    ['embed.html#ver=1&preset=fruit&embed=1&controls=minimal', '.heatmap[data-view="weights"][data-side="a"] td[data-i="1"][data-j="1"]', /orange → orange/],
  ];
  for (const [hash, selector, says] of cases) {
    const { page, problems } = await open(env.chromium.context, env.server.url + hash, { width: 1280, height: 800 });
    const e = await explained(page, selector);
    assert.ok(clear(e), `${hash}: panel ${e.panel} row ${e.row}`);
    assert.equal(e.hidden, 0, `${hash}: the explanation needs no scrolling`);
    assert.match(e.text, says);
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('.explain'), false, 'Escape closes it');
    assert.deepEqual(problems, []);
    await page.close();
  }
});
