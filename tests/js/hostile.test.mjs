// Arguments that throw whatever they like while they are read (a Symbol from a getter, a Proxy
// whose traps throw, a Proxy that throws itself, a revoked Proxy): every entry point of the engine
// and of the trainer answers bad_argument, never internal_error, and never throws.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, loadTrainer, assertError } from './engine-helpers.mjs';

let engine, T;
before(async () => {
  engine = await loadEngine();
  T = await loadTrainer();
});

const fruit = [[1, 2, 1], [2, 2, 0], [0, 2, 3]];

// A Proxy each of whose traps throws a Symbol, which `+` cannot turn into text.
const trapsThrow = () => new Proxy({}, new Proxy({}, { get: () => () => { throw Symbol('trap'); } }));
const revoked = () => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};
// A Proxy that throws itself: describing what was thrown reads it again, and it throws again.
const throwsItself = () => {
  const p = new Proxy({}, { get() { throw p; }, ownKeys() { throw p; }, getPrototypeOf() { throw p; }, has() { throw p; } });
  return p;
};
const HOSTILE = { 'a Proxy whose traps throw a Symbol': trapsThrow, 'a revoked Proxy': revoked, 'a Proxy that throws itself': throwsItself };

// Calls f, turning an exception into a failed assertion that says what escaped.
function call(f, what) {
  try {
    return f();
  } catch (x) {
    let said;
    try {
      said = String(x);
    } catch {
      said = 'something that cannot be printed';
    }
    assert.fail(`${what} threw ${said} instead of returning an error`);
  }
}

test('a getter throwing a Symbol in probe() tokens is bad_argument naming tokens', () => {
  const t = T.create({ task: 'reverse' }).trainer;
  const tokens = Object.defineProperty([1, 2, 3], 1, { get: () => { throw Symbol('token'); } });
  const e = assertError(call(() => t.probe(tokens), 'probe()'), 'bad_argument', { input: 'tokens' });
  assert.equal(e.message, 'reading `tokens` threw: Symbol(token).');
  assert.equal(t.probe([1, 2, 3]).ok, true, 'the trainer still probes');
  t.dispose();
  // The engine: a row's getter.
  const queries = [[1, 2, 1], Object.defineProperty([0, 0, 0], 1, { get: () => { throw Symbol('row'); } })];
  const f = assertError(call(() => engine.attention({ queries, keys: fruit, values: fruit }), 'attention()'), 'bad_argument', { input: 'queries' });
  assert.equal(f.message, 'reading `queries` threw: Symbol(row).');
});

test('a Proxy whose getPrototypeOf throws is bad_argument from load() and from attentionFast()', () => {
  const model = new Proxy(new Uint8Array(60), { getPrototypeOf: () => { throw new Error('no prototype'); } });
  const t = T.create({ task: 'reverse' }).trainer;
  for (const [r, what] of [[call(() => T.load(model), 'T.load()'), 'T.load()'], [call(() => t.load(model), 't.load()'), 't.load()']]) {
    const e = assertError(r, 'bad_argument', { input: 'model' });
    assert.equal(e.message, 'reading `model` threw: no prototype.', what);
  }
  t.dispose();
  const data = new Proxy(new Float32Array(9), { getPrototypeOf: () => { throw new Error('no prototype'); } });
  const m = { rows: 3, cols: 3, data };
  assertError(call(() => engine.attentionFast({ queries: m, keys: m, values: m }), 'attentionFast()'), 'bad_argument');
});

test('a Proxy that throws itself is bad_argument from create() and from attention()', () => {
  for (const [f, what] of [[() => T.create(throwsItself()), 'create()'], [() => engine.attention(throwsItself()), 'attention()']]) {
    const e = assertError(call(f, what), 'bad_argument', { input: 'options' });
    assert.equal(e.message, 'reading `options` threw: an exception.', what);
  }
  assert.equal(T.memoryStats().trainers, 0, 'no trainer was left behind');
});

test('revoked Proxies are bad_argument, not internal_error', () => {
  const t = T.create({ task: 'reverse' }).trainer;
  const calls = {
    'probe()': () => t.probe(revoked()),
    'ablate()': () => t.ablate(revoked(), 0),
    'step()': () => t.step(revoked()),
    'load()': () => t.load(revoked()),
    'T.load()': () => T.load(revoked()),
    'create()': () => T.create(revoked()),
    'tokenize()': () => engine.tokenize(revoked()),
    'parseEmbeddings()': () => engine.parseEmbeddings(revoked()),
    'attention()': () => engine.attention(revoked()),
  };
  for (const [what, f] of Object.entries(calls)) assertError(call(f, what), 'bad_argument');
  t.dispose();
});

// The entry points that read no argument: a hostile one is never touched, and they answer.
const NO_ARGUMENTS = ['engine.memoryStats', 'T.memoryStats', 'trainer.evaluate', 'trainer.save', 'trainer.dispose'];

test('every entry point answers bad_argument to each hostile argument, and goes on working', () => {
  const t = T.create({ task: 'reverse' }).trainer;
  const entries = [
    ...Object.entries(engine).map(([name, f]) => ['engine.' + name, f]),
    ...Object.entries(T).map(([name, f]) => ['T.' + name, f]),
    ...Object.keys(t).map((name) => ['trainer.' + name, t[name]]),
  ].filter(([, f]) => typeof f === 'function');
  assert.ok(entries.length >= 25, `${entries.length} entry points`);
  for (const [name, f] of entries) {
    if (NO_ARGUMENTS.includes(name)) continue;
    for (const [kind, make] of Object.entries(HOSTILE)) {
      const r = call(() => f(make()), `${name}(${kind})`);
      assert.equal(r.ok, false, `${name}(${kind}) returned ${JSON.stringify(r)}`);
      assert.equal(r.error.code, 'bad_argument', `${name}(${kind}): ${r.error.message}`);
      assert.equal(typeof r.error.message, 'string');
    }
  }
  for (const name of NO_ARGUMENTS.filter((n) => n !== 'trainer.dispose')) {
    const f = entries.find(([n]) => n === name)[1];
    assert.notEqual(call(() => f(trapsThrow()), name).ok, false, `${name} reads no argument`);
  }
  // Both still compute: the fruit example's first weight, and a trainer's step.
  const w = engine.attention({ queries: fruit, keys: fruit, values: fruit }).weights.data[0];
  const e = [6, 6, 7].map((s) => Math.exp(s / Math.sqrt(3)));
  assert.ok(Math.abs(w - e[0] / (e[0] + e[1] + e[2])) < 1e-12);
  assert.equal(t.step(1).ok, true);
  t.dispose();
});
