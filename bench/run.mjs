#!/usr/bin/env node
// npm run bench: attention in one node process, every implementation measured side by side.
//
//   engine     dist/attention-engine.js, engine.attentionFast() through its public API
//              (copying inputs in and the output out included), streaming softmax
//   textbook   plain JavaScript loops over Float32Arrays, the way a tutorial writes it
//   tfjs-wasm  TF.js 4.22 with its wasm backend (SIMD, one thread)
//   ort-wasm   onnxruntime-web 1.30, wasm, one thread, on a hand-encoded ONNX graph
//   limit      not attention: bench/peak.c, a bare wasm SIMD multiply-add loop, the most this
//              machine does in one thread at the moment; the engine is reported as a share of it
//
// Rounds are interleaved (each round runs every implementation once per size, the engine and
// onnxruntime-web back to back), so a slow moment of this noisy machine hurts all of them alike.
// We report medians, the spread (min–max of the rounds) and ratios, in GFLOP/s with attention
// counted as 4·n·m·d flops. A ratio is the median over rounds of the ratio within each round.
// Then the trainer (bench/train.mjs): training steps per second against TF.js and PyTorch, and
// the time each toy task takes to learn.
// Results go to bench/results.json. Usage: node bench/run.mjs [--rounds N] [--quick] [--training]
//   --training   the trainer's part alone
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { attentionModel } from './onnx-model.mjs';
import { trainingBench } from './train.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const trainingOnly = args.includes('--training');
const rounds = Number(args[args.indexOf('--rounds') + 1]) || (quick ? 3 : 7);
const sizes = quick ? [[8, 4], [64, 64], [256, 64]]
  : [[8, 4], [64, 64], [256, 64], [1024, 64], [2048, 128]];

// --- inputs -----------------------------------------------------------------------------------
function random(count, seed) {  // a small LCG: the same inputs for every implementation
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 31 - 1;
  }
  return out;
}

// --- implementations: each is (n, d) → async () => Float32Array output --------------------------
function textbook(n, d, q, k, v) {
  const scale = 1 / Math.sqrt(d);
  const scores = new Float32Array(n);
  const out = new Float32Array(n * d);
  return () => {
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let t = 0; t < d; t++) s += q[i * d + t] * k[j * d + t];
        scores[j] = s * scale;
        if (scores[j] > max) max = scores[j];
      }
      let sum = 0;
      for (let j = 0; j < n; j++) { scores[j] = Math.exp(scores[j] - max); sum += scores[j]; }
      for (let t = 0; t < d; t++) {
        let o = 0;
        for (let j = 0; j < n; j++) o += scores[j] * v[j * d + t];
        out[i * d + t] = o / sum;
      }
    }
    return out;
  };
}

async function engineImpl() {
  const createAttentionEngine = require(join(here, '..', 'dist', 'attention-engine.js'));
  const engine = await createAttentionEngine();
  if (typeof engine.attentionFast !== 'function') throw new Error('engine has no attentionFast()');
  return {
    engine,
    make(n, d, q, k, v) {
      const out = new Float32Array(n * d);
      const options = { queries: { rows: n, cols: d, data: q }, keys: { rows: n, cols: d, data: k },
        values: { rows: n, cols: d, data: v }, out };
      return () => {
        const r = engine.attentionFast(options);
        if (!r.ok) throw new Error(r.error.message);
        return r.output.data;
      };
    },
  };
}

async function tfjsImpl() {
  const tf = await import('@tensorflow/tfjs-core');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + '/');
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  return (n, d, q, k, v) => () => tf.tidy(() => {
    const Q = tf.tensor2d(q, [n, d]), K = tf.tensor2d(k, [n, d]), V = tf.tensor2d(v, [n, d]);
    const weights = tf.softmax(tf.mul(tf.matMul(Q, K, false, true), 1 / Math.sqrt(d)));
    return tf.matMul(weights, V).dataSync();
  });
}

async function ortImpl() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  const sessions = new Map();
  return async (n, d, q, k, v) => {
    if (!sessions.has(d)) {
      sessions.set(d, await ort.InferenceSession.create(attentionModel(1 / Math.sqrt(d)),
        { executionProviders: ['wasm'] }));
    }
    const session = sessions.get(d);
    return async () => {
      const feeds = { Q: new ort.Tensor('float32', q, [n, d]), K: new ort.Tensor('float32', k, [n, d]),
        V: new ort.Tensor('float32', v, [n, d]) };
      return (await session.run(feeds)).O.data;
    };
  };
}

// The limit loop, compiled by emcc as the engine is (-O2 -msimd128). Returns () => GFLOP/s.
function limitImpl() {
  const out = join(here, '..', 'build', 'bench', 'peak.js');
  mkdirSync(dirname(out), { recursive: true });
  execFileSync('emcc', ['-O2', '-msimd128', join(here, 'peak.c'), '-o', out, '-sMODULARIZE',
    '-sSINGLE_FILE', '-sENVIRONMENT=node', '-sEXPORTED_FUNCTIONS=_peak,_peak_flops_per_iteration'],
  { stdio: 'inherit', env: { NODE_PATH: '/usr/share/nodejs', ...process.env } });
  return require(out)().then((m) => {
    const iterations = 100000;  // about 10 Mflop a call
    const flops = iterations * m._peak_flops_per_iteration();
    return async () => flops / (await timeBatch(() => m._peak(iterations, 0.999), 40) * 1e6);
  });
}

// --- measurement ----------------------------------------------------------------------------------
// Calls fn enough times to fill ~target ms and returns the time per call in ms.
async function timeBatch(fn, targetMs) {
  let reps = 1;
  for (;;) {
    const start = performance.now();
    for (let r = 0; r < reps; r++) await fn();
    const elapsed = performance.now() - start;
    if (elapsed >= targetMs || reps >= 1 << 20) return elapsed / reps;
    reps = Math.max(reps * 2, Math.ceil(reps * targetMs / Math.max(elapsed, 0.01)));
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const h = s.length >> 1; return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2; };
const maxRelDiff = (a, b) => { let m = 0, scale = 0; for (let i = 0; i < a.length; i++) scale = Math.max(scale, Math.abs(b[i])); for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i])); return m / (scale || 1); };

async function main() {
  if (trainingOnly) {
    const training = await trainingBench({ rounds: quick ? 3 : 5 });
    writeFileSync(join(here, 'results-training.json'), JSON.stringify({ date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown', ...training }, null, 2) + '\n');
    console.log('\nwrote bench/results-training.json');
    return;
  }
  const impls = {};
  const skipped = {};
  const load = async (name, fn) => { try { impls[name] = await fn(); } catch (e) { skipped[name] = String(e.message ?? e); } };
  let engine;
  await load('engine', async () => { const e = await engineImpl(); engine = e.engine; return e.make; });
  // The explainer call first, in a process that holds what a page holds: the engine, not the
  // peers (their heaps made every garbage collection, and so this small call, a third slower).
  const explainer = engine ? explainerCost(engine) : null;
  await load('ort-wasm', ortImpl);  // next to the engine in every round
  await load('tfjs-wasm', tfjsImpl);
  await load('textbook', async () => textbook);
  let limit = null;
  try { limit = await limitImpl(); } catch (e) { skipped.limit = String(e.message ?? e); }
  for (const [name, why] of Object.entries(skipped)) console.log(`skipped ${name}: ${why}`);

  const results = { date: new Date().toISOString(), node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown', rounds, sizes: [] };
  for (const [n, d] of sizes) {
    const q = random(n * d, 1), k = random(n * d, 2), v = random(n * d, 3);
    const flops = 4 * n * n * d;
    const calls = {};
    for (const [name, make] of Object.entries(impls)) calls[name] = await make(n, d, q, k, v);
    // Every implementation must agree with the textbook loops before it is timed.
    const reference = Float32Array.from(await calls.textbook());
    for (const [name, fn] of Object.entries(calls)) {
      const diff = maxRelDiff(await fn(), reference);
      if (diff > 1e-4) throw new Error(`${name} disagrees with the textbook loops at ${n}×${d}: ${diff}`);
    }
    const times = Object.fromEntries(Object.keys(calls).map((name) => [name, []]));
    const limits = [];
    const target = Math.min(200, Math.max(40, flops / 2e7));
    for (let round = 0; round < rounds; round++) {
      if (limit) limits.push(await limit());
      for (const [name, fn] of Object.entries(calls)) times[name].push(await timeBatch(fn, target));
    }
    const row = { n, d, flops, impls: {} };
    for (const [name, ts] of Object.entries(times)) {
      const ms = median(ts);
      row.impls[name] = { medianMs: ms, minMs: Math.min(...ts), maxMs: Math.max(...ts),
        gflops: flops / (ms * 1e6) };
    }
    results.sizes.push(row);
    const line = Object.entries(row.impls).map(([name, r]) =>
      `${name} ${r.gflops.toFixed(2)} GFLOP/s (${(r.medianMs * 1000).toFixed(1)} µs, ±${(50 * (r.maxMs - r.minMs) / r.medianMs).toFixed(0)}%)`);
    console.log(`${String(n).padStart(4)}×${String(d).padEnd(3)}  ${line.join('   ')}`);
    if (row.impls.engine) {
      const perRound = (f) => median(times.engine.map((t, round) => f(t, round)));
      const ratio = (peer) => times[peer] ? perRound((t, round) => times[peer][round] / t) : NaN;
      row.ratios = { textbook: ratio('textbook'), tfjs: ratio('tfjs-wasm'), ort: ratio('ort-wasm') };
      let share = '';
      if (limits.length) {
        row.limit = { gflops: median(limits), engineShare: perRound((t, round) => flops / (t * 1e6) / limits[round]) };
        share = `; ${(100 * row.limit.engineShare).toFixed(0)} % of the machine's limit (${row.limit.gflops.toFixed(1)} GFLOP/s now)`;
      }
      console.log(`          engine is ${row.ratios.textbook.toFixed(1)}× textbook, ${row.ratios.tfjs.toFixed(2)}× TF.js-wasm, ${row.ratios.ort.toFixed(2)}× onnxruntime-web${share}`);
    }
  }

  if (explainer) results.explainer = explainer;
  if (engine) results.streamingMemory = streamingMemory(engine);
  results.training = await trainingBench({ rounds: quick ? 3 : 5 });
  writeFileSync(join(here, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote bench/results.json`);
}

// A full explainer call (every step, double precision) for 8 tokens × 4 features: each call with
// a result of its own, and each written into the last one (`into`), interleaved round by round.
function explainerCost(engine) {
  const rows = (n, d, seed) => { const r = random(n * d, seed); return Array.from({ length: n }, (_, i) => Array.from(r.subarray(i * d, i * d + d))); };
  const options = { queries: rows(8, 4, 4), keys: rows(8, 4, 5), values: rows(8, 4, 6) };
  const into = { ...options, into: engine.attention(options) };
  for (let r = 0; r < 50000; r++) { engine.attention(options); engine.attention(into); } // warm: V8 optimises the wasm and api.js
  const time = (o) => {
    const start = performance.now();
    const reps = 20000;
    for (let r = 0; r < reps; r++) engine.attention(o);
    return (performance.now() - start) / reps * 1000;
  };
  const fresh = [], reused = [];
  for (let round = 0; round < 7; round++) {
    fresh.push(time(options));
    reused.push(time(into));
  }
  const us = median(fresh), intoUs = median(reused);
  console.log(`explainer call, 8×4, all steps: ${us.toFixed(2)} µs with a new result, ${intoUs.toFixed(2)} µs written into the last (median of 7 rounds)`);
  return { n: 8, d: 4, medianUs: us, intoMedianUs: intoUs };
}

// Heap growth of one streaming call at n = 4096, d = 64.
function streamingMemory(engine) {
  const n = 4096, d = 64;
  const before = engine.memoryStats().heapBytes;
  const data = () => ({ rows: n, cols: d, data: random(n * d, 7) });
  const r = engine.attentionFast({ queries: data(), keys: data(), values: data() });
  const after = engine.memoryStats().heapBytes;
  if (!r.ok) return null;
  const grewMb = (after - before) / 2 ** 20;
  console.log(`streaming 4096×64: the wasm heap grew by ${grewMb.toFixed(2)} MB`);
  return { n, d, heapGrowthMb: grewMb };
}

main().catch((e) => { console.error(e); process.exit(1); });
