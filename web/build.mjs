// Builds the page into dist/. Usage: node web/build.mjs [--dev]  (--dev: no minification).
//   index.html, app.js (one classic IIFE script, so the page also works from file://), app.css
//   embed.html          index.html in embed mode (<html data-embed="1">), for iframes
//   embed.js            the <attention-playground> element (an iframe of embed.html per instance)
//   elements.d.ts       the types of the two elements, for the npm package (package.json exports)
//   story.js            <attention-story> (a scrolling story: prose sections, one figure that follows
//                       them) with <attention-playground>, for blog posts
//   cost-worker.js      the worker that measures the cost of attention (a classic worker script)
//   cost-view.js        the cost view itself, loaded when its section comes near the screen
//   formats.js          the text exports (CSV, JSON, LaTeX, Markdown, NumPy), loaded on the first one
//   share.js            the share dialog, loaded when a reader first opens it
//   plot.js             where each token moves, loaded after the page's first draw
//   lesson.js           the lessons and their player, loaded when a reader opens one (with lesson.css)
//   lesson-real.js      the lesson "What real heads do", loaded with lesson.js when a reader opens it
//   play.js             the pipeline's animation of one query row, loaded on Play (with lesson.css)
//   learn.js            the Learn view, loaded when a reader opens it (with lesson.css)
//   heatmap-canvas.js   the canvas form of a heatmap, loaded with the first figure too large for a table
//                       (these lazy parts are listed once, in web/src/lazy/parts.ts)
//   real.js             the Real model view, loaded when a reader opens it (with lesson.css)
//   learn-worker.js     the worker that trains the Learn view's model (loads attention-trainer.js)
//   real-worker.js      the worker that runs the Real model view's model (loads attention-model.js,
//                       fetches model.safetensors)
//   i18n-<tag>.js       each language's message catalog (a classic script the page loads for its language)
//   embed-resize.js     the host page's script that sizes embed iframes from their height messages
//   oembed.json         oEmbed for WordPress (index.html links it for discovery). oEmbed consumers
//                       need absolute addresses: set PLAYGROUND_URL (e.g. https://example.org/attention/)
//                       when building for a host and both are written with it; without it they
//                       stay relative, which is right for local use and tests.
//   attention-playground.html  one self-contained file (engine, app, catalogs, styles inline) for file://;
//                       it has inline scripts, so it is not for serving under the strict CSP
//   examples/           web/examples/: a blog post that embeds the playground
// The offline file needs dist/attention-engine.js (scripts/build.sh builds it first); without it
// the offline file is skipped with a warning.
import { build, transform } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

const common = { bundle: true, minify: !dev, legalComments: 'none', logLevel: 'warning' };
await build({
  ...common,
  entryPoints: [join(root, 'web/src/app/main.ts')],
  outfile: join(dist, 'app.js'),
  format: 'iife',
  target: 'es2020',
  sourcemap: dev ? 'inline' : false,
});
await build({ ...common, entryPoints: [join(root, 'web/src/element/element.ts')], outfile: join(dist, 'embed.js'),
  format: 'iife', target: 'es2020' });
await build({ ...common, entryPoints: [join(root, 'web/src/element/story.ts')], outfile: join(dist, 'story.js'),
  format: 'iife', target: 'es2020' });
await build({ ...common, entryPoints: [join(root, 'web/src/engine/cost-worker.ts')], outfile: join(dist, 'cost-worker.js'),
  format: 'iife', target: 'es2020' });
await build({ ...common, entryPoints: [join(root, 'web/src/learn/worker.ts')], outfile: join(dist, 'learn-worker.js'),
  format: 'iife', target: 'es2020' });
await build({ ...common, entryPoints: [join(root, 'web/src/real/worker.ts')], outfile: join(dist, 'real-worker.js'),
  format: 'iife', target: 'es2020' });
// The parts the page loads later (and has inline in the offline file), as web/src/lazy/parts.ts lists them.
const parts = await transform(readFileSync(join(root, 'web/src/lazy/parts.ts'), 'utf8'), { loader: 'ts', format: 'esm' });
const { SCRIPTS, ENTRIES } = await import('data:text/javascript;base64,' + Buffer.from(parts.code).toString('base64'));
const LATER = Object.fromEntries(Object.keys(SCRIPTS).map((key) => [SCRIPTS[key], ENTRIES[key]]));
// The learned word vectors, as web/src/views/vectors-entry.ts imports them: data/vectors/words.bin
// in the script form of scripts/vectors/format.mjs, made into the file's bytes again by that
// module's own writer, bundled in with it, so that nothing under web/src writes the format.
const vectorsData = {
  name: 'vectors-data',
  setup(b) {
    b.onResolve({ filter: /^virtual:vectors$/ }, () => ({ path: 'vectors', namespace: 'vectors-data' }));
    b.onLoad({ filter: /.*/, namespace: 'vectors-data' }, async () => {
      const { scriptForm } = await import('../scripts/vectors/format.mjs');
      const form = scriptForm(readFileSync(join(root, 'data/vectors/words.bin')));
      const contents = "import { fromScriptForm } from './scripts/vectors/format.mjs';\n" +
        `const form = ${JSON.stringify(form)};\nexport const bytes = () => fromScriptForm(form);`;
      return { contents, loader: 'js', resolveDir: root };
    });
  },
};
for (const [out, entry] of Object.entries(LATER)) {
  await build({ ...common, entryPoints: [join(root, 'web/src', entry)], outfile: join(dist, out), format: 'iife', target: 'es2020',
    plugins: [vectorsData] });
}
await build({ ...common, entryPoints: [join(root, 'web/src/styles.css')], outfile: join(dist, 'app.css') });
await build({ ...common, entryPoints: [join(root, 'web/src/css/lesson.css')], outfile: join(dist, 'lesson.css') });
// One script per language (web/src/i18n/catalog-<tag>.ts): the page loads the one it shows. Its
// text is written as UTF-8, not as \u escapes (a Chinese catalog 0.3 KB smaller gzipped, on the
// first load), behind a byte-order mark: a browser then reads it as UTF-8 whatever the page
// embedding it is encoded in, and whatever its server says or omits.
const catalogs = readdirSync(join(root, 'web/src/i18n')).filter((f) => /^catalog-.+\.ts$/.test(f)).map((f) => f.slice(8, -3));
for (const tag of catalogs) {
  const outfile = join(dist, `i18n-${tag}.js`);
  await build({ ...common, entryPoints: [join(root, `web/src/i18n/catalog-${tag}.ts`)], outfile, format: 'iife', target: 'es2020',
    charset: 'utf8' });
  writeFileSync(outfile, '\uFEFF' + readFileSync(outfile, 'utf8'));
}

const base = process.env.PLAYGROUND_URL ? new URL(process.env.PLAYGROUND_URL).href.replace(/\/?$/, '/') : '';
const index = readFileSync(join(root, 'web/index.html'), 'utf8')
  .replace('href="oembed.json"', () => `href="${base}oembed.json"`);
writeFileSync(join(dist, 'index.html'), index);
const embed = index.replace('<html lang="en">', '<html lang="en" data-embed="1">')
  .replace(/<link rel="alternate"[^>]*>\n/, '');
if (!embed.includes('data-embed="1"')) throw new Error('web/index.html: <html lang="en"> not found for embed.html');
writeFileSync(join(dist, 'embed.html'), embed);
copyFileSync(join(root, 'web/embed-resize.js'), join(dist, 'embed-resize.js'));
copyFileSync(join(root, 'web/elements.d.ts'), join(dist, 'elements.d.ts')); // the package's types of the two elements
// The learned word vectors (docs/word-vectors.md) and the language model
// (docs/language-model.md), for node and any page that fetches them.
copyFileSync(join(root, 'data/vectors/words.bin'), join(dist, 'vectors.bin'));
copyFileSync(join(root, 'data/model/model.safetensors'), join(dist, 'model.safetensors'));
const oembed = JSON.parse(readFileSync(join(root, 'web/oembed.json'), 'utf8'));
oembed.html = oembed.html.replace('src="embed.html', () => `src="${base}embed.html`);
if (base) oembed.provider_url = base;
writeFileSync(join(dist, 'oembed.json'), JSON.stringify(oembed, null, 2) + '\n');

mkdirSync(join(dist, 'examples'), { recursive: true });
for (const f of readdirSync(join(root, 'web/examples'))) copyFileSync(join(root, 'web/examples', f), join(dist, 'examples', f));

// The offline file: the same page with the styles and both scripts inline. `</script` and `<!--`
// inside a script would end or confuse the HTML parser; written as `<\/script` and `<\!--` they
// mean the same inside the JavaScript strings and regular expressions they occur in.
const enginePath = join(dist, 'attention-engine.js');
if (existsSync(enginePath)) {
  const inline = (js) => js.replace(/^\uFEFF/, '').replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
  const css = ['app.css', 'lesson.css'].map((f) => readFileSync(join(dist, f), 'utf8')).join('\n').replace(/<\/style/gi, '<\\/style');
  const offline = index
    .replace(/<link rel="alternate"[^>]*>\n/, '')
    .replace('<link rel="stylesheet" href="app.css">', () => `<style>\n${css}</style>`)
    .replace('<script src="attention-engine.js" defer></script>', () => `<script>\n${inline(readFileSync(enginePath, 'utf8'))}</script>`)
    .replace('<script src="app.js" defer></script>', () =>
      [...catalogs.map((tag) => `i18n-${tag}.js`), ...Object.keys(LATER)].map((f) => `<script>\n${inline(readFileSync(join(dist, f), 'utf8'))}</script>\n`).join('') +
      `<script>\ndocument.addEventListener('DOMContentLoaded', function () {\n${inline(readFileSync(join(dist, 'app.js'), 'utf8'))}\n});\n</script>`);
  if (offline.includes('src="app.js"') || offline.includes('href="app.css"')) throw new Error('offline file: a reference was not inlined');
  writeFileSync(join(dist, 'attention-playground.html'), offline);
} else {
  console.warn('web/build.mjs: dist/attention-engine.js is missing; attention-playground.html not written');
}
