// The text rules of the word vectors' corpora: how English and Chinese become lines of tokens, how
// traditional characters become simplified ones, and which dictionary senses become pairs. Pure
// functions of their inputs, so that scripts/vectors/extract.mjs gives the same bytes every time
// and tests/js/vector-sources.test.mjs can check them without the downloaded sources.

// A word: letters, with apostrophes only between letters ("god's", "don't"); anything else
// splits. The typographic apostrophe is the same apostrophe.
const ENGLISH_WORD = /\p{L}+(?:['’]\p{L}+)*/gu;
// A sentence ends at . ! ? or ; (WordNet separates a gloss from its examples with ;).
const ENGLISH_END = /(?<=[.!?;])\s+|\n\s*\n/;

/** The tokens of an English text: lowercased words, split on everything that is not a letter. */
export function englishTokens(text) {
  return (text.normalize('NFC').match(ENGLISH_WORD) ?? []).map((w) => w.toLowerCase().replace(/’/g, "'"));
}

/** An English text as corpus lines: one sentence a line, its tokens separated by one space. */
export function englishLines(text) {
  return text.split(ENGLISH_END).map((s) => englishTokens(s).join(' ')).filter(Boolean);
}

/** Unihan's fields as a map from character to value: lines `U+XXXX<TAB>field<TAB>value`. */
export function unihanField(text, field) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const [code, name, value] = line.split('\t');
    if (name === field && code.startsWith('U+')) out.set(String.fromCodePoint(parseInt(code.slice(2), 16)), value);
  }
  return out;
}

/** Traditional to simplified, one character at a time, from Unihan's kSimplifiedVariant: the
 * first variant listed, and only where it differs (乾 lists itself first, so it stays). */
export function simplifiedMap(variantsText) {
  const out = new Map();
  for (const [from, value] of unihanField(variantsText, 'kSimplifiedVariant')) {
    const to = String.fromCodePoint(parseInt(value.split(' ')[0].slice(2), 16));
    if (to !== from) out.set(from, to);
  }
  return out;
}

export function toSimplified(text, map) {
  let out = '';
  for (const c of text) out += map.get(c) ?? c;
  return out;
}

const HAN = /^\p{Script=Han}+$/u;

/** The segmentation lexicon: its words, every prefix of them, and the longest word's length in
 * UTF-8 bytes, the window the engine looks ahead (cpp/core/lexicon.hpp, longest_word_bytes). */
export function makeLexicon(words) {
  const set = new Set(), prefixes = new Set();
  let longest = 0;
  for (const w of words) {
    if (!HAN.test(w)) continue;
    set.add(w);
    const chars = [...w];
    for (let i = 1; i < chars.length; i++) prefixes.add(chars.slice(0, i).join(''));
    longest = Math.max(longest, Buffer.byteLength(w));
  }
  return { words: set, prefixes, longest };
}

// The rule of the engine's tokenizer (cpp/core/tokenizer.cpp, unspaced_run): in a run of
// characters written without spaces, at each position take the longest lexicon word that starts
// there within the window, else one character, and go on after it. Stopping once the text is no
// longer a prefix of any word gives the same answer sooner: no longer word can match after that.
function segmentRun(chars, lexicon, out) {
  for (let start = 0; start < chars.length; ) {
    let best = start + 1;
    let piece = chars[start];
    for (let end = start + 2; end <= chars.length; end++) {
      piece += chars[end - 1];
      if (Buffer.byteLength(piece) > lexicon.longest) break;
      if (lexicon.words.has(piece)) best = end;
      if (!lexicon.prefixes.has(piece)) break;
    }
    out.push(chars.slice(start, best).join(''));
    start = best;
  }
}

// A run of Han characters, or an ASCII word (kept, lowercased, as an English token).
const CHINESE_PIECE = /\p{Script=Han}+|[A-Za-z]+(?:'[A-Za-z]+)*/gu;

/** The tokens of a Chinese text (already simplified): Han runs segmented by longest match,
 * ASCII words lowercased, everything else (punctuation, digits, spaces) dropped. */
export function chineseTokens(text, lexicon) {
  const out = [];
  for (const [piece] of text.matchAll(CHINESE_PIECE)) {
    if (/^[A-Za-z]/.test(piece)) out.push(piece.toLowerCase());
    else segmentRun([...piece], lexicon, out);
  }
  return out;
}

// A Chinese sentence ends at 。！？； (full width or not) or a line break; a comma does not end it.
const CHINESE_END = /[。！？；!?;\n]+/;

/** A Chinese text as corpus lines: simplified, one sentence a line, tokens separated by a space. */
export function chineseLines(text, lexicon, simplified) {
  return toSimplified(text, simplified).split(CHINESE_END)
    .map((s) => chineseTokens(s, lexicon).join(' ')).filter(Boolean);
}

// Senses the vectors should not learn as the meaning of a word. CC-CEDICT marks them in
// parentheses: (slang), (vulgar), (offensive), (derog.); and (dialect), (Cantonese) and
// (intensifier) senses are not standard Mandarin and often coarse (鸟 "damned", 屌 "to fuck").
const UNWANTED = /\b(slang|vulgar|offensive|derog|dialect|cantonese|intensifier)/i;
// An entry that is a variant of another has that entry's senses, under a rarer spelling: 鸟 as a
// variant of 屌 would make "penis" a meaning of 鸟.
const VARIANT = /^(old |archaic |Japanese )?variant of /;

/** The English side of a sense when it is one word: without its parenthesised remarks and a
 * leading "to " (verbs), lowercased; null for a longer gloss or an unwanted sense. */
export function oneWord(sense) {
  if (UNWANTED.test(sense)) return null;
  let s = sense;
  while (/\([^()]*\)/.test(s)) s = s.replace(/\([^()]*\)/g, ' ');
  s = s.trim().replace(/^to\s+/i, '').trim();
  return /^[A-Za-z]+(?:'[A-Za-z]+)?$/.test(s) ? s.toLowerCase() : null;
}

/** The dictionary as sorted `zh<TAB>en` lines, without repeats: CC-CEDICT entries
 * ({simplified, english: [sense…]}) and Unihan kDefinition glosses ("bird; Kangxi radical 196"),
 * the Chinese side in the corpus's simplified characters. */
export function dictionaryLines(entries, definitions, simplified) {
  const pairs = new Set();
  const add = (zh, senses) => {
    const word = toSimplified(zh, simplified);
    if (!HAN.test(word) || senses.some((sense) => VARIANT.test(sense))) return;
    for (const sense of senses) {
      const en = oneWord(sense);
      if (en) pairs.add(`${word}\t${en}`);
    }
  };
  for (const e of entries) add(e.simplified, e.english);
  for (const [c, gloss] of definitions) add(c, gloss.split(/[;,]/));
  return [...pairs].sort();
}

/** Sentences, tokens, distinct tokens, and distinct tokens seen at least `min` times, of corpus
 * lines; `vocabulary` holds every token's count. */
export function corpusCounts(lines, min = 5) {
  const vocabulary = new Map();
  let tokens = 0;
  for (const line of lines) {
    for (const t of line.split(' ')) {
      vocabulary.set(t, (vocabulary.get(t) ?? 0) + 1);
      tokens++;
    }
  }
  let frequent = 0;
  for (const n of vocabulary.values()) if (n >= min) frequent++;
  return { sentences: lines.length, tokens, types: vocabulary.size, frequent, vocabulary };
}
