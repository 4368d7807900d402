// The shape of the tiny decoder-only transformer the trainer grows, and where each of its
// parameter tensors lives in one flat array.
//
//   tokens (batch, len) → x = token_embedding[token] + position_embedding[position]   (len, D)
//   per layer:  x += attention(LN₁(x))            causal, `heads` heads of d_head = D / heads
//               x += MLP(LN₂(x))                  only when mlp ≠ none: 4·D hidden, ReLU or GELU
//   logits = LN_f(x) · unembedding                (len, vocab)
//   LN is pre-LayerNorm (learned gain and bias); without layer_norm each LN is the identity and has
//   no parameters. Attention has no biases: as in the "mathematical framework" toy models, the
//   default model is attention-only, so every number it computes is a head's.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"

namespace attn {

enum class Mlp { none, relu, gelu };

struct TransformerConfig {
  std::size_t vocab = 0;    // tokens the model reads and predicts; 0 = the task's
  std::size_t seq_len = 0;  // longest sequence (positions embedded); 0 = the task's
  std::size_t d_model = 32;
  std::size_t layers = 1;
  std::size_t heads = 1;  // must divide d_model
  Mlp mlp = Mlp::none;
  bool layer_norm = false;
};

// Small enough to train while a reader watches, in one thread of a browser.
struct TransformerLimits {
  static constexpr std::size_t max_vocab = 64;
  static constexpr std::size_t max_seq_len = 32;
  static constexpr std::size_t max_d_model = 64;
  static constexpr std::size_t max_layers = 4;
  static constexpr std::size_t max_heads = 4;
};

// An error naming the field ("vocab", "seqLen", "dModel", "layers", "heads") that is 0, above its
// limit, or (heads) does not divide dModel; nullopt if the config is sound. vocab and seq_len
// must be set (not 0) by then.
std::optional<Error> check_transformer_config(const TransformerConfig& config);

enum class TensorKind {
  token_embedding,     // (vocab, D)
  position_embedding,  // (seq_len, D)
  ln_attention_gain,   // (1, D) LN₁, per layer
  ln_attention_bias,   // (1, D)
  w_q,                 // (D, D): column h·d_head + t is coordinate t of head h's query
  w_k,                 // (D, D)
  w_v,                 // (D, D)
  w_o,                 // (D, D): row h·d_head + t reads coordinate t of head h's output
  ln_mlp_gain,         // (1, D) LN₂, per layer
  ln_mlp_bias,         // (1, D)
  mlp_in,              // (D, 4·D)
  mlp_in_bias,         // (1, 4·D)
  mlp_out,             // (4·D, D)
  mlp_out_bias,        // (1, D)
  ln_final_gain,       // (1, D) LN_f
  ln_final_bias,       // (1, D)
  unembedding,         // (D, vocab)
};

// One parameter tensor: a row-major (rows, cols) block of the flat parameter array.
struct TensorInfo {
  TensorKind kind = TensorKind::token_embedding;
  long layer = -1;  // 0-based; -1 for the embeddings, LN_f and the unembedding
  std::size_t offset = 0, rows = 0, cols = 0;
  bool decay = false;  // AdamW decays matrices, not gains, biases or embeddings
  std::size_t size() const { return rows * cols; }
};

// "w_q", "ln_mlp_gain", …: stable names, for messages and the saved format's documentation.
const char* to_string(TensorKind kind);

// Offsets into the flat parameter array (every field a count of scalars from its start). An
// absent tensor (no LN, no MLP) has offset `absent`.
struct LayerOffsets {
  std::size_t ln1_gain, ln1_bias, w_q, w_k, w_v, w_o;
  std::size_t ln2_gain, ln2_bias, w_in, b_in, w_out, b_out;
};
struct ParameterOffsets {
  static constexpr std::size_t absent = static_cast<std::size_t>(-1);
  std::size_t token_embedding = 0, position_embedding = 0;
  LayerOffsets layer[TransformerLimits::max_layers] = {};
  std::size_t ln_final_gain = absent, ln_final_bias = absent, unembedding = 0;
  std::size_t total = 0;
};

// Every tensor of a config in the order they sit in the array: embeddings, then per layer LN₁,
// W_Q, W_K, W_V, W_O, LN₂, W_in, b_in, W_out, b_out (those present), then LN_f and the
// unembedding.
std::vector<TensorInfo> parameter_layout(const TransformerConfig& config);
ParameterOffsets parameter_offsets(const TransformerConfig& config);

}  // namespace attn
