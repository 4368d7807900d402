// What a Hugging Face config.json says of a model: its family, the head counts and the settings
// the tensors' shapes do not hold, and its sizes, which must agree with them. GPT-2's names are
// read, and the generic ones other configs write (num_attention_heads, hidden_size, …).
//
// model_type "gpt2" (or none) is the GPT-2 family; "llama", "qwen2", "qwen3" and "mistral" the
// Llama family (llama.hpp). read_model_config() refuses a config this core would compute
// differently, naming the field (input "config", the byte in the text): another model_type; for
// GPT-2 an activation other than its tanh GELU, a LayerNorm epsilon other than 1e-5, or attention
// scaled otherwise than by 1/√d; for Llama an activation other than SiLU, a rope_scaling other than
// Llama 3's ("llama3"; "linear", "dynamic", "yarn", "longrope" … are named and refused), or RoPE
// on part of a head only. A sliding window (Mistral's, or Qwen's when use_sliding_window is on)
// is kept by reading no more tokens than the window: within it every token sees every earlier
// one, as full attention does. check_model_config() then names any size that differs from the
// file's, and an untied unembedding (tie_word_embeddings false) the file has no lm_head.weight
// for.
#pragma once

#include <cstddef>
#include <string_view>

#include "common.hpp"
#include "decoder.hpp"

namespace attn {

struct ModelConfigJson {
  Family family = Family::gpt2;
  std::size_t heads = 0, layers = 0, width = 0, context = 0, vocab = 0;  // 0: not said
  std::size_t mlp = 0;  // n_inner: the MLP's width (GPT-2's is 4 × width); 0: not said
  int tied = -1;        // tie_word_embeddings: 1 true, 0 false, -1 not said
  // The Llama family's: num_key_value_heads and head_dim (0: not said), rms_norm_eps (1e-6 and
  // rope_theta 10000 when not said, as Hugging Face's defaults), Llama 3's rope_scaling.
  std::size_t kv_heads = 0, head_dim = 0;
  double norm_eps = 1e-6, rope_theta = 10000;
  RopeScaling rope_scaling;
  std::size_t sliding_window = 0;  // the keys a token sees at most; 0: every earlier one
  // What load_llama() takes: the family's settings, with the sizes the tensors will give left 0.
  DecoderConfig llama() const;
};

Result<ModelConfigJson> read_model_config(std::string_view config_json);

// Errors: a size the config says that the tensors do not have.
Result<bool> check_model_config(const ModelConfigJson& said, const DecoderConfig& found);

}  // namespace attn
