// The shipped word-vector file: learned vectors made unit length, words the corpus lacks given the
// mean of their translations' vectors, all scaled to one length and rounded to small integers.
// The file ("APV1", cpp/core/word_vectors.hpp reads it) is written by format.mjs. Pure functions,
// so the same trained vectors give the same bytes.
import { encodeVectors as encode } from './format.mjs';

/** The word2vec text format ("count dims", then "word v1 … vd" a line) as { words, dims, vectors }
 * with vectors a Map from word to Float64Array. */
export function parseWord2vec(text) {
  const lines = text.split('\n');
  const [count, dims] = lines[0].split(' ').map(Number);
  const words = [], vectors = new Map();
  for (const line of lines.slice(1, count + 1)) {
    const parts = line.split(' ');
    words.push(parts[0]);
    vectors.set(parts[0], Float64Array.from(parts.slice(1, dims + 1), Number));
  }
  return { words, dims, vectors };
}

export function unit(v) {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  return n > 0 ? v.map((x) => x / n) : v.slice();
}

/** The vector of a word the corpus lacks: the mean of its translations' unit vectors. 苹果 gets
 * apple's; 水, were it missing, the mean of water's and liquid's. */
export function borrowedVector(translations, vectors, dims) {
  const sum = new Float64Array(dims);
  for (const en of translations) unit(vectors.get(en)).forEach((x, i) => (sum[i] += x));
  return sum.map((x) => x / translations.length);
}

/** Every vector as unit length times `length`, rounded to steps of `scale`:
 * scale = length / (levels · √dims), so a typical entry (length/√dims) spans `levels` steps. */
export function quantise(rows, dims, { length, levels }) {
  const scale = Math.fround(length / (levels * Math.sqrt(dims)));
  const q = new Int8Array(rows.length * dims);
  rows.forEach((v, r) => {
    unit(v).forEach((x, i) => {
      q[r * dims + i] = Math.max(-127, Math.min(127, Math.round((x * length) / scale)));
    });
  });
  return { q, scale };
}

/** The file's bytes (format.mjs writes them), as a Buffer. */
export function encodeVectors(vectors) {
  const bytes = encode(vectors);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}
