// Every file a comment or a doc names is a file of the repository: a comment that points at a
// file which was renamed, moved or never existed sends the next reader looking for nothing.
// Scanned: the comments of the sources (web/, cpp/, scripts/, tests/, bench/, CMake files) and
// the whole text of every Markdown file outside its fenced code blocks. A name is resolved from
// the repository's root, from the folder of the file that names it and from web/src (the page's
// code names its files from there, as `app/link.ts`); a bare file name (`state.ts`) from any file
// of that name. What the builds write (dist/, build/) is named as a product, not a source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.git', 'corpus', 'regressions']);
const SOURCE_DIRS = ['web', 'cpp', 'scripts', 'tests', 'bench'];
const COMMENTED = /\.(ts|js|mjs|cjs|cpp|hpp|c|h|css|py|sh|html)$|(^|\/)CMakeLists\.txt$/;
const EXTENSIONS = 'ts|mjs|cjs|js|cpp|hpp|c|h|py|sh|md|json|css|html|txt|png';
// A path or a file name: segments of word characters, dots and dashes, ending in a known
// extension, not part of a longer word, path or URL (the lookbehind) and not followed by more of
// one. Names with placeholders (`test_<header>.cpp`, `convert_*.cpp`) are patterns, not files.
const REFERENCE = new RegExp(
  `(?<![\\w./<>*{}$@%:\\\\-])((?:\\.{1,2}/)*(?:[\\w.-]+/)*[\\w-][\\w.-]*\\.(?:${EXTENSIONS}))(?![\\w/<>*{}-])`, 'g');

// Names that are not the repository's, each for its reason.
const EXTERNAL = new Set([
  'GraphemeBreakTest.txt', // the Unicode Consortium's conformance test, from Debian's unicode-data
  'layouts/shortcodes/attention-playground.html', // a file of the reader's Hugo site
  'attention-figure.png', // the image a reader downloads from the share dialog
  'my-lesson.json', // the reader's own lesson, in the story example
  'ja.ts', // the example of a language's new catalog, in web/src/i18n/README.md
  'learn-ja.ts', // and its sections of the lazy parts, beside it
  'lesson-ja.ts',
  'play-ja.ts',
  'GraphemeBreakProperty.txt', // the Unicode Character Database files the core's tables come from
  'emoji-data.txt',
  'UnicodeData.txt',
  'WordBreakProperty.txt',
  'PropList.txt',
  'vocab.json', // a GPT-2 tokenizer's two files, which a reader's checkpoint comes with
  'merges.txt',
  'tokenizer.json', // or the one file Hugging Face's tokenizers write instead, and the model's config
  'config.json',
  'splitmix64.c', // the published reference implementation of SplitMix64
]);
// Folders of other projects' files: the libraries' headers, Emscripten's sources, the Unicode
// Character Database's layout under /usr/share/unicode.
const EXTERNAL_FOLDERS = /^(xtensor|xtl|catch2|system\/lib|auxiliary|emoji)\//;

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP_DIRS.has(name)) return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [relative(root, p)];
  });
}

const all = walk(root);
const files = new Set(all);
const folders = new Set(all.flatMap((f) => {
  const parts = f.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}));
const basenames = new Set(all.map((f) => basename(f)));

/** The file names the builds write: every name web/build.mjs, scripts/build.sh and the list of lazy parts (web/src/lazy/parts.ts) spell, `${…}` as a wildcard. */
function products() {
  const text = ['web/build.mjs', 'scripts/build.sh', 'web/src/lazy/parts.ts'].map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
  const names = new Set();
  for (const m of text.matchAll(/[\w.${}<>-]+\.(?:js|ts|html|json|css)\b/g)) names.add(m[0]);
  return [...names].map((n) => new RegExp('^' + n.replace(/\$\{[^}]*\}|<[^>]*>/g, '\u0000')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\u0000/g, '[\\w-]+') + '$'));
}
const PRODUCTS = products();
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isProduct = (name) => PRODUCTS.some((re) => re.test(basename(name)));

/** The comment lines of a source file: [line number, text]. */
function comments(file, text) {
  const out = [];
  const hash = /\.(py|sh)$|CMakeLists\.txt$/.test(file);
  let block = false;
  text.split('\n').forEach((line, k) => {
    if (hash) {
      const m = /(^|\s)#(?![!{(])(.*)$/.exec(line);
      if (m) out.push([k + 1, m[2]]);
      return;
    }
    let rest = line;
    while (rest) {
      if (block) {
        const end = rest.search(/\*\/|-->/);
        out.push([k + 1, end < 0 ? rest : rest.slice(0, end)]);
        if (end < 0) return;
        block = false;
        rest = rest.slice(end + 3);
        continue;
      }
      // The first comment opener outside a string on this line (a line-local view of strings,
      // which is what a reference in a comment needs).
      let quote = null;
      let at = -1;
      for (let i = 0; i < rest.length && at < 0; i++) {
        const c = rest[i];
        if (quote) { if (c === '\\') i++; else if (c === quote) quote = null; continue; }
        if (c === "'" || c === '"' || c === '`') quote = c;
        else if (rest.startsWith('//', i) || rest.startsWith('/*', i) || rest.startsWith('<!--', i)) at = i;
      }
      if (at < 0) return;
      if (rest.startsWith('//', at)) { out.push([k + 1, rest.slice(at + 2)]); return; }
      block = true;
      rest = rest.slice(at + (rest.startsWith('/*', at) ? 2 : 4));
    }
  });
  return out;
}

/** A Markdown file's lines outside fenced code blocks: [line number, text]. */
function prose(text) {
  let fenced = false;
  return text.split('\n').flatMap((line, k) => {
    if (/^\s*```/.test(line)) { fenced = !fenced; return []; }
    return fenced ? [] : [[k + 1, line]];
  });
}

function resolves(ref, from, text = '') {
  // An elided path (`.../embed.html`) names no file; a name the file spells as a string of its
  // own (a page a test serves, a file it writes) is something it makes.
  if (EXTERNAL.has(ref) || EXTERNAL_FOLDERS.test(ref) || ref.startsWith('...') || new RegExp(`['"\`/]${escape(ref)}['"\`]`).test(text)) return true;
  const clean = ref.replace(/^\.\//, '');
  if (/^(dist|build)\//.test(clean)) return clean.startsWith('build/') || isProduct(clean) || files.has(clean.replace(/^dist\//, 'web/'));
  const here = dirname(from);
  // The core's headers are named as their includes name them, from cpp/core ("lm/gpt2.hpp").
  const candidates = ref.startsWith('../') ? [join(here, ref)] : [clean, join(here, clean), join('web/src', clean), join('cpp/core', clean)];
  if (candidates.some((c) => files.has(normalize(c)) || folders.has(normalize(c)))) return true;
  if (ref.includes('/')) return false;
  // A bare name: a file of that name somewhere, or one the builds write. Capitalised names
  // ending in .js are libraries (Node.js, TF.js), not files.
  return basenames.has(ref) || isProduct(ref) || /^[A-Z][\w]*\.js$/.test(ref);
}

function dangling() {
  const found = [];
  for (const file of all) {
    const markdown = file.endsWith('.md');
    if (!markdown && !(COMMENTED.test(file) && (SOURCE_DIRS.includes(file.split('/')[0]) || file === 'CMakeLists.txt')))
      continue;
    const text = readFileSync(join(root, file), 'utf8');
    for (const [line, content] of markdown ? prose(text) : comments(file, text))
      for (const m of content.matchAll(REFERENCE))
        if (!resolves(m[1], file, markdown ? '' : text)) found.push(`${file}:${line} -> ${m[1]}`);
  }
  return found;
}

test('references: every repository file a comment or a doc names exists', () => {
  assert.deepEqual(dangling(), []);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** The headings of a Markdown file, as written and as anchors. */
function headings(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const titles = [...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1].replace(/`/g, ''));
  return { titles: new Set(titles), anchors: new Set(titles.map(slug)) };
}

// A section named with its file, as `docs/toolchain.md, "Closure"` in a comment (the heading
// starts with the name) or `docs/performance.md#speed` in a link, is a heading of that file.
test('references: every section named in a comment or a doc is a heading of its file', () => {
  const missing = [];
  for (const file of all) {
    const markdown = file.endsWith('.md');
    if (!markdown && !(COMMENTED.test(file) && (SOURCE_DIRS.includes(file.split('/')[0]) || file === 'CMakeLists.txt')))
      continue;
    const text = readFileSync(join(root, file), 'utf8');
    // Comments are read as one text, so a section's name may wrap onto the next comment line.
    const body = (markdown ? prose(text) : comments(file, text)).map(([, c]) => c).join('\n');
    const flat = body.replace(/\s+/g, ' ');
    const target = (ref) => [join(dirname(file), ref), ref, join('web/src', ref)].map((c) => normalize(c)).find((c) => files.has(c));
    for (const m of flat.matchAll(/([\w./-]+\.md),? "([^"]+)"/g)) {
      const md = target(m[1]);
      if (md && ![...headings(md).titles].some((t) => t.startsWith(m[2]))) missing.push(`${file} -> ${m[1]}, "${m[2]}"`);
    }
    for (const m of body.matchAll(/\]\(([\w./-]*\.md)?#([\w-]+)\)/g)) {
      const md = m[1] ? target(m[1]) : file;
      if (md && !headings(md).anchors.has(m[2])) missing.push(`${file} -> ${m[1] ?? ''}#${m[2]}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('references: the scan finds real references and refuses invented ones', () => {
  // The check is only as good as what it reads: it must see the names in comments and docs...
  const seen = comments('x.ts', "const a = 'b'; // see app/link.ts and '../errors.ts'\n/* cost/measure.ts\n */");
  assert.deepEqual(seen.map(([, c]) => [...c.matchAll(REFERENCE)].map((m) => m[1])).flat(),
    ['app/link.ts', '../errors.ts', 'cost/measure.ts']);
  assert.deepEqual(comments('x.ts', "const u = 'https://x.org/a.js'; const s = \"//b.ts\";"), []);
  // ...and tell a file that is there from one that is not.
  assert.ok(resolves('app/link.ts', 'web/src/model/compute.ts'));
  assert.ok(resolves('learn-entry.ts', 'web/src/app/learn-run.ts') || !files.has('web/src/app/learn-entry.ts'));
  assert.ok(resolves('dist/i18n-zh-CN.js', 'README.md'));
  for (const missing of ['app/messages.ts', '../errors.ts', 'cost/measure.ts', 'NOTES.md', 'dist/nothing.js'])
    assert.ok(!resolves(missing, 'web/src/views/cost.ts'), missing);
});
