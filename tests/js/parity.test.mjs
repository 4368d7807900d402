// One golden set, checked by every implementation: the native core writes what it computes for
// a set of calls (tests/fixtures/write_fixtures.cpp) and the wasm engine must return the same,
// every number within 1e-12 relative, every string and error word for word.
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
  test(`wasm ${call} matches native`, () => {
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
