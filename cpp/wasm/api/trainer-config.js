// The trainer's arguments: its config as the bindings' doubles and back, a saved model's bytes,
// and a probe's tokens, each checked before anything is copied into the heap.
import { refuse, describe, options, choice, count, readFailed } from './checks.js';

// The config's fields in the order trainer_bindings.cpp reads and writes them, with their kind:
// an enum (its strings come from attn_names), a count, a number, a flag or the seed.
const CONFIG_FIELDS = [
  ['task', 'enum'],
  ['length', 'count'],
  ['symbols', 'count'],
  ['vocab', 'count'],
  ['seqLen', 'count'],
  ['dModel', 'count'],
  ['layers', 'count'],
  ['heads', 'count'],
  ['mlp', 'enum'],
  ['layerNorm', 'flag'],
  ['learningRate', 'number'],
  ['beta1', 'number'],
  ['beta2', 'number'],
  ['epsilon', 'number'],
  ['weightDecay', 'number'],
  ['clip', 'number'],
  ['batch', 'count'],
  ['heldOut', 'count'],
  ['seed', 'seed'],
];
const CONFIG_NAMES = CONFIG_FIELDS.map(([name]) => name);
export const CONFIG_SIZE = CONFIG_FIELDS.length;

// A config from the binding's doubles (attn_defaults, attn_info), in the API's terms.
export function configOf(names, values) {
  const c = {};
  CONFIG_FIELDS.forEach(([name, kind], k) => {
    const x = values[k];
    c[name] = kind === 'enum' ? names[name][x] : kind === 'flag' ? x !== 0 : x;
  });
  return c;
}

// The caller's config over the defaults, as the binding's doubles; the ranges are the core's to
// check (it names the field), the types are checked here.
export function configValues(names, defaults, given) {
  const o = options(given === undefined ? {} : given, CONFIG_NAMES, 'create()');
  return CONFIG_FIELDS.map(([name, kind]) => {
    const x = name in o ? o[name] : defaults[name];
    if (kind === 'enum') return choice(x, names[name], name);
    if (kind === 'flag') {
      if (typeof x !== 'boolean') refuse('bad_argument', name, name + ' must be true or false; got ' + describe(x) + '.');
      return x ? 1 : 0;
    }
    if (kind === 'number') {
      if (typeof x !== 'number' || !Number.isFinite(x))
        refuse('bad_argument', name, name + ' must be a finite number; got ' + describe(x) + '.');
      return x;
    }
    return count(x, name, x, kind === 'seed' ? Number.MAX_SAFE_INTEGER : 0xffffffff);
  });
}

export function bytesOf(value) {
  try {
    if (value instanceof Uint8Array) return value;
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
  } catch (x) {
    readFailed(x, 'model'); // a Proxy of the caller's
  }
  refuse('bad_argument', 'model', 'A saved model is a Uint8Array (what save() returned); got ' + describe(value) + '.');
}

// The tokens as numbers, refused when there are more than the model reads before any of them is
// read or copied (in the core's words: Trainer::probe), so a huge list never grows the heap.
export function tokenList(tokens, seqLen) {
  let list;
  try {
    if (!Array.isArray(tokens) && !ArrayBuffer.isView(tokens)) {
      refuse('bad_argument', 'tokens', 'probe() takes an array of tokens; got ' + describe(tokens) + '.');
    }
    const n = tokens.length;
    if (n > seqLen) refuse('too_large', 'tokens', 'tokens: ' + n + ' of them, but the model reads at most ' + seqLen + '.');
    list = Array.from(tokens);
  } catch (x) {
    readFailed(x, 'tokens'); // a getter or a Proxy of the caller's
  }
  list.forEach((x, k) => {
    if (!Number.isInteger(x) || x < 0 || x > 0x7fffffff) {
      refuse('bad_argument', 'tokens', 'tokens[' + k + '] must be a whole number ≥ 0; got ' + describe(x) + '.', -1, k);
    }
  });
  return list;
}
