// How the shipped word vectors are built from the corpora (scripts/vectors/build.mjs, choose.mjs,
// pack.mjs): the pure choices on inline data, and the whole build run on a small slice of the real
// corpora (tests/fixtures/vectors-slice/, written by scripts/vectors/slice.mjs), twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseWords, commonCharacters, fnv1a, holdOut, tiedPairs } from '../../scripts/vectors/choose.mjs';
import { borrowedVector, encodeVectors, parseWord2vec, quantise } from '../../scripts/vectors/pack.mjs';
import { CHAR_OFFSET, fromScriptForm, scriptForm } from '../../scripts/vectors/format.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

test('vector build: the tie keeps common translations, at most three, and drops the stop list', () => {
  const enCount = new Map([['flower', 1000], ['blossom', 300], ['spend', 200], ['bloom', 150], ['lustful', 20],
    ['cat', 110], ['modem', 90], ['bird', 800]]);
  const lines = ['花\tflower', '花\tblossom', '花\tspend', '花\tbloom', '花\tlustful', '花\tunseen',
    '猫\tcat', '猫\tmodem', '鸟\tbird', '鸟\tgoddamn'];
  // lustful (20) is under a tenth of flower (1000); bloom is the fourth; unseen was never seen.
  assert.deepEqual(tiedPairs(lines, enCount),
    ['猫\tcat', '花\tblossom', '花\tflower', '花\tspend', '鸟\tbird']);
});

test('vector build: a held-out Chinese word loses all its pairs, and the split is the same every time', () => {
  // FNV-1a of "a" is 0xe40c292c, as its published test vectors give.
  assert.equal(fnv1a('a'), 0xe40c292c);
  const words = ['山', '水', '月', '花', '鸟', '马', '人', '天', '日', '风', '云', '雨', '石', '木', '火', '土'];
  const pairs = words.flatMap((w) => [`${w}\tx`, `${w}\ty`]);
  const count = new Map([...words, 'x', 'y'].map((w) => [w, 9]));
  const { train, test: held } = holdOut(pairs, count, count);
  const heldWords = new Set(held.map((l) => l.split('\t')[0]));
  assert.ok(heldWords.size > 0 && heldWords.size < words.length, `held ${[...heldWords]}`);
  for (const w of heldWords) {
    assert.equal(fnv1a(w) % 10, 0);
    assert.ok(!train.some((l) => l.startsWith(w + '\t')), `${w} still tied in training`);
  }
  assert.equal(train.length + held.length, pairs.length);
  // Too rare to test on: never held out.
  assert.deepEqual(holdOut(pairs, count, new Map()).test, []);
});

test('vector build: the file keeps the most common words, and a Chinese word the corpus lacks borrows', () => {
  const vocabulary = ['the', '山', 'apple', '明月', 'moon', '汀洲', 'banana', '之'];
  const modern = new Map([['山', 500], ['之', 900], ['明月', 40], ['苹果', 300], ['香蕉', 100], ['汀洲', 0]]);
  const pairs = ['苹果\tapple', '香蕉\tbanana', '明月\tmoon', '电脑\tcomputer'];
  const { learned, borrowed } = chooseWords(vocabulary, modern, pairs, { english: 2, chinese: 4 });
  // English: the two most frequent. Chinese: both characters, then 苹果 (300) and 明月 (40);
  // 香蕉 (100) borrows from banana, which is not kept; 汀洲 is not in modern use; 电脑 has no
  // kept translation.
  assert.deepEqual(learned, ['the', '山', 'apple', '明月', '之']);
  assert.deepEqual([...borrowed], [['苹果', ['apple']]]);
});

test('vector build: a common character the text lacks alone borrows its translation, ahead of any word', () => {
  const vocabulary = ['the', 'apple', 'coffee', '山', '咖啡', '明月'];
  const modern = new Map([['山', 500], ['咖啡', 300], ['明月', 40], ['咖', 2]]);
  const pairs = ['咖\tcoffee', '吗\tparticle', '咖啡\tcoffee'];
  const common = ['山', '咖', '吗'];
  const { learned, borrowed } = chooseWords(vocabulary, modern, pairs, { english: 3, chinese: 3, common });
  // 山 is learned; 咖 (seen only inside 咖啡) borrows coffee and takes a place before 明月, the
  // rarest word; 吗 has no kept translation ("particle" is not among the English kept).
  assert.deepEqual(learned, ['the', 'apple', 'coffee', '山', '咖啡']);
  assert.deepEqual([...borrowed], [['咖', ['coffee']]]);
  // GB 2312's first level: 3,755 characters, from 啊 to 座, each once.
  const all = commonCharacters();
  assert.deepEqual([all.length, new Set(all).size, all[0], all.at(-1)], [3755, 3755, '啊', '座']);
});

test('vector build: borrowed vectors, rounding and the file bytes, by hand', () => {
  const vectors = new Map([['water', Float64Array.of(3, 4)], ['liquid', Float64Array.of(0, 2)]]);
  // Unit vectors (0.6, 0.8) and (0, 1): their mean is (0.3, 0.9).
  assert.deepEqual([...borrowedVector(['water', 'liquid'], vectors, 2)], [0.3, 0.9]);
  // Length 2, 2 dims, 4 levels: scale = 2 / (4·√2) = 0.35355…; (0.6, 0.8)·2 = (1.2, 1.6) → (3, 5).
  const { q, scale } = quantise([Float64Array.of(3, 4), Float64Array.of(0, -1)], 2, { length: 2, levels: 4 });
  assert.equal(scale, Math.fround(2 / (4 * Math.SQRT2)));
  assert.deepEqual([...q], [3, 5, 0, -6]);
  const bytes = encodeVectors({ words: ['water', '水'], dims: 2, learned: 1, scale, q });
  assert.equal(bytes.subarray(0, 4).toString('latin1'), 'APV1');
  assert.deepEqual([4, 8, 12, 20].map((at) => bytes.readUInt32LE(at)), [2, 2, 1, 9]); // "water\n水" is 9 bytes
  assert.equal(bytes.readFloatLE(16), scale);
  assert.equal(bytes.subarray(24, 33).toString('utf8'), 'water\n水');
  assert.deepEqual([...new Int8Array(bytes.buffer, bytes.byteOffset + 33, 4)], [3, 5, 0, -6]);
  assert.equal(bytes.length, 37);
  assert.deepEqual(parseWord2vec('2 2\nwater 3 4\n水 0.5 -1\n').vectors.get('水'), Float64Array.of(0.5, -1));
});

const slice = join(root, 'tests/fixtures/vectors-slice');
function buildSlice() {
  const dir = mkdtempSync(join(tmpdir(), 'vectors-'));
  const out = join(dir, 'words.bin');
  const r = spawnSync(process.execPath, [join(root, 'scripts/vectors/build.mjs'),
    '--corpus', slice, '--jieba', join(slice, 'jieba.txt'), '--out', out, '--held-out', join(dir, 'held-out.tsv'),
    '--work', join(dir, 'train'), '--dims', '8', '--epochs', '2', '--min-count', '3', '--english', '400', '--chinese', '900',
  ], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return { bytes: readFileSync(out), log: r.stdout };
}

test("vector build: the page's script form of the shipped file gives its bytes back, one printable character a value", () => {
  const file = readFileSync(join(root, 'data/vectors/words.bin'));
  const form = scriptForm(file);
  assert.equal(form.values.length, file.readUInt32LE(4) * file.readUInt32LE(8));
  assert.match(form.values.slice(0, 1000), /^[#-\[]+$/);
  assert.equal(form.values.charCodeAt(0) - CHAR_OFFSET, file.readInt8(24 + file.readUInt32LE(20)));
  assert.ok(Buffer.from(fromScriptForm(form)).equals(file));
});

test('vector build: the whole build on a slice of the corpora gives the same bytes twice', () => {
  const a = buildSlice(), b = buildSlice();
  assert.ok(a.bytes.equals(b.bytes), 'two builds of the slice differ');
  const [n, dims, learned] = [4, 8, 12].map((at) => a.bytes.readUInt32LE(at));
  assert.equal(dims, 8);
  assert.ok(learned < n, `${n} words, ${learned} learned: none borrowed`);
  const words = a.bytes.subarray(24, 24 + a.bytes.readUInt32LE(20)).toString('utf8').split('\n');
  assert.equal(words.length, n);
  // Every common character is kept, so Chinese may pass its 900; English may not pass its 400.
  assert.equal(words.filter((w) => !/\p{Script=Han}/u.test(w)).length, 400);
  assert.equal(a.bytes.length, 24 + a.bytes.readUInt32LE(20) + n * dims);
  console.log(`# ${a.log.trim().split('\n').at(-2).replace(/^\s*[\d.]+ s\s+/, '')}`);
  assert.equal(createHash('sha256').update(a.bytes).digest('hex'), SLICE_SHA256,
    'the slice builds different bytes: if the build changed on purpose, update SLICE_SHA256');
});

// The slice's file as scripts/vectors/build.mjs writes it on this platform (x86-64, g++).
const SLICE_SHA256 = '75452a2962a42911e142b28418f1face0728b131ca38351cb717230815e001d5';
