#!/usr/bin/env node
// The page's language model in Chromium: bench/model-rounds.mjs run in a page of Debian's
// Chromium (headless, driven by playwright-core), the core (dist/attention-model.js, as the page
// loads it) against onnxruntime-web's wasm backend (its ESM build and wasm from bench's
// node_modules), one thread each, on the page's thread. The numbers are Chromium's wasm engine,
// where bench/model.mjs gives node's.
//   node bench/model-chromium.mjs [--rounds N]      (npm --prefix bench ci first; python3-torch)
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 7;
execFileSync('/usr/bin/python3', [join(here, 'export_model.py'), join(root, 'data/model/model.safetensors'), join(root, 'build/bench')],
  { stdio: ['ignore', 'inherit', 'ignore'] });

const PAGE = `<!doctype html><meta charset="utf-8"><title>language model benchmark</title>
<script src="/dist/attention-model.js"></script>
<script type="module">
import * as ort from '/ort/ort.wasm.min.mjs';
import { benchModel, report } from '/bench/model-rounds.mjs';
const log = [];
try {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = '/ort/';
  ort.env.logLevel = 'error';
  const bytes = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
  const opened = (await createAttentionModel()).open(await bytes('/data/model/model.safetensors'));
  if (!opened.ok) throw new Error(opened.error.message);
  const prefill = await ort.InferenceSession.create(await bytes('/build/bench/prefill.onnx'));
  const decode = await ort.InferenceSession.create(await bytes('/build/bench/decode.onnx'));
  const results = await benchModel({ lm: opened.model, ort, prefill, decode, rounds: ${rounds}, log: (l) => log.push(l) });
  window.done = { lines: [...log, ...report(results)] };
} catch (e) {
  window.done = { error: String(e && e.stack || e) };
}
</script>`;

/** URL prefixes and the folders they serve. */
const FOLDERS = { '/dist/': 'dist', '/data/': 'data', '/build/bench/': 'build/bench', '/bench/': 'bench',
  '/ort/': 'bench/node_modules/onnxruntime-web/dist' };
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  const prefix = Object.keys(FOLDERS).find((p) => path.startsWith(p));
  const file = prefix && normalize(join(root, FOLDERS[prefix], path.slice(prefix.length)));
  if (!file || !file.startsWith(join(root, FOLDERS[prefix])) || !existsSync(file) || !statSync(file).isFile())
    return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({
  executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '/usr/lib/chromium/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.done, null, { timeout: 600000 });
  const done = await page.evaluate(() => window.done);
  if (done.error) throw new Error(done.error);
  console.log(browser.version().replace(/^/, 'Chromium '));
  for (const line of done.lines) console.log(line);
} finally {
  await browser.close();
  server.close();
}
