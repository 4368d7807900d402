// The cost-of-attention view, in Chromium: the engine measured live at growing n in a worker,
// time and memory plotted for streaming and materialised attention. Memory is what the engine
// allocated, so its growth is checked: about n² materialised, about n streaming.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { serve, launch, open, dist, shot } from './page-helpers.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function measure(page) {
  const card = page.locator('[data-view="cost"]');
  await card.scrollIntoViewIfNeeded();
  // Before a measurement the charts say so, with no numbers on their vertical axes.
  for (const chart of ['time', 'memory']) {
    assert.equal(await card.locator(`[data-chart="${chart}"] [data-empty]`).count(), 1);
    assert.deepEqual(await card.locator(`[data-chart="${chart}"] text`).evaluateAll((ts) => ts.filter((x) => /\d\s*(ms|MB)/.test(x.textContent)).length), 0);
  }
  // Watch the page's frames while the worker measures: the page must not freeze.
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (now) => { window.__gaps.push(now - last); last = now; if (!window.__stopTicks) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  await card.locator('button').click();
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('[data-view="cost"]').dataset.state),
    undefined, { timeout: 240000 });
  await page.evaluate(() => { window.__stopTicks = true; });
  assert.equal(await card.getAttribute('data-state'), 'done', await card.locator('[role="status"]').innerText());
  const read = (chart) => page.$$eval(`[data-chart="${chart}"] circle`, (dots) => dots.map((d) => ({
    series: d.dataset.series, n: Number(d.dataset.n), value: Number(d.dataset.value) })));
  return { time: await read('time'), memory: await read('memory'), gaps: await page.evaluate(() => window.__gaps) };
}

const at = (points, series, n) => points.find((p) => p.series === series && p.n === n)?.value;

test('cost view: memory grows with n² materialised and with n streaming', async () => {
  const { page, problems } = await open(browser.context, server.url);
  const { time, memory, gaps } = await measure(page);
  assert.equal(time.length, 14);
  assert.equal(memory.length, 14);
  // Materialised: the n×n float weights alone are 4·n² bytes = 64 MiB at n = 4096.
  assert.ok(at(memory, 'materialized', 4096) >= 64, `materialised 4096: ${at(memory, 'materialized', 4096)} MB`);
  assert.ok(at(memory, 'materialized', 4096) / at(memory, 'materialized', 1024) > 10, 'materialised grows ~n²');
  assert.ok(at(memory, 'streaming', 4096) < 8, `streaming 4096: ${at(memory, 'streaming', 4096)} MB`);
  assert.ok(at(memory, 'streaming', 4096) / at(memory, 'streaming', 1024) < 5, 'streaming grows ~n');
  for (const p of time) assert.ok(p.value > 0, `time at n = ${p.n}`);
  assert.equal(await page.locator('[data-chart="time"] [data-series="n2"]').count(), 1);
  // The page kept drawing frames while the worker measured.
  assert.ok(Math.max(...gaps) < 500, `longest frame gap ${Math.max(...gaps).toFixed(0)} ms`);
  await shot(page, 'page-cost');
  assert.deepEqual(problems, []);
  await page.close();
});

test('cost view: opened from a file it measures on the page up to n = 1024', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(dist, 'index.html')).href);
  await page.waitForFunction(() => Number(document.getElementById('app')?.dataset.renders ?? 0) > 0);
  const { time, memory } = await measure(page);
  assert.deepEqual([...new Set(time.map((p) => p.n))], [64, 128, 256, 512, 1024]);
  assert.equal(memory.length, 10);
  assert.match(await page.locator('[data-view="cost"] [role="status"]').innerText(), /1[,.]?024/);
  assert.deepEqual(errors, []);
  await page.close();
});
