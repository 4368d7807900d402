#!/usr/bin/env node
// Builds the language model's text from the sources scripts/vectors/fetch.sh unpacks (pinned in
// scripts/vectors/sources.json) into build/model/corpus/:
//   <lang>.train.txt, <lang>.valid.txt   for en: the World English Bible, every State of the Union
//                      address and Moby-Dick, with their case and punctuation; for zh:
//                      chinese-poetry's poems and books, in simplified characters, without the
//                      editors' notes in parentheses
// Each source is cut into documents of about 3,000 characters (whole verses, paragraphs or
// poems); every 20th document, the 20th, 40th, …, is held out for measuring. Documents are
// separated by a blank line. Deterministic: the same sources give byte-identical files.
//   node scripts/model/corpus.mjs
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { files, poetryWorks, sword } from '../vectors/sources.mjs';
import { simplifiedMap, toSimplified } from '../vectors/text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'build/vectors/sources');
const out = join(root, 'build/model/corpus');
const DOCUMENT = 3000, HELD_OUT_EVERY = 20;

/** One paragraph: its runs of white space made one space, no space at either end. */
export const tidy = (s) => s.replace(/\s+/g, ' ').trim();

/** Paragraphs joined, in order, into documents of at least `size` characters (the last may be
 * shorter); a paragraph is never cut. */
export function documents(paragraphs, size = DOCUMENT, joiner = '\n') {
  const docs = [];
  let doc = [], length = 0;
  for (const p of paragraphs.filter((p) => p.length > 0)) {
    doc.push(p);
    length += p.length + 1;
    if (length >= size) docs.push(doc.join(joiner)), doc = [], length = 0;
  }
  if (doc.length) docs.push(doc.join(joiner));
  return docs;
}

/** Every `every`-th document (1-based) held out: `{ train, valid }`. */
export function split(docs, every = HELD_OUT_EVERY) {
  const train = [], valid = [];
  docs.forEach((d, i) => ((i + 1) % every === 0 ? valid : train).push(d));
  return { train, valid };
}

/** A poem or book's paragraphs without the editors' notes: "(明明 一作：佼佼)", "（…）". */
export const withoutNotes = (s) => s.replace(/[(（][^()（）]*[)）]/g, '');

function english() {
  // The Bible's verses run on: a document is a run of verses joined by spaces.
  const bible = sword(join(src, 'web/usr/share/sword/modules/texts/ztext/engWEB2015eb'))
    .split(/\n\s*\n/).map(tidy);
  const sotuDir = join(src, 'sotu/package/data');
  const addresses = files(sotuDir).filter((f) => f.endsWith('.txt'))
    .flatMap((f) => documents(readFileSync(join(sotuDir, f), 'utf8').split(/\n+/).map(tidy)));
  const mobyDir = join(src, 'moby/package/data');
  const chapters = files(mobyDir).filter((f) => /^chapter_\d+\.json$/.test(f))
    .flatMap((f) => documents(JSON.parse(readFileSync(join(mobyDir, f), 'utf8')).text.split(/\n+/).map(tidy)));
  return [...documents(bible, DOCUMENT, ' '), ...addresses, ...chapters];
}

function chinese() {
  const unihan = join(src, 'unihan/usr/share/unicode/Unihan_Variants.txt');
  const simplified = simplifiedMap(readFileSync(unihan, 'utf8'));
  const works = poetryWorks(join(src, 'poetry/package/dist'))
    .map((w) => w.map((p) => tidy(withoutNotes(toSimplified(p, simplified)))).filter(Boolean).join('\n'));
  return documents(works);
}

function write(name, docs) {
  const body = docs.join('\n\n') + '\n';
  writeFileSync(join(out, name), body);
  const sha = createHash('sha256').update(body).digest('hex').slice(0, 16);
  console.log(`${name}: ${docs.length} documents, ${[...body].length} characters, sha256 ${sha}…`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(out, { recursive: true });
  for (const [lang, docs] of [['en', english()], ['zh', chinese()]]) {
    const { train, valid } = split(docs);
    write(`${lang}.train.txt`, train);
    write(`${lang}.valid.txt`, valid);
  }
}
