// Numbers on the page (web/src/i18n: num) are written by a fast path for English and Chinese;
// it must write exactly what Intl.NumberFormat writes for the same locale and digits.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

let I; // web/src/i18n/index.ts

before(async () => {
  const out = await build({ entryPoints: [join(root, 'web/src/i18n/index.ts')], bundle: true, format: 'esm',
    platform: 'neutral', write: false, logLevel: 'silent' });
  I = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

// One formatter per locale and number of digits: making one is most of the cost of a call, and
// the comparison runs 240,000 of them.
const formatters = new Map();
const formatter = (locale, digits) => {
  const key = `${locale} ${digits}`;
  if (!formatters.has(key)) formatters.set(key, new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }));
  return formatters.get(key);
};

/** What num() promises, spelled with Intl.NumberFormat directly. */
function reference(locale, x, precise) {
  const a = Math.abs(x);
  const digits = precise ? (a >= 1000 ? 1 : a >= 1 ? 4 : 5) : a >= 100 ? 0 : a >= 10 ? 1 : 2;
  let s = formatter(locale, digits).format(x);
  if (s === '-0') s = '0';
  return s.replace('-', '−');
}

function values() {
  const xs = [0, -0, 0.005, -0.005, 0.015, 0.125, -0.125, 2.675, 1.005, 9.995, 9.994999, 10, 99.95, 99.949,
    100, 999.5, 1000, -1000, 1234.5, -1234567.5, 1e6, 123456789.123, 1e20, -1e20, 5e-7, -5e-7, 0.1 + 0.2];
  let s = 12345;
  const next = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
  for (let k = 0; k < 20000; k++) {
    const magnitude = 10 ** (next() * 14 - 6);
    xs.push((next() < 0.5 ? -1 : 1) * magnitude * next());
    xs.push(Math.round(next() * 2000 - 1000) / 1000 + (next() < 0.5 ? 0.0005 : 0)); // near ties
    // exact decimal ties at every number of digits: 2.5, 0.125, 31.45, 0.000035…
    xs.push((next() < 0.5 ? -1 : 1) * (Math.floor(next() * 1e5) + 0.5) / 10 ** Math.floor(next() * 7));
  }
  return xs;
}

test('num() writes every number exactly as Intl.NumberFormat does, in English and Chinese', () => {
  const xs = values();
  for (const lang of ['en', 'zh-CN']) {
    I.setLanguage(lang);
    for (const precise of [false, true]) {
      for (const x of xs) assert.equal(I.num(x, precise), reference(lang, x, precise), `${lang} ${x} precise=${precise}`);
    }
  }
  I.setLanguage('en');
  assert.equal(I.num(-1234.5), '−1,235');
  assert.equal(I.num(-1234.56, true), '−1,234.6');
  assert.equal(I.num(0.125), '0.13');
  assert.equal(I.num(-0.001), '0');
  assert.equal(I.num(-Infinity), '−∞');
});
