// Bundles api.js and api/ into the one classic script that --extern-post-js appends to the glue
// (CMakeLists.txt runs it: node bundle-api.mjs <output> [entry factory]; by default the engine's,
// api.js and createAttentionEngine; the trainer's is trainer-api.js and createAttentionTrainer).
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
const [outfile, entry = 'api.js', factory = 'createAttentionEngine'] = process.argv.slice(2);
await build({
  entryPoints: [join(here, entry)],
  outfile,
  bundle: true,
  format: 'iife',
  minify: true,
  footer: { js: `if (typeof module === 'object' && module.exports) module.exports = ${factory};` },
  logLevel: 'warning',
});
