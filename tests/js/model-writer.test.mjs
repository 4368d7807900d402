// The scripts write safetensors with one writer (scripts/model/safetensors.mjs), the Python ones
// (train.py, pack.py) through scripts/model/safetensors_file.py. The shipped model was written by
// pack.py when it had a writer of its own: written again through today's path, its every tensor
// and its metadata must give the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelFile, root } from './engine-helpers.mjs';

test("model writer: the shipped model, read and written again by the Python scripts' path, is the same bytes", () => {
  const out = join(mkdtempSync(join(tmpdir(), 'writer-')), 'again.safetensors');
  const script = `
import json, struct, sys
import numpy as np
sys.path.insert(0, ${JSON.stringify(join(root, 'scripts/model'))})
from safetensors_file import write
data = open(${JSON.stringify(modelFile)}, 'rb').read()
(n,) = struct.unpack('<Q', data[:8])
header = json.loads(data[8:8 + n])
meta = header.pop('__metadata__')
tensors = {}
for name, info in header.items():
    begin, end = info['data_offsets']
    dtype = '<f4' if info['dtype'] == 'F32' else 'i1'
    tensors[name] = (info['dtype'], np.frombuffer(data[8 + n + begin:8 + n + end], dtype=dtype).reshape(info['shape']))
write(${JSON.stringify(out)}, tensors, meta)
`;
  const r = spawnSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const shipped = readFileSync(modelFile), again = readFileSync(out);
  assert.equal(again.length, shipped.length);
  assert.ok(again.equals(shipped), 'the same bytes');
});
