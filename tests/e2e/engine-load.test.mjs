// dist/attention-engine.js in real Chromium, everywhere a reader or a blog may put it: opened
// from disk (file://), served under the product's strict CSP, and inside a cross-origin
// sandbox="allow-scripts" iframe (what WordPress makes of an embed). Each computes apple·orange.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { start } from '../../scripts/serve.mjs';
import { CHROMIUM } from './page-helpers.mjs';

const root = join(import.meta.dirname, '..', '..');
const artifact = join(root, 'dist', 'attention-engine.js');

// The check runs in the page: apple·orange with its terms, posted to the parent when framed.
const CHECK = `createAttentionEngine().then(function (engine) {
  var fruit = [[1, 2, 1], [2, 2, 0], [0, 2, 3]];
  var cell = engine.explainCell({ queries: fruit, keys: fruit, values: fruit }, 0, 1);
  return { ok: cell.ok, score: cell.score, terms: Array.from(cell.terms) };
}).catch(function (e) { return { error: String(e) }; }).then(function (result) {
  window.engineResult = result;
  if (window.parent !== window) window.parent.postMessage({ engineResult: result }, '*');
});
`;
// A data: icon keeps the browser from asking for /favicon.ico (a 404 is a console error).
const PAGE = (body) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>engine check</title>
<link rel="icon" href="data:,"><body>${body}</body></html>`;


let dir, server, browser;
before(async () => {
  assert.ok(existsSync(artifact), `${artifact} is missing: run bash scripts/build.sh wasm`);
  dir = mkdtempSync(join(tmpdir(), 'engine-load-'));
  copyFileSync(artifact, join(dir, 'attention-engine.js'));
  writeFileSync(join(dir, 'check.js'), CHECK);
  writeFileSync(join(dir, 'check.html'), PAGE('<script src="attention-engine.js"></script><script src="check.js"></script>'));
  server = await start({ port: 0, root: dir, quiet: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Opens `url` in a fresh context and returns what the check computed and every console error.
async function check(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url().slice(0, 60)}`));
  await page.goto(url);
  await page.waitForFunction(() => window.engineResult !== undefined, null, { timeout: 20000 });
  const result = await page.evaluate(() => window.engineResult);
  await context.close();
  return { result, problems };
}

function assertAppleOrange({ result, problems }) {
  assert.deepEqual(result, { ok: true, score: 6, terms: [2, 4, 0] });
  assert.deepEqual(problems, []);
}

test('loads from file:// by double-click', async () => {
  assertAppleOrange(await check(pathToFileURL(join(dir, 'check.html')).href));
});

test('loads over http under the strict CSP, with no console errors', async () => {
  const r = await check(`http://127.0.0.1:${server.address().port}/check.html`);
  assertAppleOrange(r);
});

test('loads in a cross-origin sandbox="allow-scripts" iframe', async () => {
  // A blog on another origin (another port; on loopback too, since Chromium keeps public pages
  // from framing local ones) frames the page as WordPress does. The frame's origin is opaque, so
  // the blog knows its messages by event.source, not by event.origin ("null").
  const frame = `http://127.0.0.1:${server.address().port}/check.html`;
  const blog = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE(`<iframe sandbox="allow-scripts" src="${frame}"></iframe><script>
      window.addEventListener('message', function (e) {
        if (e.source === document.querySelector('iframe').contentWindow) window.engineResult = e.data.engineResult;
      });</script>`));
  });
  await new Promise((r) => blog.listen(0, '127.0.0.1', r));
  try {
    assertAppleOrange(await check(`http://127.0.0.1:${blog.address().port}/`));
  } finally {
    await new Promise((r) => blog.close(r));
  }
});

test('the server sends the strict CSP: wasm allowed, eval not, Trusted Types required', async () => {
  const res = await fetch(`http://127.0.0.1:${server.address().port}/check.html`);
  const csp = res.headers.get('content-security-policy');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
  // The engine loads above with no policy of its own: it writes to no script sink.
  assert.match(csp, /require-trusted-types-for 'script'/);
  assert.ok(!csp.split(/[\s;]+/).includes("'unsafe-eval'"), csp);
});
