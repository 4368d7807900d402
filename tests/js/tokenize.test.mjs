// tokenize() through the wasm engine: tokens are whole grapheme clusters, words of scripts written
// with spaces stay whole, and every position is a JS string index (UTF-16 code units).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, assertError } from './engine-helpers.mjs';

let engine;
before(async () => {
  engine = await loadEngine();
});

const spans = (tokens) => tokens.map((t) => [t.text, t.offset, t.length]);

test('tokenize: offsets are UTF-16 indices, counted by hand', () => {
  // 🍎 is two units (0, 2); apple at 3; 👩‍💻 = 2 + 1 + 2 units at 9; x at 15.
  const r = engine.tokenize('🍎 apple 👩\u200d💻 x');
  assert.equal(r.ok, true);
  assert.deepEqual(spans(r.tokens), [
    ['🍎', 0, 2],
    ['apple', 3, 5],
    ['👩\u200d💻', 9, 5],
    ['x', 15, 1],
  ]);
});

test('tokenize: words stay whole in every script, and no token cuts a cluster', () => {
  const text = 'नमस्ते 🍎 안녕하세요 세계 مرحبا بالعالم a\u200db 1️⃣2️⃣ สวัสดี 🇨🇳 我喜欢苹果';
  const r = engine.tokenize(text);
  assert.equal(r.ok, true);
  const texts = r.tokens.map((t) => t.text);
  assert.deepEqual(texts, [
    'नमस्ते',
    '🍎',
    '안녕하세요',
    '세계',
    'مرحبا',
    'بالعالم',
    'a\u200db',
    '1️⃣',
    '2️⃣',
    'ส',
    'วั',
    'ส',
    'ดี',
    '🇨🇳',
    '我',
    '喜欢',
    '苹果',
  ]);
  // An independent reference for the clusters: the JS engine's own segmenter (ICU).
  const boundaries = new Set([text.length]);
  for (const s of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) boundaries.add(s.index);
  for (const t of r.tokens) {
    assert.equal(text.slice(t.offset, t.offset + t.length), t.text);
    assert.ok(boundaries.has(t.offset) && boundaries.has(t.offset + t.length), `${t.text} cuts a cluster`);
  }
  // embed() gives the same tokens.
  assert.deepEqual(spans(engine.embed(text).tokens), spans(r.tokens));
});

test('errors: a column after an emoji is the JS index of the problem', () => {
  // '🍎 1 x': x is at index 5 (🍎 is two units), so column 6 counting from 1.
  const text = '🍎 1 x';
  assert.equal(text.indexOf('x'), 5);
  assertError(engine.parseEmbeddings(text), 'parse_error', {
    input: 'embeddings',
    row: 0,
    col: 5,
    message: /^embeddings: line 1, column 6: "x" is not a number/,
  });
  // Half of an emoji after a whole one: the lone surrogate is at index 3.
  assertError(engine.tokenize('🍎 \uD83C'), 'parse_error', { input: 'text', row: 0, col: 3 });
});
