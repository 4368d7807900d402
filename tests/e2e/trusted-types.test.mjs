// Trusted Types: the served CSP requires them for every script sink (`require-trusted-types-for
// 'script'`), allowing one policy, and every page and action runs under it with no violation:
// the full page, embed.html, the cost view's worker (a Worker and importScripts inside it), the
// exports and the share dialog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, open, andRender, costCard } from './page-helpers.mjs';

let server, browser, context;
before(async () => {
  server = await serve();
  browser = await launch();
  context = await browser.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
  // Every CSP violation the document sees, from before the first script runs.
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
});
after(async () => { await context?.close(); await browser?.close(); await server?.close(); });

const violations = (page) => page.evaluate(() => window.__violations);

test('trusted types: the served CSP requires them and allows only the playground policy', async () => {
  for (const path of ['', 'embed.html', 'cost-worker.js', 'cost-view.js', 'attention-engine.js']) {
    const csp = (await fetch(server.url + path)).headers.get('content-security-policy');
    assert.match(csp, /(^|; )require-trusted-types-for 'script'(;|$)/, path);
    assert.match(csp, /(^|; )trusted-types attention-playground(;|$)/, path);
  }
});

test('trusted types: the CSP is enforced, so a script URL from a string is refused and reported', async () => {
  // The control for the tests below: the listener sees a violation when there is one.
  const { page } = await open(context, server.url + '#ver=1');
  const result = await page.evaluate(() => {
    try {
      document.createElement('script').src = 'elsewhere.js';
      return 'assigned';
    } catch (e) {
      return e.name;
    }
  });
  assert.equal(result, 'TypeError');
  await page.waitForFunction(() => window.__violations.length > 0);
  assert.match((await violations(page))[0], /^require-trusted-types-for /);
  await page.close();
});

test('trusted types: index and embed render with no violation and no console error', async () => {
  for (const path of ['#ver=1&preset=fruit', 'embed.html#ver=1&preset=causal&lang=zh-CN']) {
    const { page, problems } = await open(context, server.url + path);
    await andRender(page, () => page.fill('#words-text', 'the bird flies over the mountain'));
    assert.deepEqual(await violations(page), [], path);
    assert.deepEqual(problems, [], path);
    await page.close();
  }
});

test('trusted types: the cost view starts its worker, which loads the engine and measures', async () => {
  const { page, problems } = await open(context, server.url + '#ver=1');
  const card = await costCard(page);
  await card.locator('button').click();
  // The first measured point came from the worker: Worker and importScripts both passed.
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-view="cost"]');
    return c.dataset.state === 'failed' || Number(c.querySelector('progress').dataset.done ?? 0) >= 1;
  }, undefined, { timeout: 60000 });
  assert.notEqual(await card.getAttribute('data-state'), 'failed', await card.locator('[role="status"]').innerText());
  assert.equal(await page.locator('[data-chart="time"] circle').count() >= 1, true);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await page.close(); // ends the worker before it reaches n = 4096
});

test('trusted types: exports and the share dialog work with no violation', async () => {
  const { page, problems } = await open(context, server.url + '#ver=1&preset=fruit');
  const downloaded = async (selector) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    return d.suggestedFilename();
  };
  await page.click('[data-export="weights"] summary');
  assert.equal(await downloaded('[data-export="weights"] [data-download="png"]'), 'attention-weights.png');
  assert.equal(await downloaded('[data-export="weights"] [data-download="svg"]'), 'attention-weights.svg');
  await page.click('[data-export="weights"] [data-copy="latex"]');
  await page.waitForFunction(() => navigator.clipboard.readText().then((s) => s.includes('\\begin{array}')));
  assert.equal(await downloaded('[data-figure="png"]'), 'attention-figure.png');
  await page.click('[data-share-open]');
  await page.locator('dialog[data-share]').waitFor();
  await page.click('[data-copy-snippet="iframe"]');
  await page.waitForFunction(() => navigator.clipboard.readText().then((s) => s.includes('<iframe')));
  assert.equal(await downloaded('[data-share-png]'), 'attention-figure.png');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});
