#!/usr/bin/env node
// The page's language model in node: the core (dist/attention-model.js) against onnxruntime-web's
// wasm backend on the same weights (bench/export_model.py: the shipped 8-bit rows widened to
// float32, exported by PyTorch's ONNX exporter), one thread each; bench/model-rounds.mjs says
// what is timed and how. bench/model-chromium.mjs runs the same in Chromium.
//   node bench/model.mjs [--rounds N] [--gpt2-small]      (npm --prefix bench ci first; python3-torch)
// --gpt2-small runs a checkpoint of GPT-2 small's shape instead (124 M parameters of random
// weights, bench/gpt2-small.mjs), as a reader's own model would come, and says the memory each takes.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchModel, report } from './model-rounds.mjs';
import { writeGpt2Small } from './gpt2-small.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 7;
const small = args.includes('--gpt2-small');
const onnxDir = join(root, 'build/bench', small ? 'gpt2-small' : '');
const { modelFile, files } = small ? writeGpt2Small(onnxDir) : { modelFile: join(root, 'data/model/model.safetensors'), files: {} };

const heap = (label) => console.log(`${label}: rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
execFileSync('/usr/bin/python3', [join(here, 'export_model.py'), modelFile, onnxDir], { stdio: ['ignore', 'inherit', 'ignore'] });

const createAttentionModel = createRequire(import.meta.url)(join(root, 'dist/attention-model.js'));
const models = await createAttentionModel();
const opened = models.open(readFileSync(modelFile), files);
if (!opened.ok) throw new Error(opened.error.message);
const stats = models.memoryStats();
console.log(`the core: ${(stats.allocatedBytes / 2 ** 20).toFixed(0)} MB of its heap in use with the model open (heap ${(stats.heapBytes / 2 ** 20).toFixed(0)} MB)`);
heap('process with the core');
const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
const prefill = await ort.InferenceSession.create(readFileSync(join(onnxDir, 'prefill.onnx')));
const decode = await ort.InferenceSession.create(readFileSync(join(onnxDir, 'decode.onnx')));
heap('process with both');
console.log('node ' + process.version);
const repeats = small ? { forward: 1, generate: 1 } : undefined;
const results = await benchModel({ lm: opened.model, ort, prefill, decode, rounds: small ? Math.min(rounds, 3) : rounds, repeats, log: console.log });
for (const line of report(results)) console.log(line);
