// A Llama-family model's file (Llama 2 and 3, SmolLM2, Qwen2, Qwen3, Mistral without sliding
// windows), read into the decoder (decoder.hpp) as Hugging Face's LlamaForCausalLM lays it out,
// with or without the "model." prefix:
//   embed_tokens.weight (vocab, C)        norm.weight (C)        [lm_head.weight (vocab, C)]
//   layers.N.input_layernorm.weight (C)   layers.N.post_attention_layernorm.weight (C)
//   layers.N.self_attn.q_proj.weight (H·d, C)   k_proj, v_proj (G·d, C)   o_proj (C, H·d)
//     [q_proj, k_proj, v_proj .bias: Qwen2's]   [q_norm.weight, k_norm.weight (d): Qwen3's]
//   layers.N.mlp.gate_proj.weight (I, C)   up_proj (I, C)   down_proj (C, I)
// PyTorch's Linear stores (out, in) and computes x · Wᵀ: the loader packs each as the products
// read it, q, k and v side by side as one product and gate and up as another.
//
// What the shapes do not hold comes from config.json (model_config_json.hpp), in `said`: the
// head counts H and G, the head size d when it is not C / H (Qwen3's), the context, the norms' ε,
// RoPE's θ and Llama 3's scaling. load_llama() checks every tensor's presence, shape and values
// before it keeps one against them, and names the tensor and the shape it expected.
#pragma once

#include "common.hpp"
#include "decoder.hpp"
#include "safetensors.hpp"

namespace attn {

// True when the file's tensors are a Llama-family model's (it has layers.0.self_attn.q_proj).
bool is_llama(const SafeTensors& file);

// `said`: family llama, with heads, kv_heads (0: heads), head_dim (0: C / heads), context,
// norm_eps, rope_theta and rope_scaling as config.json gives them; the loader adds the sizes the
// tensors have. `read` false checks presence and shapes only (a header read alone).
Result<Decoder> load_llama(const SafeTensors& file, const DecoderConfig& said, bool read = true);

}  // namespace attn
