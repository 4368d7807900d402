// The packed word-vector file under node: files written byte by byte here load into the engine as
// a lexicon that embeds, and answer nearest words and similarity with numbers checked by hand;
// every fault of a file, and every wrong argument, comes back as a Failure that says what and where.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, close, rowsOf, assertError } from './engine-helpers.mjs';

let engine;
before(async () => { engine = await loadEngine(); });

/**
 * A file as cpp/core/word_vectors.hpp lays it out: "APV1", n (what the header says, whatever the
 * text holds), d, learned, scale (f32), the text's bytes, the text, then each stored value as a
 * signed byte.
 */
function packed(text, { n, d, learned, scale }, values) {
  const words = new TextEncoder().encode(text);
  const bytes = new Uint8Array(24 + words.length + values.length);
  const view = new DataView(bytes.buffer);
  bytes.set([0x41, 0x50, 0x56, 0x31]); // APV1
  [n, d, learned].forEach((x, i) => view.setUint32(4 + 4 * i, x, true));
  view.setFloat32(16, scale, true);
  view.setUint32(20, words.length, true);
  bytes.set(words, 24);
  values.forEach((q, i) => view.setInt8(24 + words.length + i, q));
  return bytes;
}

// cat (1, 0, 1), dog (1, 1, 0), apple (0, −1, 2), and 猫, which borrowed cat's vector: the values
// times the scale 0.5. The words start at bytes 24, 28, 32, 38; the values at 41; the end is 53.
const TEXT = 'cat\ndog\napple\n猫';
const HEADER = { n: 4, d: 3, learned: 3, scale: 0.5 };
const VALUES = [2, 0, 2, 2, 2, 0, 0, -2, 4, 2, 0, 2];
const sample = () => packed(TEXT, HEADER, VALUES);
const SQRT10 = Math.sqrt(10);

/** Loads the sample, runs f on it, and frees it. */
function withSample(f) {
  const lexicon = engine.loadVectors(sample());
  assert.equal(lexicon.ok, true, JSON.stringify(lexicon));
  try {
    f(lexicon);
  } finally {
    assert.equal(engine.freeLexicon(lexicon), true);
  }
}

test('loadVectors: the words, their vectors times the scale, and how many were learned', () => {
  withSample((lexicon) => {
    assert.deepEqual(Object.keys(lexicon), ['ok', 'id', 'words', 'features', 'size', 'learned']);
    assert.deepEqual(lexicon.words, ['cat', 'dog', 'apple', '猫']);
    assert.deepEqual(lexicon.features, ['d1', 'd2', 'd3']);
    assert.equal(lexicon.size, 4);
    assert.equal(lexicon.learned, 3);
    const info = engine.lexiconInfo(lexicon);
    assert.deepEqual(info.words, lexicon.words);
    assert.deepEqual(rowsOf(info.vectors), [[1, 0, 1], [1, 1, 0], [0, -1, 2], [1, 0, 1]]);
  });
  // An ArrayBuffer works as its Uint8Array does, and so does a view into a larger buffer.
  const buffer = new Uint8Array(sample().length + 10);
  buffer.set(sample(), 5);
  for (const bytes of [sample().buffer, buffer.subarray(5, 5 + sample().length)]) {
    const lexicon = engine.loadVectors(bytes);
    assert.deepEqual(lexicon.words, ['cat', 'dog', 'apple', '猫']);
    engine.freeLexicon(lexicon.id);
  }
});

test('loadVectors: values are signed bytes from -128 to 127', () => {
  const lexicon = engine.loadVectors(packed('x', { n: 1, d: 4, learned: 1, scale: 0.25 }, [-128, 127, -1, 0]));
  assert.deepEqual(rowsOf(engine.lexiconInfo(lexicon).vectors), [[-32, 31.75, -0.25, 0]]);
  engine.freeLexicon(lexicon);
});

test('embed and tokenize read a sentence over the loaded words', () => {
  withSample((lexicon) => {
    const e = engine.embed('cat 猫 Apple, pear', lexicon);
    assert.equal(e.ok, true);
    assert.deepEqual(e.tokens.map((t) => t.text), ['cat', '猫', 'Apple', 'pear']);
    assert.deepEqual(rowsOf(e.vectors).slice(0, 3), [[1, 0, 1], [1, 0, 1], [0, -1, 2]]);
    assert.deepEqual(e.unknown, [false, false, false, true]);
    assert.deepEqual(rowsOf(e.vectors)[3], [0, 0, 0], 'a word the file lacks is zeros, alike to nothing');
    assert.deepEqual(e.features, ['d1', 'd2', 'd3']);
    assert.deepEqual(engine.tokenize('猫dog', lexicon.id).tokens.map((t) => t.text), ['猫', 'dog']);
  });
});

test('nearestWords: by cosine, nearest first, never the word itself', () => {
  withSample((lexicon) => {
    // cat (1, 0, 1): 猫 is the same vector; apple 2 / (√2·√5); dog 1 / (√2·√2).
    const r = engine.nearestWords('cat', lexicon, 3);
    assert.deepEqual(Object.keys(r), ['ok', 'neighbours']);
    assert.deepEqual(r.neighbours.map((n) => n.word), ['猫', 'apple', 'dog']);
    close(r.neighbours[0].cosine, 1);
    close(r.neighbours[1].cosine, 2 / SQRT10);
    close(r.neighbours[2].cosine, 0.5);
    assert.equal(engine.nearestWords('cat', lexicon).neighbours.length, 3, 'k = 10 by default, 3 others here');
    assert.deepEqual(engine.nearestWords('cat', lexicon, 0).neighbours, []);
    // dog: cat and 猫 tie at 0.5, and cat comes first in the file; "Apple" finds apple.
    assert.deepEqual(engine.nearestWords('dog', lexicon, 1).neighbours.map((n) => n.word), ['cat']);
    const apple = engine.nearestWords('Apple', lexicon.id, 2).neighbours;
    assert.deepEqual(apple.map((n) => n.word), ['cat', '猫']);
    assert.equal(apple[0].cosine, engine.wordSimilarity('apple', 'cat', lexicon).cosine);
  });
  // The built-in lexicon too: 鸟 follows bird in its table, with bird's vector.
  const bird = engine.nearestWords('bird', 'builtin', 1).neighbours;
  assert.deepEqual(bird.map((n) => n.word), ['鸟']);
  assert.equal(bird[0].cosine, 1);
});

test('wordSimilarity: the cosine of two words', () => {
  withSample((lexicon) => {
    const r = engine.wordSimilarity('cat', 'apple', lexicon);
    assert.deepEqual(Object.keys(r), ['ok', 'cosine']);
    close(r.cosine, 2 / SQRT10);
    close(engine.wordSimilarity('dog', 'APPLE', lexicon).cosine, -1 / SQRT10);
    assert.equal(engine.wordSimilarity('CAT', '猫', lexicon).cosine, 1);
  });
  close(engine.wordSimilarity('apple', 'orange', 'fruit').cosine, 6 / (Math.sqrt(6) * Math.sqrt(8)));
});

test('nearestWords and wordSimilarity: unknown words and bad arguments say which', () => {
  withSample((lexicon) => {
    let e = assertError(engine.nearestWords('pear', lexicon), 'bad_argument', { input: 'word' });
    assert.equal(e.message, 'word: "pear" is not in the word vectors.');
    e = assertError(engine.wordSimilarity('cat', '狗', lexicon), 'bad_argument', { input: 'b' });
    assert.equal(e.message, 'b: "狗" is not in the word vectors.');
    assertError(engine.wordSimilarity('pear', 'cat', lexicon), 'bad_argument', { input: 'a' });
    for (const k of [51, -1, 1.5, '3', null]) {
      e = assertError(engine.nearestWords('cat', lexicon, k), 'bad_argument', { input: 'k' });
      assert.match(e.message, /^k must be a whole number from 0 to 50; got /);
    }
    assertError(engine.nearestWords(42, lexicon), 'bad_argument', { input: 'word' });
    assertError(engine.wordSimilarity('cat', undefined, lexicon), 'bad_argument', { input: 'b' });
    assertError(engine.nearestWords('cat', 'klingon'), 'bad_argument', { input: 'lexicon' });
    assertError(engine.nearestWords('\uD83D', lexicon), 'parse_error', { input: 'word' });
  });
  // A word whose vector is all zeros has no direction: no neighbours, and nobody's.
  const zeros = engine.loadVectors(packed('cat\nnone\ndog', { n: 3, d: 2, learned: 3, scale: 1 }, [1, 0, 0, 0, 1, 1]));
  const e = assertError(engine.nearestWords('none', zeros), 'zero_vector', { input: 'word' });
  assert.equal(e.message, 'word: "none" has a vector of zeros, with no direction to compare.');
  assert.deepEqual(engine.nearestWords('cat', zeros).neighbours.map((n) => n.word), ['dog']);
  engine.freeLexicon(zeros);
});

test('loadVectors: every fault of a file names its byte, and its word when it is one word\'s', () => {
  const whole = sample();
  const cut = (end) => whole.slice(0, end);
  const withTail = new Uint8Array([...whole, 1, 2]);
  const three = [2, 0, 2, 2, 2, 0, 0, -2, 4];
  const cases = [
    [new TextEncoder().encode('cat 1 2 3\n'), -1, 0, 'vectors: byte 0: not a word-vector file (it does not start with "APV1").'],
    [cut(3), -1, 3, 'vectors: byte 3: the file ends inside its header, which takes 24 bytes.'],
    [cut(30), -1, 30, 'vectors: byte 30: the file ends inside its words, which end at byte 41.'],
    [cut(52), 3, 52, "vectors: byte 52, word 4: the file ends inside this word's vector, before byte 53."],
    [withTail, -1, 53, 'vectors: byte 53: the file goes on after its last vector, which ends here.'],
    [packed('', { ...HEADER, n: 0 }, []), -1, 4, 'vectors: byte 4: the file holds 0 words; it needs at least one.'],
    [packed(TEXT, { ...HEADER, d: 0 }, []), -1, 8, 'vectors: byte 8: the words have 0 dims; they need at least one.'],
    [packed(TEXT, { ...HEADER, learned: 5 }, VALUES), -1, 12, 'vectors: byte 12: 5 words learned, but the file holds 4.'],
    [packed(TEXT, { ...HEADER, scale: NaN }, VALUES), -1, 16, 'vectors: byte 16: the scale is NaN; it must be a finite number above 0.'],
    [packed(TEXT, { ...HEADER, scale: -1 }, VALUES), -1, 16, 'vectors: byte 16: the scale is -1; it must be a finite number above 0.'],
    [packed('cat\ndog\napple', HEADER, VALUES), -1, 37, 'vectors: byte 37: the text holds 3 words, not the 4 of byte 4.'],
    [packed(TEXT + '\npear', HEADER, VALUES), 4, 42, 'vectors: byte 42, word 5: the text holds more than the 4 words of byte 4.'],
    [packed('cat\n\ndog', { ...HEADER, n: 3 }, three), 1, 28,
      'vectors: byte 28, word 2: the word is empty (a line break at either end, or two in a row).'],
    [packed('cat\nhot dog\napple', { ...HEADER, n: 3 }, three), 1, 31,
      'vectors: byte 31, word 2: "hot dog" holds whitespace or a control character, which no word can.'],
    [packed('cat\ndog\ncat', { ...HEADER, n: 3 }, three), 2, 32, 'vectors: byte 32, word 3: "cat" repeats word 1.'],
  ];
  for (const [bytes, row, col, message] of cases) {
    const e = assertError(engine.loadVectors(bytes), 'parse_error', { input: 'vectors', row, col });
    assert.equal(e.message, message);
  }
  // Invalid UTF-8 in a word: "caf" then a lead byte with nothing after it, at byte 31.
  const invalid = packed('cat\ncafX', { n: 2, d: 1, learned: 2, scale: 1 }, [1, 2]);
  invalid[31] = 0xc3;
  const e = assertError(engine.loadVectors(invalid), 'parse_error', { row: 1, col: 31 });
  assert.equal(e.message, 'vectors: byte 31, word 2: the word is not valid UTF-8 here.');
  assertError(engine.loadVectors(new Uint8Array(0)), 'empty_input', { input: 'vectors' });
  const wide = assertError(engine.loadVectors(packed(TEXT, { ...HEADER, d: 1025 }, [])), 'too_large', { col: 8 });
  assert.equal(wide.message, 'vectors: byte 8: 1025 dims, above the limit of 1024.');
});

test('loadVectors: anything but bytes is refused, and a file above the limit before it is copied', () => {
  for (const value of ['cat 1 2', [65, 80, 86, 49], null, undefined, new Int8Array(30), new DataView(new ArrayBuffer(30))]) {
    const e = assertError(engine.loadVectors(value), 'bad_argument', { input: 'vectors' });
    assert.match(e.message, /^vectors must be a Uint8Array or an ArrayBuffer; got /);
  }
  engine.embed('warm up the built-in lexicon');
  const before = engine.memoryStats();
  const limit = engine.limits.maxVectorFileBytes;
  assert.equal(limit, 16 << 20);
  const e = assertError(engine.loadVectors(new Uint8Array(limit + 1)), 'too_large', { input: 'vectors' });
  assert.equal(e.message, `vectors: the file is ${limit + 1} bytes, above the limit of ${limit} bytes.`);
  assert.equal(engine.memoryStats().heapBytes, before.heapBytes, 'the heap did not grow');
});

test('freeLexicon: a freed file answers nothing more', () => {
  const lexicon = engine.loadVectors(sample());
  const before = engine.memoryStats().allocatedBytes;
  assert.equal(engine.freeLexicon(lexicon), true);
  assert.ok(engine.memoryStats().allocatedBytes < before);
  assert.equal(engine.freeLexicon(lexicon), false);
  for (const r of [engine.nearestWords('cat', lexicon), engine.wordSimilarity('cat', 'dog', lexicon), engine.lexiconInfo(lexicon),
    engine.embed('cat', lexicon)]) {
    assertError(r, 'bad_argument', { input: 'lexicon' });
  }
  const again = engine.loadVectors(sample());
  assert.notEqual(again.id, lexicon.id, 'ids are never reused');
  engine.freeLexicon(again);
});

// The size the shipped file has: 42,000 words of 32 dims. Nearest words are checked against a
// search written here, and the time of one search is printed (what a hover waits for).
test('42,000 words of 32 dims: nearestWords agrees with a brute-force search', () => {
  const n = 42000, d = 32;
  const words = Array.from({ length: n }, (_, i) => 'w' + i);
  let seed = 1;
  const values = Array.from({ length: n * d }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return (seed >> 8) % 255 - 127;
  });
  const bytes = packed(words.join('\n'), { n, d, learned: n, scale: 0.01 }, values);
  let t = performance.now();
  const lexicon = engine.loadVectors(bytes);
  const loading = performance.now() - t;
  assert.equal(lexicon.size, n);
  const norm = (i) => Math.sqrt(values.slice(i * d, (i + 1) * d).reduce((s, q) => s + q * q, 0));
  const cosine = (i, j) => values.slice(i * d, (i + 1) * d).reduce((s, q, k) => s + q * values[j * d + k], 0) / (norm(i) * norm(j));
  const expected = words.map((_, j) => j).filter((j) => j !== 7).map((j) => [cosine(7, j), j])
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, 10);
  engine.nearestWords('w7', lexicon); // the first call warms up
  const runs = 20;
  t = performance.now();
  for (let r = 0; r < runs; r++) engine.nearestWords('w7', lexicon);
  const each = (performance.now() - t) / runs;
  const r = engine.nearestWords('w7', lexicon);
  assert.deepEqual(r.neighbours.map((x) => x.word), expected.map(([, j]) => words[j]));
  r.neighbours.forEach((x, k) => close(x.cosine, expected[k][0], x.word));
  console.log(`${n} × ${d}: ${(bytes.length / 1e6).toFixed(2)} MB loaded in ${loading.toFixed(0)} ms; nearestWords ${each.toFixed(2)} ms`);
  engine.freeLexicon(lexicon);
});
