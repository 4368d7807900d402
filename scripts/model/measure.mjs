#!/usr/bin/env node
// Measures the page's language model (data/model/model.safetensors, the shipped 8-bit file) with
// the core, as the page runs it (dist/attention-model.js), and prints the tables
// docs/language-model.md shows:
//   - held-out loss in bits per character for each language, against a character bigram model
//     learned from the same training text (Witten-Bell smoothing) on the same held-out text;
//   - every head's scores on repeated random tokens (cpp/core/head_patterns.hpp), and the loss on
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

/** A character bigram model with Witten-Bell interpolation toward add-one unigrams. */
export function bigram(text) {
  const pairs = new Map(), after = new Map(), unigram = new Map();
  let prev = '\n', total = 0;
  for (const c of text) {
    unigram.set(c, (unigram.get(c) ?? 0) + 1);
    total++;
    const key = prev + '\u0000' + c;
    let a = after.get(prev);
    if (!a) after.set(prev, (a = { count: 0, types: 0 }));
    if (!pairs.has(key)) a.types++;
    a.count++;
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
    prev = c;
  }
  const types = unigram.size + 1; // and one for every character never seen
  return (p, c) => {
    const uni = ((unigram.get(c) ?? 0) + 1) / (total + types);
    const a = after.get(p);
    if (!a) return uni;
    const lambda = a.count / (a.count + a.types);
    return lambda * ((pairs.get(p + '\u0000' + c) ?? 0) / a.count) + (1 - lambda) * uni;
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

console.log('| language | held-out characters | model, bits/char | bigram, bits/char | model below bigram |');
console.log('|---|---:|---:|---:|---:|');
for (const [lang, size] of [['en', 300], ['zh', 120]]) {
  const probability = bigram(readFileSync(join(corpus, `${lang}.train.txt`), 'utf8'));
  const held = pieces(readFileSync(join(corpus, `${lang}.valid.txt`), 'utf8'), size);
  let chars = 0, modelBits = 0, bigramBits = 0;
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
    for (const t of run.tokens) modelBits += t.bits;
    let prev = '\n';
    for (const c of piece) bigramBits -= Math.log2(probability(prev, c)), (prev = c), chars++;
  }
  const m = modelBits / chars, b = bigramBits / chars;
  console.log(`| ${lang === 'en' ? 'English' : 'Chinese'} | ${chars} | ${m.toFixed(3)} | ${b.toFixed(3)} | ${(100 * (1 - m / b)).toFixed(1)} % |`);
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
  `${survey.lossSecond.toFixed(2)} on the second.`);
model.dispose();
