// scripts/serve.mjs: the strict CSP on every response, the right types, nothing outside dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start, CSP } from '../../scripts/serve.mjs';

let dir, server, port;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'serve-'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'secret.txt'), 'outside dist');
  for (const name of ['a.js', 'b.wasm', 'c.json', 'd.svg', 'e.css', 'page.html']) writeFileSync(join(dir, 'dist', name), name);
  server = await start({ port: 0, root: join(dir, 'dist'), quiet: true });
  port = server.address().port;
});
after(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

// Raw requests, so that paths like /../ reach the server as written.
function get(path) {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    }).on('error', reject).end();
  });
}

test('serves files with their MIME type and the CSP', async () => {
  const types = { '/a.js': 'text/javascript', '/b.wasm': 'application/wasm', '/c.json': 'application/json',
    '/d.svg': 'image/svg+xml', '/e.css': 'text/css', '/page.html': 'text/html' };
  for (const [path, type] of Object.entries(types)) {
    const r = await get(path);
    assert.equal(r.status, 200, path);
    assert.ok(r.headers['content-type'].startsWith(type), `${path}: ${r.headers['content-type']}`);
    assert.equal(r.headers['content-security-policy'], CSP);
  }
  assert.match(CSP, /script-src 'self' 'wasm-unsafe-eval';/);
});

test('/ without a built page shows a placeholder that links the engine', async () => {
  const r = await get('/');
  assert.equal(r.status, 200);
  assert.match(r.body, /not built yet/);
  assert.match(r.body, /attention-engine\.js/);
  assert.equal(r.headers['content-security-policy'], CSP);
  writeFileSync(join(dir, 'dist', 'index.html'), 'the page');
  assert.equal((await get('/')).body, 'the page');
});

test('refuses paths outside dist/ and answers 404 for missing files', async () => {
  for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%2e%2e%5csecret.txt', '/a.js%00.html']) {
    const r = await get(path);
    assert.ok(r.status === 403 || r.status === 404, `${path}: ${r.status}`);
    assert.notEqual(r.body, 'outside dist');
  }
  const missing = await get('/nothing.js');
  assert.equal(missing.status, 404);
  assert.equal(missing.headers['content-security-policy'], CSP);
});
