// 10,000 calls must not grow the engine's memory: every result is copied out and the wasm side
// frees what it allocated. Checked on the heap size and on malloc's count of bytes in use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './engine-helpers.mjs';

test('10,000 attention calls of varying shapes leave the wasm heap as it was', async () => {
  const engine = await loadEngine();
  const matrix = (rows, cols, seed) => ({ rows, cols,
    data: Float64Array.from({ length: rows * cols }, (_, k) => Math.sin(seed + k)) });
  const options = (k) => {
    const n = 1 + (k % 16), m = 1 + ((k * 7) % 16), dK = 1 + ((k * 3) % 8), dV = 1 + ((k * 5) % 8);
    const variants = [{}, { similarity: 'cosine' }, { mask: 'causal' }, { scale: 'temperature', temperature: 0.5 },
      { normalization: 'sum' }, { mask: Array.from({ length: n }, (_, i) => Array.from({ length: m }, (__, j) => (i + j) % 3 > 0)) }];
    return { queries: matrix(n, dK, k), keys: matrix(m, dK, k + 1), values: matrix(m, dV, k + 2), ...variants[k % variants.length] };
  };
  const errors = [{ queries: [[1, NaN]], keys: [[1, 2]], values: [[1]] }, { queries: [[1]], keys: [[1, 2]], values: [[1]] }];
  const run = (k) => (k % 50 === 0 ? engine.attention(errors[(k / 50) % 2]) : engine.attention(options(k)));

  for (let k = 0; k < 500; k++) run(k);  // warm-up: the buffers reach their largest size
  const before = engine.memoryStats();
  let ok = 0;
  for (let k = 0; k < 10000; k++) ok += run(k).ok ? 1 : 0;
  const after = engine.memoryStats();
  console.log(`heap ${before.heapBytes} → ${after.heapBytes} bytes, in use ${before.allocatedBytes} → ${after.allocatedBytes} bytes`);
  assert.equal(ok, 10000 - 200);
  assert.equal(after.heapBytes, before.heapBytes);
  assert.equal(after.allocatedBytes, before.allocatedBytes);
});

test('a loaded word-vector file is held until freeLexicon, then released', async () => {
  const engine = await loadEngine();
  engine.embed('warm up the built-in lexicon');
  const before = engine.memoryStats().allocatedBytes;
  const lexicon = engine.parseEmbeddings(Array.from({ length: 2000 }, (_, i) => `w${i} ${i} 1 2`).join('\n'));
  assert.equal(lexicon.size, 2000);
  assert.ok(engine.memoryStats().allocatedBytes > before + 2000 * 3 * 8);
  assert.equal(engine.freeLexicon(lexicon), true);
  assert.equal(engine.memoryStats().allocatedBytes, before);
});
