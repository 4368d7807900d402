// The language model module: the raw module (M) wrapped into the public API of
// attention-model.d.ts, with the engine's plumbing (checks.js, matrices.js). Its bindings are plain
// wasm exports on model handles (model_bindings.cpp); every number in a result is the core's.
import { refuse, describe, guard, thrown, failure } from './checks.js';
import { writeBytes, Output, coreError, releaseLarge } from './matrices.js';
import { filesBeside, stageFilesBeside, writeInto } from './model-files.js';

const encoder = new TextEncoder();
const MAX_PREDICTIONS = 50;

function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return refuse(
    'bad_argument',
    'model',
    'A model is the bytes of a safetensors file (a Uint8Array or an ArrayBuffer); got ' + describe(value) + '.',
  );
}

function token(r) {
  const id = r.num(),
    partial = r.num() === 1,
    bits = r.num();
  return { id, text: r.str(), partial, bits };
}

function readRun(e, address) {
  if (!address) return coreError(e);
  const r = new Output(e, address);
  const dropped = r.num();
  const tokens = Array.from({ length: r.num() }, () => token(r));
  const predictions = Array.from({ length: r.num() }, () => {
    const probability = r.num();
    const { id, text, partial } = token(r);
    return { id, text, partial, probability };
  });
  return { ok: true, tokens, dropped, predictions };
}

function count(value, name, max) {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    refuse('bad_argument', name, name + ' must be a whole number from 0 to ' + max + '; got ' + describe(value) + '.');
  }
  return value;
}

// One of `n` things (a token of the vocabulary, a layer, a head), by its index from 0.
function below(value, n, name) {
  if (!Number.isInteger(value) || value < 0 || value >= n) {
    refuse('bad_argument', name, name + ' must be a whole number from 0 to ' + (n - 1) + '; got ' + describe(value) + '.');
  }
  return value;
}

// A record of model_records.hpp, as an object of its fields by name (e.layouts says them).
function record(r, names) {
  const out = {};
  for (const name of names) out[name] = r.num();
  return out;
}

function makeModel(e, id) {
  const s = { id };
  const r = new Output(e, e.M._attn_info(id));
  const config = configOf(record(r, e.layouts.config));
  const { bos, window } = record(r, e.layouts.info);
  const live = () => {
    if (!s.id) refuse('bad_argument', 'model', 'This model was disposed; open it again.');
  };

  function run(text, options = {}) {
    live();
    e.buffer = 0; // the text takes the byte buffer a reserved model file was in
    if (typeof text !== 'string')
      refuse('bad_argument', 'text', 'run() takes the text to read, a string; got ' + describe(text) + '.');
    const k = count(options.predictions, 'predictions', MAX_PREDICTIONS) ?? 5;
    const bytes = encoder.encode(text);
    if (!writeBytes(e.M, bytes)) return coreError(e);
    return readRun(e, e.M._attn_run(s.id, bytes.length, k));
  }

  function extend(tokenId, options = {}) {
    live();
    below(tokenId, config.vocab, 'token');
    const k = count(options.predictions, 'predictions', MAX_PREDICTIONS) ?? 5;
    return readRun(e, e.M._attn_extend(s.id, tokenId, k));
  }

  function head(layer, h) {
    live();
    below(layer, config.layers, 'layer');
    below(h, config.heads, 'head');
    const address = e.M._attn_head(s.id, layer, h);
    if (!address) return coreError(e);
    const r = new Output(e, address);
    const { tokens: t, size: d } = record(r, e.layouts.head);
    const rows = (n, w) => Array.from({ length: n }, () => Array.from(r.arr(w)));
    return { ok: true, q: rows(t, d), k: rows(t, d), v: rows(t, d), weights: rows(t, t) };
  }

  function survey(options = {}) {
    live();
    const length = count(options.length, 'length', 4096) ?? 32;
    const sequences = count(options.sequences, 'sequences', 1000) ?? 8;
    const seed = count(options.seed, 'seed', Number.MAX_SAFE_INTEGER) ?? 1;
    const address = e.M._attn_survey(s.id, length, sequences, seed);
    if (!address) return coreError(e);
    const r = new Output(e, address);
    const m = record(r, e.layouts.survey);
    const out = {
      ok: true,
      length: m.length,
      sequences: m.sequences,
      lossFirst: m.lossFirst,
      lossSecond: m.lossSecond,
      lossBlind: m.lossBlind,
      clearScore: m.clearScore,
      heads: [],
    };
    out.heads = Array.from({ length: m.layers }, () =>
      Array.from({ length: m.heads }, () => {
        const h = record(r, e.layouts.headScores);
        const best = e.patterns[h.best];
        const scores = record(r, e.patterns);
        return { best, score: scores[best], clear: h.clear === 1, scores };
      }),
    );
    return out;
  }

  const m = { run, extend, head, survey };
  for (const name of Object.keys(m)) m[name] = guarded(e, m[name]);
  m.dispose = () => {
    if (s.id) e.M._attn_dispose(s.id);
    s.id = 0;
  };
  return Object.freeze(Object.assign(m, { config, bos, window }));
}

function guarded(e, f) {
  return guard(
    f,
    (x) =>
      failure(
        'internal_error',
        '',
        'The model stopped (' +
          thrown(x).split('. ')[0] +
          '), most likely out of memory: create a new module with createAttentionModel().',
      ),
    (x) => failure('internal_error', '', 'The model failed: ' + thrown(x) + '.'),
    () => {
      if (e.release) e.buffer = 0; // the byte buffer goes back with the rest
      releaseLarge(e);
    },
  );
}

// The config of the API from the config record.
function configOf({ vocab, context, width, layers, heads, tied }) {
  return Object.freeze({ vocab, context, width, layers, heads, tied: tied === 1 });
}

function fileSize(value) {
  if (!Number.isSafeInteger(value) || value < 0)
    refuse('bad_argument', 'size', "A model file's size is a whole number of bytes; got " + describe(value) + '.');
  return value;
}

// Every argument is checked before anything is copied into the module, and a call refused after
// bytes went in gives them back: a refusal keeps no memory.
function refused(e) {
  const failure = coreError(e);
  e.M._attn_release();
  e.inputAddress = e.inputCapacity = 0;
  return failure;
}

function opened(e, size, texts) {
  const id = stageFilesBeside(e.M, texts) && e.M._attn_open(size);
  return id ? { ok: true, model: makeModel(e, id) } : refused(e);
}

// The buffer reserve() gave, `size` bytes at `at`: number `buffer` of the module's reservations, good
// until another call takes the byte buffer (e.buffer then names another).
function bufferOf(e, buffer, at, size) {
  const held = () => {
    if (e.buffer !== buffer)
      refuse('bad_argument', 'model', 'Another call has used the buffer this file was read into; reserve() again.');
  };
  return {
    ok: true,
    write: guarded(e, (chunk, offset) => {
      held();
      writeInto(e.M, at, size, chunk, offset);
      return { ok: true };
    }),
    open: guarded(e, (files) => {
      held();
      const texts = filesBeside(files, 'open()');
      e.buffer = 0;
      return opened(e, size, texts);
    }),
    // A file not opened after all (the reader stopped it): its buffer goes back to the module.
    release() {
      if (e.buffer !== buffer) return;
      e.buffer = 0;
      e.M._attn_release();
    },
  };
}

export function makeModelModule(M) {
  // buffer: which reserve() holds the byte buffer now (0: none), so that a stale one is refused.
  const e = { M, patterns: [], layouts: {}, inputAddress: 0, inputCapacity: 0, release: false, buffer: 0 };
  let buffers = 0;
  e.patterns = new Output(e, M._attn_names()).str().split(' ');
  const layouts = new Output(e, M._attn_layouts());
  for (let k = layouts.num(); k > 0; k--) e.layouts[layouts.str()] = layouts.str().split(' ');

  function open(value, files) {
    const bytes = bytesOf(value);
    const texts = filesBeside(files, 'open()');
    e.buffer = 0;
    if (!writeBytes(M, bytes)) return refused(e);
    return opened(e, bytes.length, texts);
  }

  function plan(head, size, files) {
    const bytes = bytesOf(head);
    fileSize(size);
    const texts = filesBeside(files, 'plan()');
    e.buffer = 0;
    if (!writeBytes(M, bytes) || !stageFilesBeside(M, texts)) return refused(e);
    const address = M._attn_plan(bytes.length, size);
    if (!address) return refused(e);
    const r = new Output(e, address);
    const config = configOf(record(r, e.layouts.config));
    const p = record(r, e.layouts.plan);
    return { ok: true, config, weightBytes: p.weightBytes, needBytes: p.needBytes, freeBytes: p.freeBytes };
  }

  function headSize(value) {
    const bytes = bytesOf(value).subarray(0, 8);
    e.buffer = 0;
    if (!writeBytes(M, bytes)) return refused(e);
    return M._attn_head_size(bytes.length);
  }

  function reserve(value) {
    const size = fileSize(value);
    e.buffer = 0;
    const at = M._attn_bytes(size);
    if (!at) return refused(e);
    e.buffer = ++buffers;
    return bufferOf(e, e.buffer, at, size);
  }

  function memoryStats() {
    const r = new Output(e, M._attn_memory());
    return { heapBytes: r.num(), allocatedBytes: r.num(), models: r.num() };
  }

  return Object.freeze({
    open: guarded(e, open),
    plan: guarded(e, plan),
    headSize: guarded(e, headSize),
    reserve: guarded(e, reserve),
    memoryStats: guarded(e, memoryStats),
    patterns: Object.freeze(e.patterns.slice()),
  });
}
