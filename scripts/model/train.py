#!/usr/bin/env python3
"""Trains the page's language model: a GPT-2-shaped transformer over English and Chinese.

Reads the tokenized text scripts/model/build.sh writes (build/model/*.u16: little-endian token
ids, from the corpora of scripts/model/corpus.mjs and the tokenizer of tools/bpe_train.cpp) and
writes build/model/model-f32.safetensors, in GPT-2's names and Conv1D layout, which
scripts/model/pack.py then turns into the shipped 8-bit file.

Every window the model reads is <|endoftext|> and then 127 tokens from a random place in one
language's text; a third of the windows are English and two thirds Chinese, whose verse is the
harder text to predict. Two kinds of window teach copying from earlier in the context, which
real text rewards too seldom for this small budget to learn it:
  - in one window in seven, a span of its own text is repeated later, as names and phrases recur;
  - in others, a run of 8 to 24 random tokens is repeated up to four times: the only way to
    predict a later copy is to find the token after the same one in the first copy, which is what
    an induction head does. The first copy cannot be predicted at all, so it is left out of the
    loss. The runs fill half the windows until step RANDOM_PHASE, by when the induction heads
    have formed, and a quarter after it. Their tokens come from a pool of 32 that doubles every
    500 steps until it is the whole vocabulary: drawn from all of it from the start, the runs
    taught no induction in 5,500 steps. After RANDOM_PHASE half the runs are spans of real text
    from elsewhere in the same language, so that the heads copy in real text too;
  - in one window in eight, triples x y x of tokens from the same pool: a triple's third token is
    the token before the one just read, so these windows pay for a head that looks there.
The position embeddings start as sines and cosines (sinusoids()).
docs/language-model.md says so beside the induction scores this gives.

Deterministic: one seed chooses the initial weights and every window, and PyTorch runs its
deterministic kernels on one thread.
    python3 scripts/model/train.py [--steps N] [--seed S]
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from safetensors_file import write

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
BUILD = os.path.join(ROOT, 'build', 'model')

LAYERS, HEADS, WIDTH, CONTEXT = 4, 4, 128, 128
BATCH, ENGLISH_SHARE, REPEAT_SHARE = 16, 1 / 3, 1 / 7
# Windows that hold a repeated run: half of them until the induction heads have formed (between
# steps 3,500 and 5,000 in this recipe), then a quarter, to leave the rest to language. From then
# on half the runs are spans of real text: with random runs alone the heads copied only from
# random runs, and a name that came back in a sentence got nothing from them.
RANDOM_SHARE, RANDOM_SHARE_LATER, RANDOM_PHASE, NATURAL_RUNS = 1 / 2, 1 / 4, 5000, 1 / 2
# The run's tokens come from a pool that starts small and doubles every POOL_DOUBLING steps: from
# the whole vocabulary at once the model never found the copying circuit.
POOL_START, POOL_DOUBLING = 32, 500
# Windows of triples x y x from the same pool: only a head that looks at the token before can
# predict a triple's third token, and language alone never made such a head sharp.
TRIPLE_SHARE = 1 / 8
IGNORED = -100  # cross_entropy's ignore_index: targets that are not in the loss


def sinusoids():
    """The initial position embeddings: a sine and a cosine of each of WIDTH / 2 frequencies, with
    periods from 2 to 512 positions, as large as the other weights start (standard deviation 0.02).
    The embedding of position p − 1 is then a fixed rotation of that of position p, which a head can
    learn to look for: from random starts, no head looked sharply at the token before."""
    pos = torch.arange(CONTEXT, dtype=torch.float32)[:, None]
    omega = math.pi * (1 / 256) ** (torch.arange(WIDTH // 2, dtype=torch.float32) / (WIDTH // 2 - 1))
    out = torch.empty(CONTEXT, WIDTH)
    out[:, 0::2], out[:, 1::2] = torch.sin(pos * omega), torch.cos(pos * omega)
    return 0.02 * math.sqrt(2) * out


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(WIDTH, eps=1e-5)
        self.c_attn = nn.Linear(WIDTH, 3 * WIDTH)
        self.c_proj = nn.Linear(WIDTH, WIDTH)
        self.ln_2 = nn.LayerNorm(WIDTH, eps=1e-5)
        self.c_fc = nn.Linear(WIDTH, 4 * WIDTH)
        self.mlp_proj = nn.Linear(4 * WIDTH, WIDTH)

    def forward(self, x, mask):
        b, t, c = x.shape
        d = c // HEADS
        q, k, v = self.c_attn(self.ln_1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, HEADS, d).transpose(1, 2) for z in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        weights = F.softmax(scores.masked_fill(~mask[:t, :t], float('-inf')), dim=-1)
        x = x + self.c_proj((weights @ v).transpose(1, 2).reshape(b, t, c))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate='tanh'))


class Model(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.wte = nn.Embedding(vocab, WIDTH)
        self.wpe = nn.Embedding(CONTEXT, WIDTH)
        self.h = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(WIDTH, eps=1e-5)
        self.register_buffer('mask', torch.ones(CONTEXT, CONTEXT, dtype=torch.bool).tril())
        for name, p in self.named_parameters():
            if name.endswith('bias'):
                nn.init.zeros_(p)
            elif p.dim() == 2:  # GPT-2's initialisation, the residual branches' outputs scaled down
                std = 0.02 / math.sqrt(2 * LAYERS) if name.endswith(('c_proj.weight', 'mlp_proj.weight')) else 0.02
                nn.init.normal_(p, 0.0, std)
        with torch.no_grad():  # positions start as sines and cosines; see sinusoids()
            self.wpe.weight.copy_(sinusoids())

    def forward(self, ids):
        x = self.wte(ids) + self.wpe(torch.arange(ids.shape[1]))
        for block in self.h:
            x = block(x, self.mask)
        return self.ln_f(x) @ self.wte.weight.T


def windows(streams, eot, vocab, rng, count, step):
    """`count` windows of <|endoftext|> and CONTEXT − 1 tokens, and the targets the loss reads."""
    out = np.empty((count, CONTEXT), dtype=np.int64)
    targets = np.empty((count, CONTEXT - 1), dtype=np.int64)
    random_share = RANDOM_SHARE if step < RANDOM_PHASE else RANDOM_SHARE_LATER
    pool = min(vocab - 1, int(POOL_START * 2 ** (step / POOL_DOUBLING)))  # never <|endoftext|>, the last
    for i in range(count):
        s = streams[0 if rng.random() < ENGLISH_SHARE else 1]
        at = int(rng.integers(0, len(s) - CONTEXT))
        out[i, 0] = eot
        out[i, 1:] = s[at:at + CONTEXT - 1]
        if rng.random() < REPEAT_SHARE:
            span = int(rng.integers(8, 49))
            start = int(rng.integers(1, CONTEXT - 2 * span + 1))
            out[i, start + span:start + 2 * span] = out[i, start:start + span]
        targets[i] = out[i, 1:]
        if rng.random() < TRIPLE_SHARE:
            tokens = rng.choice(vocab - 1, pool, replace=False) if pool < vocab - 1 else None
            pairs = rng.integers(0, pool, (CONTEXT // 3 + 1, 2))
            pairs = tokens[pairs] if tokens is not None else pairs
            out[i, 1:] = np.stack([pairs[:, 0], pairs[:, 1], pairs[:, 0]], 1).reshape(-1)[:CONTEXT - 1]
            targets[i] = IGNORED  # x and y cannot be predicted; the third token can
            targets[i, 2::3] = out[i, 3::3]
            continue
        if rng.random() < random_share:
            tokens = rng.choice(vocab - 1, pool, replace=False) if pool < vocab - 1 else None
            span = int(rng.integers(8, 25))
            copies = min(4, (CONTEXT - 1) // span)
            start = int(rng.integers(1, CONTEXT - copies * span + 1))
            run = rng.integers(0, pool, span)
            run = tokens[run] if tokens is not None else run
            if step >= RANDOM_PHASE and rng.random() < NATURAL_RUNS:
                at = int(rng.integers(0, len(s) - span))
                run = s[at:at + span]
            for c in range(copies):
                out[i, start + c * span:start + (c + 1) * span] = run
            targets[i] = out[i, 1:]
            targets[i, start - 1:start + span] = IGNORED  # the first copy and the second's first token
    return torch.from_numpy(out), torch.from_numpy(targets)


def load(name):
    return np.fromfile(os.path.join(BUILD, name + '.u16'), dtype='<u2').astype(np.int64)


def conv1d(linear_weight):
    """nn.Linear keeps (out, in); GPT-2's Conv1D keeps (in, out)."""
    return linear_weight.T.contiguous()


def gpt2_tensors(model):
    t = {'wte.weight': model.wte.weight, 'wpe.weight': model.wpe.weight,
         'ln_f.weight': model.ln_f.weight, 'ln_f.bias': model.ln_f.bias}
    for n, b in enumerate(model.h):
        p = f'h.{n}.'
        t[p + 'ln_1.weight'], t[p + 'ln_1.bias'] = b.ln_1.weight, b.ln_1.bias
        t[p + 'attn.c_attn.weight'], t[p + 'attn.c_attn.bias'] = conv1d(b.c_attn.weight), b.c_attn.bias
        t[p + 'attn.c_proj.weight'], t[p + 'attn.c_proj.bias'] = conv1d(b.c_proj.weight), b.c_proj.bias
        t[p + 'ln_2.weight'], t[p + 'ln_2.bias'] = b.ln_2.weight, b.ln_2.bias
        t[p + 'mlp.c_fc.weight'], t[p + 'mlp.c_fc.bias'] = conv1d(b.c_fc.weight), b.c_fc.bias
        t[p + 'mlp.c_proj.weight'], t[p + 'mlp.c_proj.bias'] = conv1d(b.mlp_proj.weight), b.mlp_proj.bias
    return {k: v.detach().float().numpy() for k, v in t.items()}


def keep_freed_memory():
    """Starts this script again with glibc told to keep the memory it frees: every step allocates
    and frees the same large buffers, and handing them back to the system each time made a step
    take 0.6 s instead of 0.35 s. The settings only change where memory comes from, not a result."""
    settings = {'MALLOC_MMAP_THRESHOLD_': '4294967296', 'MALLOC_TRIM_THRESHOLD_': '68719476736',
                'MALLOC_TOP_PAD_': '1073741824'}
    if any(os.environ.get(k) != v for k, v in settings.items()):
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **settings})


def main():
    keep_freed_memory()
    parser = argparse.ArgumentParser()
    parser.add_argument('--steps', type=int, default=8500)
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--out', default=os.path.join(BUILD, 'model-f32.safetensors'))
    parser.add_argument('--seed', type=int, default=20261203)
    parser.add_argument('--lr', type=float, default=2e-3)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)
    vocab = json.load(open(os.path.join(BUILD, 'tokenizer', 'vocab.json'), encoding='utf-8'))
    eot = vocab['<|endoftext|>']
    streams = [load('en.train'), load('zh.train')]
    model = Model(len(vocab))
    # Weight decay on the blocks' matrices only, as GPT-2 recipes commonly do: decayed, the
    # position embeddings' sines would fade before a head had learned to read them.
    decayed = lambda name, p: p.dim() == 2 and name not in ('wte.weight', 'wpe.weight')
    decay = [p for n, p in model.named_parameters() if decayed(n, p)]
    rest = [p for n, p in model.named_parameters() if not decayed(n, p)]
    opt = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.1}, {'params': rest, 'weight_decay': 0.0}],
                            lr=args.lr, betas=(0.9, 0.95))
    warmup = min(300, args.steps // 10)
    started, seen = time.time(), 0.0
    for step in range(args.steps):
        rate = (step + 1) / warmup if step < warmup else \
            0.1 + 0.45 * (1 + math.cos(math.pi * (step - warmup) / max(1, args.steps - warmup)))
        for g in opt.param_groups:
            g['lr'] = args.lr * rate
        batch, targets = windows(streams, eot, len(vocab), rng, BATCH, step)
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=IGNORED)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        seen = 0.98 * seen + 0.02 * loss.item() if step else loss.item()
        if step % 100 == 0 or step == args.steps - 1:
            print(f'step {step:5d}  loss {seen:.3f}  {time.time() - started:6.0f} s', flush=True)
        if step % 1000 == 999:  # to look at the heads while it trains: tests/py/torch_reference.py reads it
            write(os.path.join(BUILD, 'checkpoint.safetensors'),
                              {k: ('F32', v) for k, v in gpt2_tensors(model).items()}, {'n_head': str(HEADS)})
    tensors = {k: ('F32', v) for k, v in gpt2_tensors(model).items()}
    meta = {'n_head': str(HEADS), 'n_ctx': str(CONTEXT), 'seed': str(args.seed), 'steps': str(args.steps)}
    write(args.out, tensors, meta)
    print(f'trained {args.steps} steps in {time.time() - started:.0f} s; wrote {os.path.relpath(args.out)}')


if __name__ == '__main__':
    sys.exit(main())
