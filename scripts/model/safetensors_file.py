"""safetensors for the Python scripts (train.py, pack.py): read here, written by the project's one
writer of the format, scripts/model/safetensors.mjs, through scripts/model/write-safetensors.mjs.
"""
import json
import os
import struct
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, tensors, metadata):
    """Writes {name: (dtype, array)} in order, dtype 'F32' or 'I8', with `metadata` (strings)."""
    manifest = {'metadata': metadata, 'tensors': []}
    blobs = []
    for name, (dtype, array) in tensors.items():
        manifest['tensors'].append([name, dtype, list(array.shape)])
        blobs.append(np.ascontiguousarray(array).astype('<f4' if dtype == 'F32' else 'i1').tobytes())
    line = json.dumps(manifest, ensure_ascii=False).encode('utf-8') + b'\n'
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    subprocess.run(['node', os.path.join(HERE, 'write-safetensors.mjs'), path],
                   input=line + b''.join(blobs), check=True)


def read_f32(path):
    """({name: float32 array}, metadata) of a file of F32 tensors."""
    with open(path, 'rb') as f:
        data = f.read()
    (n,) = struct.unpack('<Q', data[:8])
    header = json.loads(data[8:8 + n])
    meta = header.pop('__metadata__', {})
    tensors = {}
    for name, info in header.items():
        begin, end = info['data_offsets']
        tensors[name] = np.frombuffer(data[8 + n + begin:8 + n + end], dtype='<f4').reshape(info['shape'])
    return tensors, meta
