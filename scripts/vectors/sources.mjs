// Reading the texts of the sources scripts/vectors/fetch.sh unpacks into build/vectors/sources/,
// shared by the word vectors' corpora (scripts/vectors/extract.mjs) and the language model's
// (scripts/model/corpus.mjs). Every reader takes files in sorted order, so the same sources give
// the same text.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, inflateSync } from 'node:zlib';

/** Every file under `dir`, as sorted paths relative to it. */
export function files(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p).map((f) => join(name, f)) : [name];
  });
}

const XML_ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** A SWORD zText module's text: `.bzs` lists 12-byte records <u32 offset, u32 size, u32 unpacked
 * size> of zlib blocks in `.bzz`; each block is OSIS XML, read without its notes and tags. */
export function sword(dir) {
  let text = '';
  for (const testament of ['ot', 'nt']) {
    const index = readFileSync(join(dir, `${testament}.bzs`));
    const blocks = readFileSync(join(dir, `${testament}.bzz`));
    for (let at = 0; at + 12 <= index.length; at += 12) {
      const offset = index.readUInt32LE(at), size = index.readUInt32LE(at + 4);
      text += inflateSync(blocks.subarray(offset, offset + size)).toString('utf8')
        .replace(/<note\b[\s\S]*?<\/note>/g, ' ').replace(/<[^>]*>/g, ' ')
        .replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => XML_ENTITIES[e]) + '\n\n';
    }
  }
  return text;
}

/** WordNet's glosses and examples: in a data file, what follows " | " on each synset's line
 * (the licence at the top is indented and has none). */
export function wordnet(dir) {
  let text = '';
  for (const part of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dir, `data.${part}`), 'utf8').split('\n')) {
      const bar = line.indexOf(' | ');
      if (!line.startsWith(' ') && bar >= 0) text += line.slice(bar + 3).replace(/"/g, ' ') + '\n\n';
    }
  }
  return text;
}

/** A dictd database (`.dict.dz`, gzip with a random-access index we do not need): its text. */
export const dictd = (file) => gunzipSync(readFileSync(file)).toString('utf8') + '\n\n';

// chinese-poetry: the keys that hold the poems' and books' text (not titles, authors, notes).
const TEXT_KEYS = new Set(['paragraphs', 'content', 'para']);
// Its files that repeat others (anthologies of poems already in the complete collections, a
// traditional-script copy of a primer) or hold no running text.
const REPEATS = /(三百首|tangshisanbaishou|sanzijing-traditional|表面结构字|authors?\b|intro)[^/]*\.json$|\/error\//;

function poetryText(value, inText, acc) {
  if (typeof value === 'string') { if (inText) acc.push(value); return; }
  if (Array.isArray(value)) { for (const v of value) poetryText(v, inText, acc); return; }
  if (value && typeof value === 'object') {
    for (const k of Object.keys(value)) poetryText(value[k], inText || TEXT_KEYS.has(k), acc);
  }
}

/** The text of every poem and book, one paragraph a string, grouped by the poem or chapter
 * they come from: the whole of chinese-poetry's texts as `[[paragraph, …], …]`. */
export function poetryWorks(dir) {
  const works = [];
  for (const f of files(dir).filter((f) => f.endsWith('.json') && !REPEATS.test('/' + f))) {
    const walk = (value) => {
      if (Array.isArray(value)) { for (const v of value) walk(v); return; }
      if (!value || typeof value !== 'object') return;
      const acc = [];
      for (const k of Object.keys(value)) if (TEXT_KEYS.has(k)) poetryText(value[k], true, acc);
      if (acc.length) works.push(acc);
      for (const k of Object.keys(value)) if (!TEXT_KEYS.has(k)) walk(value[k]);
    };
    walk(JSON.parse(readFileSync(join(dir, f), 'utf8')));
  }
  return works;
}

export function poetry(dir) {
  const acc = [];
  for (const f of files(dir).filter((f) => f.endsWith('.json') && !REPEATS.test('/' + f))) {
    poetryText(JSON.parse(readFileSync(join(dir, f), 'utf8')), false, acc);
  }
  return acc.join('\n');
}
