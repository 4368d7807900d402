// The files that come with a model file (its tokenizer and config.json), staged in the module
// before the model is planned or opened (model_bindings.cpp, attn_beside), and the buffer for a large
// model file filled piece by piece, so that it need not be whole in JavaScript's memory too.
import { refuse, describe, options } from './checks.js';

const encoder = new TextEncoder();

/** The files beside the model by the names the API takes, in the order of the core's ModelFiles. */
export const SIDE_FILES = ['tokenizer', 'vocab', 'merges', 'config'];
const FILE_NAMES = { tokenizer: 'tokenizer.json', vocab: 'vocab.json', merges: 'merges.txt', config: 'config.json' };

function bytesOfText(value, key) {
  if (typeof value === 'string') return encoder.encode(value);
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return refuse(
    'bad_argument',
    key,
    key + ' is the text of ' + FILE_NAMES[key] + ' (a string, a Uint8Array or an ArrayBuffer); got ' + describe(value) + '.',
  );
}

/** Checks `files` ({tokenizer, vocab, merges, config}, each optional): their bytes in the core's
 * order (null: not given), or a refusal, before anything is copied into the module. */
export function filesBeside(files, what) {
  const given = files === undefined ? {} : options(files, SIDE_FILES, what);
  return SIDE_FILES.map((key) => (given[key] === undefined ? null : bytesOfText(given[key], key)));
}

/** Stages the checked files beside the model (filesBeside) in the module; false when the heap cannot. */
export function stageFilesBeside(M, texts) {
  for (let kind = 0; kind < texts.length; kind++) {
    const text = texts[kind];
    if (!text) continue;
    const at = M._attn_beside(kind, text.length);
    if (!at) return false;
    M.HEAPU8.set(text, at);
  }
  return true;
}

/** Writes `chunk` at byte `offset` of the buffer (the heap's view taken now: it may have grown). */
export function writeInto(M, at, size, chunk, offset) {
  if (!(chunk instanceof Uint8Array))
    refuse('bad_argument', 'chunk', 'write() takes a Uint8Array of the file; got ' + describe(chunk) + '.');
  if (!Number.isInteger(offset) || offset < 0 || offset + chunk.length > size)
    refuse(
      'bad_argument',
      'offset',
      'write(): ' + chunk.length + ' bytes at ' + describe(offset) + " go past the file's " + size + '.',
    );
  M.HEAPU8.set(chunk, at + offset);
}
