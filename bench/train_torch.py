#!/usr/bin/env python3
"""The bench's training model in PyTorch on the CPU, one thread (bench/train.mjs runs it).

The same model as the wasm trainer's and TF.js's: token and position embeddings, `layers` layers
of causal multi-head attention without biases (attention only), an unembedding, cross-entropy on
the second half of each sequence, AdamW with gradient clipping. Random tokens, drawn before the
clock starts. Prints one JSON line: {"stepsPerSecond": [one per round], "torch": version}.

Usage: train_torch.py d_model layers heads batch length vocab seconds rounds
"""
import json
import math
import sys
import time

import torch


def main():
    d, layers, heads, batch, length, vocab = (int(x) for x in sys.argv[1:7])
    seconds, rounds = float(sys.argv[7]), int(sys.argv[8])
    torch.set_num_threads(1)
    torch.manual_seed(1)
    dh = d // heads

    def param(*shape, scale):
        return torch.nn.Parameter(torch.randn(*shape) * scale)

    tok = param(vocab, d, scale=0.02)
    pos = param(length, d, scale=0.02)
    ws = [[param(d, d, scale=1 / math.sqrt(d)) for _ in range(4)] for _ in range(layers)]
    unembed = param(d, vocab, scale=1 / math.sqrt(d))
    params = [tok, pos, unembed] + [w for layer in ws for w in layer]
    opt = torch.optim.AdamW(params, lr=1e-2, betas=(0.9, 0.98), eps=1e-8, weight_decay=0.01)
    causal = torch.triu(torch.full((length, length), float("-inf")), diagonal=1)
    batches = [torch.randint(0, vocab, (batch, length + 1)) for _ in range(8)]

    def step(k):
        data = batches[k % len(batches)]
        tokens, targets = data[:, :length], data[:, 1:]
        x = tok[tokens] + pos  # (batch, length, d)
        for wq, wk, wv, wo in ws:
            def split(w):  # (batch, heads, length, dh)
                return (x @ w).view(batch, length, heads, dh).transpose(1, 2)
            q, k_, v = split(wq), split(wk), split(wv)
            scores = q @ k_.transpose(-1, -2) / math.sqrt(dh) + causal
            out = torch.softmax(scores, dim=-1) @ v
            x = x + out.transpose(1, 2).reshape(batch, length, d) @ wo
        logits = x @ unembed  # (batch, length, vocab)
        half = length // 2
        loss = torch.nn.functional.cross_entropy(
            logits[:, half:].reshape(-1, vocab), targets[:, half:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()

    for k in range(20):  # warm up
        step(k)
    rates = []
    for _ in range(rounds):
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            step(n)
            n += 1
        rates.append(n / (time.perf_counter() - start))
    print(json.dumps({"stepsPerSecond": rates, "torch": torch.__version__}))


if __name__ == "__main__":
    main()
