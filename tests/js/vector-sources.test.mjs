// The text rules of the word vectors' corpora (scripts/vectors/text.mjs), on inline text: no
// download, no sources on disk. scripts/vectors/fetch.sh and extract.mjs apply them to the real
// sources outside the test suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chineseLines, chineseTokens, corpusCounts, dictionaryLines, englishLines, englishTokens,
  makeLexicon, oneWord, simplifiedMap, toSimplified, unihanField,
} from '../../scripts/vectors/text.mjs';

// Lines of Unihan's variants file, as the Unicode Consortium writes them.
const VARIANTS = [
  '# Unihan_Variants.txt',
  'U+4E7E\tkSimplifiedVariant\tU+4E7E U+5E72', // 乾 lists itself first: it stays
  'U+9CE5\tkSimplifiedVariant\tU+9E1F', // 鳥 → 鸟
  'U+98DB\tkSimplifiedVariant\tU+98DE', // 飛 → 飞
  'U+8C93\tkSimplifiedVariant\tU+732B', // 貓 → 猫
  'U+9CE5\tkTraditionalVariant\tU+9CE5',
].join('\n');
const simplified = simplifiedMap(VARIANTS);

test('vector sources: English is lowercased words, split on non-letters, apostrophes kept inside words', () => {
  assert.deepEqual(englishTokens("In the beginning, God's Spirit—don’t 'fear' 3 e-mail café."),
    ['in', 'the', 'beginning', "god's", 'spirit', "don't", 'fear', 'e', 'mail', 'café']);
  assert.deepEqual(englishLines('A bird. It flew!  "birds fly"; the end\n\nNew paragraph'),
    ['a bird', 'it flew', 'birds fly', 'the end', 'new paragraph']);
});

test('vector sources: traditional characters become simplified by Unihan kSimplifiedVariant', () => {
  assert.equal(simplified.size, 3);
  assert.equal(toSimplified('飛鳥乾貓bird', simplified), '飞鸟乾猫bird');
  assert.equal(unihanField('U+9E1F\tkDefinition\tbird; Kangxi radical 196', 'kDefinition').get('鸟'),
    'bird; Kangxi radical 196');
});

test('vector sources: Chinese is segmented by longest match, unknown characters one at a time', () => {
  const lexicon = makeLexicon(['我', '喜欢', '苹果', '苹果树', '飞鸟', 'CD']);
  assert.equal(lexicon.longest, 9); // 苹果树: 3 characters of 3 bytes; CD is not Han
  assert.deepEqual(chineseTokens('我喜欢苹果树上的飞鸟和iPhone，3只', lexicon),
    ['我', '喜欢', '苹果树', '上', '的', '飞鸟', '和', 'iphone', '只']);
  // Longest match, not best: 苹果 is taken before 果树 can be.
  assert.deepEqual(chineseTokens('苹果树', makeLexicon(['苹果', '果树'])), ['苹果', '树']);
  // 飛鳥 becomes 飞鸟 before the lookup; 間 is not in this small map, so it stays.
  assert.deepEqual(chineseLines('天地間，飛鳥來。山高水深！', lexicon, simplified),
    ['天 地 間 飞鸟 來', '山 高 水 深']);
});

test('vector sources: the dictionary keeps one-word senses and drops slang, coarse and variant ones', () => {
  assert.equal(oneWord('to fly'), 'fly');
  assert.equal(oneWord('cat (CL:隻|只[zhi1])'), 'cat');
  assert.equal(oneWord('(slang) cool or extraordinary'), null);
  assert.equal(oneWord('(slang) modem'), null);
  assert.equal(oneWord('(intensifier) damned'), null);
  assert.equal(oneWord('a small bird'), null);
  const entries = [
    { simplified: '鸟', english: ['bird', 'CL:隻|只[zhi1]', '(dialect) to pay attention to'] },
    { simplified: '鸟', english: ['variant of 屌[diao3]', 'penis'] },
    { simplified: '猫', english: ['cat (CL:隻|只[zhi1])', '(slang) modem'] },
    { simplified: '3C', english: ['computers'] },
  ];
  const definitions = new Map([['鳥', 'bird; Kangxi radical 196'], ['飛', 'fly, go quickly; dart']]);
  assert.deepEqual(dictionaryLines(entries, definitions, simplified),
    ['猫\tcat', '飞\tdart', '飞\tfly', '鸟\tbird']);
});

test('vector sources: the same input gives the same bytes, and the counts add up', () => {
  const run = () => {
    const lexicon = makeLexicon(['飞鸟', '明月', '明']);
    const zh = chineseLines('明月照飛鳥。飛鳥飛！明月', lexicon, simplified);
    const en = englishLines('The moon. The bird flies; the moon shines.');
    return [zh.join('\n'), en.join('\n'), dictionaryLines([{ simplified: '月', english: ['moon'] }], new Map(), simplified).join('\n')];
  };
  assert.deepEqual(run(), run());
  assert.deepEqual(run(), ['明月 照 飞鸟\n飞鸟 飞\n明月', 'the moon\nthe bird flies\nthe moon shines', '月\tmoon']);
  const c = corpusCounts(['a b a', 'a c']);
  assert.deepEqual([c.sentences, c.tokens, c.types, c.frequent], [2, 5, 3, 0]);
  assert.equal(corpusCounts(['a a a a a b']).frequent, 1);
});
