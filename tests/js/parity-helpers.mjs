// What the forward-parity tests (gpt2-parity, llama-parity) share: the native runner and Debian's
// Python, each run for its JSON, and the largest difference between two runs' numbers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

export const tool = join(root, 'build/native/tools/gpt2_run');
// Debian's Python, with the NumPy and PyTorch scripts/setup.sh installs (another python3 first on
// PATH may lack them).
export const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Runs `cmd` and parses what it printed; a non-zero exit fails with its stderr. */
export function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The largest difference between two nested arrays of numbers of the same shape. */
export function maxDiff(a, b, where = '') {
  if (typeof a === 'number') return Math.abs(a - b);
  assert.equal(a.length, b.length, `lengths differ at ${where}`);
  return a.reduce((m, x, i) => Math.max(m, maxDiff(x, b[i], `${where}[${i}]`)), 0);
}
