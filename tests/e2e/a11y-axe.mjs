// axe-core on the page, shared by the accessibility tests: a11y-axe-en.test.mjs and
// a11y-axe-zh.test.mjs (every preset, each a file of its own so the two run side by side) and
// a11y.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { open, cell, loadPreset } from './page-helpers.mjs';

const PRESETS = ['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead'];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's violations on the page as it is: { id, impact, targets }. `only`: a part of the page on
 * its own (the rest is checked elsewhere); `rules`: these rules alone, else those of `tags`;
 * `frames: false` leaves the page's iframes out (a story's embeds are the page's own tests').
 */
export async function axeViolations(page, { only = '', rules = null, tags = TAGS, frames = true } = {}) {
  // axe-core itself, put into the page and each of its frames once and run there for violations
  // alone: @axe-core/playwright reinjects it and finishes every run in a new page, about five
  // times slower, which across every preset, language and width was minutes of the suite.
  for (const frame of frames ? page.frames() : [page.mainFrame()]) {
    const present = await frame.evaluate(() => typeof window.axe === 'object').catch(() => true);
    if (!present) await frame.evaluate(AXE_SOURCE).catch(() => { /* a frame gone meanwhile */ });
  }
  const options = { resultTypes: ['violations'], iframes: frames,
    runOnly: rules ? { type: 'rule', values: rules } : { type: 'tag', values: tags } };
  return page.evaluate(([include, options]) =>
    window.axe.run(include ? { include: [include] } : document, options).then((result) => result.violations.map((v) =>
      ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }))), [only, options]);
}

/** axe's serious and critical findings, one line each (the options as axeViolations'). */
export async function axe(page, options = {}) {
  return (await axeViolations(page, options))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.slice(0, 3).join(' | ')}`);
}

/**
 * The tests of one language: no serious or critical violation on every preset, in the light theme
 * at 1280 and 375 px; at 320 px, whose page is the 375 px one narrower, the rules an even narrower
 * layout can break (contrast where things overlap, the size of targets, regions that scroll); and
 * in the dark theme, which changes colours and nothing else, no contrast below what WCAG asks (its
 * colours are the same at every width, so at 1280 px alone).
 */
const LAYOUT_RULES = ['color-contrast', 'target-size', 'scrollable-region-focusable'];

export function axeEveryPreset(env, lang) {
  const runs = [[1280, 'light', null], [375, 'light', null], [320, 'light', LAYOUT_RULES], [1280, 'dark', ['color-contrast']]];
  for (const [width, colorScheme, rules] of runs) {
    const what = !rules ? 'every rule' : rules.length === 1 ? 'contrast' : 'the rules layout can break';
    test(`axe: no serious or critical violation, ${lang}, ${width} px, ${colorScheme}, every preset, ${what}`, async () => {
      const context = await env.chromium.browser.newContext({ viewport: { width, height: 900 } });
      try {
        const { page, problems } = await open(context, `${env.server.url}#lang=${lang}`, { colorScheme, width, height: 900 });
        const found = [];
        found.push(...(await axe(page, { rules })).map((v) => `default: ${v}`));
        for (const id of PRESETS) {
          await loadPreset(page, id);
          await cell(page, 'weights', 0, 0).focus(); // an explanation on screen, a row lit
          found.push(...(await axe(page, { rules })).map((v) => `${id}: ${v}`));
        }
        assert.deepEqual(found, [], `${lang} ${width} ${colorScheme}`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
}
