// The link is the state: what a reader sets is written into location.hash, a new page
// opened on that link shows the same numbers, and a broken or hostile link gives the defaults
// plus a notice, never an error, a dialog or injected markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, ready, andRender, readHeatmap, loadPreset, written } from './page-helpers.mjs';

const env = serveAndLaunch();

/** Waits until the page has written its (debounced) state into the link. */
async function settledHash(page, pattern) {
  await page.waitForFunction((p) => new RegExp(p).test(location.hash), pattern.source, { timeout: 5000 });
  await written(page);
  return page.evaluate(() => location.hash);
}

test('share: a link reproduces the same numbers in a new page', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1');
  await loadPreset(page, 'painting');
  await andRender(page, () => page.check('fieldset[data-control="mask"] input[value="causal"]'));
  const hash = await settledHash(page, /mask=causal/);
  assert.match(hash, /^#ver=2&/);
  const weights = await readHeatmap(page, 'weights');
  const output = await readHeatmap(page, 'output');
  // Vectors typed by hand travel too.
  const { page: second, problems: p2 } = await open(env.chromium.context, env.server.url + hash);
  assert.deepEqual(await readHeatmap(second, 'weights'), weights);
  assert.deepEqual(await readHeatmap(second, 'output'), output);
  assert.equal(await second.locator('[data-notice="link"]').count(), 0);
  assert.equal(await second.locator('button[data-preset="painting"]').getAttribute('aria-pressed'), 'true');
  assert.deepEqual([...problems, ...p2], []);
  await page.close();
  await second.close();
});

test('share: an edited vector and the language survive the link; hashchange applies a new link', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&mode=vectors&lang=zh-CN');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  const first = page.locator('.input-grid[data-view="q"] tbody input').first();
  if (await first.count()) {
    await andRender(page, () => first.fill('3'));
  }
  const hash = await settledHash(page, /mode=vectors/);
  const weights = await readHeatmap(page, 'weights');
  const { page: second } = await open(env.chromium.context, env.server.url + hash);
  assert.deepEqual(await readHeatmap(second, 'weights'), weights);
  assert.equal(await second.evaluate(() => document.documentElement.lang), 'zh-CN');
  // Same tab, another link: it becomes the state.
  await second.evaluate(() => { location.hash = 'ver=1&similarity=cosine&lang=en'; });
  await second.waitForFunction(() => document.documentElement.lang === 'en');
  await ready(second);
  assert.equal(await second.locator('fieldset[data-control="similarity"] input[value="cosine"]').isChecked(), true);
  assert.deepEqual(problems, []);
  await page.close();
  await second.close();
});

const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
// A few of the hostile links tests/js/hostile-links.test.mjs gives the parser, opened in the page:
// what the page shows of a refused link. Pairs, since an object's `__proto__:` is no key.
const HOSTILE = [
  ['markup as a key', 'ver=1&' + encodeURIComponent(PAYLOAD) + '=1'],
  ['markup in a matrix', 'ver=1&q=' + encodeURIComponent(JSON.stringify([[PAYLOAD]]))],
  ['100 KB', 'ver=1&text=' + 'a'.repeat(100 * 1024)],
  ['__proto__', 'ver=1&__proto__[polluted]=1'],
];

test('share: hostile links give the defaults and a notice: no dialog, no injected element, no console error', async () => {
  const { page: clean } = await open(env.chromium.context, env.server.url + '#ver=2');
  const defaults = await readHeatmap(clean, 'weights');
  const elements = await clean.evaluate(() => document.querySelectorAll('script, img, iframe, object, embed').length);
  await clean.close();
  // One tab opens each link in turn, from a blank page, so each is a first load of the page.
  const page = await env.chromium.context.newPage();
  let dialogs, problems;
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('requestfailed', (r) => problems.push('requestfailed ' + r.url().slice(0, 60)));
  for (const [name, hash] of HOSTILE) {
    await page.goto('about:blank');
    dialogs = [];
    problems = [];
    await page.goto(env.server.url + '#' + hash);
    await ready(page);
    const notice = page.locator('[data-notice="link"]');
    assert.equal(await notice.count(), 1, name + ': notice');
    assert.ok((await notice.innerText()).length > 20, name);
    assert.deepEqual(await readHeatmap(page, 'weights'), defaults, name + ': defaults');
    const seen = await page.evaluate(() => ({
      pwned: window.__pwned, polluted: ({}).polluted,
      elements: document.querySelectorAll('script, img, iframe, object, embed').length,
    }));
    assert.deepEqual(seen, { pwned: undefined, polluted: undefined, elements }, name);
    assert.deepEqual(dialogs, [], name);
    assert.deepEqual(problems, [], name);
  }
  await page.close();
});

test('share: markup typed as words stays text, and the notice can be dismissed', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1&text=' + encodeURIComponent(PAYLOAD));
  assert.equal(await page.locator('[data-notice="link"]').count(), 0);
  assert.equal(await page.locator('#words-text').inputValue(), PAYLOAD);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await page.evaluate(() => { location.hash = 'ver=1&nope=1'; });
  await page.locator('[data-notice="link"]').waitFor();
  await page.locator('[data-notice="link"] button').click();
  assert.equal(await page.locator('[data-notice="link"]').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
