// The trainer's public API (see attention-trainer.d.ts, and README.md under "The trainer"),
// appended to Emscripten's glue with --extern-post-js after its optimiser ran, so Closure never
// renames anything in it; bundle-api.mjs wraps it and hands createAttentionTrainer to node.
//
// Conversion only, no math: check the arguments (a wrong one gives {ok: false, error}, never an
// exception), write numbers into the wasm heap, call a binding (trainer_bindings.cpp) and copy its
// result out into JS-owned arrays, so nothing goes stale when the wasm memory grows.
/* global createAttentionTrainer: writable */
import { refuse, describe, options, guard, thrown, resultsRead, readFailed } from './api/checks.js';

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
const MAX_STEPS = 100000; // per step() call: about three minutes of the largest model
const decoder = new TextDecoder();

const failure = (code, input, message) => ({ ok: false, error: { code, message, input, row: -1, col: -1 } });

// The result the binding wrote at byte address `at`, [length, values…], copied out.
function result(M, at) {
  resultsRead();
  const i = at / 8;
  return M.HEAPF64.slice(i + 1, i + 1 + M.HEAPF64[i]);
}

const textAt = (M, address, length) => decoder.decode(M.HEAPU8.subarray(address, address + length));

function coreError(M) {
  const r = result(M, M._attn_error());
  const s = (k) => textAt(M, r[2 + 2 * k], r[3 + 2 * k]);
  return { ok: false, error: { code: s(0), message: s(2), input: s(1), row: r[0], col: r[1] } };
}

function readNames(M) {
  const r = result(M, M._attn_names());
  const names = {};
  for (const line of textAt(M, r[0], r[1]).split('\n')) {
    const [key, ...list] = line.split(' ');
    names[key] = list;
  }
  return names;
}

// A config from the binding's doubles (attn_defaults, attn_info), in the API's terms.
function configOf(names, values) {
  const c = {};
  CONFIG_FIELDS.forEach(([name, kind], k) => {
    const x = values[k];
    c[name] = kind === 'enum' ? names[name][x] : kind === 'flag' ? x !== 0 : x;
  });
  return c;
}

// The caller's config over the defaults, as the binding's doubles; the ranges are the core's to
// check (it names the field), the types are checked here.
function configValues(names, defaults, given) {
  const o = options(given === undefined ? {} : given, CONFIG_NAMES, 'create()');
  return CONFIG_FIELDS.map(([name, kind]) => {
    const x = name in o ? o[name] : defaults[name];
    if (kind === 'enum') {
      if (!names[name].includes(x)) {
        refuse(
          'bad_argument',
          name,
          name + ' must be ' + names[name].map((s) => '"' + s + '"').join(' or ') + '; got ' + describe(x) + '.',
        );
      }
      return names[name].indexOf(x);
    }
    if (kind === 'flag') {
      if (typeof x !== 'boolean') refuse('bad_argument', name, name + ' must be true or false; got ' + describe(x) + '.');
      return x ? 1 : 0;
    }
    if (kind === 'number') {
      if (typeof x !== 'number' || !Number.isFinite(x))
        refuse('bad_argument', name, name + ' must be a finite number; got ' + describe(x) + '.');
      return x;
    }
    const max = kind === 'seed' ? Number.MAX_SAFE_INTEGER : 0xffffffff;
    if (!Number.isInteger(x) || x < 0 || x > max) {
      refuse('bad_argument', name, name + ' must be a whole number from 0 to ' + max + '; got ' + describe(x) + '.');
    }
    return x;
  });
}

// Every write into the heap asks for the room first and only then takes the heap's view: the
// allocation may grow the memory, which detaches the view taken before it.
function writeConfig(M, values) {
  const at = M._attn_input(values.length);
  M.HEAPF64.set(values, at / 8);
}

// The saved bytes in the module's byte buffer, or false (and attn_error()) when their size alone
// refuses them: then nothing is allocated or copied.
function writeBytes(M, bytes) {
  const at = M._attn_bytes(bytes.length);
  if (!at) return false;
  M.HEAPU8.set(bytes, at);
  return true;
}

function bytesOf(value) {
  try {
    if (value instanceof Uint8Array) return value;
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
  } catch (x) {
    readFailed(x, 'model'); // a Proxy of the caller's
  }
  refuse('bad_argument', 'model', 'A saved model is a Uint8Array (what save() returned); got ' + describe(value) + '.');
}

// Matrices of the probe, [rows, cols, data…] one after another from r[at].
function matrices(r, at) {
  return () => {
    const rows = r[at],
      cols = r[at + 1];
    const m = { rows, cols, data: new Float32Array(r.subarray(at + 2, at + 2 + rows * cols)) };
    at += 2 + rows * cols;
    return m;
  };
}

// What each trainer object holds: the module, the enums' names, its handle (0 once disposed) and
// what attn_info said of it (read again when load() changes the model).
function readInfo(s) {
  const M = s.M,
    n = CONFIG_FIELDS.length;
  const r = result(M, M._attn_info(s.id));
  const [name, description, ...tokens] = textAt(M, r[n + 2], r[n + 3]).split('\n');
  s.info = {
    config: Object.freeze(configOf(s.names, r)),
    parameters: r[n],
    steps: r[n + 1],
    task: Object.freeze({ name, description, tokens: Object.freeze(tokens) }),
  };
}

function live(s) {
  if (!s.id) refuse('bad_argument', 'trainer', 'This trainer was disposed; create a new one.');
}

// A model whose weights are too large for float32 computes NaN or ±∞: that is an error, never a
// number on screen. `what` says what was computed.
function overflowed(r, what) {
  const bad = r.find((x) => !Number.isFinite(x));
  return bad === undefined
    ? null
    : failure(
        'not_finite',
        'model',
        "The model's numbers overflowed: " +
          what +
          ' gave ' +
          bad +
          '. Its weights are too large; train it again with a lower learning rate, or load another model.',
      );
}

function evaluate(s) {
  live(s);
  const r = result(s.M, s.M._attn_evaluate(s.id));
  const bad = overflowed(r, 'evaluating it');
  if (bad) return bad;
  const { layers, heads } = s.info.config;
  const headScores = Array.from({ length: layers }, (_, l) => Array.from(r.subarray(5 + l * heads, 5 + (l + 1) * heads)));
  return { ok: true, loss: r[0], accuracy: r[1], sequenceAccuracy: r[2], score: r[3], previousTokenScore: r[4], headScores };
}

function step(s, n = 1) {
  live(s);
  if (!Number.isInteger(n) || n < 1 || n > MAX_STEPS) {
    refuse('bad_argument', 'steps', 'step() takes a number of steps from 1 to ' + MAX_STEPS + '; got ' + describe(n) + '.');
  }
  const M = s.M;
  const start = performance.now();
  const at = M._attn_train(s.id, n);
  const seconds = (performance.now() - start) / 1000;
  if (!at) return coreError(M);
  const r = result(M, at);
  // A step that diverged was not applied: its loss is in the error's message, not in `losses`,
  // and a call whose first step diverged did nothing at all.
  const diverged = r[1] ? coreError(M).error : null;
  const losses = r.slice(2, diverged ? -1 : undefined);
  if (losses.length === 0) return { ok: false, error: diverged };
  const e = evaluate(s);
  if (!e.ok) return e;
  return {
    ok: true,
    loss: losses.reduce((a, b) => a + b, 0) / losses.length,
    losses,
    steps: r[0],
    stepsPerSecond: seconds > 0 ? losses.length / seconds : Infinity,
    accuracy: e.accuracy,
    sequenceAccuracy: e.sequenceAccuracy,
    heldOutLoss: e.loss,
    headScores: e.headScores,
    score: e.score,
    previousTokenScore: e.previousTokenScore,
    diverged,
  };
}

// The tokens as numbers, refused when there are more than the model reads before any of them is
// read or copied (in the core's words: Trainer::probe), so a huge list never grows the heap.
function tokenList(tokens, seqLen) {
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

function probe(s, tokens) {
  live(s);
  const M = s.M,
    list = tokenList(tokens, s.info.config.seqLen);
  const input = M._attn_input(list.length);
  M.HEAPF64.set(list, input / 8);
  const at = M._attn_probe(s.id, list.length);
  if (!at) return coreError(M);
  const r = result(M, at);
  const bad = overflowed(r, 'probing these tokens');
  if (bad) return bad;
  const next = matrices(r, 0);
  const layers = [];
  for (let l = 0; l < s.info.config.layers; l++) {
    const input = next();
    const heads = [];
    for (let h = 0; h < s.info.config.heads; h++) {
      heads.push({ queries: next(), keys: next(), values: next(), scores: next(), weights: next(), output: next() });
    }
    layers.push({ input, heads, output: next() });
  }
  const probs = next();
  return { ok: true, tokens: list, layers, probs, predicted: Array.from(r.subarray(r.length - list.length)) };
}

function ablate(s, layer, head, on = true) {
  live(s);
  for (const [value, name] of [
    [layer, 'layer'],
    [head, 'head'],
  ]) {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      refuse('bad_argument', name, name + ' must be a whole number ≥ 0; got ' + describe(value) + '.');
    }
  }
  if (typeof on !== 'boolean')
    refuse('bad_argument', 'on', 'on must be true (ablate) or false (restore); got ' + describe(on) + '.');
  return s.M._attn_ablate(s.id, layer, head, on ? 1 : 0) ? { ok: true } : coreError(s.M);
}

function save(s) {
  live(s);
  const r = result(s.M, s.M._attn_save(s.id));
  return { ok: true, bytes: s.M.HEAPU8.slice(r[0], r[0] + r[1]) };
}

function load(s, value) {
  live(s);
  const bytes = bytesOf(value);
  if (!writeBytes(s.M, bytes) || !s.M._attn_load(s.id, bytes.length)) return coreError(s.M);
  readInfo(s);
  return { ok: true };
}

function dispose(s) {
  if (s.id) s.M._attn_dispose(s.id);
  s.id = 0;
}

const METHODS = { step, evaluate, probe, ablate, save, load };

function makeTrainer(M, names, id) {
  const s = { M, names, id, info: null };
  readInfo(s);
  const t = {};
  for (const [name, f] of Object.entries(METHODS)) t[name] = guarded((a, b, c) => f(s, a, b, c));
  t.dispose = () => dispose(s);
  return Object.freeze(
    Object.defineProperties(t, {
      config: { get: () => s.info.config, enumerable: true },
      task: { get: () => s.info.task, enumerable: true },
      parameters: { get: () => s.info.parameters, enumerable: true },
      steps: { get: () => (s.id ? result(M, M._attn_info(s.id))[CONFIG_FIELDS.length + 1] : s.info.steps), enumerable: true },
      disposed: { get: () => !s.id, enumerable: true },
    }),
  );
}

// f behind the one guard of every entry point (api/checks.js): argument errors, whatever the
// caller's objects throw, come back as values. An abort of the wasm (memory exhausted) leaves the
// module unusable: the message says to make a new one.
function guarded(f) {
  return guard(
    f,
    (x) =>
      failure(
        'internal_error',
        '',
        'The trainer stopped (' +
          thrown(x).split('. ')[0] +
          '), most likely out of memory: create a new module with createAttentionTrainer().',
      ),
    (x) => failure('internal_error', '', 'The trainer failed: ' + thrown(x) + '.'),
  );
}

function makeModule(M) {
  const names = readNames(M);
  const defaults = Object.freeze(configOf(names, result(M, M._attn_defaults())));

  function create(config) {
    writeConfig(M, configValues(names, defaults, config));
    const id = M._attn_create();
    return id ? { ok: true, trainer: makeTrainer(M, names, id) } : coreError(M);
  }

  function loadSaved(value, config) {
    const bytes = bytesOf(value);
    writeConfig(M, configValues(names, defaults, config));
    const id = writeBytes(M, bytes) && M._attn_load(0, bytes.length);
    return id ? { ok: true, trainer: makeTrainer(M, names, id) } : coreError(M);
  }

  function memoryStats() {
    const r = result(M, M._attn_memory());
    return { heapBytes: r[0], allocatedBytes: r[1], trainers: r[2] };
  }

  return Object.freeze({
    create: guarded(create),
    load: guarded(loadSaved),
    memoryStats: guarded(memoryStats),
    defaults,
    tasks: Object.freeze(names.task.slice()),
    mlps: Object.freeze(names.mlp.slice()),
  });
}

const createModule = createAttentionTrainer;
createAttentionTrainer = function createAttentionTrainer() {
  return createModule().then(makeModule);
};
