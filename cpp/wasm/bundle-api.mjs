// Bundles api.js and api/ into the one classic script that --extern-post-js appends to the glue
// (CMakeLists.txt runs it: node bundle-api.mjs <output>).
//
// An IIFE, so that the bundle's names stay its own while createAttentionEngine, the glue's
// variable, stays visible to it. Minified: the engine is embedded in blog posts and its size is
// budgeted (tests/js/size.test.mjs); esbuild renames locals only, never properties, so the API's
// names are kept. `module` is node's CommonJS module when the engine is require()d: written in the
// footer, outside the bundle, because esbuild would otherwise treat the entry as CommonJS and
// hand it a `module` of its own.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
await build({
  entryPoints: [join(here, 'api.js')],
  outfile: process.argv[2],
  bundle: true,
  format: 'iife',
  minify: true,
  footer: { js: "if (typeof module === 'object' && module.exports) module.exports = createAttentionEngine;" },
  logLevel: 'warning',
});
