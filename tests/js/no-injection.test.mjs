// No code path of ours turns a string into markup or code: what a reader types, pastes, loads or
// receives in a link can only ever become text. Checked on the sources and on what ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

const forbidden = [
  [/\.innerHTML\b/, 'innerHTML'],
  [/\.outerHTML\s*=/, 'outerHTML ='],
  [/insertAdjacentHTML/, 'insertAdjacentHTML'],
  [/document\.write/, 'document.write'],
  [/(^|[^.\w])eval\s*\(/, 'eval('],
  [/new\s+Function\s*\(/, 'new Function('],
  [/setTimeout\s*\(\s*['"`]/, 'setTimeout with a string'],
  [/createContextualFragment/, 'createContextualFragment'],
];

function files(dir, pattern) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && pattern.test(e.name))
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

const shipped = ['dist/app.js', 'dist/attention-engine.js', 'dist/embed.js']
  .map((f) => join(root, f)).filter((f) => existsSync(f));
const sources = [...files(join(root, 'web'), /\.(ts|mjs|js|html)$/), join(root, 'cpp/wasm/api.js')];

test('no source file or shipped script builds markup or code from strings', () => {
  assert.ok(sources.length > 5, 'the page sources were not found');
  assert.ok(shipped.length >= 2, 'dist/ is not built');
  const found = [];
  for (const file of [...sources, ...shipped]) {
    const text = readFileSync(file, 'utf8');
    for (const [pattern, name] of forbidden) {
      if (pattern.test(text)) found.push(`${file.slice(root.length + 1)}: ${name}`);
    }
  }
  assert.deepEqual(found, []);
});

test('the check itself finds each forbidden call', () => {
  const samples = ['el.innerHTML = x', 'el.insertAdjacentHTML("beforeend", x)', 'document.write(x)',
    'eval(x)', 'new Function("return 1")', 'setTimeout("go()", 1)', 'range.createContextualFragment(x)'];
  for (const sample of samples) {
    assert.ok(forbidden.some(([pattern]) => pattern.test(sample)), sample);
  }
  assert.ok(!forbidden.some(([pattern]) => pattern.test('engine.evaluate(x); retrieval(y)')));
});
