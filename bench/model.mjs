#!/usr/bin/env node
// The page's language model in node: the core (dist/attention-model.js) against onnxruntime-web's
// wasm backend on the same weights (bench/export_model.py: the shipped 8-bit rows widened to
// float32, exported by PyTorch's ONNX exporter), one thread each; bench/model-rounds.mjs says
// what is timed and how. bench/model-chromium.mjs runs the same in Chromium.
//   node bench/model.mjs [--rounds N]      (npm --prefix bench ci first; python3-torch)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchModel, report } from './model-rounds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 7;
const modelFile = join(root, 'data/model/model.safetensors');
const onnxDir = join(root, 'build/bench');

execFileSync('/usr/bin/python3', [join(here, 'export_model.py'), modelFile, onnxDir], { stdio: ['ignore', 'inherit', 'ignore'] });

const createAttentionModel = createRequire(import.meta.url)(join(root, 'dist/attention-model.js'));
const opened = (await createAttentionModel()).open(readFileSync(modelFile));
if (!opened.ok) throw new Error(opened.error.message);
const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
const prefill = await ort.InferenceSession.create(readFileSync(join(onnxDir, 'prefill.onnx')));
const decode = await ort.InferenceSession.create(readFileSync(join(onnxDir, 'decode.onnx')));
console.log('node ' + process.version);
const results = await benchModel({ lm: opened.model, ort, prefill, decode, rounds, log: console.log });
for (const line of report(results)) console.log(line);
