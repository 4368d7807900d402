// The word-vector file's one writer (cpp/core/word_vectors.hpp reads it), in plain JavaScript so
// that the build (scripts/vectors/build.mjs) and the page's lazily loaded vectors.js (bundled in
// by web/build.mjs) write it with the same code:
//   "APV1", u32 words, u32 dims, u32 learned, f32 scale, u32 text bytes, the words joined by "\n"
//   (UTF-8), then words × dims int8, row-major; a stored q means q × scale. Little-endian.

/** The file's bytes. */
export function encodeVectors({ words, dims, learned, scale, q }) {
  const text = new TextEncoder().encode(words.join('\n'));
  const out = new Uint8Array(24 + text.length + q.length);
  const view = new DataView(out.buffer);
  out.set([0x41, 0x50, 0x56, 0x31]); // "APV1"
  view.setUint32(4, words.length, true);
  view.setUint32(8, dims, true);
  view.setUint32(12, learned, true);
  view.setFloat32(16, scale, true);
  view.setUint32(20, text.length, true);
  out.set(text, 24);
  out.set(new Uint8Array(q.buffer, q.byteOffset, q.length), 24 + text.length);
  return out;
}

// The file as the page's script carries it: a script can come from a file:// page where fetch
// cannot, but it holds text, and base64 would cost a quarter more gzipped. Every stored q is
// within ±levels·√dims (vectors are unit length before scaling): 5·√32 < 29, so q + 63 is a
// printable character from '#' (35) to '[' (91), never a quote or a backslash, and the values
// are one string of them.
export const CHAR_OFFSET = 63;

/** { dims, learned, scale, words: the words joined by "\n", values: one character a value } of a file. */
export function scriptForm(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const text = view.getUint32(20, true);
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
    dims: view.getUint32(8, true),
    learned: view.getUint32(12, true),
    scale: view.getFloat32(16, true),
    words: new TextDecoder().decode(bytes.subarray(24, 24 + text)),
    values,
  };
}

/** The file's bytes again, from its script form. */
export function fromScriptForm({ dims, learned, scale, words, values }) {
  const q = new Int8Array(values.length);
  for (let i = 0; i < values.length; i++) q[i] = values.charCodeAt(i) - CHAR_OFFSET;
  return encodeVectors({ words: words.split('\n'), dims, learned, scale, q });
}
