// The engine is one file that a blog post embeds: it must stay small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { artifact, root } from './engine-helpers.mjs';

const budget = 100 * 1024;  // gzipped bytes

test('dist/attention-engine.js is at most 100 KB gzipped', () => {
  const bytes = readFileSync(artifact);
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`attention-engine.js: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped ` +
    `(budget ${budget / 1024} KB)`);
  assert.ok(gzipped <= budget, `${gzipped} bytes gzipped, above the budget of ${budget}`);
});

test('the whole page (HTML, JS, CSS, engine) is at most 150 KB gzipped', () => {
  const files = ['index.html', 'app.js', 'app.css', 'attention-engine.js'];
  let total = 0;
  for (const f of files) {
    const gzipped = gzipSync(readFileSync(join(root, 'dist', f)), { level: 9 }).length;
    console.log(`${f}: ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    total += gzipped;
  }
  console.log(`the page: ${(total / 1024).toFixed(1)} KB gzipped (budget 150 KB)`);
  assert.ok(total <= 150 * 1024, `${total} bytes gzipped, above the budget of ${150 * 1024}`);
});
