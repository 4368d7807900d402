#!/usr/bin/env node
// Measures the page's language model (data/model/model.safetensors, the shipped 8-bit file) with
// the core, as the page runs it (dist/attention-model.js), and prints the tables
// docs/language-model.md shows:
//   - held-out loss in bits per character for each language, against a character bigram model
//     learned from the same training text (Witten-Bell smoothing) on the same held-out text, and
//     how far below the bigram a character trigram with the same smoothing comes;
//   - every head's scores on repeated random tokens (cpp/core/lm/head_patterns.hpp), and the loss on
//     the first and the second copy (in-context learning).
// Needs the corpora of scripts/model/corpus.mjs (build/model/corpus/) and the wasm build.
//   node scripts/model/measure.mjs [characters per language, default 200000]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = join(root, 'build/model/corpus');
const budget = Number(process.argv[2] ?? 200000);

/**
 * A character n-gram model of `order` (2: a bigram), Witten-Bell interpolated from the longest
 * history seen down to add-one unigrams. Returns probability(history, c), `history` an array of
 * the characters before c (at most order − 1 are read).
 */
export function ngram(text, order) {
  const counts = new Map(), contexts = new Map(), unigram = new Map();
  let total = 0;
  const history = ['\n'];
  for (const c of text) {
    unigram.set(c, (unigram.get(c) ?? 0) + 1);
    total++;
    for (let n = 1; n < order && n <= history.length; n++) {
      const h = history.slice(-n).join(''), key = h + '\u0000' + c;
      let a = contexts.get(h);
      if (!a) contexts.set(h, (a = { count: 0, types: 0 }));
      if (!counts.has(key)) a.types++;
      a.count++;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    history.push(c);
    if (history.length >= order) history.shift();
  }
  const types = unigram.size + 1; // and one for every character never seen
  return (before, c) => {
    let p = ((unigram.get(c) ?? 0) + 1) / (total + types);
    for (let n = 1; n < order && n <= before.length; n++) {
      const h = before.slice(-n).join(''), a = contexts.get(h);
      if (!a) break;
      const lambda = a.count / (a.count + a.types);
      p = lambda * ((counts.get(h + '\u0000' + c) ?? 0) / a.count) + (1 - lambda) * p;
    }
    return p;
  };
}

/** The held-out text cut into pieces of whole lines, each at most `size` characters. */
function pieces(text, size) {
  const out = [];
  let piece = '';
  for (const line of text.split('\n').filter(Boolean)) {
    for (let at = 0; at < line.length; at += size) {
      const part = [...line].slice(at, at + size).join('');
      if (piece && [...piece].length + 1 + [...part].length > size) out.push(piece), (piece = '');
      piece = piece ? piece + '\n' + part : part;
    }
  }
  if (piece) out.push(piece);
  return out;
}

const createAttentionModel = createRequire(import.meta.url)(join(root, 'dist/attention-model.js'));
const models = await createAttentionModel();
const opened = models.open(readFileSync(join(root, 'data/model/model.safetensors')));
if (!opened.ok) throw new Error(opened.error.message);
const model = opened.model;

const KINDS = ['Han characters', 'letters', 'punctuation', 'line ends and spaces', 'bytes of rarer characters', 'other'];
/** What a token is: the core marks the byte fallback's tokens partial; the rest go by their text. */
function kind({ text, partial }) {
  if (partial) return 'bytes of rarer characters';
  if (/^\p{Script=Han}+$/u.test(text)) return 'Han characters';
  if (/^\s*\p{L}+$/u.test(text)) return 'letters';
  if (/^\s*\p{P}+$/u.test(text)) return 'punctuation';
  if (/^\s+$/u.test(text)) return 'line ends and spaces';
  return 'other';
}
const perKind = [];

console.log('| language | held-out characters | model, bits/char | bigram, bits/char | model below bigram | trigram below bigram |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [lang, size] of [['en', 300], ['zh', 120]]) {
  const train = readFileSync(join(corpus, `${lang}.train.txt`), 'utf8');
  const bigram = ngram(train, 2), trigram = ngram(train, 3);
  const held = pieces(readFileSync(join(corpus, `${lang}.valid.txt`), 'utf8'), size);
  let chars = 0, modelBits = 0, bigramBits = 0, trigramBits = 0;
  const kinds = Object.fromEntries(KINDS.map((k) => [k, { tokens: 0, bits: 0 }]));
  const queue = [...held];
  while (queue.length && chars < budget) {
    const piece = queue.shift();
    const run = model.run(piece);
    if (!run.ok) throw new Error(run.error.message);
    if (run.dropped) {  // more tokens than the context: read it as two halves
      const c = [...piece], half = c.length >> 1;
      queue.unshift(c.slice(0, half).join(''), c.slice(half).join(''));
      continue;
    }
    for (const t of run.tokens.slice(1)) {  // the first is <|endoftext|>, given, not predicted
      modelBits += t.bits;
      const k = kinds[kind(t)];
      k.tokens++, (k.bits += t.bits);
    }
    const before = ['\n'];
    for (const c of piece) {
      bigramBits -= Math.log2(bigram(before, c));
      trigramBits -= Math.log2(trigram(before, c));
      before.push(c), chars++;
    }
  }
  const m = modelBits / chars, b = bigramBits / chars, t = trigramBits / chars;
  const below = (x) => `${(100 * (1 - x / b)).toFixed(1)} %`;
  console.log(`| ${lang === 'en' ? 'English' : 'Chinese'} | ${chars} | ${m.toFixed(3)} | ${b.toFixed(3)} | ${below(m)} | ${below(t)} |`);
  perKind.push([lang, kinds]);
}
// Where the bits go: the tokens of each kind, their share of the tokens and what each costs.
for (const [lang, kinds] of perKind) {
  const all = Object.values(kinds).reduce((n, k) => n + k.tokens, 0);
  const shown = KINDS.filter((k) => kinds[k].tokens).map((k) =>
    `${k} ${(100 * kinds[k].tokens / all).toFixed(1)} % of tokens, ${(kinds[k].bits / kinds[k].tokens).toFixed(2)} bits each`);
  console.log(`${lang === 'en' ? 'English' : 'Chinese'}: ${shown.join('; ')}.`);
}

const survey = model.survey();
if (!survey.ok) throw new Error(survey.error.message);
console.log(`\nHeads, on ${survey.sequences} sequences of <|endoftext|> and ${survey.length} random tokens twice:\n`);
console.log('| layer | head | best | score | previous | first | same | induction |');
console.log('|---|---|---|---|---:|---:|---:|---:|');
survey.heads.forEach((layer, l) => layer.forEach((h, i) => {
  const s = models.patterns.map((p) => h.scores[p].toFixed(2)).join(' | ');
  console.log(`| ${l} | ${i} | ${h.best} | ${h.score.toFixed(2)} | ${s} |`);
}));
console.log(`\nLoss on the random tokens: ${survey.lossFirst.toFixed(2)} bits a token on the first copy, ` +
  `${survey.lossSecond.toFixed(2)} on the second; a blind guess, ${survey.lossBlind.toFixed(2)}.`);
model.dispose();
