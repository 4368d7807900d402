#!/usr/bin/env node
// Writes the small slice of the corpora that tests/js/vector-build.test.mjs builds vectors from
// (tests/fixtures/vectors-slice/): the first `LINES` sentences of each language (the World English
// Bible's first chapters, the first Tang poems), the dictionary pairs whose two sides occur in
// them or whose English side occurs and whose Chinese side is a common modern word (so that some
// words borrow their vector), and jieba's counts of the Chinese words these use. Run after scripts/vectors/extract.mjs:
//   node scripts/vectors/slice.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LINES = 1000;
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = join(root, 'build/vectors/corpus');
const jieba = join(root, 'build/vectors/sources/jieba/package/submodules/cppjieba/dict/jieba.dict.utf8');
const out = join(root, 'tests/fixtures/vectors-slice');

const head = (file) => readFileSync(join(corpus, file), 'utf8').split('\n').slice(0, LINES);
const en = head('en.txt'), zh = head('zh.txt');
const seen = new Set([...en, ...zh].flatMap((l) => l.split(' ')));
const counts = new Map(readFileSync(jieba, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')));
const pairs = readFileSync(join(corpus, 'dictionary.tsv'), 'utf8').split('\n')
  .filter((l) => l && seen.has(l.split('\t')[1]) && (seen.has(l.split('\t')[0]) || counts.get(l.split('\t')[0]) >= 2000));
const used = new Set([...seen, ...pairs.map((l) => l.split('\t')[0])]);
const modern = [...counts].filter(([w]) => used.has(w)).map((e) => e.join(' '));

mkdirSync(out, { recursive: true });
for (const [name, list] of [['en.txt', en], ['zh.txt', zh], ['dictionary.tsv', pairs], ['jieba.txt', modern]]) {
  writeFileSync(join(out, name), list.join('\n') + '\n');
  console.log(`${name}: ${list.length} lines`);
}
