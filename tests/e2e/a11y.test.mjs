// The page for a keyboard, a screen reader and a phone, in real Chromium (axe on every preset is
// in a11y-axe-en and a11y-axe-zh, which run beside the others): a reader with only a keyboard can load a preset, move through the cells, hear the explanation
// and change a control; every cell's text has a contrast of at least 4.5:1; reduced motion turns
// transitions off; on a touch screen a tap explains a cell and every target is at least 44 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, open, andRender, readHeatmap, cell, loadPreset } from './page-helpers.mjs';
import { axe } from './a11y-axe.mjs';

const PRESETS = ['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead'];
const env = serveAndLaunch();

test('axe: the share dialog with its choices and preview, English and Chinese, 1280 and 375 px, light and dark', async () => {
  const found = [];
  // Each language at each width, the themes alternating: four dialogs, each with a live preview.
  for (const [lang, width, colorScheme] of [['en', 1280, 'light'], ['en', 375, 'dark'], ['zh-CN', 1280, 'dark'], ['zh-CN', 375, 'light']]) {
    const { page, problems } = await open(env.chromium.context, `${env.server.url}#ver=1&preset=causal&lang=${lang}`, { colorScheme, width, height: 900 });
    await page.click('[data-share-open]');
    await page.locator('iframe[data-share-preview]').waitFor();
    await page.fill('[data-share-height]', '5'); // the refused height's message on screen too
    found.push(...(await axe(page, { only: 'dialog[data-share]' })).map((v) => `${lang} ${width} ${colorScheme}: ${v}`));
    assert.deepEqual(problems, []);
    await page.close();
  }
  assert.deepEqual(found, []);
});

// The formula is drawn by whatever fonts the reader's machine has; on a narrow card it is scaled
// down to fit rather than cut off (its closing bracket and V were lost at 375 px once a wider
// font family was installed).
test('the formula fits its card at 320 and 375 px in every preset, in both languages', async () => {
  for (const width of [320, 375]) {
    const context = await env.chromium.browser.newContext({ viewport: { width, height: 800 } });
    try {
      for (const lang of ['en', 'zh-CN']) {
        const { page, problems } = await open(context, `${env.server.url}#lang=${lang}`, { width, height: 800 });
        for (const id of PRESETS) {
          await loadPreset(page, id);
          const fit = await page.locator('.formula').evaluate((el) => {
            const math = el.querySelector('math');
            const box = el.getBoundingClientRect(), drawn = math.getBoundingClientRect();
            return { need: math.scrollWidth, have: el.clientWidth, inside: drawn.right <= box.right + 0.5,
              size: parseFloat(getComputedStyle(math).fontSize) };
          });
          assert.ok(fit.need <= fit.have && fit.inside, `${lang} ${width} px ${id}: ${JSON.stringify(fit)}`);
          assert.ok(fit.size >= 9, `${lang} ${width} px ${id}: still readable (${fit.size} px)`);
        }
        assert.deepEqual(problems, []);
        await page.close();
      }
    } finally {
      await context.close();
    }
  }
});

/** What has the keyboard focus, in words a failing assertion can show. */
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'body';
  return `${el.tagName.toLowerCase()}${el.dataset.preset ? '[preset=' + el.dataset.preset + ']' : ''}` +
    `${el.closest('.heatmap') ? '[view=' + el.closest('.heatmap').dataset.view + ']' : ''}` +
    `${el.closest('.heatmap')?.dataset.side === 'b' ? '[b]' : ''}` +
    `${el.dataset.i !== undefined ? '[' + el.dataset.i + ',' + el.dataset.j + ']' : ''}`;
});

/** Whether the focused element shows a focus ring (its own outline, or its label's for a radio). */
const ringVisible = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return false;
  const ring = (e) => {
    const s = getComputedStyle(e);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || /inset|rgb/.test(s.boxShadow) && s.boxShadow !== 'none';
  };
  if (ring(el)) return true;
  const visual = el.matches('.seg input') ? el.nextElementSibling : null;
  return !!visual && ring(visual);
});

/** Presses Tab until `want` (a CSS selector) has the focus, checking a visible ring at each stop. */
async function tabTo(page, want, max = 400) {
  for (let k = 0; k < max; k++) {
    await page.keyboard.press('Tab');
    const where = await focused(page);
    if (where !== 'body') assert.ok(await ringVisible(page), `no visible focus on ${where}`);
    if (await page.evaluate((sel) => document.activeElement?.matches(sel), want)) return k + 1;
  }
  throw new Error(`Tab never reached ${want}`);
}

test('keyboard only: load a preset, move through cells, hear the explanation, change a control', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1');
  // Load Fruit.
  await tabTo(page, 'button[data-preset="fruit"]');
  await andRender(page, () => page.keyboard.press('Enter'));
  assert.equal(await page.locator('button[data-preset="fruit"]').getAttribute('aria-pressed'), 'true');
  // Into the similarity heatmap: one Tab stop per heatmap, then arrows.
  await tabTo(page, '.heatmap[data-view="scores"][data-side="a"] td[data-i]');
  assert.equal(await focused(page), 'td[view=scores][0,0]');
  const explanation = page.locator('.explain-body');
  assert.match(await explanation.innerText(), /apple → apple/);
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(page), 'td[view=scores][0,1]');
  assert.match(await explanation.innerText(), /1×2 \+ 2×2 \+ 1×0 = 6/);
  // The polite live region reads it once the reader pauses.
  const live = page.locator('[data-live="explain"]');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  await page.waitForFunction(() => /1×2 \+ 2×2 \+ 1×0 = 6/.test(document.querySelector('[data-live="explain"]').textContent));
  // Arrows, Home, End and Ctrl+End.
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page), 'td[view=scores][1,1]');
  await page.keyboard.press('End');
  assert.equal(await focused(page), 'td[view=scores][1,2]');
  await page.keyboard.press('Home');
  assert.equal(await focused(page), 'td[view=scores][1,0]');
  await page.keyboard.press('Control+End');
  assert.equal(await focused(page), 'td[view=scores][2,2]');
  await page.keyboard.press('Control+Home');
  assert.equal(await focused(page), 'td[view=scores][0,0]');
  await page.keyboard.press('ArrowLeft'); // stays at the edge
  assert.equal(await focused(page), 'td[view=scores][0,0]');
  // Tab leaves the heatmap (no trap), to the next heatmap's one stop (cosine, on the right).
  await page.keyboard.press('Tab');
  assert.equal(await focused(page), 'td[view=scores][b][0,0]');
  // The cell the reader left is the one Tab comes back to.
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page), 'td[view=scores][0,0]');
  // Change a control: the scaling radios, by arrow keys (Fruit divides by T; ← is "None").
  await page.keyboard.press('Shift+Tab');
  let guard = 0;
  while (!(await page.evaluate(() => document.activeElement?.matches('fieldset[data-control="scale"] input'))) && guard++ < 200) {
    await page.keyboard.press('Shift+Tab');
  }
  assert.ok(guard < 200, 'Shift+Tab reached the scaling control');
  await andRender(page, () => page.keyboard.press('ArrowLeft'));
  assert.ok(await page.locator('fieldset[data-control="scale"] input[value="none"]').isChecked());
  // No scaling: the scaled step is now one line saying so, with the scores' numbers above it.
  assert.match(await page.textContent('.step[data-step="scaled"] .hint'), /Not scaled/);
  assert.equal(await page.$eval('.step[data-step="scaled"]', (el) => el.classList.contains('unchanged')), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('keyboard only: the head tabs follow the arrow keys', async () => {
  const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1');
  await tabTo(page, 'button[data-preset="multihead"]');
  await andRender(page, () => page.keyboard.press('Enter'));
  await tabTo(page, '.tabs [role="tab"][aria-selected="true"]');
  const first = await readHeatmap(page, 'weights', 'a');
  await andRender(page, () => page.keyboard.press('ArrowRight'));
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.head), '1');
  assert.equal(await page.locator('.tabs [data-head="1"]').getAttribute('aria-selected'), 'true');
  assert.notDeepEqual(await readHeatmap(page, 'weights', 'a'), first);
  assert.deepEqual(problems, []);
  await page.close();
});

/** The contrast of every heatmap cell's number with its background, from computed styles. */
function contrasts(page) {
  return page.evaluate(() => {
    const rgb = (s) => {
      const m = s.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const luminance = ({ r, g, b }) => {
      const lin = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (x, y) => {
      const [hi, lo] = [luminance(x), luminance(y)].sort((a, b) => b - a);
      return (hi + 0.05) / (lo + 0.05);
    };
    const root = getComputedStyle(document.documentElement);
    const probe = document.createElement('span');
    document.body.append(probe);
    const resolve = (value) => { probe.style.color = value; return rgb(getComputedStyle(probe).color); };
    const masks = [resolve(root.getPropertyValue('--mask-a')), resolve(root.getPropertyValue('--mask-b'))];
    probe.remove();
    const out = [];
    for (const td of document.querySelectorAll('.heatmap:not(.input-grid) td[data-i]')) {
      if (td.closest('[hidden]') || td.textContent === '') continue;
      const s = getComputedStyle(td);
      const ink = rgb(s.color);
      const backgrounds = td.dataset.ink === 'masked' ? masks : [rgb(s.backgroundColor)];
      for (const bg of backgrounds) {
        const view = td.closest('.heatmap').dataset.view;
        out.push({ where: `${view} ${td.dataset.i},${td.dataset.j} "${td.textContent}"`, ratio: ratio(ink, bg), alpha: bg.a * ink.a });
      }
    }
    return out;
  });
}

test('every cell’s number has a contrast of at least 4.5:1, both scales, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems } = await open(env.chromium.context, env.server.url + '#ver=1', { colorScheme });
    let checked = 0;
    for (const id of PRESETS) {
      await loadPreset(page, id);
      const cells = await contrasts(page);
      checked += cells.length;
      const low = cells.filter((c) => c.ratio < 4.5 || c.alpha < 1).map((c) => `${c.where}: ${c.ratio.toFixed(2)}`);
      assert.deepEqual(low, [], `${id} ${colorScheme}`);
    }
    // Weights on the sequential scale and signed scores on the diverging one were both seen.
    assert.ok(checked > 500, `${checked} cells checked`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('prefers-reduced-motion turns transitions off', async () => {
  const context = await env.chromium.browser.newContext({ reducedMotion: 'reduce' });
  try {
    const { page } = await open(context, env.server.url + '#ver=1');
    const durations = await page.evaluate(() => Array.from(document.querySelectorAll('*'),
      (el) => getComputedStyle(el).transitionDuration).filter((d) => d.split(',').some((x) => parseFloat(x) > 0)));
    assert.deepEqual(durations, []);
    await page.close();
  } finally {
    await context.close();
  }
});

test('touch: a tap explains a cell, the views stack, every target is at least 44 px', async () => {
  const context = await env.chromium.browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true,
    deviceScaleFactor: 2 });
  try {
    const { page, problems } = await open(context, env.server.url + '#ver=1', { width: 375, height: 800 });
    assert.ok(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'a coarse pointer');
    await page.locator('button[data-preset="fruit"]').tap();
    await page.waitForFunction(() => document.querySelector('button[data-preset="fruit"]').getAttribute('aria-pressed') === 'true');
    await cell(page, 'scores', 0, 1).tap();
    assert.match(await page.locator('.explain-body').innerText(), /1×2 \+ 2×2 \+ 1×0 = 6/);
    // The cards are one column: each starts at the same x and none is beside another.
    const lefts = await page.evaluate(() => Array.from(document.querySelectorAll('.views > .step:not([hidden])'),
      (el) => Math.round(el.getBoundingClientRect().left)));
    assert.equal(new Set(lefts).size, 1, `card lefts ${lefts}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    const smallTargets = (p) => p.evaluate(() => {
      // A radio or checkbox is tapped through its label, which is the target measured.
      const targets = document.querySelectorAll('button, select, summary, input:not([type="radio"]):not([type="checkbox"]), .seg, ' +
        '.heatmap:not(.input-grid) td[data-i], label.check, a[href]');
      const out = [];
      for (const el of targets) {
        if (el.closest('[hidden]') || el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (r.height < 44 - 0.5 || (el.tagName !== 'INPUT' && r.width < 44 - 0.5)) {
          out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.width)}×${Math.round(r.height)}`);
        }
      }
      return out;
    });
    assert.deepEqual(await smallTargets(page), []);
    // With every menu open (exports, the word-vector file), and in an embedded figure with its
    // link to the full playground.
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
    assert.deepEqual(await smallTargets(page), [], 'menus open');
    const { page: embedded } = await open(context, env.server.url + 'embed.html#ver=1&preset=fruit&controls=all', { width: 375, height: 800 });
    await embedded.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
    assert.deepEqual(await smallTargets(embedded), [], 'embedded');
    await embedded.close();
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    await context.close();
  }
});
