// Text: tokenize(), embed(), parseMatrix(), and the lexicon argument they share with lexicons.js.
import { refuse, describe, text } from './checks.js';
import { Output } from './matrices.js';

export const lines = (s) => (s === '' ? [] : s.split('\n'));

// A lexicon argument as the id the bindings know: a built-in one by name (its id is minus its
// index in the core's list: convert.hpp, BuiltinLexicon), a loaded one by what parseEmbeddings()
// returned.
export function lexiconId(e, lexicon) {
  const builtin = typeof lexicon === 'string' ? e.names.lexicon.indexOf(lexicon) : -1;
  if (lexicon === undefined || builtin === 0) return 0;
  if (builtin > 0) return -builtin;
  if (lexicon !== null && typeof lexicon === 'object' && Number.isInteger(lexicon.id)) return lexicon.id;
  if (Number.isInteger(lexicon)) return lexicon;
  return refuse(
    'bad_argument',
    'lexicon',
    'lexicon must be "builtin", "fruit" or what ' + 'parseEmbeddings() returned; got ' + describe(lexicon) + '.',
  );
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

export function tokenize(e, source, lexicon) {
  text(source, 'text');
  const at = e.M.tokenize(source, lexiconId(e, lexicon));
  return at ? { ok: true, tokens: readTokens(new Output(e.M, at), source) } : e.coreError();
}

export function embed(e, source, lexicon) {
  text(source, 'text');
  const id = lexiconId(e, lexicon);
  const at = e.M.embed(source, id);
  if (!at) return e.coreError();
  const r = new Output(e.M, at);
  const tokens = readTokens(r, source);
  const vectors = r.mat();
  const unknown = Array.from(r.arr(tokens.length), (u) => u === 1);
  return { ok: true, tokens, vectors, features: features(e, id), unknown };
}

export function parseMatrix(e, source, inputName) {
  const name = inputName === undefined ? 'matrix' : text(inputName, 'inputName');
  text(source, name);
  const at = e.M.parseMatrix(source, name);
  return at ? { ok: true, matrix: new Output(e.M, at).mat() } : e.coreError();
}
