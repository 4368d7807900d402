// A GPT-2-family language model, run in float32: token and learned position embeddings, pre-
// LayerNorm blocks of causal multi-head attention and a GELU MLP, a final LayerNorm, and the
// unembedding (tied to the token embedding unless the file has its own lm_head). The weights keep
// the GPT-2 names and layout of Hugging Face's files, with or without the "transformer." prefix:
//   wte.weight (vocab, C)   wpe.weight (ctx, C)   ln_f.weight, ln_f.bias (C)   [lm_head.weight
//   (vocab, C)] h.N.ln_1.weight/bias (C)      h.N.attn.c_attn.weight (C, 3C), .bias (3C)   [Conv1D:
//   x · W + b] h.N.attn.c_proj.weight (C, C), .bias (C)      h.N.ln_2.weight/bias (C)
//   h.N.mlp.c_fc.weight (C, 4C), .bias (4C)       h.N.mlp.c_proj.weight (4C, C), .bias (C)
// c_attn's output columns are Q, then K, then V; head h owns columns h·d … (h+1)·d − 1 of each
// (d = C / heads). Attention: softmax(Q_h K_hᵀ / √d) over the keys at or before each query.
// LayerNorm: (x − mean) / √(var + 1e-5) · weight + bias, var the mean square (not n − 1).
// GELU: GPT-2's tanh form, 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
//
// The head count is not in the shapes: it is `heads` when given, else the metadata's "n_head",
// else C / 64 (GPT-2's head size). load_gpt2() checks every tensor's presence, shape and values
// before it keeps one, and names the tensor and the shape it expected (input "model").
//
// A Gpt2Cache holds the keys and values of the tokens seen so far (a KV cache): append() runs the
// new tokens against them, adds a row of K and V per layer for each, and returns their logits and,
// per layer, their Q, K, V and attention weights, the explainer's steps for a real model.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common.hpp"
#include "safetensors.hpp"

namespace attn {

struct Gpt2Config {
  std::size_t vocab = 0, context = 0, width = 0, layers = 0, heads = 0;
  bool tied = true;  // the unembedding is wte (no lm_head.weight)
  std::size_t head_size() const { return heads ? width / heads : 0; }
};

// A weight matrix (rows × cols, as GPT-2's Conv1D stores it: input by output) kept in the form the
// products read: strips of 8 columns, each rows × 8 floats in a row, the last strip padded with
// zeros. A tile of tokens and a single generated token then both read the weights front to back,
// and no product has to copy them first.
struct PackedMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<float> strips;
  static PackedMatrix pack(const std::vector<float>& w, std::size_t rows, std::size_t cols);
};

// One block's weights; C is the width, d = C / heads a head's size.
struct Gpt2Block {
  std::vector<float> ln1_w, ln1_b;  // (C) the LayerNorm before attention
  PackedMatrix attn_w;              // (C, 3C) x → [Q | K | V], head h in columns h·d … of each
  std::vector<float> attn_b;        // (3C)
  PackedMatrix proj_w;              // (C, C) the heads' outputs, side by side → the residual
  std::vector<float> proj_b;        // (C)
  std::vector<float> ln2_w, ln2_b;  // (C) the LayerNorm before the MLP
  PackedMatrix fc_w;                // (C, 4C) the MLP's widening
  std::vector<float> fc_b;          // (4C)
  PackedMatrix out_w;               // (4C, C) the MLP's narrowing back to the residual
  std::vector<float> out_b;         // (C)
};

struct Gpt2 {
  Gpt2Config config;
  std::vector<float> wte;           // (vocab, C) token embedding, and the unembedding when tied
  std::vector<float> wpe;           // (context, C) learned position embedding
  std::vector<float> lnf_w, lnf_b;  // (C) the final LayerNorm
  std::vector<float> lm_head;       // (vocab, C) the unembedding; empty when tied
  std::vector<Gpt2Block> blocks;    // (layers)
};

// `read` false checks every tensor's presence and shape but reads none (a header read alone, by
// read_safetensors_header): the config it gives is the one a full load would.
Result<Gpt2> load_gpt2(const SafeTensors& file, std::size_t heads = 0, bool read = true);

// One layer's steps for the tokens an append ran; their keys and values, with every earlier
// token's, are the cache's own (Gpt2Cache::keys, values), not copied here.
struct Gpt2LayerSteps {
  std::vector<float> q;        // (n, C) the new tokens' queries
  std::vector<float> weights;  // (heads, n, t) row i: new token i's weights over the t tokens
};

struct Gpt2Steps {
  std::size_t first = 0;               // the position of the first new token
  std::vector<float> logits;           // (n, vocab)
  std::vector<Gpt2LayerSteps> layers;  // empty unless asked for
};

// −log₂ of the probability a row of logits (the vocabulary's) gives token `id`: how surprised
// the model is by it, in bits.
double surprisal_bits(const float* logits, std::size_t vocab, int id);

class Gpt2Cache {
 public:
  explicit Gpt2Cache(const Gpt2& model);
  std::size_t size() const { return size_; }  // tokens seen
  // Layer `layer`'s keys and values of every token seen, (size(), C): row t is position t's, head
  // h its columns h·d … (h+1)·d − 1. What generation reads instead of running the tokens again.
  const std::vector<float>& keys(std::size_t layer) const { return k_[layer]; }
  const std::vector<float>& values(std::size_t layer) const { return v_[layer]; }
  // Runs `tokens` after those seen. Errors: no tokens, a token outside the vocabulary (named by
  // its place), or more tokens in all than the model's context.
  Result<Gpt2Steps> append(const std::vector<int>& tokens, bool steps = false);

 private:
  const Gpt2& model_;
  std::size_t size_ = 0;
  std::vector<std::vector<float>> k_, v_;  // (layers) of (size_, C): the KV cache

  // Attention of layer `l` for the n new tokens (qkv (n, 3C)) into z (n, C); fills `steps`'
  // weights.
  void attend(std::size_t l, const float* qkv, std::size_t n, float* z, Gpt2LayerSteps* steps);
};

}  // namespace attn
