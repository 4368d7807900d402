// Hostile input: script and markup payloads typed as words, pasted as a matrix and loaded as a
// word-vector file (its contents and its name). Each must show up as text: no dialog, no script
// run (the payloads set window.__xss), no element the page did not make, no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, open, andRender, loadPreset, root } from './page-helpers.mjs';

const payloads = readFileSync(join(root, 'tests/e2e/xss-payloads.txt'), 'utf8').split('\n').filter(Boolean);
let server, browser;

before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// Anything a payload could have injected: event-handler attributes, javascript: URLs, or
// script/iframe/object/embed/style elements beyond the page's own.
function injected(page) {
  return page.evaluate(() => ({
    xss: window.__xss ?? null,
    handlers: document.querySelectorAll('[onerror],[onload],[onclick],[onmouseover],[onfocus]').length,
    javascriptUrls: [...document.querySelectorAll('[href],[src]')]
      .filter((e) => /^\s*javascript:/i.test(e.getAttribute('href') ?? e.getAttribute('src') ?? '')).length,
    scripts: document.querySelectorAll('script').length,
    frames: document.querySelectorAll('iframe,object,embed,style:not([data-app])').length,
  }));
}

async function hostilePage() {
  const { page, problems } = await open(browser.context, server.url + '#ver=1');
  let dialogs = 0;
  page.on('dialog', async (d) => { dialogs++; await d.dismiss(); });
  const baseline = await injected(page);
  return { page, problems, dialogs: () => dialogs, baseline };
}

test('payloads typed as words render as text and run nothing', async () => {
  const { page, problems, dialogs, baseline } = await hostilePage();
  for (const payload of payloads) {
    await andRender(page, () => page.fill('#words-text', payload));
    assert.deepEqual(await injected(page), baseline, payload);
  }
  // The last payload's words are shown as tokens, as text.
  const labels = await page.locator('.heatmap[data-view="weights"][data-side="a"] tbody th').allTextContents();
  assert.ok(labels.some((l) => l.includes('🍎')), labels.join(' | '));
  assert.ok(labels.some((l) => /img|onerror|src/.test(l)), labels.join(' | '));
  assert.equal(dialogs(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('payloads pasted as a matrix get a located message and run nothing', async () => {
  const { page, problems, dialogs, baseline } = await hostilePage();
  await loadPreset(page, 'painting');  // a vectors preset: the paste box belongs to the vectors
  await page.click('details.paste summary');
  for (const payload of payloads) {
    await page.fill('textarea[data-input="matrix-paste"]', payload);
    await page.click('button[data-action="paste"]');
    const message = await page.locator('[data-errors="paste"]').innerText();
    assert.match(message, /line 1/i, payload);
    assert.deepEqual(await injected(page), baseline, payload);
  }
  assert.equal(dialogs(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a word-vector file with payloads in its words and its name is read as text', async () => {
  const { page, problems, dialogs, baseline } = await hostilePage();
  await page.click('details.file summary');
  const words = payloads.map((p, k) => `${p.replace(/\s+/g, '')} ${k % 3} ${(k + 1) % 3}`).join('\n');
  await andRender(page, () => page.setInputFiles('#glove-file', { name: '<img src=x onerror=window.__xss=1>.txt',
    mimeType: 'text/plain', buffer: Buffer.from(words + '\n') }));
  await andRender(page, () => page.fill('#words-text', payloads.map((p) => p.replace(/\s+/g, '')).slice(0, 4).join(' ')));
  assert.deepEqual(await injected(page), baseline);
  assert.equal(dialogs(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a 50 MB word-vector file is refused by its size, and the page keeps working', async () => {
  const { page, problems, dialogs } = await hostilePage();
  await page.click('details.file summary');
  const before = await page.locator('.heatmap[data-view="weights"][data-side="a"] tbody').innerText();
  const dir = mkdtempSync(join(tmpdir(), 'attention-'));
  const huge = join(dir, 'huge.txt');
  writeFileSync(huge, Buffer.alloc(50 * 2 ** 20, 'a 1 2\n'));
  await page.setInputFiles('#glove-file', huge);
  rmSync(dir, { recursive: true, force: true });
  const status = page.locator('[data-error="file"]');
  await status.waitFor();
  assert.match(await status.innerText(), /huge\.txt.*50.*32/s);
  assert.equal(await page.locator('.heatmap[data-view="weights"][data-side="a"] tbody').innerText(), before);
  // Still responsive: typing words updates the views.
  await andRender(page, () => page.fill('#words-text', 'the bird flies'));
  assert.equal(dialogs(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
