// npm run bench, the trainer's part (bench/run.mjs calls it): training steps per second of one
// model in three implementations side by side, and the time each toy task takes to learn.
//
//   trainer    dist/attention-trainer.js, trainer.step(n) through its public API
//   tfjs-wasm  TF.js 4.22, wasm backend, one thread: the same model's forward, backward and Adam
//              (written here with tf.* ops, differentiated by TF.js)
//   pytorch    PyTorch on the CPU, one thread (bench/train_torch.py, a process per round): Debian's python3-torch,
//              and OpenBLAS for it, installed here with apt-get when missing and we may;
//              skipped, saying so, when it cannot be had
//
// The model is the toy size the trainer is built for: d_model 32, 2 layers of 2 heads, attention only, batch 32,
// sequences of 16 tokens (copy of 8 digits: vocab 11). Rounds alternate between the
// implementations, and a ratio is the median over rounds of the ratio within each round, so a slow
// moment of this noisy machine hurts all of them alike. TF.js has no gradient clipping in its
// optimiser and is timed without it; the other two clip.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const MODEL = { d: 32, layers: 2, heads: 2, batch: 32, length: 16, vocab: 11 };
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

// Steps per second of `step` over about `seconds`.
function rate(step, seconds) {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < seconds * 1000) n += step();
  return n / ((performance.now() - start) / 1000);
}

async function trainerImpl(T) {
  const r = T.create({ task: 'copy', length: MODEL.length / 2, dModel: MODEL.d, layers: MODEL.layers,
    heads: MODEL.heads, batch: MODEL.batch, seed: 1 });
  if (!r.ok) throw new Error(r.error.message);
  const t = r.trainer;
  if (t.config.seqLen !== MODEL.length || t.config.vocab !== MODEL.vocab) throw new Error('not the bench model');
  t.step(20);
  // step(n) ends with a held-out evaluation; 50 steps a call keeps it out of the rate as much as
  // stepsPerSecond itself does (it times the steps alone).
  return () => {
    const s = t.step(50);
    if (!s.ok) throw new Error(s.error.message);
    return 50;
  };
}

async function tfjsImpl() {
  // The union package, for its gradients: tfjs-core's node entry registers none (its ES modules
  // do, but node cannot load them), and it is the same core, so the wasm backend serves it.
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + '/');
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  const { d, layers, heads, batch, length, vocab } = MODEL;
  const dh = d / heads;
  const normal = (shape, scale) => tf.variable(tf.mul(tf.randomNormal(shape, 0, 1, 'float32', 1), scale));
  const tok = normal([vocab, d], 0.02), pos = normal([length, d], 0.02);
  const ws = Array.from({ length: layers }, () => [0, 1, 2, 3].map(() => normal([d, d], 1 / Math.sqrt(d))));
  const unembed = normal([d, vocab], 1 / Math.sqrt(d));
  const vars = [tok, pos, unembed, ...ws.flat()];
  const mask = tf.mul(tf.sub(1, tf.linalg.bandPart(tf.ones([length, length]), -1, 0)), -1e9);
  // Targets on the second half of each sequence, as the copy task asks.
  const weights = tf.tensor2d(Array.from({ length: batch * length }, (_, i) => (i % length >= length / 2 ? 1 : 0)), [batch * length, 1]);
  const batches = Array.from({ length: 8 }, (_, k) => {
    const tokens = tf.randomUniform([batch * length], 0, vocab, 'int32', k + 1);
    const targets = tf.randomUniform([batch * length], 0, vocab, 'int32', k + 101);
    return [tf.cast(tf.oneHot(tokens, vocab), 'float32'), tf.cast(tf.oneHot(targets, vocab), 'float32')];
  });
  const optimizer = tf.train.adam(1e-2, 0.9, 0.98, 1e-8);
  const split = (x, w) => tf.transpose(tf.reshape(tf.matMul(x, w), [batch, length, heads, dh]), [0, 2, 1, 3]);
  const loss = ([tokens, targets]) => () => {
    // The embedding as one-hot · table: the same numbers as a lookup, with a gradient every
    // backend has.
    let x = tf.reshape(tf.add(tf.reshape(tf.matMul(tokens, tok), [batch, length, d]), pos), [batch * length, d]);
    for (const [wq, wk, wv, wo] of ws) {
      const q = split(x, wq), k = split(x, wk), v = split(x, wv);
      const scores = tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)), mask);
      const out = tf.reshape(tf.transpose(tf.matMul(tf.softmax(scores), v), [0, 2, 1, 3]), [batch * length, d]);
      x = tf.add(x, tf.matMul(out, wo));
    }
    return tf.losses.softmaxCrossEntropy(targets, tf.matMul(x, unembed), weights);
  };
  let k = 0;
  const step = () => {
    tf.dispose(optimizer.minimize(loss(batches[k++ % batches.length]), true, vars));
    return 1;
  };
  for (let w = 0; w < 10; w++) step();
  return step;
}

// PyTorch's bench process, as a function of one round's seconds that returns its steps per
// second; or {why} when there is no PyTorch to be had.
function pytorch() {
  const script = join(here, 'train_torch.py');
  // Debian's python, the one python3-torch installs into (a pyenv or venv python3 first on PATH
  // would not see it).
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const probe = () => spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
  const installed = (pkg) => spawnSync('dpkg', ['-s', pkg], { encoding: 'utf8' }).status === 0;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const install = (pkgs) => {
    console.log(`installing ${pkgs.join(' ')} with apt-get (once)…`);
    return spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...pkgs],
      { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  };
  // Debian's torch multiplies through the system's libblas.so.3, which is the reference BLAS
  // unless an optimised one is installed: with OpenBLAS the bench model trains about 5× faster
  // (measured here), so it is installed too, and the output says which BLAS was used.
  const blas = 'libopenblas0-pthread';
  if (!probe() || !installed(blas)) {
    const candidate = spawnSync('apt-cache', ['policy', 'python3-torch'], { encoding: 'utf8' });
    const version = (candidate.stdout ?? '').match(/Candidate: (\S+)/)?.[1];
    if (!probe() && (!version || version === '(none)')) return { why: "python3-torch is not in this machine's Debian archive (apt-cache policy python3-torch)" };
    if (root) install(probe() ? [blas] : ['python3-torch', blas]);
    if (!probe()) return { why: root ? 'apt-get install python3-torch failed' : `python3-torch ${version} is in the archive but not installed, and installing it needs root` };
  }
  const blasName = installed(blas) ? 'OpenBLAS' : 'the reference BLAS';
  const { d, layers, heads, batch, length, vocab } = MODEL;
  let version = '';
  // One process per round (it warms up before its clock starts), so its rounds interleave with
  // the others' as theirs do with each other.
  const round = (seconds) => {
    const out = execFileSync(python, [script, d, layers, heads, batch, length, vocab, seconds, 1].map(String),
      { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' } });
    const r = JSON.parse(out.trim().split('\n').pop());
    version = r.torch;
    return r.stepsPerSecond[0];
  };
  return { round, version: () => `${version}, ${blasName}` };
}

// Wall time (evaluations included, as a reader watching would wait) until `done`, evaluating
// every `every` steps, up to `max` steps.
function timeToTarget(T, config, done, every, max) {
  const t = T.create(config).trainer;
  const start = performance.now();
  let s;
  do s = t.step(every);
  while (!done(s) && s.steps < max);
  const seconds = (performance.now() - start) / 1000;
  t.dispose();
  return { reached: done(s), steps: s.steps, seconds, accuracy: s.accuracy, score: s.score };
}

const TASKS = [
  ['find_match ≥ 99 %', { task: 'find_match', dModel: 16, layers: 1, heads: 2 }, (s) => s.accuracy >= 0.99, 10, 2000, 2],
  ['reverse ≥ 99 %', { task: 'reverse', dModel: 16, layers: 1, heads: 1 }, (s) => s.accuracy >= 0.99, 10, 5000, 15],
  ['sort 100 %', { task: 'sort', dModel: 16, layers: 1, heads: 2 }, (s) => s.accuracy >= 1, 10, 5000, 10],
  ['induction prefix > 0.4, accuracy > 90 %', { task: 'induction', length: 6, symbols: 12, dModel: 16, layers: 2, heads: 1, batch: 16 },
    (s) => s.score > 0.4 && s.accuracy > 0.9, 20, 10000, 30],
];

export async function trainingBench({ rounds = 5, seconds = 1.5 } = {}) {
  const createAttentionTrainer = require(join(here, '..', 'dist', 'attention-trainer.js'));
  const T = await createAttentionTrainer();
  const { d, layers, heads, batch, length } = MODEL;
  // The machine may be shared: its load says how much of a core each implementation had.
  const load = loadavg()[0];
  console.log(`\ntraining steps per second: d_model ${d}, ${layers} layers of ${heads} heads, attention only, batch ${batch}, length ${length}, one thread (load average ${load.toFixed(1)})`);
  const impls = { trainer: await trainerImpl(T) };
  const skipped = {};
  try {
    impls['tfjs-wasm'] = await tfjsImpl();
  } catch (e) {
    skipped['tfjs-wasm'] = String(e.message ?? e);
  }
  const torch = pytorch();
  if (torch.round) impls.pytorch = torch.round;
  else skipped.pytorch = torch.why;
  const rates = Object.fromEntries(Object.keys(impls).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, step] of Object.entries(impls)) rates[name].push(name === 'pytorch' ? step(seconds) : rate(step, seconds));
  }
  const result = { model: MODEL, rounds, loadAverage: load, stepsPerSecond: {}, ratios: {}, skipped };
  for (const [name, rs] of Object.entries(rates)) {
    result.stepsPerSecond[name] = { median: median(rs), min: Math.min(...rs), max: Math.max(...rs) };
    console.log(`  ${name.padEnd(10)} ${median(rs).toFixed(0).padStart(6)} steps/s  (${Math.min(...rs).toFixed(0)}–${Math.max(...rs).toFixed(0)} over ${rs.length} rounds)${name === 'pytorch' ? `  torch ${torch.version()}` : ''}`);
  }
  for (const peer of ['tfjs-wasm', 'pytorch']) {
    if (!rates[peer]) continue;
    const ratio = median(rates.trainer.map((r, k) => r / rates[peer][k]));
    result.ratios[peer] = ratio;
    console.log(`  trainer is ${ratio.toFixed(2)}× ${peer}`);
  }
  for (const [name, why] of Object.entries(skipped)) console.log(`  skipped ${name}: ${why}`);

  console.log('\ntime to target in node (wasm), one thread, evaluations included:');
  result.timeToTarget = [];
  for (const [what, config, done, every, max, budget] of TASKS) {
    const r = timeToTarget(T, { seed: 1, ...config }, done, every, max);
    result.timeToTarget.push({ what, config, budgetSeconds: budget, ...r });
    console.log(`  ${what.padEnd(40)} ${r.reached ? `${r.seconds.toFixed(2)} s, ${r.steps} steps` : `not reached in ${r.steps} steps (${r.seconds.toFixed(1)} s)`}  (target ≤ ${budget} s)`);
  }
  return result;
}
