// Word-vector files: the built-in lexicons and those the page loads, and the nearest words and
// similarity of their words.
import { text, refuse, describe, readFailed, count } from './checks.js';
import { Output } from './matrices.js';
import { lines, lexiconId, features, sizedText } from './text.js';

export function lexiconInfo(e, lexicon) {
  const id = lexiconId(e, lexicon);
  const at = e.M.lexiconVectors(id);
  if (!at) return e.coreError();
  return { ok: true, features: features(e, id), words: lines(e.M.lexiconWords(id)), vectors: new Output(e, at).mat() };
}

// A file the module just loaded as `native`, under the id the API gives it (text.js, loadedId).
function loaded(e, native) {
  const words = lines(e.M.lexiconWords(native));
  const id = native + e.idBase;
  e.lastId = id;
  return { ok: true, id, words, features: features(e, native), size: words.length };
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
  return native ? loaded(e, native) : e.coreError();
}

// A packed file's bytes, which Embind copies into the heap (as a std::string): refused above the
// limit before that, in the core's words (word_vectors.cpp), so that it never grows the memory.
function vectorFile(e, value) {
  let bytes;
  try {
    if (value instanceof Uint8Array) bytes = value;
    else if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
  } catch (x) {
    readFailed(x, 'vectors'); // a Proxy of the caller's, a detached buffer
  }
  if (!bytes) refuse('bad_argument', 'vectors', 'vectors must be a Uint8Array or an ArrayBuffer; got ' + describe(value) + '.');
  const limit = e.limits.maxVectorFileBytes;
  if (bytes.length > limit) {
    refuse('too_large', 'vectors', 'vectors: the file is ' + bytes.length + ' bytes, above the limit of ' + limit + ' bytes.');
  }
  return bytes;
}

export function loadVectors(e, value) {
  const at = e.M.loadVectors(vectorFile(e, value));
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const native = r.num(),
    learned = r.num();
  return { ...loaded(e, native), learned };
}

export function nearestWords(e, source, lexicon, k) {
  sizedText(source, 'word', e.limits.maxTextBytes);
  const id = lexiconId(e, lexicon);
  const at = e.M.nearestWords(source, id, count(k, 'k', 10, e.limits.maxNeighbours));
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const neighbours = new Array(r.num());
  for (let i = 0; i < neighbours.length; i++) neighbours[i] = { word: r.str(), cosine: r.num() };
  return { ok: true, neighbours };
}

export function wordSimilarity(e, a, b, lexicon) {
  sizedText(a, 'a', e.limits.maxTextBytes);
  sizedText(b, 'b', e.limits.maxTextBytes);
  const at = e.M.wordSimilarity(a, b, lexiconId(e, lexicon));
  return at ? { ok: true, cosine: new Output(e, at).num() } : e.coreError();
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
