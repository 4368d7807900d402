// The language model's benchmark, shared by node (bench/model.mjs) and Chromium
// (bench/model-chromium.mjs, which runs it in a page): the core (attention-model.js) and
// onnxruntime-web's wasm backend on the same weights, each on one thread, in one process:
//   forward    one pass over 64 tokens (<|endoftext|> and 63 of text), every logit computed
//   generate   32 tokens, each the likeliest, against a KV cache, after a prompt of 32 tokens
// Rounds are interleaved (the core, then onnxruntime-web, in every round), so a slow moment of
// this noisy 2-core machine hurts both alike; medians and the min–max over rounds are reported,
// with the ratio (onnxruntime-web's time ÷ the core's) as the median of each round's ratio.
// The core's forward also keeps every head's weights and the tokens' surprise (the page shows
// them); onnxruntime-web computes the logits and the cache only. Plain ESM: no node module here.

export const FORWARD = 64, PROMPT = 32, GENERATE = 32;
/** Moby-Dick's opening, cut to the tokens both runtimes read. */
const TEXT = 'Call me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world. It is a way I have of driving off the spleen and regulating the circulation.';

/**
 * `lm` an opened model of attention-model.js; `ort` onnxruntime-web with `prefill` and `decode`
 * sessions of bench/export_model.py's graphs; `repeats` how many runs of each task a round times
 * (a model of GPT-2 small's size takes seconds a run). Returns what both generate and the timings.
 */
export async function benchModel({ lm, ort, prefill, decode, rounds = 7, repeats = { forward: 20, generate: 3 }, log = () => {} }) {
  const all = lm.run(TEXT).tokens;
  if (all.length < FORWARD) throw new Error(`the text gives ${all.length} tokens, fewer than ${FORWARD}`);
  /** The text whose tokens are the first `count` after <|endoftext|> (decoded back by the core's own tokens). */
  const textOf = (count) => all.slice(1, count + 1).map((t) => t.text).join('');
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

  // The same answers first: the next token, and the generated text.
  const first = await prefill.run({ ids: int64(forwardIds) });
  if (lastArgmax(first.logits) !== lm.run(forwardText, { predictions: 1 }).predictions[0].id)
    throw new Error('the two runtimes disagree on the next token');
  const a = core.generate(), b = await onnx.generate();
  const same = a.filter((id, k) => id === b[k]).length;
  log(`both generate the same ${same} of ${GENERATE} tokens`);

  const time = async (f, repeat) => {
    const t0 = performance.now();
    for (let k = 0; k < repeat; k++) await f();
    return (performance.now() - t0) / repeat;
  };
  const results = { same, forward: { core: [], onnx: [], ratio: [] }, generate: { core: [], onnx: [], ratio: [] } };
  for (let r = 0; r < rounds + 1; r++) {
    for (const task of ['forward', 'generate']) {
      const repeat = repeats[task];
      const c = await time(core[task], repeat), o = await time(onnx[task], repeat);
      if (r === 0) continue; // warm-up
      results[task].core.push(c);
      results[task].onnx.push(o);
      results[task].ratio.push(o / c);
    }
  }
  return results;
}

const median = (xs) => [...xs].sort((p, q) => p - q)[xs.length >> 1];
const span = (xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

/** Two lines: the forward's times and the generation's speed, each with the ratio. */
export function report(results) {
  const f = results.forward, g = results.generate;
  const tps = (ms) => (GENERATE / (ms / 1000)).toFixed(0);
  return [
    `forward, ${FORWARD} tokens:   core ${median(f.core).toFixed(1)} ms (${span(f.core)}), ` +
      `onnxruntime-web ${median(f.onnx).toFixed(1)} ms (${span(f.onnx)}): the core is ${median(f.ratio).toFixed(2)}× as fast`,
    `generate ${GENERATE} after ${PROMPT}: core ${tps(median(g.core))} tokens/s, onnxruntime-web ${tps(median(g.onnx))} tokens/s ` +
      `(the prompt included): the core is ${median(g.ratio).toFixed(2)}× as fast`,
  ];
}
