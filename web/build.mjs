// Builds the page into dist/: index.html, app.js (one classic IIFE script, so the page also
// works from file://) and app.css. Usage: node web/build.mjs [--dev]  (--dev: no minification).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

const common = { bundle: true, minify: !dev, legalComments: 'none', logLevel: 'warning' };
await build({
  ...common,
  entryPoints: [join(root, 'web/src/main.ts')],
  outfile: join(dist, 'app.js'),
  format: 'iife',
  target: 'es2020',
  sourcemap: dev ? 'inline' : false,
});
await build({ ...common, entryPoints: [join(root, 'web/src/styles.css')], outfile: join(dist, 'app.css') });
copyFileSync(join(root, 'web/index.html'), join(dist, 'index.html'));
