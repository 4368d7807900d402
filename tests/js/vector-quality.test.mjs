// How good the shipped word vectors are (data/vectors/words.bin, as dist/vectors.bin), measured
// through the engine as a reader's page or script uses them: our own triplets ("cat" nearer "dog"
// than "car"), the held-out translations, the nearest neighbours of a dozen words, and the two
// sentences a reader should see work. The numbers are docs/word-vectors.md's tables; the test
// fails when they differ, and prints the rows to copy.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEngine, root } from './engine-helpers.mjs';
import { commonCharacters } from '../../scripts/vectors/choose.mjs';

let engine, lexicon;
before(async () => {
  engine = await loadEngine();
  const r = engine.loadVectors(readFileSync(join(root, 'data/vectors/words.bin')));
  assert.ok(r.ok, r.error?.message);
  lexicon = r.id;
});

const rows = (file) => readFileSync(join(root, 'data/vectors/eval', file), 'utf8').split('\n').filter(Boolean);
const cosine = (a, b) => {
  const r = engine.wordSimilarity(a, b, lexicon);
  return r.ok ? r.cosine : null; // a word the file does not keep
};
const isChinese = (w) => /\p{Script=Han}/u.test(w);
const pct = (x, digits = 1) => `${(100 * x).toFixed(digits)} %`;
/** Fails unless every row is in `file`, the page of docs/ that shows them. */
function assertInDocs(lines, file = 'docs/word-vectors.md') {
  const text = readFileSync(join(root, file), 'utf8');
  const missing = lines.filter((l) => !text.includes(l));
  console.log(lines.map((l) => `# ${l}`).join('\n'));
  assert.deepEqual(missing, [], `${file}'s word-vector table differs from this run: copy the rows printed above`);
}

test('word vectors: our triplets are right at least 85 % in each language and 75 % across', () => {
  const NAMES = { en: 'English', zh: 'Chinese', cross: 'across languages' };
  const NEED = { en: 0.85, zh: 0.85, cross: 0.75 };
  const tally = {};
  for (const line of rows('triplets.tsv').slice(1)) {
    const [set, anchor, nearer, farther] = line.split('\t');
    const t = (tally[set] ??= { right: 0, all: 0, absent: 0 });
    const near = cosine(anchor, nearer), far = cosine(anchor, farther);
    t.all++;
    if (near === null || far === null) t.absent++; // counted wrong
    else if (near > far) t.right++;
  }
  const lines = Object.entries(NAMES).map(([set, name]) => {
    const t = tally[set];
    assert.ok(t.all >= (set === 'cross' ? 50 : 100), `${t.all} ${set} triplets`);
    assert.ok(t.right / t.all >= NEED[set], `${set}: ${t.right} of ${t.all}`);
    return `| ${name} | ${t.all} | ${t.right} | ${pct(t.right / t.all)} | ${t.absent} | ${pct(NEED[set])} |`;
  });
  assertInDocs(lines);
});

test('word vectors: a held-out Chinese word finds its translation far above chance', () => {
  const held = new Map();
  for (const line of rows('held-out.tsv')) {
    const [zh, en] = line.split('\t');
    if (!held.has(zh)) held.set(zh, new Set());
    held.get(zh).add(en);
  }
  const english = engine.lexiconInfo(lexicon).words.filter((w) => !isChinese(w)).length;
  let top1 = 0, top10 = 0;
  for (const [zh, translations] of held) {
    const r = engine.nearestWords(zh, lexicon, 50);
    assert.ok(r.ok, r.error?.message);
    const nearest = r.neighbours.map((n) => n.word).filter((w) => !isChinese(w)).slice(0, 10);
    if (translations.has(nearest[0])) top1++;
    if (nearest.some((w) => translations.has(w))) top10++;
  }
  const n = held.size;
  // A random English word is a translation with chance (translations / English words); ten
  // random ones about ten times that. Measured, the vectors must beat it a hundredfold.
  const chance10 = [...held.values()].reduce((s, t) => s + Math.min(1, (10 * t.size) / english), 0) / n;
  assert.ok(n >= 500, `${n} held-out words`);
  assert.ok(top10 / n > 100 * chance10, `${top10} of ${n} against chance ${chance10}`);
  assertInDocs([`| held-out Chinese words whose translation is the nearest English word | ${n} | ${top1} | ${pct(top1 / n)} | ${pct(chance10 / 10, 3)} |`,
    `| … among the 10 nearest English words | ${n} | ${top10} | ${pct(top10 / n)} | ${pct(chance10, 3)} |`]);
});

test('word vectors: the nearest neighbours of a dozen words', () => {
  const lines = rows('neighbours.txt').map((word) => {
    const r = engine.nearestWords(word, lexicon, 6);
    assert.ok(r.ok, r.error?.message);
    return `| ${word} | ${r.neighbours.map((n) => `${n.word} ${n.cosine.toFixed(2)}`).join(', ')} |`;
  });
  assert.equal(lines.length, 12);
  assertInDocs(lines);
});

/** Plain self-attention over a sentence's learned vectors: for each word, the other word it weighs most. */
function mostAlike(text) {
  const e = engine.embed(text, lexicon);
  assert.ok(e.ok, e.error?.message);
  assert.deepEqual(Array.from(e.unknown).filter(Boolean), [], `${text}: every word is in the file`);
  const r = engine.attention({ queries: e.vectors, keys: e.vectors, values: e.vectors });
  assert.ok(r.ok, r.error?.message);
  const words = e.tokens.map((t) => t.text), n = words.length;
  return Object.fromEntries(words.map((w, i) => {
    const row = r.weights.data.subarray(i * n, (i + 1) * n);
    let best = -1;
    // Another word, not the same word again ("an" twice has the same vector).
    for (let j = 0; j < n; j++) if (words[j] !== w && (best < 0 || row[j] > row[best])) best = j;
    // Each word weighs itself most under plain self-attention: its vector is most like itself.
    assert.ok(row[i] > row[best], `${w} weighs itself most`);
    return [w, words[best]];
  }));
}

test('word vectors: the characters of everyday Chinese have vectors of their own', () => {
  // GB 2312's first level, the standard's 3,755 characters in everyday use: the tokenizer splits a
  // sentence it cannot match as words into characters, so each should be in the file.
  const common = commonCharacters();
  const file = readFileSync(join(root, 'data/vectors/words.bin'));
  const kept = new Set(file.subarray(24, 24 + file.readUInt32LE(20)).toString('utf8').split('\n'));
  const lacking = common.filter((c) => !kept.has(c));
  const line = `${common.length - lacking.length} of the ${common.length} (${pct(1 - lacking.length / common.length)}); lacking: ${lacking.join('')}`;
  assertInDocs([line]);
  // Before the build borrowed for them, 3,649 (97.2 %); the rest have no text alone and no kept
  // translation (particles such as 吗 have none), and get zeros in a sentence, named by the page.
  assert.ok(lacking.length <= 0.015 * common.length, line);
});

test('word vectors: apple attends most to orange, and 苹果 to 香蕉, after themselves', () => {
  assert.equal(mostAlike('I ate an apple and an orange').apple, 'orange');
  const zh = mostAlike('我喜欢吃苹果和香蕉');
  assert.deepEqual(Object.keys(zh), ['我', '喜欢', '吃', '苹果', '和', '香蕉']);
  assert.equal(zh['苹果'], '香蕉');
});
