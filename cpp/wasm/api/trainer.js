// The trainer module: the raw module (M) wrapped into the public API of attention-trainer.d.ts,
// with the engine's plumbing: arguments checked (checks.js, trainer-config.js), numbers written
// into the heap and results and errors read back (matrices.js), every entry point behind the one
// guard (checks.js). Its bindings are plain wasm exports on trainer handles (trainer_bindings.cpp).
import { refuse, describe, index, guard, thrown, parseNames, failure } from './checks.js';
import { write, writeBytes, Output, coreError, releaseLarge } from './matrices.js';
import { CONFIG_SIZE, configOf, configValues, bytesOf, tokenList } from './trainer-config.js';

const MAX_STEPS = 100000; // per step() call: about three minutes of the largest model

// What each trainer object holds: the module's context, its handle (0 once disposed) and what
// attn_info said of it (read again when load() changes the model).
function readInfo(s) {
  const r = new Output(s.e, s.e.M._attn_info(s.id));
  const config = configOf(s.e.names, r.arr(CONFIG_SIZE));
  const parameters = r.num(),
    steps = r.num();
  const [name, description, ...tokens] = r.str().split('\n');
  s.info = {
    config: Object.freeze(config),
    parameters,
    steps,
    task: Object.freeze({ name, description, tokens: Object.freeze(tokens) }),
  };
}

function live(s) {
  if (!s.id) refuse('bad_argument', 'trainer', 'This trainer was disposed; create a new one.');
}

// A model whose weights are too large for float32 computes NaN or ±∞: that is an error, never a
// number on screen. `what` says what was computed.
function overflowed(r, what) {
  const bad = r.all.find((x) => !Number.isFinite(x));
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
  const r = new Output(s.e, s.e.M._attn_evaluate(s.id));
  const bad = overflowed(r, 'evaluating it');
  if (bad) return bad;
  const x = {
    ok: true,
    loss: r.num(),
    accuracy: r.num(),
    sequenceAccuracy: r.num(),
    score: r.num(),
    previousTokenScore: r.num(),
  };
  const { layers, heads } = s.info.config;
  x.headScores = Array.from({ length: layers }, () => Array.from(r.arr(heads)));
  return x;
}

function step(s, n = 1) {
  live(s);
  if (!Number.isInteger(n) || n < 1 || n > MAX_STEPS) {
    refuse('bad_argument', 'steps', 'step() takes a number of steps from 1 to ' + MAX_STEPS + '; got ' + describe(n) + '.');
  }
  const start = performance.now();
  const at = s.e.M._attn_train(s.id, n);
  const seconds = (performance.now() - start) / 1000;
  if (!at) return coreError(s.e);
  const r = new Output(s.e, at);
  const steps = r.num();
  // A step that diverged was not applied: its loss is in the error's message, not in `losses`,
  // and a call whose first step diverged did nothing at all.
  const diverged = r.num() ? coreError(s.e).error : null;
  const loss = r.num(); // the core's mean over the applied steps
  const losses = r.all.slice(3, diverged ? -1 : undefined);
  if (losses.length === 0) return { ok: false, error: diverged };
  const e = evaluate(s);
  if (!e.ok) return e;
  return {
    ok: true,
    loss,
    losses,
    steps,
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

// The probe's matrices are float32 (the model's own precision), copied out of the result.
function mat32(r) {
  const m = r.mat();
  return { rows: m.rows, cols: m.cols, data: new Float32Array(m.data) };
}

// trainer_bindings.cpp, attn_probe: per layer its input, per head queries, keys, values, scores,
// weights, output, then the layer's output; then probs; then the predicted tokens.
function probe(s, tokens) {
  live(s);
  const list = tokenList(tokens, s.info.config.seqLen);
  write(s.e, list);
  const at = s.e.M._attn_probe(s.id, list.length);
  if (!at) return coreError(s.e);
  const r = new Output(s.e, at);
  const bad = overflowed(r, 'probing these tokens');
  if (bad) return bad;
  const layers = [];
  for (let l = 0; l < s.info.config.layers; l++) {
    const input = mat32(r);
    const heads = [];
    for (let h = 0; h < s.info.config.heads; h++) {
      heads.push({ queries: mat32(r), keys: mat32(r), values: mat32(r), scores: mat32(r), weights: mat32(r), output: mat32(r) });
    }
    layers.push({ input, heads, output: mat32(r) });
  }
  const probs = mat32(r);
  return { ok: true, tokens: list, layers, probs, predicted: Array.from(r.arr(list.length)) };
}

function ablate(s, layer, head, on = true) {
  live(s);
  index(layer, 'layer');
  index(head, 'head');
  if (typeof on !== 'boolean')
    refuse('bad_argument', 'on', 'on must be true (ablate) or false (restore); got ' + describe(on) + '.');
  return s.e.M._attn_ablate(s.id, layer, head, on ? 1 : 0) ? { ok: true } : coreError(s.e);
}

function save(s) {
  live(s);
  const r = new Output(s.e, s.e.M._attn_save(s.id));
  const address = r.num();
  return { ok: true, bytes: s.e.M.HEAPU8.slice(address, address + r.num()) };
}

function load(s, value) {
  live(s);
  const bytes = bytesOf(value);
  if (!writeBytes(s.e.M, bytes) || !s.e.M._attn_load(s.id, bytes.length)) return coreError(s.e);
  readInfo(s);
  return { ok: true };
}

const METHODS = { step, evaluate, probe, ablate, save, load };

function makeTrainer(e, id) {
  const s = { e, id, info: null };
  readInfo(s);
  const t = {};
  for (const [name, f] of Object.entries(METHODS)) t[name] = guarded(e, (a, b, c) => f(s, a, b, c));
  t.dispose = () => {
    if (s.id) e.M._attn_dispose(s.id);
    s.id = 0;
  };
  return Object.freeze(
    Object.defineProperties(t, {
      config: { get: () => s.info.config, enumerable: true },
      task: { get: () => s.info.task, enumerable: true },
      parameters: { get: () => s.info.parameters, enumerable: true },
      steps: { get: () => (s.id ? new Output(e, e.M._attn_info(s.id)).all[CONFIG_SIZE + 1] : s.info.steps), enumerable: true },
      disposed: { get: () => !s.id, enumerable: true },
    }),
  );
}

// f behind the one guard of every entry point (checks.js), as the engine's are: argument errors,
// whatever the caller's objects throw, come back as values. An abort of the wasm (memory
// exhausted) leaves the module unusable: the message says to make a new one.
function guarded(e, f) {
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
    () => releaseLarge(e),
  );
}

export function makeTrainerModule(M) {
  // The context matrices.js writes and reads with, as the engine's (engine.js, context).
  const e = { M, names: null, inputAddress: 0, inputCapacity: 0, release: false };
  e.names = parseNames(new Output(e, M._attn_names()).str());
  const defaults = Object.freeze(configOf(e.names, new Output(e, M._attn_defaults()).all));

  function create(config) {
    write(e, configValues(e.names, defaults, config));
    const id = M._attn_create();
    return id ? { ok: true, trainer: makeTrainer(e, id) } : coreError(e);
  }

  function loadSaved(value, config) {
    const bytes = bytesOf(value);
    write(e, configValues(e.names, defaults, config));
    const id = writeBytes(M, bytes) && M._attn_load(0, bytes.length);
    return id ? { ok: true, trainer: makeTrainer(e, id) } : coreError(e);
  }

  function memoryStats() {
    const r = new Output(e, M._attn_memory());
    return { heapBytes: r.num(), allocatedBytes: r.num(), trainers: r.num() };
  }

  return Object.freeze({
    create: guarded(e, create),
    load: guarded(e, loadSaved),
    memoryStats: guarded(e, memoryStats),
    defaults,
    tasks: Object.freeze(e.names.task.slice()),
    mlps: Object.freeze(e.names.mlp.slice()),
  });
}
