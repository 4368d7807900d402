// What a Hugging Face config.json says of a GPT-2-family model: its head count, which the tensors'
// shapes do not hold, and its sizes, which must agree with them. GPT-2's names are read, and the
// generic ones other configs write (num_attention_heads, hidden_size, …).
//
// read_model_config() refuses a config this core would compute differently, naming the field
// (input "config", the byte in the text): a model_type other than "gpt2", an activation other
// than GPT-2's tanh GELU, a LayerNorm epsilon other than 1e-5, and attention scaled otherwise
// than by 1/√d. check_model_config() then names any size that differs from the file's, and an
// untied unembedding (tie_word_embeddings false) the file has no lm_head.weight for.
#pragma once

#include <cstddef>
#include <string_view>

#include "common.hpp"
#include "gpt2.hpp"

namespace attn {

struct ModelConfigJson {
  std::size_t heads = 0, layers = 0, width = 0, context = 0, vocab = 0;  // 0: not said
  std::size_t mlp = 0;  // n_inner: the MLP's width (GPT-2's is 4 × width); 0: not said
  int tied = -1;        // tie_word_embeddings: 1 true, 0 false, -1 not said
};

Result<ModelConfigJson> read_model_config(std::string_view config_json);

// Errors: a size the config says that the tensors do not have.
Result<bool> check_model_config(const ModelConfigJson& said, const Gpt2Config& found);

}  // namespace attn
