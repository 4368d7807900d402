// The choices between training text and shipped file: which dictionary pairs tie the two
// languages in training, which Chinese words are held out to measure that tie, and which words the
// shipped file keeps. Pure functions of their inputs (scripts/vectors/build.mjs applies them to the
// real corpora; tests/js/vector-build.test.mjs checks them on inline data).

const HAN = /\p{Script=Han}/u;
export const isChinese = (word) => HAN.test(word);

// Dictionary senses that are real but would teach the wrong neighbour: 猫 "modem" is a pun on
// 调制解调器, and 鸟 "goddamn" a coarse use CC-CEDICT does not mark.
export const STOP_PAIRS = new Set(['猫\tmodem', '鸟\tgoddamn']);

/** The pairs that tie the languages in training, from `zh<TAB>en` lines: without STOP_PAIRS, and
 * for each Chinese word only translations seen at least `ratio` times as often as its most common
 * one, at most `most` of them. A rare sense swapped in for a common word would otherwise take all
 * of that word's contexts: with 花 "lustful" kept, "lustful" learns the poems' flowers. */
export function tiedPairs(lines, enCount, { ratio = 0.1, most = 3 } = {}) {
  const byWord = new Map();
  for (const line of lines) {
    if (STOP_PAIRS.has(line)) continue;
    const [zh, en] = line.split('\t');
    const n = enCount.get(en) ?? 0;
    if (n === 0) continue;
    if (!byWord.has(zh)) byWord.set(zh, []);
    byWord.get(zh).push([en, n]);
  }
  const out = [];
  for (const [zh, list] of byWord) {
    list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const floor = list[0][1] * ratio;
    for (const [en, n] of list.slice(0, most)) if (n >= floor) out.push(`${zh}\t${en}`);
  }
  return out.sort();
}

/** FNV-1a, 32 bits, of a string's UTF-8 bytes: a split that is the same on every machine. */
export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** Splits the pairs into those trained on and those held out: every pair of one Chinese word in
 * `every` (by its hash) whose two sides are both seen `min` times, so that a held-out word cannot
 * lean on a sibling sense still in training. Held-out words still learn from their own sentences;
 * only the dictionary's tie is withheld, so finding their translation measures how far the shared
 * space reaches beyond the dictionary. */
export function holdOut(pairs, enCount, zhCount, { every = 10, min = 5 } = {}) {
  const testable = (zh, en) => (zhCount.get(zh) ?? 0) >= min && (enCount.get(en) ?? 0) >= min;
  const held = new Set();
  for (const line of pairs) {
    const [zh, en] = line.split('\t');
    if (testable(zh, en) && fnv1a(zh) % every === 0) held.add(zh);
  }
  const train = [], test = [];
  for (const line of pairs) (held.has(line.split('\t')[0]) ? test : train).push(line);
  return { train, test };
}

/** The 3,755 characters of GB 2312's first level, the standard's list of the characters in
 * everyday use (rows 16 to 55, in pinyin order): the page's tokenizer falls back to one character
 * at a time, so each of these should have a vector. Decoded by the platform's GBK decoder. */
export function commonCharacters() {
  const gbk = new TextDecoder('gbk');
  const out = [];
  for (let row = 0xb0; row <= 0xd7; row++)
    for (let col = 0xa1; col <= (row === 0xd7 ? 0xf9 : 0xfe); col++) out.push(gbk.decode(Uint8Array.of(row, col)));
  return out;
}

/** The words the shipped file keeps, from the trained vocabulary (most frequent first):
 * - English: the `english` most frequent;
 * - Chinese: every single character jieba's modern counts list, then words by those counts (most
 *   common first), trained or not, until `chinese` in all. A word the corpus lacks (苹果 is not in
 *   classical poetry) is kept when it has a translation among the kept English words: it borrows
 *   their vector (borrowedVector in scripts/vectors/pack.mjs). So is each of the `common`
 *   characters the corpus lacks on its own (the text has 咖啡 as one word, never 咖 alone), before
 *   any word: a sentence the tokenizer cannot match as words comes apart into them.
 * Returns { learned: [...], borrowed: Map(word → [english…]) } in the file's order: learned words
 * in vocabulary order, then borrowed ones by modern count. */
export function chooseWords(vocabulary, modernCount, pairs, { english = 21000, chinese = 21000, common = [] } = {}) {
  const trained = new Set(vocabulary);
  const en = vocabulary.filter((w) => !isChinese(w)).slice(0, english);
  const enKept = new Set(en);
  const translations = new Map();
  for (const line of pairs) {
    const [zh, e] = line.split('\t');
    if (!enKept.has(e)) continue;
    if (!translations.has(zh)) translations.set(zh, []);
    translations.get(zh).push(e);
  }
  const modern = (w) => modernCount.get(w) ?? 0;
  const chars = vocabulary.filter((w) => isChinese(w) && [...w].length === 1 && modern(w) > 0);
  const needed = [...new Set(common)].filter((c) => !trained.has(c) && translations.has(c));
  const words = [...new Set([
    ...vocabulary.filter((w) => isChinese(w) && [...w].length > 1 && modern(w) > 0),
    ...[...translations.keys()].filter((w) => !trained.has(w) && modern(w) > 0),
    ...needed,
  ])];
  words.sort((a, b) => modern(b) - modern(a) || (a < b ? -1 : a > b ? 1 : 0));
  const first = new Set(needed);
  const rest = words.filter((w) => !first.has(w));
  const zhKept = new Set([...chars, ...needed, ...rest.slice(0, Math.max(0, chinese - chars.length - needed.length))]);
  const learned = vocabulary.filter((w) => enKept.has(w) || zhKept.has(w));
  const borrowed = new Map();
  for (const w of words) if (zhKept.has(w) && !trained.has(w)) borrowed.set(w, translations.get(w));
  return { learned, borrowed };
}
