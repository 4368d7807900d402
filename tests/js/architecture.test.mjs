// The page's layers (docs/developing.md, "The page's folders in detail"), checked on the source:
// every import in web/src is read, and the rules below fail the suite the day an import goes the
// wrong way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, relative, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'web/src');

function files(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Each module's imports: { from, to, typeOnly }, paths relative to web/src without ".ts". */
function graph() {
  const edges = [];
  for (const file of files(src)) {
    const from = relative(src, file).replace(/\.ts$/, '');
    const code = readFileSync(file, 'utf8');
    const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'|^\s*import\s*'([^']+)'/gm;
    for (const m of code.matchAll(re)) {
      const spec = m[4] ?? m[5];
      if (!spec.startsWith('.')) continue;
      let to = normalize(join(dirname(from), spec)).replace(/\\/g, '/');
      if (!existsSync(join(src, to + '.ts')) && existsSync(join(src, to, 'index.ts'))) to += '/index';
      // `import { type A, type B }` is as type-only as `import type { A, B }`.
      const names = m[3] ?? '';
      const allTypes = !!m[2] || (/^\{[^}]*\}$/.test(names.trim()) &&
        names.replace(/[{}]/g, '').split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type ')));
      edges.push({ from, to, typeOnly: allTypes });
    }
  }
  return edges;
}

const edges = graph();
const layer = (module) => module.split('/')[0];

test('architecture: every relative import names a file that exists', () => {
  const missing = edges.filter((e) => !existsSync(join(src, e.to + '.ts')) &&
    !existsSync(join(root, 'web/src', e.to + '.d.ts')) && !existsSync(join(src, e.to + '.d.ts')));
  assert.deepEqual(missing.map((e) => `${e.from} -> ${e.to}`), []);
});

test('architecture: no import cycles in web/src', () => {
  const next = new Map();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    next.get(e.from).push(e.to);
  }
  const state = new Map(); // 1 visiting, 2 done
  const cycles = [];
  const visit = (m, path) => {
    if (state.get(m) === 2) return;
    if (state.get(m) === 1) { cycles.push([...path.slice(path.indexOf(m)), m].join(' -> ')); return; }
    state.set(m, 1);
    for (const to of next.get(m) ?? []) visit(to, [...path, m]);
    state.set(m, 2);
  };
  for (const m of next.keys()) visit(m, []);
  assert.deepEqual(cycles, []);
});

// What each layer may import at runtime (type-only imports of the engine's and the model's types
// are how views name the data they receive). A layer not listed may import any layer.
const RUNTIME_ALLOWED = {
  i18n: ['i18n'],
  engine: ['engine', 'i18n'],
  state: ['state', 'i18n'],
  model: ['model', 'engine', 'state'],
  views: ['views', 'i18n', 'state', 'lazy'],
  element: ['element', 'lesson', 'state', 'i18n'],
  lesson: ['lesson', 'views', 'model', 'state', 'i18n', 'lazy'],
  play: ['play', 'views', 'i18n', 'lazy'],
  learn: ['learn', 'views', 'engine', 'state', 'i18n', 'lazy'],
  real: ['real', 'views', 'engine', 'state', 'i18n', 'lazy'],
  cost: ['cost', 'views', 'engine', 'i18n', 'lazy'],
  // The loader of lazy parts sits low: features' entries call provide() from it.
  lazy: ['lazy', 'engine', 'i18n'],
};

for (const [from, allowed] of Object.entries(RUNTIME_ALLOWED)) {
  test(`architecture: ${from}/ imports at runtime only ${allowed.join(', ')}`, () => {
    const wrong = edges.filter((e) => layer(e.from) === from && !e.typeOnly && !allowed.includes(layer(e.to)))
      .map((e) => `${e.from} -> ${e.to}`);
    assert.deepEqual(wrong, []);
  });
}

test('architecture: no loops between the folders of web/src either, type imports counted', () => {
  // Folder A depends on B when a file of A imports one of B; a loop of folders is a loop of
  // layers, however the files inside avoid one.
  const next = new Map();
  for (const e of edges) {
    const [a, b] = [layer(e.from), layer(e.to)];
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    next.get(a).add(b);
  }
  const loops = [];
  const state = new Map();
  const visit = (m, path) => {
    if (state.get(m) === 2) return;
    if (state.get(m) === 1) { loops.push([...path.slice(path.indexOf(m)), m].join(' -> ')); return; }
    state.set(m, 1);
    for (const to of next.get(m) ?? []) visit(to, [...path, m]);
    state.set(m, 2);
  };
  for (const m of next.keys()) visit(m, []);
  assert.deepEqual(loops, []);
});

test("architecture: lazy/, the loader, names no feature's types: each entry adds its own part's", () => {
  const wrong = edges.filter((e) => layer(e.from) === 'lazy' && !['lazy', 'engine', 'state', 'i18n'].includes(layer(e.to)))
    .map((e) => `${e.from} -> ${e.to}`);
  assert.deepEqual(wrong, []);
});

// Each file format has one writer: safetensors is written by scripts/model/safetensors.mjs (the
// Python scripts call it), the word-vector file by scripts/vectors/format.mjs (the build and the
// page's vectors.js bundle it). The tests write broken files by hand on purpose and are not read.
test('architecture: no format is written outside its owner', () => {
  const sources = (dir) => readdirSync(join(root, dir), { recursive: true })
    .filter((f) => /\.(m?js|ts|py)$/.test(f) && !f.includes('node_modules')).map((f) => join(dir, f));
  const all = ['web', 'scripts', 'bench', 'cpp/wasm'].flatMap(sources);
  const writers = (pattern) => all.filter((f) => pattern.test(readFileSync(join(root, f), 'utf8'))).sort();
  // A safetensors file begins with its header's length as a little-endian u64.
  assert.deepEqual(writers(/setBigUint64\(0|(?<!un)pack\(\s*'<Q'|to_bytes\(8/), ['scripts/model/safetensors.mjs']);
  // A word-vector file begins with "APV1".
  assert.deepEqual(writers(/0x41, 0x50, 0x56, 0x31|write\('APV1'/), ['scripts/vectors/format.mjs']);
  // And the page reads neither layout itself.
  assert.deepEqual(writers(/getBigUint64|APV1/).filter((f) => f.startsWith('web/src')), []);
});

test('architecture: model/ returns values, not sentences: it imports no message catalog, not even its types', () => {
  assert.deepEqual(edges.filter((e) => layer(e.from) === 'model' && layer(e.to) === 'i18n').map((e) => `${e.from} -> ${e.to}`), []);
});

test('architecture: state/state.ts, the state table, imports nothing', () => {
  assert.deepEqual(edges.filter((e) => e.from === 'state/state').map((e) => e.to), []);
});

test('architecture: nothing outside app/ reaches up into app/', () => {
  const wrong = edges.filter((e) => layer(e.to) === 'app' && layer(e.from) !== 'app').map((e) => `${e.from} -> ${e.to}`);
  assert.deepEqual(wrong, []);
});

test('architecture: the page takes the engine types from the shipped .d.ts, and has no copy of them', () => {
  const types = readFileSync(join(src, 'engine/types.ts'), 'utf8');
  assert.match(types, /from '\.\.\/\.\.\/\.\.\/cpp\/wasm\/attention-engine'/);
  assert.doesNotMatch(types, /^\s*(export\s+)?interface\s/m, 'engine/types.ts declares an interface of its own');
  const copies = files(src).filter((f) => /interface\s+(Steps|MultiHead|CellExplanation|EngineError)\s*\{/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(copies.map((f) => relative(src, f)), []);
});

test('architecture: the workers (learn/worker.ts, real/worker.ts) carry no catalog: what goes wrong reaches the page as data', () => {
  const seen = new Set();
  const todo = ['learn/worker', 'real/worker'];
  while (todo.length) {
    const m = todo.pop();
    if (seen.has(m)) continue;
    seen.add(m);
    for (const e of edges) if (e.from === m && !e.typeOnly) todo.push(e.to);
  }
  assert.deepEqual([...seen].filter((m) => layer(m) === 'i18n'), []);
});

test('architecture: only i18n/ asks which language a text is in; every other part looks its words up there', () => {
  const asks = files(src).filter((f) => !relative(src, f).startsWith('i18n/'))
    .filter((f) => /[!=]==?\s*'zh|'zh[-\w]*'\s*[!=]==?/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(asks.map((f) => relative(src, f)), []);
});

// Small parts: a file that grows past this is doing two things. The message catalogs are lists.
const MAX_LINES = 400;
const CATALOGS = new Set(['i18n/en.ts', 'i18n/zh-CN.ts']);

test(`architecture: no file in web/src is over ${MAX_LINES} lines (the message catalogs excepted); app.ts at most 300`, () => {
  const long = [...files(src), ...readdirSync(join(src, 'css')).map((f) => join(src, 'css', f))]
    .map((f) => [relative(src, f), readFileSync(f, 'utf8').split('\n').length - 1])
    .filter(([f, lines]) => !CATALOGS.has(f) && lines > (f === 'app/app.ts' ? 300 : MAX_LINES));
  assert.deepEqual(long, []);
});

// A listener on the document, the window or the page's root (which every mount fills again)
// outlives the part that added it unless it is removed:
// an App mounted again (a link, a language, a lesson step) would keep the old page alive and its
// keys answering. So each goes with an AbortSignal (the App's lifetime), except in the files that
// live as long as the page itself (main.ts) or remove theirs in their own lifecycle (the elements).
const PAGE_LIFETIME = new Set(['app/main.ts', 'element/element.ts', 'element/reading.ts', 'element/story.ts']);

/** The text of the call starting at `at` (the index of its opening parenthesis), to its closing one. */
function callText(code, at) {
  let depth = 0;
  for (let k = at; k < code.length; k++) {
    if (code[k] === '(') depth++;
    else if (code[k] === ')' && --depth === 0) return code.slice(at, k + 1);
  }
  return code.slice(at);
}

test('architecture: every listener on the document, the window or the root goes with a signal, outside the page-lifetime files', () => {
  const loose = [];
  for (const file of files(src)) {
    const name = relative(src, file);
    if (PAGE_LIFETIME.has(name)) continue;
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\b(document|window|globalThis|self|root)\.addEventListener\s*(\()/g)) {
      const call = callText(code, m.index + m[0].length - 1);
      if (!/\bsignal\b/.test(call))
        loose.push(`${name}:${code.slice(0, m.index).split('\n').length}`);
    }
  }
  assert.deepEqual(loose, [], 'pass { signal } (the App lifetime) to these listeners');
});

// A lazy part comes one way: lazy(key) in lazy/lazy.ts, the only module that adds a script to
// the page, from the one list in lazy/parts.ts, which web/build.mjs builds from and the Trusted
// Types policy allows.
test('architecture: lazy parts load one way, each listed once with an entry that provides its own key', async () => {
  const adders = files(src).filter((f) => /createElement\(\s*'script'\s*\)/.test(readFileSync(f, 'utf8'))).map((f) => relative(src, f));
  assert.deepEqual(adders, ['lazy/lazy.ts']);
  const table = readFileSync(join(src, 'lazy/parts.ts'), 'utf8');
  const section = (name) => table.slice(table.indexOf(`export const ${name}`)).split(/^}/m)[0];
  const scripts = Object.fromEntries([...section('SCRIPTS').matchAll(/^\s*(\w+): '([^']+)'/gm)].map((m) => [m[1], m[2]]));
  const entries = Object.fromEntries([...section('ENTRIES').matchAll(/^\s*(\w+): '([^']+)'/gm)].map((m) => [m[1], m[2]]));
  assert.deepEqual(Object.keys(entries).sort(), Object.keys(scripts).sort());
  assert.ok(Object.keys(scripts).length >= 8, 'the eight parts of today at least');
  const trusted = readFileSync(join(src, 'engine/trusted.ts'), 'utf8');
  for (const [key, entry] of Object.entries(entries)) {
    const code = readFileSync(join(src, entry), 'utf8');
    assert.match(code, new RegExp(`provide\\('${key}',`), `${entry} provides '${key}'`);
    assert.ok(trusted.includes(`'${scripts[key]}'`), `engine/trusted.ts allows ${scripts[key]}`);
  }
  // Nothing but the registry keeps parts on the global object.
  const globals = files(src).filter((f) => /globalThis as unknown as Record<string, (Factory|\(\) =>)/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(globals.map((f) => relative(src, f)), []);
});

// The model is the page's only caller of the engine: views, lessons and the animation get the
// engine's numbers as data, and the page's wiring hands the engine to model/ functions only.
// (Learn, the Real model view and the cost view drive the trainer, the language model and the
// cost measurement, their own engines.)
const ENGINE_CALLERS = new Set(['model', 'engine', 'learn', 'real', 'cost']);

test('architecture: only model/ calls the engine; views, lessons and the animation never name it', () => {
  const calls = [];
  for (const file of files(src)) {
    const name = relative(src, file);
    if (ENGINE_CALLERS.has(layer(name)) || name === 'app/main.ts') continue;
    const code = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
    for (const m of code.matchAll(/\bengine\.(\w+)\s*\(/g))
      calls.push(`${name}:${code.slice(0, m.index).split('\n').length} engine.${m[1]}()`);
  }
  assert.deepEqual(calls, [], 'ask model/ for it (model/reads.ts, model/explanation.ts)');
  const named = edges.filter((e) => ['views', 'lesson', 'play'].includes(layer(e.from)) &&
    /\bimport\s+(type\s+)?\{[^}]*\b(Engine|Explainer)\b/.test(readFileSync(join(src, e.from + '.ts'), 'utf8')));
  assert.deepEqual([...new Set(named.map((e) => e.from))], []);
});

// Views get narrow data (a Figure, HeatmapData, an explanation), never the whole model: what a
// view reads is then what its type says, and a field added to the model touches no view.
test('architecture: views, lessons and the animation never take the whole Model', () => {
  const whole = files(src).filter((f) => ['views', 'lesson', 'play'].includes(layer(relative(src, f))) &&
    /\bimport\s+type\s*\{[^}]*\bModel\b[^}]*\}\s*from\s*'\.\.\/model\/compute'/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(whole.map((f) => relative(src, f)), []);
});
