// axe-core on the page, shared by the accessibility tests: a11y-axe-en.test.mjs and
// a11y-axe-zh.test.mjs (every preset, each a file of its own so the two run side by side) and
// a11y.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import { open, cell, loadPreset } from './page-helpers.mjs';

const PRESETS = ['painting', 'fruit', 'softmax', 'sqrtdk', 'causal', 'multihead'];
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * axe's serious and critical findings on the page as it is, one line each. `only`: a part of the
 * page on its own (the rest is checked elsewhere); `rules`: these rules alone.
 */
export async function axe(page, only = '', rules = null) {
  const builder = new AxeBuilder({ page });
  if (only) builder.include(only);
  if (rules) builder.withRules(rules);
  else builder.withTags(TAGS);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
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
        found.push(...(await axe(page, '', rules)).map((v) => `default: ${v}`));
        for (const id of PRESETS) {
          await loadPreset(page, id);
          await cell(page, 'weights', 0, 0).focus(); // an explanation on screen, a row lit
          found.push(...(await axe(page, '', rules)).map((v) => `${id}: ${v}`));
        }
        assert.deepEqual(found, [], `${lang} ${width} ${colorScheme}`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
}
