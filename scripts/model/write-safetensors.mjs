#!/usr/bin/env node
// Writes a safetensors file with the project's one writer (safetensors.mjs) for the Python scripts
// (scripts/model/safetensors_file.py), which hand it the tensors on standard input: one line of JSON,
// {"metadata": {…} | null, "tensors": [[name, dtype, shape], …]}, then each tensor's bytes in
// order, little-endian, F32 or I8.
//   node scripts/model/write-safetensors.mjs OUT < manifest-and-bytes
import { readFileSync, writeFileSync } from 'node:fs';
import { writeSafetensors } from './safetensors.mjs';

const [out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node scripts/model/write-safetensors.mjs OUT < manifest-and-bytes');
  process.exit(2);
}
const input = readFileSync(0);
const newline = input.indexOf(10);
const { metadata, tensors } = JSON.parse(input.subarray(0, newline).toString('utf8'));
let at = newline + 1;
const arrays = tensors.map(([name, dtype, shape]) => {
  const count = shape.reduce((a, b) => a * b, 1);
  const width = { F32: 4, I8: 1 }[dtype];
  if (!width) throw new Error(`tensor ${name}: dtype ${dtype}; the scripts write F32 and I8`);
  // A copy, aligned for a Float32Array, of this tensor's bytes.
  const bytes = Uint8Array.from(input.subarray(at, at + count * width));
  if (bytes.length !== count * width) throw new Error(`tensor ${name}: its bytes end early`);
  at += count * width;
  return [name, shape, dtype === 'I8' ? new Int8Array(bytes.buffer) : new Float32Array(bytes.buffer)];
});
if (at !== input.length) throw new Error(`${input.length - at} bytes after the last tensor`);
writeFileSync(out, writeSafetensors(arrays, metadata));
