#!/usr/bin/env python3
"""Packs the trained model (build/model/model-f32.safetensors, from scripts/model/train.py) into
the file the page ships, data/model/model.safetensors:

- every matrix as 8-bit integers, one scale a row: row i is stored as round(w / s_i), clipped to
  ±127, with s_i = max |w_i| / 127, in "<name>" (I8) and s in "<name>.scale" (F32) — the form
  cpp/core/lm/safetensors.hpp reads. A quarter of float32's bytes; what this costs in bits per
  character is measured on the shipped file (docs/language-model.md).
- the biases and LayerNorm weights as float32;
- the tokenizer in the metadata, as GPT-2's two files ("vocab.json", "merges.txt"), with the
  model's shape and where it came from, so one file is all the page loads.

Deterministic: the same trained file gives the same bytes.
    python3 scripts/model/pack.py
"""
import os
import sys

import numpy as np

from safetensors_file import read_f32, write

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
BUILD = os.path.join(ROOT, 'build', 'model')
OUT = os.path.join(ROOT, 'data', 'model', 'model.safetensors')


def quantize_rows(w):
    """(I8 values, F32 scales): each row's largest magnitude becomes ±127."""
    scale = (np.abs(w).max(axis=1) / 127).astype(np.float32)
    safe = np.where(scale > 0, scale, 1).astype(np.float32)
    q = np.clip(np.rint(w / safe[:, None]), -127, 127).astype(np.int8)
    return q, scale


def main():
    tensors, meta = read_f32(os.path.join(BUILD, 'model-f32.safetensors'))
    out = {}
    for name, w in tensors.items():
        if w.ndim == 2:
            q, scale = quantize_rows(w)
            out[name], out[name + '.scale'] = ('I8', q), ('F32', scale)
        else:
            out[name] = ('F32', w)
    tok = os.path.join(BUILD, 'tokenizer')
    metadata = dict(meta)
    metadata['vocab.json'] = open(os.path.join(tok, 'vocab.json'), encoding='utf-8').read()
    metadata['merges.txt'] = open(os.path.join(tok, 'merges.txt'), encoding='utf-8').read()
    metadata['about'] = ('A GPT-2-shaped model trained on English and Chinese text by scripts/model/build.sh; '
                         'weights as 8-bit integers with one float32 scale a row. Sources and licence: '
                         'data/model/SOURCES.md.')
    write(OUT, out, metadata)
    print(f'wrote {os.path.relpath(OUT, ROOT)}: {os.path.getsize(OUT)} bytes')


if __name__ == '__main__':
    sys.exit(main())
