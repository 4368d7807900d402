"""An independent GPT-2 forward pass in NumPy (float64), to check the core's (cpp/core/lm/gpt2.hpp).

    python3 tests/py/gpt2_reference.py MODEL.safetensors 5,17,3 [HEADS]

prints {"logits": [[...] per token], "weights": [[heads x tokens x tokens] per layer]} as JSON.
Written from the GPT-2 architecture as Hugging Face's GPT2LMHeadModel computes it (Conv1D
weights, pre-LayerNorm, tanh GELU, tied unembedding unless lm_head.weight is present), sharing
no code with the core. The safetensors file is read with the standard library and NumPy alone
(an I8 matrix times its "<name>.scale" rows, as cpp/core/lm/safetensors.hpp defines it).
"""
import json
import struct
import sys

import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16, "I8": np.int8}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    meta = header.pop("__metadata__", {})
    base = 8 + n
    tensors = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        raw = data[base + begin : base + end]
        if info["dtype"] == "BF16":
            words = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
            array = words.view(np.float32)
        else:
            array = np.frombuffer(raw, dtype=np.dtype(DTYPES[info["dtype"]]).newbyteorder("<"))
        tensors[name] = array.reshape(info["shape"])
    for name in [n for n, t in tensors.items() if t.dtype == np.int8]:
        # An I8 matrix is its integers times its row's scale, one float32 product each.
        scale = tensors.pop(name + ".scale").astype(np.float32)
        tensors[name] = tensors[name].astype(np.float32) * scale.reshape(-1, *([1] * (tensors[name].ndim - 1)))
    return {name: t.astype(np.float64) for name, t in tensors.items()}, meta


def layer_norm(x, w, b):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * w + b


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def forward(tensors, meta, tokens, heads=None):
    prefix = "" if "wte.weight" in tensors else "transformer."
    t = lambda name: tensors[prefix + name]
    wte, wpe = t("wte.weight"), t("wpe.weight")
    width = wte.shape[1]
    heads = heads or int(meta.get("n_head", width // 64))
    size = width // heads
    n = len(tokens)
    x = wte[tokens] + wpe[:n]
    causal = np.tril(np.ones((n, n), dtype=bool))
    all_weights = []
    layer = 0
    while prefix + f"h.{layer}.ln_1.weight" in tensors:
        h = lambda name: t(f"h.{layer}.{name}")
        a = layer_norm(x, h("ln_1.weight"), h("ln_1.bias")) @ h("attn.c_attn.weight") + h("attn.c_attn.bias")
        q, k, v = np.split(a, 3, axis=1)
        q = q.reshape(n, heads, size).transpose(1, 0, 2)
        k = k.reshape(n, heads, size).transpose(1, 0, 2)
        v = v.reshape(n, heads, size).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(size)
        scores = np.where(causal, scores, -np.inf)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        all_weights.append(weights.tolist())
        z = (weights @ v).transpose(1, 0, 2).reshape(n, width)
        x = x + z @ h("attn.c_proj.weight") + h("attn.c_proj.bias")
        m = gelu(layer_norm(x, h("ln_2.weight"), h("ln_2.bias")) @ h("mlp.c_fc.weight") + h("mlp.c_fc.bias"))
        x = x + m @ h("mlp.c_proj.weight") + h("mlp.c_proj.bias")
        layer += 1
    x = layer_norm(x, t("ln_f.weight"), t("ln_f.bias"))
    unembed = tensors.get("lm_head.weight", wte)
    return {"logits": (x @ unembed.T).tolist(), "weights": all_weights}


if __name__ == "__main__":
    tensors, meta = read_safetensors(sys.argv[1])
    tokens = [int(s) for s in sys.argv[2].split(",")]
    heads = int(sys.argv[3]) if len(sys.argv) > 3 else None
    json.dump(forward(tensors, meta, tokens, heads), sys.stdout)
