// The engine is one file that a blog post embeds: it must stay small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { artifact } from './engine-helpers.mjs';

const budget = 100 * 1024;  // gzipped bytes

test('dist/attention-engine.js is at most 100 KB gzipped', () => {
  const bytes = readFileSync(artifact);
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  console.log(`attention-engine.js: ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped ` +
    `(budget ${budget / 1024} KB)`);
  assert.ok(gzipped <= budget, `${gzipped} bytes gzipped, above the budget of ${budget}`);
});
