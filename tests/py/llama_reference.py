"""A Llama-family forward pass in PyTorch (float32), to check the core's (cpp/core/lm/llama.hpp,
decoder.hpp) on the same file:

    python3 tests/py/llama_reference.py MODEL.safetensors config.json 5,17,3

prints {"logits": [[...] per token], "weights": [[heads x tokens x tokens] per layer]} as JSON.
Written from the computation of Hugging Face's LlamaForCausalLM, Qwen2ForCausalLM and
Qwen3ForCausalLM, step by step as they take it: RMSNorm in float32, the rotary embedding's
inv_freq with Llama 3's scaling, rotate_half, repeat_kv to share key/value heads, eager attention
with a causal mask of -inf, SwiGLU. It shares no code with the core; the file is read as
tests/py/torch_reference.py reads it.
"""
import json
import math
import sys

import torch
import torch.nn.functional as F

from torch_reference import read_safetensors


def rms_norm(x, weight, eps):
    variance = x.pow(2).mean(-1, keepdim=True)
    return weight * (x * torch.rsqrt(variance + eps))


def inv_frequencies(config, dim):
    base = config.get("rope_theta", 10000.0)
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    scaling = config.get("rope_scaling") or {}
    if scaling.get("rope_type", scaling.get("type")) != "llama3":
        return inv_freq
    factor = scaling["factor"]
    low_freq_factor = scaling["low_freq_factor"]
    high_freq_factor = scaling["high_freq_factor"]
    old_context_len = scaling["original_max_position_embeddings"]
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return torch.where(is_medium, smoothed, inv_freq_llama)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(hidden, n_rep):
    batch, kv_heads, slen, head_dim = hidden.shape
    if n_rep == 1:
        return hidden
    hidden = hidden[:, :, None, :, :].expand(batch, kv_heads, n_rep, slen, head_dim)
    return hidden.reshape(batch, kv_heads * n_rep, slen, head_dim)


def linear(x, tensors, name):
    return F.linear(x, tensors[name + ".weight"], tensors.get(name + ".bias"))


@torch.no_grad()
def forward(tensors, config, tokens):
    prefix = "model." if "model.embed_tokens.weight" in tensors else ""
    t = lambda name: tensors[prefix + name]
    hidden_size = config["hidden_size"]
    num_heads = config["num_attention_heads"]
    num_kv = config.get("num_key_value_heads") or num_heads
    head_dim = config.get("head_dim") or hidden_size // num_heads
    eps = config.get("rms_norm_eps", 1e-6)
    n = len(tokens)
    x = t("embed_tokens.weight")[torch.tensor(tokens)][None]  # (1, n, C)

    position_ids = torch.arange(n)[None].float()
    inv_freq = inv_frequencies(config, head_dim)
    freqs = (inv_freq[None, :, None] @ position_ids[:, None, :]).transpose(1, 2)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos()[:, None], emb.sin()[:, None]  # (1, 1, n, d)
    mask = torch.full((n, n), float("-inf")).triu(1)

    all_weights = []
    layer = 0
    while prefix + f"layers.{layer}.input_layernorm.weight" in tensors:
        p = prefix + f"layers.{layer}."
        h = rms_norm(x, tensors[p + "input_layernorm.weight"], eps)
        q = linear(h, tensors, p + "self_attn.q_proj").view(1, n, -1, head_dim)
        k = linear(h, tensors, p + "self_attn.k_proj").view(1, n, -1, head_dim)
        v = linear(h, tensors, p + "self_attn.v_proj").view(1, n, -1, head_dim).transpose(1, 2)
        if p + "self_attn.q_norm.weight" in tensors:
            q = rms_norm(q, tensors[p + "self_attn.q_norm.weight"], eps)
            k = rms_norm(k, tensors[p + "self_attn.k_norm.weight"], eps)
        q, k = q.transpose(1, 2), k.transpose(1, 2)
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        k = repeat_kv(k, num_heads // num_kv)
        v = repeat_kv(v, num_heads // num_kv)
        scores = torch.matmul(q, k.transpose(2, 3)) * head_dim**-0.5 + mask
        weights = F.softmax(scores, dim=-1, dtype=torch.float32)
        all_weights.append(weights[0].tolist())
        out = torch.matmul(weights, v).transpose(1, 2).reshape(1, n, -1)
        x = x + linear(out, tensors, p + "self_attn.o_proj")
        h = rms_norm(x, tensors[p + "post_attention_layernorm.weight"], eps)
        gate = F.silu(linear(h, tensors, p + "mlp.gate_proj"))
        x = x + linear(gate * linear(h, tensors, p + "mlp.up_proj"), tensors, p + "mlp.down_proj")
        layer += 1
    x = rms_norm(x, t("norm.weight"), eps)
    unembed = tensors.get("lm_head.weight", t("embed_tokens.weight"))
    return {"logits": (x[0] @ unembed.T).tolist(), "weights": all_weights}


if __name__ == "__main__":
    torch.set_num_threads(1)
    tensors, _ = read_safetensors(sys.argv[1])
    with open(sys.argv[2]) as f:
        config = json.load(f)
    tokens = [int(s) for s in sys.argv[3].split(",")]
    json.dump(forward(tensors, config, tokens), sys.stdout)
