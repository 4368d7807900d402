// Faults shown, not hidden: when the engine cannot run the page says why in the reader's
// language, in place of the figure (no WebAssembly; the engine's script missing; its start
// rejected; its start hanging), on the full page, in embed.html and in the offline file; and a
// view that throws while drawing says so in its card while every other view keeps its numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve, launch, open, andRender, readHeatmap, loadPreset, dist } from './page-helpers.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const STEPS = ['scores', 'scaled', 'masked', 'weights', 'output'];

/**
 * Opens `url` in a fresh context prepared by `setUp(context)` and waits for the fault message.
 * Returns it with the uncaught errors (there must be none: the fault is handled).
 */
async function failing(url, setUp) {
  const context = await browser.browser.newContext();
  await setUp(context);
  const page = await context.newPage();
  const uncaught = [];
  page.on('pageerror', (e) => uncaught.push(e.message));
  await page.goto(url);
  const message = page.locator('#app [data-fault]');
  await message.waitFor({ timeout: 20000 });
  const shown = await page.evaluate(() => {
    const app = document.getElementById('app');
    const el = app.querySelector('[data-fault]');
    return { fault: el.dataset.fault, role: el.getAttribute('role'), text: el.textContent, lang: document.documentElement.lang,
      busy: app.getAttribute('aria-busy'), loading: app.querySelectorAll('.loading').length, views: app.querySelectorAll('.heatmap').length };
  });
  return { page, context, shown, uncaught };
}

const noWasm = (context) => context.addInitScript(() => { delete window.WebAssembly; });

function assertShown(shown, fault, text) {
  assert.equal(shown.fault, fault);
  assert.equal(shown.role, 'alert');
  assert.match(shown.text, text);
  assert.equal(shown.busy, null, 'no longer busy');
  assert.equal(shown.loading, 0, 'the loading line is gone');
  assert.equal(shown.views, 0);
}

test('no WebAssembly: the page says the browser lacks it, in English and in Chinese', async () => {
  const en = await failing(server.url + '#ver=1&preset=fruit', noWasm);
  assertShown(en.shown, 'no-wasm', /^Your browser has no WebAssembly/);
  assert.equal(en.shown.lang, 'en');
  assert.deepEqual(en.uncaught, []);
  await en.context.close();
  const zh = await failing(server.url + '#ver=1&preset=fruit&lang=zh-CN', noWasm);
  assertShown(zh.shown, 'no-wasm', /^您的浏览器不支持 WebAssembly/);
  assert.equal(zh.shown.lang, 'zh-CN');
  assert.deepEqual(zh.uncaught, []);
  await zh.context.close();
});

test('no WebAssembly: embed.html and the offline file say so too', async () => {
  const embed = await failing(server.url + 'embed.html#ver=1&preset=fruit&lang=zh-CN', noWasm);
  assertShown(embed.shown, 'no-wasm', /WebAssembly/);
  assert.deepEqual(embed.uncaught, []);
  await embed.context.close();
  const offline = await failing(pathToFileURL(join(dist, 'attention-playground.html')).href, noWasm);
  assertShown(offline.shown, 'no-wasm', /^Your browser has no WebAssembly/);
  assert.deepEqual(offline.uncaught, []);
  await offline.context.close();
});

test('the engine script missing (404): the page says the engine could not be loaded', async () => {
  const missing = (context) => context.route('**/attention-engine.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
  const full = await failing(server.url, missing);
  assertShown(full.shown, 'engine', /^The attention engine \(attention-engine\.js\) could not be loaded/);
  assert.deepEqual(full.uncaught, []);
  await full.context.close();
  const embed = await failing(server.url + 'embed.html#ver=1&lang=zh-CN', missing);
  assertShown(embed.shown, 'engine', /^注意力计算引擎（attention-engine\.js）未能加载/);
  await embed.context.close();
});

test('WebAssembly refusing to compile the engine: the engine message, not the no-WebAssembly one', async () => {
  const { shown, uncaught, context } = await failing(server.url, (c) => c.addInitScript(() => {
    const refuse = () => Promise.reject(new WebAssembly.CompileError('refused for the test'));
    WebAssembly.instantiate = refuse;
    WebAssembly.instantiateStreaming = refuse;
  }));
  assertShown(shown, 'engine', /could not be loaded or did not start/);
  assert.deepEqual(uncaught, []);
  await context.close();
});

test('an engine that never answers: "loading" for 15 s, then the engine message', async () => {
  const context = await browser.browser.newContext();
  // An engine script whose start never settles.
  await context.route('**/attention-engine.js', (route) => route.fulfill({ contentType: 'text/javascript',
    body: 'var createAttentionEngine = function () { return new Promise(function () {}); };' }));
  const page = await context.newPage();
  // The clock stands still from before the page loads: a clock that ran with real time until
  // paused let loaded cores pass a second before the check, or pass the pause time itself.
  const start = new Date('2026-01-01T08:00:00Z').getTime();
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
  await page.goto(server.url);
  await page.locator('#app .loading').waitFor();
  await page.clock.runFor(13000);
  assert.equal(await page.locator('#app .loading').count(), 1, 'still starting at 13 s');
  await page.clock.runFor(3000);
  await page.locator('#app [data-fault="engine"]').waitFor({ timeout: 2000 });
  assert.equal(await page.locator('#app .loading').count(), 0);
  await context.close();
});

// Breaks the 2-D plot only: the one element with class "value-dot" is the plot's value point, so
// setAttribute throws while the plot draws and nowhere else. window.__breakPlot = false mends it.
function breakPlot(context) {
  return context.addInitScript(() => {
    window.__breakPlot = true;
    const setAttribute = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (name, value) {
      if (window.__breakPlot && name === 'class' && value === 'value-dot') throw new Error('the plot broke (test)');
      return setAttribute.call(this, name, value);
    };
  });
}

const faults = (page) => page.$$eval('[data-fault]', (els) => els.map((el) => ({
  card: el.closest('section')?.dataset.step ?? null, role: el.getAttribute('role'), text: el.textContent })));
const allSteps = (page) => Promise.all(STEPS.map((v) => readHeatmap(page, v)));
const rescale = (page, how) => andRender(page, () => page.check(`[data-control="scale"] input[value="${how}"]`));

test('a view that throws: its card says so, the heatmaps keep correct numbers and still update, the next clean draw clears it', async () => {
  const broken = await browser.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await breakPlot(broken);
  const { page, problems } = await open(broken, server.url + '#ver=1');
  const { page: clean } = await open(browser.context, server.url + '#ver=1');
  await loadPreset(page, 'fruit');
  await loadPreset(clean, 'fruit');
  await page.locator('[data-fault]').first().waitFor({ timeout: 20000 }); // the plot comes after the first draw
  // The message, in the plot's card only.
  assert.deepEqual(await faults(page), [{ card: 'plot', role: 'alert', text: 'The view “Where each token moves” could not be drawn. '
    + 'The other views are up to date; this one tries again at your next change.' }]);
  assert.deepEqual(await page.$$eval('.faulted', (els) => els.map((el) => el.dataset.step)), ['plot'], 'what it drew is faded');
  // Every heatmap as on a page without the fault: apple·orange = 6.
  const steps = await allSteps(page);
  assert.deepEqual(steps[0], [['6', '6', '7'], ['6', '8', '4'], ['7', '4', '13']]);
  assert.deepEqual(steps, await allSteps(clean));
  // An edit: the heatmaps follow it, the same as on the clean page; the plot still fails.
  await rescale(page, 'sqrt'); // Fruit divides by T = 0.2; now by √3
  await rescale(clean, 'sqrt');
  const edited = await allSteps(page);
  assert.notDeepEqual(edited[1], steps[1], 'the scaled scores changed');
  assert.deepEqual(edited, await allSteps(clean));
  assert.equal((await faults(page)).length, 1);
  // Mended: the next render draws the plot and removes the message.
  await page.evaluate(() => { window.__breakPlot = false; });
  await rescale(page, 'temperature');
  assert.deepEqual(await faults(page), []);
  assert.equal(await page.locator('.faulted').count(), 0);
  assert.equal(await page.locator('[data-view="plot"] circle.value-dot').count(), 3);
  // One console error for the fault (for a bug report), not one per render.
  assert.deepEqual(problems.filter((p) => !p.startsWith('console:')), []);
  assert.equal(problems.length, 1, problems.join('\n'));
  await broken.close();
  await clean.close();
});

test('a view that throws: the message is in the reader\'s language', async () => {
  const broken = await browser.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await breakPlot(broken);
  const { page } = await open(broken, server.url + '#ver=1&preset=fruit&lang=zh-CN');
  // The plot's script comes after the first draw, so its fault shows a moment after it.
  await page.locator('[data-fault]').first().waitFor({ timeout: 20000 });
  const [fault] = await faults(page);
  assert.equal(fault.card, 'plot');
  assert.match(fault.text, /^“[^”A-Za-z]+”视图未能绘制。/);
  await broken.close();
});
