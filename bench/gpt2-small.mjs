// A checkpoint of GPT-2 small's shape for the benchmark, made here since nothing may be downloaded:
// 12 layers of 12 heads, width 768, context 1,024 and 50,257 tokens of random weights
// (scripts/model/safetensors.mjs), with the transformer. prefix a fine-tuned GPT-2 saves, and the
// files Hugging Face puts beside it (scripts/model/hf-files.mjs). Its tokenizer is the page's
// model's, 4,165 tokens, padded to GPT-2's 50,257 with tokens no text makes: the time goes to the
// layers and the 50,257 logits, as with GPT-2's own tokenizer; only the text's cut differs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomGpt2, readSafetensorsHeader } from '../scripts/model/safetensors.mjs';
import { configJson, tokenizerJson } from '../scripts/model/hf-files.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GPT2_SMALL = { vocab: 50257, context: 1024, width: 768, layers: 12, heads: 12 };

/** Writes model.safetensors, tokenizer.json and config.json to `dir` (once); returns the model's path and the side files' texts. */
export function writeGpt2Small(dir) {
  mkdirSync(dir, { recursive: true });
  const modelFile = join(dir, 'model.safetensors');
  if (!existsSync(modelFile)) writeFileSync(modelFile, randomGpt2({ ...GPT2_SMALL, prefix: 'transformer.', metadata: false, seed: 124 }));
  const meta = readSafetensorsHeader(readFileSync(join(root, 'data/model/model.safetensors'))).metadata;
  const ids = JSON.parse(meta['vocab.json']);
  const used = Object.keys(ids).length;
  for (let id = used; id < GPT2_SMALL.vocab; id++) ids[`<|unused_${id}|>`] = id;
  const tokenizer = tokenizerJson(JSON.stringify(ids), meta['merges.txt']);
  const config = configJson(GPT2_SMALL);
  writeFileSync(join(dir, 'tokenizer.json'), tokenizer);
  writeFileSync(join(dir, 'config.json'), config);
  return { modelFile, files: { tokenizer, config } };
}
