// The engine's and the trainer's JS API stay in small parts: no file of cpp/wasm/api/ (nor
// trainer-api.js) over 400 lines, no function over 80 (counted from the line that opens it to the line of its closing brace).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

const dir = join(root, 'cpp/wasm/api');
const sources = ['cpp/wasm/api.js', 'cpp/wasm/trainer-api.js', ...readdirSync(dir).filter((f) => f.endsWith('.js'))
  .map((f) => `cpp/wasm/api/${f}`)];

// Functions as the sources write them: declarations, methods and arrows that open a block at the
// end of their first line, closed by a brace at the same indentation.
function functionLengths(text) {
  const lines = text.split('\n');
  const opens = /^(\s*)(export\s+)?(async\s+)?(function\b.*|\w+\s*\(.*\)\s*|.*=>\s*)\{$/;
  const found = [];
  lines.forEach((line, start) => {
    const m = opens.exec(line);
    if (!m || /^\s*(if|for|while|switch|catch|else)\b/.test(line)) return;
    const end = lines.findIndex((l, k) => k > start && l.startsWith(m[1] + '}'));
    found.push({ line: start + 1, length: end - start + 1 });
  });
  return found;
}

test('no file of the engine\'s JS API is over 400 lines', () => {
  for (const file of sources) {
    const count = readFileSync(join(root, file), 'utf8').split('\n').length;
    assert.ok(count <= 400, `${file}: ${count} lines`);
  }
});

test('no function of the engine\'s JS API is over 80 lines', () => {
  const long = [];
  for (const file of sources) {
    for (const f of functionLengths(readFileSync(join(root, file), 'utf8'))) {
      if (f.length > 80) long.push(`${file}:${f.line}: ${f.length} lines`);
    }
  }
  assert.deepEqual(long, []);
});

test('the length check counts a 3-line function as 3 lines', () => {
  assert.deepEqual(functionLengths('function f() {\n  return 1;\n}\n'), [{ line: 1, length: 3 }]);
});
