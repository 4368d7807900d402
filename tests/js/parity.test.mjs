// One golden set, checked by every implementation: the native core writes what it computes for
// a set of calls (tests/fixtures/write_fixtures.cpp) and the wasm engine must return the same,
// every number within 1e-12 relative, every string and error word for word. Both agreeing could
// still be both wrong: the attention calls are also checked against the formula, written out
// here in plain JavaScript from attention.hpp's definitions, with no code of the core's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEngine, close, root } from './engine-helpers.mjs';

const writer = join(root, 'build', 'native', 'tests', 'fixtures', 'write_fixtures');
const fixtures = join(root, 'build', 'fixtures', 'engine.json');

// JSON has no infinities or NaN; the writer spells them as strings.
const SPECIAL = { Infinity, '-Infinity': -Infinity, NaN };
const revive = (key, value) => (typeof value === 'string' && value in SPECIAL ? SPECIAL[value] : value);

// Refresh the fixtures from the native build, so they always match the core being tested.
function loadFixtures() {
  assert.ok(existsSync(writer), `${writer} is missing: run bash scripts/build.sh native`);
  const r = spawnSync(writer, [join(root, 'build', 'fixtures')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(readFileSync(fixtures, 'utf8'), revive).cases;
}

// Everything in `expected` must be in `actual`: numbers within tolerance, the rest exactly.
function compare(actual, expected, path) {
  if (typeof expected === 'number') {
    assert.equal(typeof actual, 'number', `${path}: ${actual}`);
    close(actual, expected, path);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual) || ArrayBuffer.isView(actual), `${path} is not an array`);
    assert.equal(actual.length, expected.length, `${path}.length`);
    expected.forEach((x, k) => compare(actual[k], x, `${path}[${k}]`));
  } else if (expected !== null && typeof expected === 'object') {
    assert.ok(actual !== null && typeof actual === 'object', `${path} is ${actual}`);
    for (const key of Object.keys(expected)) compare(actual[key], expected[key], `${path}.${key}`);
  } else {
    assert.equal(actual, expected, path);
  }
}

let engine, cases;
before(async () => {
  engine = await loadEngine();
  cases = loadFixtures();
});

test('the fixtures cover every kind of call', () => {
  const calls = new Set(cases.map((c) => c.call));
  for (const call of ['attention', 'explainCell', 'explainOutput', 'multiHead', 'project2d', 'embed', 'parseMatrix']) {
    assert.ok(calls.has(call), call);
  }
  assert.ok(cases.length > 200, `${cases.length} cases`);
});

for (const call of ['attention', 'explainCell', 'explainOutput', 'multiHead', 'project2d', 'embed', 'parseMatrix']) {
  test(`wasm ${call} returns what the native core recorded`, () => {
    let checked = 0;
    for (const c of cases.filter((k) => k.call === call)) {
      const actual = engine[call](...c.args);
      compare(actual, c.expected, c.name);
      checked++;
    }
    assert.ok(checked > 0);
  });
}

test('the numbers cross the boundary exactly: -Infinity, tiny weights, 2⁵³ − 1 seeds', () => {
  const masked = cases.filter((c) => c.call === 'attention' && c.expected.ok && c.expected.masked.data.includes(-Infinity));
  assert.ok(masked.length > 0, 'some fixture has a hidden key');
  const seeds = cases.filter((c) => c.call === 'multiHead').map((c) => c.args[0].seed);
  assert.ok(seeds.includes(2 ** 53 - 1));
  const painting = cases.find((c) => c.name === 'painting, flying');
  assert.ok(painting.expected.weights.data.some((w) => w > 0 && w < 1e-20));
});

/** Attention's weights and output from its definition (attention.hpp), row by row in doubles. */
function reference({ queries: Q, keys: K, values: V, similarity, scale, temperature, mask, normalization }) {
  const row = (m, i) => Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols));
  const dot = (a, b) => a.reduce((s, x, t) => s + x * b[t], 0);
  const norm = (a) => Math.sqrt(dot(a, a));
  const c = scale === 'sqrt' ? Math.sqrt(Q.cols) : scale === 'temperature' ? temperature : 1;
  const sees = (i, j) => (mask === 'none' ? true : mask === 'causal' ? j <= i : mask[i][j]);
  const weights = [], output = [];
  for (let i = 0; i < Q.rows; i++) {
    const q = row(Q, i);
    const s = Array.from({ length: K.rows }, (_, j) => {
      const k = row(K, j);
      return (similarity === 'cosine' ? dot(q, k) / (norm(q) * norm(k)) : dot(q, k)) / c;
    });
    const seen = s.map((_, j) => sees(i, j));
    let w;
    if (normalization === 'softmax') {
      const top = Math.max(...s.filter((_, j) => seen[j]));
      const e = s.map((x, j) => (seen[j] ? Math.exp(x - top) : 0));
      const total = e.reduce((a, b) => a + b, 0);
      w = e.map((x) => (total > 0 ? x / total : 0));
    } else {
      const kept = s.map((x, j) => (seen[j] ? x : 0));
      const total = kept.reduce((a, b) => a + b, 0);
      const size = kept.reduce((a, b) => a + Math.abs(b), 0);
      w = kept.map((x) => (Math.abs(total) > 1e-9 * size ? x / total : 0));
    }
    weights.push(w);
    output.push(Array.from({ length: V.cols }, (_, t) => w.reduce((a, x, j) => a + x * V.data[j * V.cols + t], 0)));
  }
  return { weights, output };
}

test("attention: native and wasm weights and outputs are the formula's, computed here in JavaScript", () => {
  // The reference adds in another order and takes cosines another way: 1e-9 apart at most.
  const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
  let checked = 0;
  for (const c of cases.filter((k) => k.call === 'attention' && k.expected.ok)) {
    const want = reference(c.args[0]);
    const wasm = engine.attention(...c.args);
    for (const [who, got] of [['native', c.expected], ['wasm', wasm]]) {
      for (const step of ['weights', 'output']) {
        want[step].forEach((r, i) => r.forEach((x, j) => near(got[step].data[i * r.length + j], x, `${c.name}, ${who} ${step} (${i}, ${j})`)));
      }
    }
    checked++;
  }
  assert.ok(checked >= 50, `${checked} attention calls`);
});
