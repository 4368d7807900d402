#!/usr/bin/env node
// Serves dist/ on http://localhost:8080 (PORT and HOST override), with the strict Content
// Security Policy the product promises to work under on every response. No dependencies.
//
//   node scripts/serve.mjs                                       (what `npm start` runs)
//   import { start } from './scripts/serve.mjs'; await start({ port: 0 })   (tests: a free port)
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The page and the engine need nothing else: wasm is compiled from a data: URI inside the engine
// ('wasm-unsafe-eval', and connect-src data: so the loader's fetch of it is not reported).
// Trusted Types are required: the only script URLs the page makes come from its one policy,
// attention-playground (web/src/engine/trusted.ts); the engine needs none.
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; connect-src 'self' data:; object-src 'none'; base-uri 'none'; " +
  "require-trusted-types-for 'script'; trusted-types attention-playground";

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8',  // attention-engine.d.ts, to read
  '.txt': 'text/plain; charset=utf-8',
};

// Shown at / until `npm run build` has written dist/index.html.
const PLACEHOLDER = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Attention Playground</title>
<h1>Attention Playground</h1>
<p>The playground page is not built yet: run <code>npm run build</code>, then reload.</p>
<p>The engine on its own: <a href="/attention-engine.js">attention-engine.js</a>
(its API: <a href="/attention-engine.d.ts">attention-engine.d.ts</a>).</p>
</html>
`;

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'content-security-policy': CSP,
    'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' });
  res.end(body);
}

/** The request handler for the files under `dir`. */
export function handler(dir) {
  const base = resolve(dir);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      send(res, 400, 'text/plain; charset=utf-8', 'bad request\n');
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    // Resolve, then refuse anything outside dist/ (../, %2e%2e, absolute paths, NUL bytes).
    const file = resolve(base, '.' + path);
    if (path.includes('\0') || (file !== base && !file.startsWith(base + sep))) {
      send(res, 403, 'text/plain; charset=utf-8', 'forbidden\n');
      return;
    }
    if (!existsSync(file) || !statSync(file).isFile()) {
      if (path === '/index.html') send(res, 200, TYPES['.html'], PLACEHOLDER);
      else send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CSP, 'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache', 'content-length': statSync(file).size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  };
}

/**
 * Starts serving `root` (default dist/) and resolves to the listening http.Server.
 * port 0 picks a free port: read it back with server.address().port.
 */
export function start({ port = Number(process.env.PORT ?? 8080), host = process.env.HOST ?? '127.0.0.1',
  root: dir = join(root, 'dist'), quiet = false } = {}) {
  const server = createServer(handler(dir));
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      if (!quiet) {
        const shown = host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
        console.log(`Serving ${dir} on http://${shown}:${server.address().port}/ (Ctrl+C stops)`);
      }
      resolveStart(server);
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  start().catch((e) => {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  });
}
