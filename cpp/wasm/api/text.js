// Text: tokenize(), embed(), parseMatrix(), and the lexicon argument they share with lexicons.js.
import { refuse, describe, text, bytesAbove, readFailed } from './checks.js';
import { Output } from './matrices.js';

export const lines = (s) => (s === '' ? [] : s.split('\n'));

// A lexicon argument as the id the bindings know: a built-in one by name (its id is minus its
// index in the core's list: convert.hpp, BuiltinLexicon), a loaded one by what parseEmbeddings()
// or loadVectors() returned.
// `lost`: what an id lost in a restart gives instead of an error.
export function lexiconId(e, lexicon, lost) {
  const builtin = typeof lexicon === 'string' ? e.names.lexicon.indexOf(lexicon) : -1;
  if (lexicon === undefined || builtin === 0) return 0;
  if (builtin > 0) return -builtin;
  let id = lexicon;
  if (lexicon !== null && typeof lexicon === 'object') {
    try {
      id = lexicon.id;
    } catch (x) {
      readFailed(x, 'lexicon');
    }
  }
  if (Number.isInteger(id)) return id > 0 ? loadedId(e, id, lost) : id;
  return refuse(
    'bad_argument',
    'lexicon',
    'lexicon must be "builtin", "fruit" or what parseEmbeddings() or loadVectors() returned; got ' + describe(lexicon) + '.',
  );
}

// A loaded lexicon's id as the module knows it. After the module was re-created (engine.js,
// restart) the ids it gives start at 1 again: the API adds the last id handed out before, so an
// id from before the restart names no file rather than another one.
function loadedId(e, id, lost) {
  if (id > e.idBase) return id - e.idBase;
  if (lost !== undefined) return lost;
  return refuse(
    'bad_argument',
    'lexicon',
    'No word-vector file with id ' +
      id +
      ' is loaded (the engine restarted since, most likely out of memory; load the file again).',
  );
}

// A text argument: not a lone surrogate (checks.js), and not above `limit` bytes of UTF-8,
// refused before Embind copies it into the heap, in the core's words (`say`: the message
// of tokenizer.cpp or parse.cpp for that many bytes; by default tokenizer.cpp's).
export function sizedText(value, input, limit, say = tooLong(input)) {
  text(value, input);
  const bytes = bytesAbove(value, limit);
  if (bytes) refuse('too_large', input, say(bytes, limit));
  return value;
}

function tooLong(input) {
  return (bytes, limit) => input + ': ' + bytes + ' bytes is above the limit of ' + limit + ' bytes; shorten the text.';
}

// A lexicon's feature names, asked of the core once per id.
export function features(e, id) {
  if (!e.featureCache.has(id)) e.featureCache.set(id, lines(e.M.lexiconFeatures(id)));
  return e.featureCache.get(id).slice();
}

// [count, then offset and length of each token], in UTF-16 code units (convert_text.cpp).
function readTokens(r, source) {
  const tokens = new Array(r.num());
  for (let k = 0; k < tokens.length; k++) {
    const offset = r.num(),
      length = r.num();
    tokens[k] = { text: source.slice(offset, offset + length), offset, length };
  }
  return tokens;
}

// Text with no words (empty, or only spaces and punctuation) is empty_input, as embed() says it:
// the page's message for either is "type some words".
export function tokenize(e, source, lexicon) {
  sizedText(source, 'text', e.limits.maxTextBytes);
  const at = e.M.tokenize(source, lexiconId(e, lexicon));
  if (!at) return e.coreError();
  const tokens = readTokens(new Output(e, at), source);
  if (tokens.length === 0) {
    refuse('empty_input', 'text', 'Type some words to see their tokens: the text has no words in it yet.');
  }
  return { ok: true, tokens };
}

export function embed(e, source, lexicon) {
  sizedText(source, 'text', e.limits.maxTextBytes);
  const id = lexiconId(e, lexicon);
  const at = e.M.embed(source, id);
  if (!at) return e.coreError();
  const r = new Output(e, at);
  const tokens = readTokens(r, source);
  const vectors = r.mat();
  const unknown = Array.from(r.arr(tokens.length), (u) => u === 1);
  return { ok: true, tokens, vectors, features: features(e, id), unknown };
}

export function parseMatrix(e, source, inputName) {
  const name = inputName === undefined ? 'matrix' : text(inputName, 'inputName');
  sizedText(
    source,
    name,
    e.limits.maxTextBytes,
    (bytes, limit) => name + ': the text is ' + bytes + ' bytes, above the limit of ' + limit + ' bytes.',
  );
  const at = e.M.parseMatrix(source, name);
  return at ? { ok: true, matrix: new Output(e, at).mat() } : e.coreError();
}
