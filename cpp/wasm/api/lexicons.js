// Word-vector files: the built-in lexicons and those the page loads.
import { text } from './checks.js';
import { Output } from './matrices.js';
import { lines, lexiconId, features, sizedText } from './text.js';

export function lexiconInfo(e, lexicon) {
  const id = lexiconId(e, lexicon);
  const at = e.M.lexiconVectors(id);
  if (!at) return e.coreError();
  return { ok: true, features: features(e, id), words: lines(e.M.lexiconWords(id)), vectors: new Output(e, at).mat() };
}

export function parseEmbeddings(e, source) {
  // 'embeddings', as the core names the file's errors
  sizedText(
    source,
    'embeddings',
    e.limits.maxEmbeddingBytes,
    (bytes, limit) => 'embeddings: the file is ' + bytes + ' bytes, above the limit of ' + limit + ' bytes.',
  );
  const native = e.M.parseEmbeddings(source);
  if (!native) return e.coreError();
  const words = lines(e.M.lexiconWords(native));
  const id = native + e.idBase; // text.js, loadedId
  e.lastId = id;
  return { ok: true, id, words, features: features(e, native), size: words.length };
}

export function freeLexicon(e, lexicon) {
  const id = lexiconId(e, lexicon, NaN); // a file lost in a restart is no longer loaded: false
  e.featureCache.delete(id);
  return id > 0 && e.M.freeLexicon(id);
}

// No language's code is longer than a few letters: a long string is not copied into the heap.
export function exampleSentences(e, lang) {
  return text(lang, 'lang').length <= 16 ? lines(e.M.exampleSentences(lang)) : [];
}
