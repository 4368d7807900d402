#!/usr/bin/env node
// Turns the sources scripts/vectors/fetch.sh unpacked into build/vectors/sources/ into the word
// vectors' training text, in build/vectors/corpus/:
//   en.txt, zh.txt    one sentence a line, tokens separated by one space (scripts/vectors/text.mjs)
//   dictionary.tsv    `zh<TAB>en` a line, sorted: CC-CEDICT and Unihan's one-word glosses
// and prints, per language, the sentences, tokens, distinct tokens and those seen at least 5
// times, the dictionary pairs whose two sides are in the corpora, and each file's sha256.
// Deterministic: files are read in sorted order and everything taken from a map is sorted, so
// the same sources give byte-identical files.
//   node scripts/vectors/extract.mjs
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dictd, poetry, sword, wordnet } from './sources.mjs';
import {
  chineseLines, corpusCounts, dictionaryLines, englishLines, makeLexicon, simplifiedMap, toSimplified, unihanField,
} from './text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'build/vectors/sources');
const out = join(root, 'build/vectors/corpus');
const started = Date.now();
const log = (s) => console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${s}`);

function write(name, lines) {
  const body = lines.length ? lines.join('\n') + '\n' : '';
  writeFileSync(join(out, name), body);
  const sha = createHash('sha256').update(body).digest('hex');
  return `${name}  ${(Buffer.byteLength(body) / 1e6).toFixed(1)} MB  sha256 ${sha}`;
}

mkdirSync(out, { recursive: true });
const unihan = join(src, 'unihan/usr/share/unicode');
const simplified = simplifiedMap(readFileSync(join(unihan, 'Unihan_Variants.txt'), 'utf8'));
const definitions = unihanField(readFileSync(join(unihan, 'Unihan_Readings.txt'), 'utf8'), 'kDefinition');
const cedict = JSON.parse(readFileSync(join(src, 'cedict/package/cedict.json'), 'utf8'));
log(`read Unihan (${simplified.size} simplified variants, ${definitions.size} definitions) and CC-CEDICT (${cedict.length} entries)`);

const dictionary = dictionaryLines(cedict, definitions, simplified);
// Every CC-CEDICT headword, not only those with a one-word gloss: a longer word kept whole is
// better segmentation than its characters. Unihan's words are single characters.
const lexicon = makeLexicon(cedict.map((e) => toSimplified(e.simplified, simplified)));
log(`dictionary: ${dictionary.length} pairs; lexicon: ${lexicon.words.size} words, longest ${lexicon.longest} bytes`);

const sword_ = (m) => join(src, m, 'usr/share/sword/modules/texts/ztext');
const english = [
  ['web', sword(join(sword_('web'), 'engWEB2015eb'))],
  ['kjv', sword(join(sword_('kjv'), 'engKJV2006eb'))],
  ['wordnet', wordnet(join(src, 'wordnet/usr/share/wordnet'))],
  ['devil', dictd(join(src, 'devil/usr/share/dictd/devil.dict.dz'))],
  ['jargon', dictd(join(src, 'jargon/usr/share/dictd/jargon.dict.dz'))],
].flatMap(([name, text]) => {
  const lines = englishLines(text);
  log(`en ${name}: ${lines.length} sentences`);
  return lines;
});
const chinese = chineseLines(poetry(join(src, 'poetry/package/dist')), lexicon, simplified);
log(`zh poetry: ${chinese.length} sentences`);

const sums = [write('en.txt', english), write('zh.txt', chinese), write('dictionary.tsv', dictionary)];
const en = corpusCounts(english), zh = corpusCounts(chinese);
for (const [lang, c] of [['en', en], ['zh', zh]]) {
  log(`${lang}: ${c.sentences} sentences, ${c.tokens} tokens, ${c.types} types, ${c.frequent} seen ≥ 5 times`);
}
const pairs = dictionary.map((l) => l.split('\t'));
const inBoth = (min) => pairs.filter(([z, e]) => (zh.vocabulary.get(z) ?? 0) >= min && (en.vocabulary.get(e) ?? 0) >= min).length;
log(`dictionary pairs with both sides in the corpora: ${inBoth(1)} (both seen ≥ 5 times: ${inBoth(5)})`);
for (const s of sums) log(`${relative(root, join(out, s))}`);
