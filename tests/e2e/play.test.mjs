// The pipeline's animation of one query row in real Chromium: every frame's numbers are the
// engine's trace (engine.traceRow, run here under node on the same matrices), forwards and back,
// for dot and cosine, with scaling, temperature, the causal and a custom mask and a fully masked
// row; keys, the link's frame, the live region, and reduced motion.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { serveAndLaunch, open, number, root } from './page-helpers.mjs';

const env = serveAndLaunch();
let engine, F;
before(async () => {
  engine = await createRequire(import.meta.url)(join(root, 'dist/attention-engine.js'))();
  const out = await build({ entryPoints: [join(root, 'web/src/play/frames.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  F = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

// Three queries over three keys of three features; V has two columns.
const q = [[1, 2, 1], [0.5, -1, 2], [2, 0, -1]];
const k = [[1, 2, 1], [2, 2, 0], [0, 2, 3]];
const v = [[1, 0], [0, 1], [0.5, 0.5]];
const cells = (m) => encodeURIComponent(JSON.stringify(m.map((r) => r.map(String))));
const names = (list) => encodeURIComponent(JSON.stringify(list));
const link = (o, row) => `#ver=1&mode=vectors&q=${cells(q)}&k=${cells(k)}&v=${cells(v)}` +
  `&qLabels=${names(['a', 'b', 'c'])}&kLabels=${names(['x', 'y', 'z'])}&dkNames=${names(['f1', 'f2', 'f3'])}&dvNames=${names(['o1', 'o2'])}` +
  `&similarity=${o.similarity}&scale=${o.scale}&temperature=${o.temperature ?? 1}&mask=${o.mask}` +
  (o.hidden ? `&hidden=${encodeURIComponent(JSON.stringify(o.hidden))}` : '') +
  `&normalization=${o.normalization}&focus=${encodeURIComponent(JSON.stringify({ view: 'weights', row, col: 0, side: 'a' }))}&play=1`;

/** A number as the page prints it: 2 decimals below 10, 1 below 100, none above. */
function shows(text, x, what) {
  if (!Number.isFinite(x)) return assert.equal(text, x < 0 ? '−∞' : '∞', what);
  const a = Math.abs(x);
  const within = a >= 100 ? 0.5 : a >= 10 ? 0.05 : 0.005;
  assert.ok(Math.abs(number(text) - x) <= within + 1e-9, `${what}: shows ${text} for ${x}`);
}

/**
 * What the animation shows: each cell's stage and its number (the written-out terms apart). With
 * `order`, each frame of it (1-based) set on the scrubber as a drag sets it (the value, then input
 * and change) and read as it is drawn, all in one call: the player draws a frame on the input event.
 */
function showing(order) {
  const el = document.querySelector('[data-play]');
  const main = (td) => Array.from(td.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
  const scrub = el.querySelector('[data-play-scrub]');
  const now = () => ({
    frame: Number(scrub.value),
    frames: Number(scrub.max),
    caption: el.querySelector('.play-op').textContent,
    live: el.querySelector('[aria-live]').textContent,
    table: Array.from(el.querySelectorAll('.play-table tbody tr'), (tr) =>
      Array.from(tr.querySelectorAll('td'), (td) => ({ col: td.dataset.col, stage: td.dataset.stage, text: main(td),
        term: td.querySelector('.play-term')?.textContent ?? '' }))),
    sum: Array.from(el.querySelectorAll('.play-table tfoot td'), (td) => td.textContent).filter(Boolean),
    mix: Array.from(el.querySelectorAll('.play-mix tbody tr'), (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)),
    output: Array.from(el.querySelectorAll('.play-mix tfoot td'), (td) => td.textContent),
  });
  if (!order) return now();
  return order.map((n) => {
    scrub.value = String(n);
    scrub.dispatchEvent(new Event('input', { bubbles: true }));
    scrub.dispatchEvent(new Event('change', { bubbles: true }));
    return now();
  });
}

const read = (page) => page.evaluate(showing, null);
const scrubThrough = (page, order) => page.evaluate(showing, order);

const FINAL = { norm: 'scores', scale: 'scaled', mask: 'masked', max: 'shifted', exp: 'exps', divide: 'weights' };

/** Frame k (0-based) of the animation of `trace` against what the page shows. */
function check(shown, trace, frames, k, what) {
  const f = frames[k];
  const stage = (op) => F.stage(frames, k, op);
  for (let j = 0; j < trace.m; j++) {
    for (const c of shown.table[j]) {
      const at = `${what}, frame ${k + 1} (${f.op}), key ${j}, ${c.col}`;
      assert.equal(c.stage, stage(c.col), at);
      if (c.stage === 'later') { assert.equal(c.text, '', at); continue; }
      if (c.col === 'dot') {
        const t = c.stage === 'now' ? f.at : trace.dK - 1;
        shows(c.text, trace.partial.data[j * trace.dK + t], at);
        // While it adds up, the terms so far are written out: q_t × k_t for t ≤ f.at.
        if (c.stage === 'now') assert.equal(c.term.split('+').length, f.at + 1, at);
      } else shows(c.text, trace[FINAL[c.col]][j], at);
    }
  }
  const sum = stage('sum');
  assert.equal(shown.sum.length, sum === 'later' ? 0 : 1);
  if (sum !== 'later') shows(shown.sum[0], trace.expSum || trace.scoreSum, `${what}, frame ${k + 1}, the sum`);
  const mixing = stage('mix');
  const reached = mixing === 'now' ? f.at : mixing === 'done' ? trace.m - 1 : -1;
  for (let j = 0; j < trace.m; j++)
    for (let c = 0; c < trace.dV; c++) {
      const text = shown.mix[j][c];
      if (j > reached) assert.equal(text, '');
      else shows(text, trace.mixed.data[j * trace.dV + c], `${what}, frame ${k + 1}, ${j}·v[${c}]`);
    }
  for (let c = 0; c < trace.dV; c++) {
    if (reached < 0) assert.equal(shown.output[c], '');
    else shows(shown.output[c], trace.filled.data[reached * trace.dV + c], `${what}, frame ${k + 1}, output ${c}`);
  }
}

const CONFIGS = [
  { similarity: 'dot', scale: 'sqrt', mask: 'none', normalization: 'softmax', row: 0 },
  { similarity: 'cosine', scale: 'temperature', temperature: 0.5, mask: 'causal', normalization: 'softmax', row: 1 },
  { similarity: 'dot', scale: 'none', mask: 'custom', hidden: [[2, 0], [2, 1], [2, 2], [0, 1]], normalization: 'softmax', row: 2 },
  { similarity: 'dot', scale: 'none', mask: 'custom', hidden: [[0, 1]], normalization: 'sum', row: 0 },
];

test('play: every frame shows the engine’s trace, forwards and scrubbed back, for each kind of row', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
  for (const o of CONFIGS) {
    const what = `${o.similarity} ${o.scale} ${o.mask} ${o.normalization} row ${o.row}`;
    const { page, problems } = await open(context, env.server.url + link(o, o.row), { width: 1280, height: 900 });
    await page.locator('[data-play]').waitFor();
    const options = { queries: q, keys: k, values: v, similarity: o.similarity, scale: o.scale, temperature: o.temperature ?? 1,
      normalization: o.normalization, mask: o.mask !== 'custom' ? o.mask : q.map((_, i) => k.map((__, j) => !o.hidden.some(([a, b]) => a === i && b === j))) };
    const trace = engine.traceRow(options, o.row);
    assert.equal(trace.ok, true, what);
    const frames = F.framesOf(trace, { similarity: o.similarity, masked: o.mask !== 'none', normalization: o.normalization });
    const first = await read(page);
    assert.equal(first.frames, frames.length, what);
    const forwards = frames.map((_, n) => n + 1);
    const seen = await scrubThrough(page, forwards);
    seen.forEach((shown, n) => {
      assert.equal(shown.frame, n + 1);
      check(shown, trace, frames, n, what);
    });
    const back = await scrubThrough(page, forwards.toReversed());
    back.reverse().forEach((shown, n) =>
      assert.equal(JSON.stringify(shown), JSON.stringify(seen[n]), `${what}: frame ${n + 1} scrubbed back is the same`));
    if (o.row === 2 && o.mask === 'custom') {
      assert.equal(trace.problem, 'fully_masked');
      assert.match((await read(page)).caption, /./);
      await page.locator('[data-play-scrub]').fill(String(frames.length));
      assert.match((await read(page)).caption, /No key is visible/);
    }
    assert.deepEqual(problems, [], what);
    await page.close();
  }
  await context.close();
});

test('play: opened from the pipeline it plays; keys step it, the link keeps the frame, the live region says each step', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await open(context, env.server.url + '#ver=1&preset=fruit&compare=off', { width: 1280, height: 900 });
  await page.click('[data-play-open]');
  await page.locator('[data-play]').waitFor();
  assert.equal(await page.getAttribute('[data-play-open]', 'aria-expanded'), 'true');
  // It plays by itself: a few frames in under three seconds (1×), and the cells move with a transition.
  await page.waitForFunction(() => Number(document.querySelector('[data-play-scrub]').value) >= 3, null, { timeout: 5000 });
  assert.equal(await page.getAttribute('[data-play]', 'data-state'), 'playing');
  assert.notEqual(await page.locator('.play-table td').first().evaluate((td) => getComputedStyle(td).transitionDuration), '0s');
  await page.click('[data-play-toggle]'); // pause
  await page.locator('[data-play][data-state="paused"]').waitFor();
  const paused = (await read(page)).frame;
  // ← and → step; the live region says the step in words; the link has the frame.
  await page.focus('[data-play-next]');
  assert.equal((await read(page)).frame, paused, 'paused: it stays');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const back = await read(page);
  assert.equal(back.frame, Math.max(1, paused - 2));
  assert.equal(back.live, back.caption);
  await page.keyboard.press('ArrowRight');
  const at = (await read(page)).frame;
  assert.equal(at, back.frame + 1);
  await page.waitForFunction((n) => new URLSearchParams(location.hash.slice(1)).get('play') === String(n), at);
  // The link opens the same frame, paused.
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  await page.locator('[data-play]').waitFor();
  assert.equal((await read(page)).frame, at);
  assert.equal(await page.getAttribute('[data-play]', 'data-state'), 'paused', 'a link’s frame does not play by itself');
  // Space plays from a control that is not a button; closing takes the frame out of the link.
  await page.focus('[data-play-scrub]');
  await page.keyboard.press(' ');
  assert.equal(await page.getAttribute('[data-play]', 'data-state'), 'playing');
  await page.waitForFunction((n) => Number(document.querySelector('[data-play-scrub]').value) > n, at, { timeout: 5000 });
  await page.click('[data-play-close]');
  await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).has('play'));
  assert.equal(await page.locator('[data-play]').count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute('data-play-open')), true, 'focus goes back to the button');
  assert.deepEqual(problems, []);
  await context.close();
});

test('play: under reduced motion the same frames come without transitions, and nothing plays by itself', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 375, height: 800 }, reducedMotion: 'reduce' });
  const { page, problems } = await open(context, env.server.url + '#ver=1&preset=fruit&compare=off&lang=zh-CN', { width: 375, height: 800 });
  await page.click('[data-play-open]');
  await page.locator('[data-play]').waitFor();
  assert.equal(await page.getAttribute('[data-play]', 'data-state'), 'paused', 'it waits for the reader');
  const first = await read(page);
  assert.equal(first.frame, 1, 'it waits for the reader');
  assert.match(first.caption, /\p{Script=Han}/u);
  assert.equal(await page.locator('.play-table td').first().evaluate((td) => getComputedStyle(td).transitionDuration), '0s');
  await page.click('[data-play-next]');
  assert.equal((await read(page)).frame, 2);
  // The page does not grow sideways on a phone: the tables scroll in their own boxes.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375));
  assert.deepEqual(problems, []);
  await context.close();
});
