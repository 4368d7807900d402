// Shared set-up for the page's browser tests (page*.test.mjs) and the feel measurement:
// serve dist/ over http (under the product's strict CSP), drive Debian's Chromium (its headless
// shell) with playwright-core, and collect console errors.
import { before, after } from 'node:test';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { extname, join, dirname, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = join(root, 'dist');
export const screenshots = join(root, 'build', 'test-results', 'screenshots');

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; connect-src 'self' data:; object-src 'none'; base-uri 'none'; " +
  "require-trusted-types-for 'script'; trusted-types attention-playground";

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml' };

/** Serves dist/ on a free port: scripts/serve.mjs's start() when it has one, else a small server. */
export async function serve() {
  const servePath = join(root, 'scripts', 'serve.mjs');
  if (existsSync(servePath)) {
    const mod = await import(pathToFileURL(servePath).href);
    if (typeof mod.start === 'function') {
      const server = await mod.start({ port: 0, root: dist, quiet: true });
      const s = server.server ?? server;
      const { port } = s.address();
      return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => s.close(r)) };
    }
  }
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dist, path.endsWith('/') ? path + 'index.html' : path);
    if (!file.startsWith(dist) || !existsSync(file)) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CSP });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Debian's Chromium as its headless shell (the package chromium-headless-shell): the same Blink and
 * V8 as the browser, built from the same source, without the browser's windowing and UI. On two
 * cores the browser tests run in ~60 % of the time they take in the full browser, which is mostly
 * busy with its own UI processes (docs/toolchain.md). AP_CHROMIUM names another binary, such as
 * /usr/lib/chromium/chromium, to run the tests in the full browser.
 */
export const CHROMIUM = process.env.AP_CHROMIUM ?? '/usr/lib/chromium/chromium-headless-shell';

/**
 * Chromium, headless (playwright gives each launch a fresh profile). The page keeps the
 * reader's last state in localStorage and restores it when opened without a link; the pages of
 * this context start without it, because the tests open the bare address (the first visit) after
 * other tests edited. page-persist.test.mjs tests the storage in contexts of its own.
 */
export async function launch(extraArgs = []) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', ...extraArgs],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(() => {
    try { localStorage.removeItem('attention-playground:state'); } catch { /* no storage: nothing to clear */ }
  });
  return { browser, context, close: () => browser.close() };
}

/**
 * For a test file: serves dist/ and launches Chromium before its tests and closes both after.
 * Returns { server, chromium }, filled in once the tests begin.
 */
export function serveAndLaunch(extraArgs = []) {
  const env = { server: null, chromium: null };
  before(async () => {
    env.server = await serve();
    env.chromium = await launch(extraArgs);
  });
  after(async () => {
    await env.chromium?.close();
    await env.server?.close();
  });
  return env;
}

/**
 * An init script that keeps the page's own engine as `window.__pageEngine`, caught as the page
 * creates it: a test-only wrapper around the global attention-engine.js defines, so the product
 * exposes nothing for this. The script assigns the global twice (the wasm module's factory, then
 * the API around it, which is handed the first): each value is wrapped as it is assigned.
 */
export function keepPageEngine() {
  let value;
  Object.defineProperty(window, 'createAttentionEngine', { configurable: true, get: () => value,
    set: (real) => {
      value = typeof real !== 'function' ? real : (...args) => real(...args).then((made) => {
        if (typeof made?.memoryStats === 'function') window.__pageEngine = made;
        return made;
      });
    } });
}

/** A new page on `url` with its console errors, failed requests and CSP violations collected. */
export async function open(context, url, { colorScheme = 'light', width = 1400, height = 1000 } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
  page.on('requestfailed', (r) => problems.push('requestfailed: ' + r.url().slice(0, 80)));
  await page.goto(url);
  await ready(page);
  // A close resolves only once Chromium has torn the page's renderer down, a third of a second or
  // more; nothing is checked after it, so the next step starts meanwhile (the browser's own close
  // waits for it).
  const close = page.close.bind(page);
  page.close = (options) => { close(options).catch(() => { /* the browser closed first */ }); return Promise.resolve(); };
  return { page, problems };
}

/** Waits until the page has rendered at least `after` + 1 times. */
export async function ready(page, after = 0) {
  await page.waitForFunction((n) => Number(document.getElementById('app')?.dataset.renders ?? 0) > n, after,
    { timeout: 20000 });
}

/**
 * Waits until the page has finished writing its figure: rendered, and the link and storage written
 * (the page's root drops data-keeping once the write it holds back a quarter second is done).
 */
export async function written(page) {
  await page.locator('#app[data-renders]:not([data-keeping])').waitFor({ state: 'attached', timeout: 20000 });
}

export function renders(page) {
  return page.evaluate(() => Number(document.getElementById('app').dataset.renders ?? 0));
}

/** Runs `action`, then waits for the next render. */
export async function andRender(page, action) {
  const before = await renders(page);
  await action();
  await ready(page, before);
}

/** The numbers of a heatmap as printed, rows of strings. */
export function readHeatmap(page, view, side = 'a') {
  return page.evaluate(([v, s]) => {
    const el = document.querySelector(`.heatmap[data-view="${v}"][data-side="${s}"] tbody`);
    if (!el) return null;
    return Array.from(el.rows, (tr) => Array.from(tr.querySelectorAll('td[data-i]'), (td) => td.textContent));
  }, [view, side]);
}

export function cell(page, view, i, j, side = 'a') {
  return page.locator(`.heatmap[data-view="${view}"][data-side="${side}"] td[data-i="${i}"][data-j="${j}"]`);
}

/** Parses a printed number ("−0.5", "−∞"). */
export function number(text) {
  if (text === '−∞') return -Infinity;
  return Number(String(text).replace(/\u2212/g, '-').replace(/,/g, ''));
}

/** Saves a full-page screenshot as `name`.png and returns its PNG bytes. */
export async function shot(page, name) {
  mkdirSync(screenshots, { recursive: true });
  return page.screenshot({ path: join(screenshots, name + '.png'), fullPage: true });
}

export async function loadPreset(page, id) {
  await andRender(page, () => page.click(`button[data-preset="${id}"]`));
}

/** Pastes `text` as the matrix of `target` ('q', 'k' or 'v') through the paste box, and waits for the render. */
export async function pasteMatrix(page, target, text) {
  if (!(await page.locator('details.paste').evaluate((el) => el.open))) await page.click('details.paste summary');
  await page.selectOption('select[data-control="paste-target"]', target);
  await page.fill('textarea[data-input="matrix-paste"]', text);
  await andRender(page, () => page.click('button[data-action="paste"]'));
}

/** The cost view, which loads when its section comes near the screen: scrolled to, then waited for. */
export async function costCard(page) {
  await page.locator('.after-steps').scrollIntoViewIfNeeded();
  const card = page.locator('[data-view="cost"]');
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  return card;
}
