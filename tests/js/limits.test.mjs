// The limits tables of docs/api.md are what the code enforces: each row is read from there and
// compared with the constant it documents (the engine's own limits, the page's CAPS), and the
// engine refuses one past each of its limits.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root, loadEngine } from './engine-helpers.mjs';

let engine, page; // the engine; web/src/state/state.ts and history.ts
before(async () => {
  engine = await loadEngine();
  const out = await build({ stdin: { contents: "export { CAPS } from './state/state'; export { HISTORY_STEPS } from './state/history'; export { MAX_EDITABLE_CELLS } from './views/grid';",
    resolveDir: join(root, 'web/src'), loader: 'ts' }, bundle: true, format: 'esm', platform: 'neutral', write: false,
  logLevel: 'silent' });
  page = await import('data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64'));
});

/** The rows of the table that follows `heading` in the Limits section of docs/api.md: label → limit. */
function table(heading) {
  const doc = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Limits\n'));
  const start = section.indexOf(`### ${heading}`);
  assert.ok(start >= 0, `the Limits section of docs/api.md has "${heading}"`);
  const rows = new Map();
  for (const line of section.slice(start).split('\n').slice(1)) {
    if (rows.size && !line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length === 4 && !/^-+$/.test(cells[1]) && cells[1] !== 'what') rows.set(cells[1], cells[2]);
  }
  return rows;
}

const n = (x) => x.toLocaleString('en');
const mib = (bytes) => `${bytes / 2 ** 20} MiB`;

test('docs/api.md: the engine\'s limits are the engine\'s', () => {
  const L = engine.limits;
  const expected = new Map([
    ['tokens (rows of Q, K, V, X)', n(L.maxTokens)],
    ['features (d_k, d_v, d_model)', n(L.maxDim)],
    ['cells of one matrix', n(L.maxCells)],
    ['heads', n(L.maxHeads)],
    ['typed or pasted text', mib(L.maxTextBytes)],
    ['word-vector file', `${mib(L.maxEmbeddingBytes)} and ${n(L.maxWords)} words`],
    ['packed word-vector file (`loadVectors`)', `${mib(L.maxVectorFileBytes)} and ${n(L.maxWords)} words`],
    ['neighbours of a word (`nearestWords`)', n(L.maxNeighbours)],
    ['`attentionFast` (float32)', '4,096 tokens, 256 features'],
  ]);
  assert.deepEqual(table('In the engine'), expected);
});

test('docs/api.md: the page\'s limits are the page\'s', () => {
  const C = page.CAPS;
  const expected = new Map([
    ['words and pieces of words drawn', n(C.tokens)],
    ['typed text', `${n(C.text)} characters`],
    ['rows and columns of Q, K and V', `${C.rows} × ${C.cols}, ${C.cell} characters a number; above ${Math.sqrt(page.MAX_EDITABLE_CELLS)} × ${Math.sqrt(page.MAX_EDITABLE_CELLS)} edited by pasting`],
    ['heads', n(C.heads)],
    ['d_k of a head', n(C.dK)],
    ['hidden cells of a custom mask', n(C.hidden)],
    ['temperature', `${C.temperatureMin} to ${n(C.temperatureMax)}`],
    ['word-vector file or paste', `${mib(C.fileBytes)}, refused by its size before it is read`],
    ["a link's state", `${n(C.link)} characters (a larger state is kept in the browser only)`],
    ['undo', `${page.HISTORY_STEPS} steps`],
  ]);
  assert.deepEqual(table('In the page'), expected);
  assert.ok(C.tokens <= C.rows, 'the words the page draws fit the grids it edits');
});

test('the engine refuses one past its limits, naming what is too large', () => {
  const L = engine.limits;
  const zeros = (rows, cols) => ({ rows, cols, data: new Float64Array(rows * cols) });
  const tooMany = engine.attention({ queries: zeros(L.maxTokens + 1, 1), keys: zeros(2, 1), values: zeros(2, 1) });
  assert.equal(tooMany.ok, false);
  assert.equal(tooMany.error.code, 'too_large');
  assert.equal(tooMany.error.input, 'queries');
  const fast = (rows, cols) => ({ rows, cols, data: new Float32Array(rows * cols) });
  const fastTooLong = engine.attentionFast({ queries: fast(4097, 4), keys: fast(4097, 4), values: fast(4097, 4) });
  assert.equal(fastTooLong.ok, false);
  assert.equal(fastTooLong.error.code, 'too_large');
  const fastTooWide = engine.attentionFast({ queries: fast(8, 257), keys: fast(8, 257), values: fast(8, 4) });
  assert.equal(fastTooWide.ok, false);
  assert.equal(fastTooWide.error.code, 'too_large');
  assert.equal(engine.attentionFast({ queries: fast(4096, 4), keys: fast(4096, 4), values: fast(4096, 4) }).ok, true);
  const heads = engine.multiHead({ x: [[1, 0], [0, 1]], heads: L.maxHeads + 1, dK: 2, dV: 2, projection: 'random' });
  assert.equal(heads.ok, false);
  assert.equal(heads.error.input, 'heads');
  assert.match(heads.error.message, new RegExp(`\\b${L.maxHeads}\\b`));
});
