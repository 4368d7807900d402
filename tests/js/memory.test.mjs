// 10,000 calls must not grow the engine's memory: every result is copied out and the wasm side
// frees what it allocated. Checked on the heap size and on malloc's count of bytes in use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, assertError } from './engine-helpers.mjs';

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

// Text is measured before it is copied into the heap (cpp/wasm/api/checks.js, bytesAbove), because wasm
// memory never shrinks once grown: 200 MiB refused after the copy left the heap at 425 MB.
test('text above its limit is refused before it reaches the heap, in the core\'s words', async () => {
  const engine = await loadEngine();
  engine.embed('warm up the built-in lexicon');
  const before = engine.memoryStats();
  const big = 'a'.repeat(200 << 20);
  const limit = engine.limits.maxTextBytes, file = engine.limits.maxEmbeddingBytes;
  const cases = [
    [engine.tokenize(big), 'text', `text: ${200 << 20} bytes is above the limit of ${limit} bytes; shorten the text.`],
    [engine.embed(big), 'text', `text: ${200 << 20} bytes is above the limit of ${limit} bytes; shorten the text.`],
    [engine.parseMatrix(big, 'queries'), 'queries', `queries: the text is ${200 << 20} bytes, above the limit of ${limit} bytes.`],
    [engine.parseEmbeddings(big), 'embeddings', `embeddings: the file is ${200 << 20} bytes, above the limit of ${file} bytes.`],
    // Between L and 3·L bytes the text is measured: é is 2 bytes, 😀 (two UTF-16 units) 4.
    [engine.embed('é'.repeat(limit / 2) + 'a'), 'text', `text: ${limit + 1} bytes is above the limit of ${limit} bytes; shorten the text.`],
    [engine.parseMatrix('1 ' + '😀'.repeat(limit / 4)), 'matrix', `matrix: the text is ${limit + 2} bytes, above the limit of ${limit} bytes.`],
  ];
  const after = engine.memoryStats();
  console.log(`heap ${before.heapBytes} → ${after.heapBytes} bytes, in use ${before.allocatedBytes} → ${after.allocatedBytes} bytes`);
  for (const [r, input, message] of cases) assertError(r, 'too_large', { input, message });
  assert.ok(after.heapBytes - before.heapBytes <= 1 << 20, `the heap grew by ${after.heapBytes - before.heapBytes} bytes`);
  assert.equal(after.allocatedBytes, before.allocatedBytes);
  // At the limit exactly, the text reaches the core: 'é' × limit/2 is one word of limit bytes.
  const at = engine.tokenize('é'.repeat(limit / 2));
  assert.deepEqual(at.tokens, [{ text: 'é'.repeat(limit / 2), offset: 0, length: limit / 2 }]);
});

test('a matrix with more rows than any function takes is refused before it is copied; a large call gives its buffers back', async () => {
  const engine = await loadEngine();
  const small = { queries: [[1, 0]], keys: [[1, 0]], values: [[1]] };
  engine.attention(small);
  const before = engine.memoryStats();
  const tall = { rows: 1e6, cols: 1, data: new Float64Array(1e6) };
  for (const r of [engine.attention({ ...small, queries: tall }), engine.multiHead({ x: tall }), engine.difference(tall, tall)]) {
    const e = assertError(r, 'too_large');
    assert.match(e.message, /is 1000000×1, above the limit of 1024 rows and 1024 columns\.$/);
  }
  // (the last error's message is kept: a few dozen bytes, not the 8 MB a copy of the matrix took)
  const kept = engine.memoryStats().allocatedBytes - before.allocatedBytes;
  assert.ok(kept < 1024, `a refused matrix left ${kept} bytes behind`);
  assert.equal(engine.memoryStats().heapBytes, before.heapBytes);
  // 1024 × 1024 weights: the result is about 40 MB of doubles; once copied out it is not kept.
  const n = 1024, side = { rows: n, cols: 4, data: Float64Array.from({ length: n * 4 }, (_, k) => Math.sin(k)) };
  const big = engine.attention({ queries: side, keys: side, values: side });
  assert.equal(big.weights.data.length, n * n);
  const after = engine.memoryStats();
  console.log(`in use ${before.allocatedBytes} → ${after.allocatedBytes} bytes after a ${n}×${n} call, heap ${after.heapBytes}`);
  assert.ok(after.allocatedBytes <= before.allocatedBytes, `${after.allocatedBytes - before.allocatedBytes} bytes kept`);
  // What it needed is still known (the cost view measures it): at least the n² doubles of its weights.
  assert.ok(after.peakAllocatedBytes - before.peakAllocatedBytes >= 8 * n * n, `peak ${after.peakAllocatedBytes}`);
  assert.equal(engine.attention(small).weights.data[0], 1, 'the small call after it');
  // The float32 path: 2048 × 256 queries, keys and values are 6 MB in, refused or not.
  const f = { rows: 2048, cols: 256, data: new Float32Array(2048 * 256).fill(0.5) };
  assertError(engine.attentionFast({ queries: f, keys: f, values: { ...f, rows: 2047, data: f.data.subarray(256) } }), 'shape_mismatch');
  const fast = engine.attentionFast({ queries: f, keys: f, values: f });
  // Equal keys: the mean of values that are all 0.5, to float32's rounding over 2048 running means.
  assert.ok(Math.abs(fast.output.data[0] - 0.5) <= 2048 * 2 ** -24, `${fast.output.data[0]}`);
  const afterFast = engine.memoryStats().allocatedBytes;
  console.log(`in use ${after.allocatedBytes} → ${afterFast} bytes after 2048×256 float32 calls`);
  assert.ok(afterFast <= after.allocatedBytes + 1024, `${afterFast - after.allocatedBytes} bytes kept by the float32 path`);
});

// The memory can still run out within the limits (loaded word-vector files stay until freed; the
// wasm memory stops at 2 GB): growing it is made to fail, as a browser refuses it, and the engine
// must say so, re-create its module, and work again.
test('out of memory: the call says so, the engine restarts, and the next calls work', async () => {
  const engine = await loadEngine();
  const lexicon = engine.parseEmbeddings('kiwi 1 2\nfig 3 4');
  assert.equal(lexicon.ok, true);
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function () { throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded'); };
  let r; // (Emscripten prints "Aborted(OOM)" on stderr)
  try {
    // 3 MiB of text, about 12 MB of vectors: more than the 16 MB the module starts with.
    r = engine.parseEmbeddings(Array.from({ length: 5000 }, (_, i) => `w${i}` + ' 1'.repeat(300)).join('\n'));
  } finally {
    WebAssembly.Memory.prototype.grow = grow;
  }
  const e = assertError(r, 'internal_error');
  assert.match(e.message, /^The engine stopped \(Aborted\(.*\)\), most likely out of memory, and is restarting: try again in a moment\./);
  assert.match(engine.attention({ queries: [[1]], keys: [[1]], values: [[1]] }).error.message, /is restarting/);
  const start = Date.now();
  let ok;
  while (!(ok = engine.attention({ queries: [[1, 0]], keys: [[1, 0], [0, 1]], values: [[1], [3]] })).ok && Date.now() - start < 10000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  console.log(`restarted in ${Date.now() - start} ms`);
  // e^1 / (e^1 + e^0)·1 + 1 / (e + 1)·3, by hand, with d_k = 2: scores 1/√2 and 0.
  const w = Math.exp(1 / Math.sqrt(2)) / (Math.exp(1 / Math.sqrt(2)) + 1);
  assert.ok(Math.abs(ok.output.data[0] - (w * 1 + (1 - w) * 3)) < 1e-12, `output ${ok.output.data[0]}`);
  assert.deepEqual(engine.tokenize('apple pie').tokens.map((t) => t.text), ['apple', 'pie']);
  // The file loaded before is gone, and its id names no other file: a new one gets a new id.
  assertError(engine.embed('kiwi', lexicon), 'bad_argument', { input: 'lexicon', message: /engine restarted/ });
  assert.equal(engine.freeLexicon(lexicon), false);
  const again = engine.parseEmbeddings('kiwi 1 2\nfig 3 4');
  assert.ok(again.id > lexicon.id);
  assert.deepEqual(Array.from(engine.embed('fig', again).vectors.data), [3, 4]);
  assert.equal(engine.freeLexicon(again), true);
});
