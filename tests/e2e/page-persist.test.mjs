// The working state survives a reload (localStorage), and the reader's edits can be undone and
// redone. Each browser test runs in a context of its own, so its storage starts empty (the shared
// context of launch() clears the stored state on every page, for the tests that expect defaults).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, ready, andRender, readHeatmap, loadPreset, pasteMatrix, written } from './page-helpers.mjs';

const KEY = 'attention-playground:state';
let server, chromium;

before(async () => {
  server = await serve();
  chromium = await launch();
});
after(async () => { await chromium?.close(); await server?.close(); });

/** A context with empty storage, and its close. */
async function fresh(init) {
  const context = await chromium.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  if (init) await context.addInitScript(init);
  return context;
}

/** A page on `url` that collects console errors, page errors and dialogs. */
async function visit(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
  page.on('dialog', (d) => { problems.push('dialog: ' + d.message()); void d.dismiss(); });
  await page.goto(url);
  await ready(page);
  return { page, problems };
}

/**
 * Puts `text` into the playground's storage key from a blank page of the same origin (a route of
 * the test's own), so no playground is running to overwrite it.
 */
async function plant(page, text) {
  await page.route(server.url + 'blank.html', (r) => r.fulfill({ contentType: 'text/html',
    body: '<!doctype html><title>blank</title><link rel="icon" href="data:,">' }));
  await page.goto(server.url + 'blank.html');
  await page.evaluate(([k, v]) => { window.__plant = true; localStorage.setItem(k, v); }, [KEY, text]);
}

const stored = (page) => page.evaluate((k) => localStorage.getItem(k), KEY);

/** Waits until the stored record's state matches `pattern` (it is written a quarter second after an edit). */
async function storedMatching(page, pattern) {
  await page.waitForFunction(([k, p]) => new RegExp(p).test(JSON.parse(localStorage.getItem(k) ?? '{}').state ?? ''),
    [KEY, pattern.source], { timeout: 5000 });
  return JSON.parse(await stored(page));
}

/** What a reader sees: the weights and the outputs, as printed. */
async function numbers(page) {
  return { weights: await readHeatmap(page, 'weights'), output: await readHeatmap(page, 'output') };
}

const xCell = (i, j) => `.input-grid[data-view="x"] input[data-i="${i}"][data-j="${j}"]`;

// --- the state survives a reload ---------------------------------------------------------------

test('persist: words, a vector cell and a control come back after a reload without the link', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  const defaults = await numbers(page);
  await andRender(page, () => page.fill('#words-text', 'the cat sat on the red mat'));
  await andRender(page, () => page.fill(xCell(1, 0), '3'));
  await andRender(page, () => page.check('fieldset[data-control="mask"] input[value="causal"]'));
  const edited = await numbers(page);
  assert.notDeepEqual(edited.weights, defaults.weights);
  const record = await storedMatching(page, /mask=causal/);
  assert.equal(record.v, 1);
  assert.equal('#' + record.state, await page.evaluate(() => location.hash), 'the same text as the link');
  assert.ok(Math.abs(Date.parse(record.saved) - Date.now()) < 60_000, record.saved);
  assert.match(record.state, /edits=/);

  await page.goto(server.url); // the bare address: no hash
  await ready(page);
  assert.deepEqual(await numbers(page), edited);
  assert.equal(await page.inputValue('#words-text'), 'the cat sat on the red mat');
  assert.equal(await page.inputValue(xCell(1, 0)), '3');
  assert.equal(await page.isChecked('fieldset[data-control="mask"] input[value="causal"]'), true);
  assert.equal(await page.locator('[data-notice]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('persist: the last edit survives a reload made at once (before the quarter-second write)', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  await andRender(page, () => page.check('fieldset[data-control="similarity"] input[value="cosine"]'));
  const edited = await numbers(page);
  await page.goto(server.url);
  await ready(page);
  assert.deepEqual(await numbers(page), edited);
  assert.deepEqual(problems, []);
  await context.close();
});

const PAYLOAD = '<img src=x onerror=alert(1)>';
// Three of the broken records tests/js/hostile-links.test.mjs gives the parser: what the page does with them.
const BROKEN = {
  'not JSON': '{"v":1,"state":',
  'markup in a cell': JSON.stringify({ v: 1, state: 'ver=1&mode=vectors&q=' + encodeURIComponent(JSON.stringify([[PAYLOAD]])) }),
  'a state of another version': JSON.stringify({ v: 1, state: 'ver=3&similarity=cosine' }),
};

test('persist: a broken stored state gives a first visit and a notice, once; no dialog, element or error', async () => {
  const clean = await fresh();
  const { page: first } = await visit(clean, server.url); // a first visit: the painting
  const defaults = await numbers(first);
  const elements = await first.evaluate(() => document.querySelectorAll('script, img, iframe, object, embed').length);
  const words = await numbers((await visit(clean, server.url + '#ver=1')).page);
  await clean.close();
  const context = await fresh();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
  page.on('dialog', (d) => { problems.push('dialog: ' + d.message()); void d.dismiss(); });
  for (const [name, text] of Object.entries(BROKEN)) {
    await plant(page, text);
    await page.goto(server.url);
    await ready(page);
    const notice = page.locator('[data-notice="stored"]');
    assert.equal(await notice.count(), 1, name + ': notice');
    assert.equal(await notice.getAttribute('role'), 'status');
    assert.ok((await notice.innerText()).length > 20, name);
    assert.deepEqual(await numbers(page), defaults, name + ': defaults');
    assert.notEqual(await stored(page), text, name + ': the broken record is gone');
    const seen = await page.evaluate(() => ({ pwned: window.__pwned,
      elements: document.querySelectorAll('script, img, iframe, object, embed').length }));
    assert.deepEqual(seen, { pwned: undefined, elements }, name);
    await notice.locator('button').click();
    assert.equal(await notice.count(), 0, name + ': dismissed');
    // What is stored now is the first visit's state, written by the page: the next visit has no notice.
    assert.match((await storedMatching(page, /preset=painting/)).state, /^ver=2&preset=painting&/);
    assert.deepEqual(problems, [], name);
  }
  await page.goto(server.url);
  await ready(page);
  assert.equal(await page.locator('[data-notice]').count(), 0, 'the notice shows once');
  // A state that used a word-vector file (never stored: too big) is valid, and falls back to the
  // built-in words as a link with lexicon=file does.
  await plant(page, JSON.stringify({ v: 1, state: 'ver=1&lexicon=file' }));
  await page.goto(server.url);
  await ready(page);
  assert.equal(await page.locator('[data-notice]').count(), 0);
  assert.deepEqual(await numbers(page), words, 'lexicon=file without a file: the built-in words');
  assert.deepEqual(problems, []);
  await context.close();
});

test('persist: the link wins over the stored state', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  await loadPreset(page, 'fruit');
  await storedMatching(page, /preset=fruit/);
  const { page: linked } = await visit(context, server.url + '#ver=1&preset=painting');
  assert.equal(await linked.getAttribute('button[data-preset="painting"]', 'aria-pressed'), 'true');
  assert.equal(await linked.getAttribute('button[data-preset="fruit"]', 'aria-pressed'), 'false');
  // A broken link also wins: the defaults and the link's notice, not the stored fruit.
  const { page: broken } = await visit(context, server.url + '#ver=1&nope=1');
  assert.equal(await broken.locator('[data-notice="link"]').count(), 1);
  assert.equal(await broken.getAttribute('button[data-preset="fruit"]', 'aria-pressed'), 'false');
  assert.deepEqual(problems, []);
  await context.close();
});

test('persist: embed.html neither reads nor writes the stored state', async () => {
  // Counts every use of localStorage by the page (the test's own calls are made before it counts).
  const context = await fresh(() => {
    window.__storageCalls = 0;
    for (const name of ['getItem', 'setItem', 'removeItem', 'clear', 'key']) {
      const real = Storage.prototype[name];
      Storage.prototype[name] = function (...args) { if (!window.__plant) window.__storageCalls++; return real.apply(this, args); };
    }
  });
  const { page: defaultsPage } = await visit(context, server.url + '#ver=2');
  const defaults = await readHeatmap(defaultsPage, 'weights');
  await defaultsPage.close();
  const planter = await context.newPage();
  const fruit = JSON.stringify({ v: 1, state: 'ver=1&preset=fruit&mode=vectors&mask=causal', saved: new Date().toISOString() });
  await plant(planter, fruit);
  await planter.close();
  const { page, problems } = await visit(context, server.url + 'embed.html');
  assert.deepEqual(await readHeatmap(page, 'weights'), defaults, 'the author\'s figure, not the stored state');
  await andRender(page, () => page.fill('#words-text', 'the cat sat'));
  await written(page); // past the quarter-second write
  assert.equal(await page.evaluate(() => window.__storageCalls), 0);
  await page.evaluate(() => { window.__plant = true; });
  assert.equal(await stored(page), fruit);
  assert.deepEqual(problems, []);
  await context.close();
});

test('persist: without storage (refused or full) the page works as before', async () => {
  const refused = await fresh(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });
  });
  const full = await fresh(() => {
    Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
  });
  for (const context of [refused, full]) {
    const { page, problems } = await visit(context, server.url + '#ver=1');
    const before = await readHeatmap(page, 'weights');
    await andRender(page, () => page.check('fieldset[data-control="similarity"] input[value="cosine"]'));
    assert.notDeepEqual(await readHeatmap(page, 'weights'), before);
    await page.waitForFunction(() => /similarity=cosine/.test(location.hash)); // the link still holds it
    await written(page); // the refused or failed write to storage done
    assert.deepEqual(problems, []);
    await context.close();
  }
});

// --- undo and redo -----------------------------------------------------------------------------

const button = (page, which) => page.locator(`button[data-history="${which}"]`);

test('undo: three edits undone by Ctrl+Z and redone by Ctrl+Shift+Z, Ctrl+Y and ⌘⇧Z; a new edit clears redo', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  const steps = [await numbers(page)];
  assert.equal(await button(page, 'undo').isDisabled(), true);
  assert.equal(await button(page, 'redo').isDisabled(), true);
  assert.equal(await button(page, 'undo').getAttribute('aria-keyshortcuts'), 'Control+Z Meta+Z');
  // 1: a word typed key by key (four input events, one step).
  await page.click('#words-text');
  await page.keyboard.press('End');
  await page.keyboard.type(' red', { delay: 40 });
  await page.waitForFunction(() => /red/.test(document.querySelector('.heatmap[data-view="weights"] thead')?.textContent ?? ''));
  steps.push(await numbers(page));
  // 2: a vector cell. 3: a control.
  await andRender(page, () => page.fill(xCell(0, 0), '4'));
  steps.push(await numbers(page));
  await andRender(page, () => page.check('fieldset[data-control="similarity"] input[value="cosine"]'));
  steps.push(await numbers(page));
  for (let k = 1; k < steps.length; k++) assert.notDeepEqual(steps[k], steps[k - 1], `edit ${k} changes the numbers`);

  for (const k of [2, 1, 0]) {
    await andRender(page, () => page.keyboard.press('Control+z'));
    assert.deepEqual(await numbers(page), steps[k], `undo to step ${k}`);
  }
  assert.equal(await page.inputValue('#words-text'), 'the cat sat on the mat', 'the typed word was one step');
  assert.equal(await button(page, 'undo').isDisabled(), true);
  await page.keyboard.press('Control+z'); // nothing left: nothing changes
  assert.deepEqual(await numbers(page), steps[0]);

  const redoKeys = ['Control+Shift+z', 'Control+y', 'Meta+Shift+z'];
  for (const [k, keys] of redoKeys.entries()) {
    await andRender(page, () => page.keyboard.press(keys));
    assert.deepEqual(await numbers(page), steps[k + 1], `${keys}: redo to step ${k + 1}`);
  }
  assert.equal(await page.isChecked('fieldset[data-control="similarity"] input[value="cosine"]'), true);
  assert.equal(await button(page, 'redo').isDisabled(), true);

  // Two undos, then a new edit: the undone steps are gone.
  await andRender(page, () => page.keyboard.press('Meta+z'));
  await andRender(page, () => page.keyboard.press('Control+z'));
  assert.deepEqual(await numbers(page), steps[1]);
  await andRender(page, () => page.check('fieldset[data-control="mask"] input[value="causal"]'));
  const masked = await numbers(page);
  assert.equal(await button(page, 'redo').isDisabled(), true);
  await page.keyboard.press('Control+Shift+z');
  assert.deepEqual(await numbers(page), masked, 'nothing to redo after a new edit');
  await andRender(page, () => page.keyboard.press('Control+z'));
  assert.deepEqual(await numbers(page), steps[1]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('undo: the buttons step back and forth, and keep the keyboard focus on a live button', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  const steps = [await numbers(page)];
  await loadPreset(page, 'painting'); // vectors: 2 queries, 5 keys
  steps.push(await numbers(page));
  await andRender(page, () => page.click('button[data-action="vectors.addKey"]'));
  steps.push(await numbers(page));
  assert.equal(steps[2].weights[0].length, 6, 'a sixth key');
  await andRender(page, () => page.click('button[data-action="vectors.removeKey"]'));
  steps.push(await numbers(page));
  assert.deepEqual(steps[3], steps[1], 'removing the added key gives the painting numbers back');

  const undo = button(page, 'undo'), redo = button(page, 'redo');
  await undo.focus();
  await andRender(page, () => page.keyboard.press('Enter'));
  assert.deepEqual(await numbers(page), steps[2]);
  await andRender(page, () => undo.click());
  assert.deepEqual(await numbers(page), steps[1]);
  await andRender(page, () => page.keyboard.press('Enter')); // the focus is still on Undo
  assert.deepEqual(await numbers(page), steps[0]);
  assert.equal(await undo.isDisabled(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.history), 'redo', 'the focus moved to Redo');
  await andRender(page, () => page.keyboard.press('Enter'));
  assert.deepEqual(await numbers(page), steps[1]);
  await andRender(page, () => redo.click());
  assert.deepEqual(await numbers(page), steps[2]);
  await andRender(page, () => redo.click());
  assert.deepEqual(await numbers(page), steps[3]);
  assert.equal(await redo.isDisabled(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.history), 'undo', 'the focus moved to Undo');
  assert.deepEqual(problems, []);
  await context.close();
});

test('undo: Ctrl+Z while typing in a grid cell restores the cell and keeps the focus in it', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  const before = await numbers(page);
  const first = await page.inputValue(xCell(0, 1));
  await page.click(xCell(0, 1));
  await page.keyboard.press('End');
  await page.keyboard.type('25', { delay: 40 }); // one cell, one step
  await page.waitForFunction(() => document.querySelector('#app').dataset.state === 'ok');
  assert.notDeepEqual(await numbers(page), before);
  await andRender(page, () => page.keyboard.press('Control+z'));
  assert.deepEqual(await numbers(page), before);
  assert.equal(await page.inputValue(xCell(0, 1)), first);
  assert.equal(await page.evaluate(() => document.activeElement?.matches('.input-grid[data-view="x"] input[data-i="0"][data-j="1"]')), true);

  // A grid rebuilt by the undo (a key added, then a cell typed): the focus goes to the same cell.
  await loadPreset(page, 'painting');
  const painting = await numbers(page);
  await andRender(page, () => page.click('button[data-action="vectors.addKey"]'));
  const kCell = '.input-grid[data-view="k"] input[data-i="0"][data-j="0"]';
  await page.click(kCell);
  await andRender(page, () => page.keyboard.type('7'));
  await andRender(page, () => page.keyboard.press('Control+z')); // the typed 7
  await page.evaluate(() => { window.__typedIn = document.activeElement; });
  await andRender(page, () => page.keyboard.press('Control+z')); // the added key: K is rebuilt
  assert.deepEqual(await numbers(page), painting);
  assert.deepEqual(await page.evaluate((sel) => [document.activeElement?.matches(sel), window.__typedIn.isConnected], kCell),
    [true, false], 'the same cell of the new grid');
  assert.deepEqual(problems, []);
  await context.close();
});

test('undo: keystrokes the page handles late are still one step, timed by when they were typed', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  const before = await numbers(page);
  // Three keystrokes typed within a millisecond, which a busy page handles 700 ms apart (more
  // than the 600 ms that joins a typed word into one step): an event's timeStamp is when it was made.
  await page.evaluate(() => {
    const box = document.querySelector('#words-text');
    const typed = [' r', ' re', ' red'].map((tail) => [box.value + tail, new InputEvent('input', { bubbles: true })]);
    for (const [value, e] of typed) {
      const until = performance.now() + 700;
      while (performance.now() < until); // the page busy
      box.value = value;
      box.dispatchEvent(e);
    }
  });
  await page.waitForFunction(() => /red/.test(document.querySelector('.heatmap[data-view="weights"] thead')?.textContent ?? ''));
  await page.click('#words-text');
  await andRender(page, () => page.keyboard.press('Control+z'));
  assert.equal(await page.inputValue('#words-text'), 'the cat sat on the mat', 'one undo takes the whole word back');
  assert.deepEqual(await numbers(page), before);
  assert.equal(await button(page, 'undo').isDisabled(), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a state too large for a link is kept in the browser: a reload restores it; larger pastes are refused', async () => {
  const context = await fresh();
  const { page, problems } = await visit(context, server.url + '#ver=1');
  const matrix = (rows, cols, seed) => Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (((i * 7 + j * 3 + seed) % 19) - 9) / 10).join(' ')).join('\n');
  await andRender(page, () => page.check('fieldset[data-control="mode"] input[value="vectors"]'));
  for (const [target, seed] of [['q', 1], ['k', 2], ['v', 3]]) await pasteMatrix(page, target, matrix(128, 64, seed));
  const rowCount = () => page.locator('.heatmap[data-view="scores"][data-side="a"] [role="grid"]').getAttribute('aria-rowcount');
  assert.equal(await rowCount(), '129', '128 queries and the header row');
  // 128 × 64 three times is over 100,000 characters: no link, the whole state in storage.
  await page.waitForFunction(() => location.hash === '', null, { timeout: 5000 });
  const record = await storedMatching(page, /q=/);
  assert.ok(record.state.length > 100000, String(record.state.length));
  await page.click('[data-share-open]');
  assert.match(await page.locator('dialog[data-share] [role="status"]').innerText(), /100,000/);
  assert.equal(await page.inputValue('[data-snippet="link"]'), '', 'no link that would not open');
  await page.keyboard.press('Escape');
  // One row more than the page takes: a message, and nothing replaced.
  await page.selectOption('select[data-control="paste-target"]', 'q');
  await page.fill('textarea[data-input="matrix-paste"]', matrix(129, 64, 4));
  await page.click('button[data-action="paste"]');
  assert.match(await page.locator('[data-errors="paste"]').innerText(), /129.*128/);
  await page.reload();
  await ready(page);
  assert.equal(await rowCount(), '129', 'the reload restored the 128 queries');
  assert.equal(await page.locator('[data-notice]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
