#!/usr/bin/env node
// Learns the shipped word vectors from the corpora scripts/vectors/extract.mjs wrote and packs
// them into data/vectors/words.bin (scripts/vectors/pack.mjs has the format):
//   1. the dictionary pairs that tie the languages (choose.mjs, tiedPairs), minus one Chinese word
//      in ten held out to measure the tie (holdOut; written to data/vectors/eval/held-out.tsv);
//   2. skip-gram with negative sampling over the English and Chinese text together
//      (build/native/tools/train_vectors, the core's cpp/core/skipgram.hpp);
//   3. the words to keep (chooseWords), the vectors of the Chinese words the corpus lacks borrowed
//      from their translations, everything made one length and rounded to int8.
// Deterministic: the same corpora give the same bytes (training is single-threaded from a seed).
//   node scripts/vectors/build.mjs                      the shipped file, from build/vectors/
//   node scripts/vectors/build.mjs --corpus DIR --jieba FILE --out FILE --held-out FILE
//        [--dims N] [--epochs N] [--min-count N] [--english N] [--chinese N]
// (tests/js/vector-build.test.mjs runs it on a small slice of the corpora with small numbers.)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chooseWords, commonCharacters, holdOut, tiedPairs } from './choose.mjs';
import { borrowedVector, encodeVectors, parseWord2vec, quantise } from './pack.mjs';
import { corpusCounts } from './text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const defaults = {
  corpus: join(root, 'build/vectors/corpus'),
  jieba: join(root, 'build/vectors/sources/jieba/package/submodules/cppjieba/dict/jieba.dict.utf8'),
  out: join(root, 'data/vectors/words.bin'),
  'held-out': join(root, 'data/vectors/eval/held-out.tsv'),
  work: join(root, 'build/vectors/train'),
  dims: 32, epochs: 5, 'min-count': 5, english: 21000, chinese: 21000,
};
const args = { ...defaults };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in defaults) || i + 1 >= process.argv.length) {
    console.error(`build.mjs: unknown or incomplete option ${process.argv[i]}`);
    process.exit(2);
  }
  const v = process.argv[i + 1];
  args[key] = typeof defaults[key] === 'number' ? Number(v) : resolve(v);
}

// The training settings, and the shipped scale: every vector has length √(3·√dims), so a word's
// score with itself after attention's ÷√dims is 3 and with a word of cosine c it is 3c.
const TRAIN = { window: 5, negatives: 5, 'learning-rate': 0.025, subsample: 1e-4, 'code-switch': 0.5, seed: 1 };
const LEVELS = 5;

const started = Date.now();
const log = (s) => console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${s}`);
const lines = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

const en = lines(join(args.corpus, 'en.txt')), zh = lines(join(args.corpus, 'zh.txt'));
const enCount = corpusCounts(en).vocabulary, zhCount = corpusCounts(zh).vocabulary;
const pairs = tiedPairs(lines(join(args.corpus, 'dictionary.tsv')), enCount);
const { train, test } = holdOut(pairs, enCount, zhCount);
log(`dictionary: ${pairs.length} pairs tie the languages; ${test.length} pairs of ${new Set(test.map((l) => l.split('\t')[0])).size} Chinese words held out`);

mkdirSync(args.work, { recursive: true });
const corpusFile = join(args.work, 'corpus.txt'), dictFile = join(args.work, 'dictionary.tsv');
const vectorsFile = join(args.work, 'vectors.txt');
writeFileSync(corpusFile, en.join('\n') + '\n' + zh.join('\n') + '\n');
writeFileSync(dictFile, train.join('\n') + '\n');
const tool = join(root, 'build/native/tools/train_vectors');
const flags = Object.entries({ ...TRAIN, dims: args.dims, epochs: args.epochs, 'min-count': args['min-count'] })
  .flatMap(([k, v]) => [`--${k}`, String(v)]);
log(`train_vectors ${flags.join(' ')}`);
const run = spawnSync(tool, [corpusFile, vectorsFile, '--dictionary', dictFile, ...flags], { stdio: 'inherit' });
if (run.status !== 0) {
  console.error(`build.mjs: ${relative(root, tool)} failed${run.error ? ': ' + run.error.message : ''} (build it with bash scripts/build.sh native)`);
  process.exit(1);
}

const trained = parseWord2vec(readFileSync(vectorsFile, 'utf8'));
const modern = new Map(lines(args.jieba).map((l) => l.split(' ')).map(([w, n]) => [w, Number(n)]));
const common = commonCharacters();
const { learned, borrowed } = chooseWords(trained.words, modern, pairs, { english: args.english, chinese: args.chinese, common });
const words = [...learned, ...borrowed.keys()];
const rows = [
  ...learned.map((w) => trained.vectors.get(w)),
  ...[...borrowed.values()].map((t) => borrowedVector(t, trained.vectors, trained.dims)),
];
const { q, scale } = quantise(rows, trained.dims, { length: Math.sqrt(3 * Math.sqrt(trained.dims)), levels: LEVELS });
const bytes = encodeVectors({ words, dims: trained.dims, learned: learned.length, scale, q });

mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(args.out, bytes);
mkdirSync(dirname(args['held-out']), { recursive: true });
const kept = new Set(words);
writeFileSync(args['held-out'], test.filter((l) => l.split('\t').every((w) => kept.has(w))).join('\n') + '\n');
const zhWords = words.filter((w) => /\p{Script=Han}/u.test(w)).length;
log(`${words.length} words (${words.length - zhWords} English, ${zhWords} Chinese of which ${borrowed.size} borrow their translations' vectors), ${trained.dims} dims`);
const lacking = common.filter((c) => !kept.has(c));
log(`${common.length - lacking.length} of GB 2312's ${common.length} common characters kept; lacking (no text alone, no kept translation): ${lacking.join('')}`);
log(`${relative(root, args.out)}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
