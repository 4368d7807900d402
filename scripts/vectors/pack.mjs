// The shipped word-vector file: learned vectors made unit length, words the corpus lacks given the
// mean of their translations' vectors, all scaled to one length and rounded to small integers.
// The format ("APV1") is what the engine reads (cpp/core/word_vectors.hpp):
//   "APV1", u32 words, u32 dims, u32 learned, f32 scale, u32 text bytes, the words joined by "\n"
//   (UTF-8), then words × dims int8, row-major; a stored q means q × scale. Little-endian.
// Pure functions, so the same trained vectors give the same bytes.

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

/** The file's bytes. */
export function encodeVectors({ words, dims, learned, scale, q }) {
  const text = Buffer.from(words.join('\n'), 'utf8');
  const head = Buffer.alloc(24);
  head.write('APV1', 0, 'latin1');
  head.writeUInt32LE(words.length, 4);
  head.writeUInt32LE(dims, 8);
  head.writeUInt32LE(learned, 12);
  head.writeFloatLE(scale, 16);
  head.writeUInt32LE(text.length, 20);
  return Buffer.concat([head, text, Buffer.from(q.buffer, q.byteOffset, q.byteLength)]);
}

// The file as the page's script carries it (web/build.mjs, web/src/views/vectors-entry.ts): a
// script can come from a file:// page where fetch cannot, but it holds text, and base64 would
// cost a quarter more gzipped. Every stored q is within ±levels·√dims (vectors are unit length
// before scaling): 5·√32 < 29, so q + 63 is a printable character from '#' (35) to '[' (91),
// never a quote or a backslash, and the values are one string of them.
export const CHAR_OFFSET = 63;

/** { head: [words, dims, learned, scale], words: the text, values: the string } of a file. */
export function scriptForm(bytes) {
  const text = bytes.readUInt32LE(20);
  const q = new Int8Array(bytes.buffer, bytes.byteOffset + 24 + text, bytes.length - 24 - text);
  let values = '';
  for (let at = 0; at < q.length; at += 65536) {
    const chunk = Array.from(q.subarray(at, at + 65536), (x) => {
      if (x < 35 - CHAR_OFFSET || x > 91 - CHAR_OFFSET) throw new Error(`value ${x} does not fit the script form`);
      return x + CHAR_OFFSET;
    });
    values += String.fromCharCode(...chunk);
  }
  return {
    head: [bytes.readUInt32LE(4), bytes.readUInt32LE(8), bytes.readUInt32LE(12), bytes.readFloatLE(16)],
    words: bytes.subarray(24, 24 + text).toString('utf8'),
    values,
  };
}
