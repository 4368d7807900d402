// A long session: a page left open through a lecture mounts itself again hundreds of times (a link
// opened in the tab, a lesson step, a language switch). Each mount must give back everything the
// last one held: after 300 links, 100 lesson steps and 50 language switches the page holds as
// many DOM nodes, listeners and as much JS heap as it did before them, and Present still answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, ready, renders } from './page-helpers.mjs';

// JavaScript is compiled but not optimised here: optimised code is heap too, and it grows as a
// long round makes more functions hot, which is not something the page keeps (measured: +0.7 MB
// over the first round of 450 mounts, then +0.09 MB a round, with the same nodes and listeners).
const env = serveAndLaunch(['--js-flags=--no-opt --no-maglev']);

const LINKS = ['ver=1&preset=fruit', 'ver=1&preset=painting', 'ver=1&preset=causal', 'ver=1&preset=multihead'];

/** DOM nodes, listeners and used JS heap after two full collections, from Chromium's own counters. */
async function held(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name) => metrics.find((m) => m.name === name).value;
  return { nodes: get('Nodes'), listeners: get('JSEventListeners'), heap: get('JSHeapUsedSize') };
}

/** Opens `hash` in the tab, as a reader following a link does, and waits for its render. */
async function follow(page, hash) {
  const before = await renders(page);
  await page.evaluate((h) => { location.hash = h; }, hash);
  await ready(page, before);
}

/** Opens `count` links in turn, in the page (each waits for its render), starting with the second. */
function followAll(page, count) {
  return page.evaluate(async ([links, count]) => {
    const app = document.getElementById('app');
    for (let k = 1; k <= count; k++) {
      const before = Number(app.dataset.renders);
      location.hash = links[k % links.length] + (k % 2 ? '&lang=en' : '');
      while (Number(app.dataset.renders) <= before) await new Promise((r) => setTimeout(r, 5));
    }
  }, [LINKS, count]);
}

/**
 * Clicks each [selector, lang] in turn, in the page as followAll opens links, once the button is
 * there and enabled: each click waits for the render it causes and, with a language, for the page
 * to be in it.
 */
function clickAll(page, clicks) {
  return page.evaluate(async (clicks) => {
    const renders = () => Number(document.getElementById('app').dataset.renders);
    const tick = () => new Promise((r) => setTimeout(r, 5));
    for (const [selector, lang] of clicks) {
      // The lesson comes in a script of its own: its buttons may not be there yet.
      let button;
      while (!(button = document.querySelector(selector)) || button.disabled) await tick();
      const before = renders();
      button.click();
      while (renders() <= before || (lang && document.documentElement.lang !== lang)) await tick();
    }
  }, clicks);
}

/** The whole round: every kind of re-mount, `links`, `steps` and `switches` times, ending where it began. */
async function round(page, { links, steps, switches }) {
  let t = Date.now();
  const lap = (what) => { console.log(`# ${what}: ${((Date.now() - t) / 1000).toFixed(1)} s`); t = Date.now(); };
  await followAll(page, links);
  lap(`${links} links`);
  await follow(page, LINKS[0] + '&lesson=intro&step=1');
  // Forward seven steps and back again, over and over (Next on the last step would leave the lesson).
  await clickAll(page, Array.from({ length: steps }, (_, k) => [k % 14 < 7 ? '[data-lesson-next]' : '[data-lesson-back]', null]));
  await page.click('[data-lesson-leave]');
  lap(`${steps} lesson steps`);
  await clickAll(page, Array.from({ length: switches }, (_, k) => k % 2 ? ['[data-lang="en"]', 'en'] : ['[data-lang="zh-CN"]', 'zh-CN']));
  lap(`${switches} language switches`);
  await follow(page, LINKS[1]);
  await follow(page, LINKS[0]);
}

test('soak: 300 links, 100 lesson steps and 50 language switches leave nodes, listeners and heap within 10 %, and Present works', { timeout: 400000 }, async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#' + LINKS[0]);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  // Warm: every part the round loads (the lesson, the other catalog) is loaded once before counting,
  // and the undo history is full (it keeps its last 200 steps by design), so it holds as much after.
  await round(page, { links: 200, steps: 30, switches: 4 });
  const start = await held(cdp);
  const began = Date.now();
  await round(page, { links: 300, steps: 100, switches: 50 });
  const took = (Date.now() - began) / 1000;
  const end = await held(cdp);
  console.log(`# soak: ${took.toFixed(1)} s; nodes ${start.nodes} → ${end.nodes}, listeners ${start.listeners} → ${end.listeners}, ` +
    `heap ${(start.heap / 1e6).toFixed(2)} → ${(end.heap / 1e6).toFixed(2)} MB`);
  for (const key of ['nodes', 'listeners', 'heap'])
    assert.ok(end[key] <= start[key] * 1.1, `${key}: ${start[key]} at the start, ${end[key]} after the round`);

  // Present, after all those mounts: → goes to the next example, Escape leaves.
  await page.click('button.present-open');
  await page.waitForSelector('button.present-open[aria-pressed="true"]'); // its keys and styles come then
  const preset = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('preset'));
  const was = await preset();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((p) => new URLSearchParams(location.hash.slice(1)).get('preset') !== p, was, { timeout: 5000 });
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.getElementById('app').classList.contains('presenting')), false);
  assert.deepEqual(problems, []);
});
