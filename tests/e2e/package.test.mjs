// The npm package a blog build installs: `npm pack`, installed into a throwaway project without
// the network. In node the engine and the trainer load by their names and the types resolve; in
// Chromium a page of that project shows <attention-playground> from the installed files.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, launch } from './page-helpers.mjs';
import { start } from '../../scripts/serve.mjs';

const project = mkdtempSync(join(tmpdir(), 'attention-blog-'));
after(() => rmSync(project, { recursive: true, force: true }));
const run = (cmd, args, cwd = project) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('package: npm pack installs into a project; the engine, the trainer and their types load by name; the element renders', async () => {
  const [{ filename, files }] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', project], root));
  const names = files.map((f) => f.path);
  for (const f of ['dist/attention-engine.js', 'dist/attention-trainer.js', 'dist/embed.js', 'dist/embed.html', 'dist/story.js', 'dist/elements.d.ts', 'README.md',
    'dist/attention-model.js', 'dist/model.safetensors', 'dist/real.js', 'dist/real-worker.js', 'data/model/SOURCES.md', 'data/model/licenses/chinese-poetry-MIT.txt'])
    assert.ok(names.includes(f), `${f} is in the package`);
  assert.ok(!names.some((f) => /^(cpp|tests|web|build)\//.test(f)), 'no sources or build trees');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-blog', private: true }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(project, filename)]);
  // In node, by the package's names.
  const out = run('node', ['-e', `
    const create = require('attention-playground');
    const train = require('attention-playground/trainer');
    create().then((e) => {
      const r = e.attention({ queries: [[1, 2, 1]], keys: [[2, 2, 0]], values: [[1]], scale: 'none' });
      console.log(r.scores.data[0], typeof train);
    });`]);
  assert.equal(out.trim(), '6 function', 'apple·orange = 6 through the installed engine');
  // The types, as a TypeScript blog build sees them.
  writeFileSync(join(project, 'check.ts'), `import createAttentionEngine = require('attention-playground');
import 'attention-playground/story';
const engine: Promise<createAttentionEngine.Engine> = createAttentionEngine();
const story: HTMLElement | null = document.querySelector('attention-story');
export { engine, story };
`);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16',
    lib: ['dom', 'es2020'], strict: true, noEmit: true, types: [] }, files: ['check.ts'] }));
  run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project]);
  // In Chromium, a page of the project that uses the installed element.
  writeFileSync(join(project, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blog</title>
<link rel="icon" href="data:,"><script src="node_modules/attention-playground/dist/embed.js" defer></script></head>
<body><attention-playground preset="fruit" views="weights" controls="none"></attention-playground></body></html>`);
  const server = await start({ port: 0, root: project, quiet: true });
  const s = server.server ?? server;
  const chromium = await launch();
  try {
    const page = await chromium.context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`http://127.0.0.1:${s.address().port}/index.html`);
    const handle = await page.evaluateHandle(() => document.querySelector('attention-playground').shadowRoot.querySelector('iframe'));
    const frame = await handle.asElement().contentFrame();
    await frame.waitForURL(/embed\.html/, { waitUntil: 'commit', timeout: 10000 });
    await frame.waitForFunction(() => document.querySelectorAll('.heatmap[data-view="weights"][data-side="a"] td[data-i]').length === 9, null, { timeout: 20000 });
    assert.match(frame.url(), /node_modules\/attention-playground\/dist\/embed\.html#/);
    assert.deepEqual(problems, []);
  } finally {
    await chromium.close();
    s.close();
  }
});
