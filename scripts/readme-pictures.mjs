#!/usr/bin/env node
// The pictures README.md shows, taken from the built page (dist/) in Debian's Chromium, so they
// show the page as it is: `npm run build`, then `node scripts/readme-pictures.mjs [folder]`
// (default docs/). Each is the first screen as a reader gets it, at half size for the desktop.
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, launch } from '../tests/e2e/page-helpers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** name → the link (none: a first visit), the screen, its scale and the browser's language. */
export const PICTURES = {
  'first-screen-en.png': { hash: '', width: 1280, height: 800, scale: 0.5, mobile: false, lang: 'en-US' },
  'fruit-zh.png': { hash: '#ver=1&preset=fruit&lang=zh-CN', width: 1280, height: 800, scale: 0.5, mobile: false, lang: 'zh-CN' },
  'phone-zh.png': { hash: '', width: 375, height: 760, scale: 1, mobile: true, lang: 'zh-CN' },
};

export async function takePictures(folder = join(root, 'docs')) {
  mkdirSync(folder, { recursive: true });
  const server = await serve();
  const chromium = await launch();
  try {
    for (const [name, p] of Object.entries(PICTURES)) {
      const context = await chromium.browser.newContext({
        viewport: { width: p.width, height: p.height }, deviceScaleFactor: p.scale,
        isMobile: p.mobile, hasTouch: p.mobile, locale: p.lang, // a first visit speaks the browser's language
      });
      const page = await context.newPage();
      await page.goto(server.url + p.hash);
      await page.waitForFunction(() => Number(document.getElementById('app')?.dataset.renders ?? 0) > 0);
      await page.evaluate(() => document.fonts.ready);
      await page.mouse.move(0, 0); // nothing pointed at: no explanation open, as on a first visit
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(folder, name) });
      await context.close();
    }
  } finally {
    await chromium.close();
    await server.close();
  }
  return Object.keys(PICTURES).map((name) => join(folder, name));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of await takePictures(process.argv[2])) console.log(file);
}
