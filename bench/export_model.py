#!/usr/bin/env python3
"""Exports a GPT-2-family safetensors file (the page's model, 8-bit rows widened to float32 as
the format defines) to ONNX with PyTorch's exporter, for bench/model.mjs to run the same weights
in onnxruntime-web. Two graphs, as a generating runtime uses them:

  prefill: ids (1, n)                        -> logits (1, n, vocab), keys, values (layers, heads, n, d)
  decode:  id (1, 1), past keys and values   -> logits (1, 1, vocab), keys and values with one more row

    python3 bench/export_model.py MODEL.safetensors OUT_DIR
"""
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'py'))
from torch_reference import read_safetensors  # noqa: E402  (the file reader the parity tests trust)


class Gpt2(nn.Module):
    def __init__(self, tensors, heads):
        super().__init__()
        prefix = '' if 'wte.weight' in tensors else 'transformer.'
        self.t = {k[len(prefix):] if k.startswith(prefix) else k: v for k, v in tensors.items()}
        self.heads = heads
        self.layers = 0
        while f'h.{self.layers}.ln_1.weight' in self.t:
            self.layers += 1
        for k, v in self.t.items():  # registered, so the exporter keeps them as initializers
            self.register_buffer(k.replace('.', '_'), v)

    def w(self, name):
        return getattr(self, name.replace('.', '_'))

    def forward(self, ids, past_k=None, past_v=None):
        wte = self.w('wte.weight')
        width = wte.shape[1]
        size = width // self.heads
        n = ids.shape[1]
        start = 0 if past_k is None else past_k.shape[2]
        positions = torch.arange(n) + start
        x = wte[ids[0]] + self.w('wpe.weight')[positions]
        keys, values = [], []
        for layer in range(self.layers):
            h = lambda name: self.w(f'h.{layer}.{name}')  # noqa: E731
            a = F.layer_norm(x, (width,), h('ln_1.weight'), h('ln_1.bias'), 1e-5) @ h('attn.c_attn.weight') + h('attn.c_attn.bias')
            q, k, v = (z.reshape(n, self.heads, size).transpose(0, 1) for z in a.split(width, dim=1))
            if past_k is not None:
                k = torch.cat([past_k[layer], k], dim=1)
                v = torch.cat([past_v[layer], v], dim=1)
            keys.append(k)
            values.append(v)
            scores = (q @ k.transpose(1, 2)) / math.sqrt(size)
            if past_k is None:
                scores = scores.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float('-inf'))
            z = (torch.softmax(scores, dim=-1) @ v).transpose(0, 1).reshape(n, width)
            x = x + z @ h('attn.c_proj.weight') + h('attn.c_proj.bias')
            m = F.gelu(F.layer_norm(x, (width,), h('ln_2.weight'), h('ln_2.bias'), 1e-5) @ h('mlp.c_fc.weight')
                       + h('mlp.c_fc.bias'), approximate='tanh')
            x = x + m @ h('mlp.c_proj.weight') + h('mlp.c_proj.bias')
        x = F.layer_norm(x, (width,), self.w('ln_f.weight'), self.w('ln_f.bias'), 1e-5)
        unembed = self.w('lm_head.weight') if 'lm_head.weight' in self.t else wte
        return (x @ unembed.T).unsqueeze(0), torch.stack(keys), torch.stack(values)


def main():
    path, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    tensors, meta = read_safetensors(path)
    width = tensors.get('wte.weight', tensors.get('transformer.wte.weight')).shape[1]
    model = Gpt2(tensors, int(meta.get('n_head', width // 64))).eval()
    ids = torch.tensor([[5, 17, 3, 9]])
    with torch.no_grad():
        logits, k, v = model(ids)
        torch.onnx.export(model, (ids,), os.path.join(out, 'prefill.onnx'), opset_version=14,
                          input_names=['ids'], output_names=['logits', 'keys', 'values'],
                          dynamic_axes={'ids': {1: 'n'}, 'logits': {1: 'n'}, 'keys': {2: 'n'}, 'values': {2: 'n'}})
        one = torch.tensor([[7]])
        torch.onnx.export(model, (one, k, v), os.path.join(out, 'decode.onnx'), opset_version=14,
                          input_names=['id', 'past_keys', 'past_values'], output_names=['logits', 'keys', 'values'],
                          dynamic_axes={'past_keys': {2: 't'}, 'past_values': {2: 't'}, 'keys': {2: 'total'},
                                        'values': {2: 'total'}})
    print(f'wrote {out}/prefill.onnx and {out}/decode.onnx ({model.layers} layers, {model.heads} heads, width {width})')


if __name__ == '__main__':
    main()
