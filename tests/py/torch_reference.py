"""A GPT-2 forward pass in PyTorch (float32), to check the core's (cpp/core/lm/gpt2.hpp) on the same
file: the page's own model was trained with PyTorch (scripts/model/train.py), so this is the
forward its weights were learned under.

    python3 tests/py/torch_reference.py MODEL.safetensors 5,17,3 [HEADS]

prints {"logits": [[...] per token], "weights": [[heads x tokens x tokens] per layer]} as JSON,
as tests/py/gpt2_reference.py does. It shares no code with the core or with that NumPy forward:
it reads the file with the standard library and PyTorch, widens F16 and BF16, and multiplies an
I8 tensor's rows by their scales ("w.scale", one float a row) in float32, as the format defines.
"""
import json
import math
import struct
import sys

import torch
import torch.nn.functional as F

DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "I8": torch.int8}


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    meta = header.pop("__metadata__", {})
    raw = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        blob = bytearray(data[8 + n + begin : 8 + n + end])
        raw[name] = torch.frombuffer(blob, dtype=DTYPES[info["dtype"]]).reshape(info["shape"]) if blob else \
            torch.zeros(info["shape"], dtype=DTYPES[info["dtype"]])
    tensors = {}
    for name, t in raw.items():
        if t.dtype == torch.int8:
            scale = raw[name + ".scale"].float()
            tensors[name] = t.float() * scale.reshape(-1, *([1] * (t.dim() - 1)))
        elif not name.endswith(".scale") or name[: -len(".scale")] not in raw:
            tensors[name] = t.float()
    return tensors, meta


@torch.no_grad()
def forward(tensors, meta, tokens, heads=None):
    prefix = "" if "wte.weight" in tensors else "transformer."
    t = lambda name: tensors[prefix + name]
    wte = t("wte.weight")
    width = wte.shape[1]
    heads = heads or int(meta.get("n_head", width // 64))
    size = width // heads
    n = len(tokens)
    x = wte[torch.tensor(tokens)] + t("wpe.weight")[:n]
    future = torch.ones(n, n, dtype=torch.bool).triu(1)
    all_weights = []
    layer = 0
    while prefix + f"h.{layer}.ln_1.weight" in tensors:
        h = lambda name: t(f"h.{layer}.{name}")
        a = torch.addmm(h("attn.c_attn.bias"), F.layer_norm(x, (width,), h("ln_1.weight"), h("ln_1.bias"), 1e-5),
                        h("attn.c_attn.weight"))
        q, k, v = (z.reshape(n, heads, size).transpose(0, 1) for z in a.split(width, dim=1))
        scores = (q @ k.transpose(1, 2)) / math.sqrt(size)
        weights = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        all_weights.append(weights.tolist())
        z = (weights @ v).transpose(0, 1).reshape(n, width)
        x = x + torch.addmm(h("attn.c_proj.bias"), z, h("attn.c_proj.weight"))
        m = F.gelu(torch.addmm(h("mlp.c_fc.bias"), F.layer_norm(x, (width,), h("ln_2.weight"), h("ln_2.bias"), 1e-5),
                               h("mlp.c_fc.weight")), approximate="tanh")
        x = x + torch.addmm(h("mlp.c_proj.bias"), m, h("mlp.c_proj.weight"))
        layer += 1
    x = F.layer_norm(x, (width,), t("ln_f.weight"), t("ln_f.bias"), 1e-5)
    unembed = tensors.get("lm_head.weight", wte)
    return {"logits": (x @ unembed.T).tolist(), "weights": all_weights}


if __name__ == "__main__":
    torch.set_num_threads(1)
    tensors, meta = read_safetensors(sys.argv[1])
    tokens = [int(s) for s in sys.argv[2].split(",")]
    heads = int(sys.argv[3]) if len(sys.argv) > 3 else None
    json.dump(forward(tensors, meta, tokens, heads), sys.stdout)
