#!/usr/bin/env node
// The page's language model, run by the core (dist/attention-model.js) and by onnxruntime-web's
// wasm backend on the same weights (bench/export_model.py: the shipped 8-bit rows widened to
// float32, exported by PyTorch's ONNX exporter), each on one thread in this node process:
//   forward    one pass over 64 tokens (<|endoftext|> and 63 of text), every logit computed
//   generate   32 tokens, each the likeliest, against a KV cache, after a prompt of 32 tokens
// Rounds are interleaved (the core, then onnxruntime-web, in every round), so a slow moment of
// this noisy 2-core machine hurts both alike; medians and the min–max over rounds are printed,
// with the ratio (onnxruntime-web's time ÷ the core's) as the median of each round's ratio.
// The core's forward also keeps every head's weights and the tokens' surprise (the page shows
// them); onnxruntime-web computes the logits and the cache only.
//   node bench/model.mjs [--rounds N]      (npm --prefix bench ci first; python3-torch)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 7;
const modelFile = join(root, 'data/model/model.safetensors');
const onnxDir = join(root, 'build/bench');
const FORWARD = 64, PROMPT = 32, GENERATE = 32;

execFileSync('/usr/bin/python3', [join(here, 'export_model.py'), modelFile, onnxDir], { stdio: ['ignore', 'inherit', 'ignore'] });

// --- the core -------------------------------------------------------------------------------------
const createAttentionModel = createRequire(import.meta.url)(join(root, 'dist/attention-model.js'));
const mod = await createAttentionModel();
const opened = mod.open(readFileSync(modelFile));
if (!opened.ok) throw new Error(opened.error.message);
const lm = opened.model;
/** A text of Moby-Dick's opening, cut to `count` tokens after <|endoftext|>: the ids both runtimes read. */
const text = 'Call me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world. It is a way I have of driving off the spleen and regulating the circulation.';
const all = lm.run(text).tokens.map((t) => t.id);
if (all.length < FORWARD) throw new Error(`the text gives ${all.length} tokens, fewer than ${FORWARD}`);
/** The text whose tokens are the first `count` after <|endoftext|> (decoded back by the core's own tokens). */
const textOf = (count) => lm.run(text).tokens.slice(1, count + 1).map((t) => t.text).join('');
const forwardText = textOf(FORWARD - 1), promptText = textOf(PROMPT - 1);
const forwardIds = lm.run(forwardText).tokens.map((t) => t.id);
if (forwardIds.length !== FORWARD) throw new Error(`the forward's text reads as ${forwardIds.length} tokens`);
const promptIds = lm.run(promptText).tokens.map((t) => t.id);

const core = {
  forward() {
    const r = lm.run(forwardText, { predictions: 1 });
    if (!r.ok) throw new Error(r.error.message);
  },
  generate() {
    let r = lm.run(promptText, { predictions: 1 });
    const out = [];
    for (let k = 0; k < GENERATE; k++) {
      r = lm.extend(r.predictions[0].id, { predictions: 1 });
      out.push(r.tokens[r.tokens.length - 1].id);
    }
    return out;
  },
};

// --- onnxruntime-web ------------------------------------------------------------------------------
const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
const prefill = await ort.InferenceSession.create(readFileSync(join(onnxDir, 'prefill.onnx')));
const decode = await ort.InferenceSession.create(readFileSync(join(onnxDir, 'decode.onnx')));
const int64 = (ids) => new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
const lastArgmax = (logits) => {
  const [, n, vocab] = logits.dims;
  const row = logits.data.subarray((n - 1) * vocab, n * vocab);
  let best = 0;
  for (let j = 1; j < vocab; j++) if (row[j] > row[best]) best = j;
  return best;
};
const onnx = {
  async forward() {
    await prefill.run({ ids: int64(forwardIds) });
  },
  async generate() {
    let r = await prefill.run({ ids: int64(promptIds) });
    const out = [];
    for (let k = 0; k < GENERATE; k++) {
      const id = lastArgmax(r.logits);
      out.push(id);
      r = await decode.run({ id: int64([id]), past_keys: r.keys, past_values: r.values });
    }
    return out;
  },
};

// --- the same answers ------------------------------------------------------------------------------
const first = await prefill.run({ ids: int64(forwardIds) });
const coreNext = lm.run(forwardText, { predictions: 1 }).predictions[0].id;
if (lastArgmax(first.logits) !== coreNext) throw new Error('the two runtimes disagree on the next token');
const a = core.generate(), b = await onnx.generate();
const same = a.filter((id, k) => id === b[k]).length;
console.log(`both generate the same ${same} of ${GENERATE} tokens`);

// --- timing ---------------------------------------------------------------------------------------
const median = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
async function time(f, repeat) {
  const t0 = performance.now();
  for (let k = 0; k < repeat; k++) await f();
  return (performance.now() - t0) / repeat;
}
const results = { forward: { core: [], onnx: [], ratio: [] }, generate: { core: [], onnx: [], ratio: [] } };
for (let r = 0; r < rounds + 1; r++) {
  for (const task of ['forward', 'generate']) {
    const repeat = task === 'forward' ? 20 : 3;
    const c = await time(core[task], repeat), o = await time(onnx[task], repeat);
    if (r === 0) continue; // warm-up
    results[task].core.push(c);
    results[task].onnx.push(o);
    results[task].ratio.push(o / c);
  }
}
const span = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
const f = results.forward, g = results.generate;
console.log(`forward, ${FORWARD} tokens:   core ${median(f.core).toFixed(1)} ms (${span(f.core)}), ` +
  `onnxruntime-web ${median(f.onnx).toFixed(1)} ms (${span(f.onnx)}): the core is ${median(f.ratio).toFixed(2)}× as fast`);
const tps = (ms) => (GENERATE / (ms / 1000)).toFixed(0);
console.log(`generate ${GENERATE} after ${PROMPT}: core ${tps(median(g.core))} tokens/s, onnxruntime-web ${tps(median(g.onnx))} tokens/s ` +
  `(the prompt included): the core is ${median(g.ratio).toFixed(2)}× as fast`);
