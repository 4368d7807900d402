// Word-vector files: the built-in lexicons and those the page loads.
import { text } from './checks.js';
import { Output } from './matrices.js';
import { lines, lexiconId, features } from './text.js';

export function lexiconInfo(e, lexicon) {
  const id = lexiconId(e, lexicon);
  const at = e.M.lexiconVectors(id);
  if (!at) return e.coreError();
  return { ok: true, features: features(e, id), words: lines(e.M.lexiconWords(id)), vectors: new Output(e.M, at).mat() };
}

export function parseEmbeddings(e, source) {
  text(source, 'embeddings'); // as the core names the file's errors
  const id = e.M.parseEmbeddings(source);
  if (!id) return e.coreError();
  const words = lines(e.M.lexiconWords(id));
  return { ok: true, id, words, features: features(e, id), size: words.length };
}

export function freeLexicon(e, lexicon) {
  const id = lexiconId(e, lexicon);
  e.featureCache.delete(id);
  return id > 0 && e.M.freeLexicon(id);
}

export function exampleSentences(e, lang) {
  return typeof lang === 'string' ? lines(e.M.exampleSentences(lang)) : [];
}
