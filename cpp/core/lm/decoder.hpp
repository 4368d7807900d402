// A decoder-only language model, run in float32: the one forward both families run, GPT-2's
// (gpt2.hpp) and the Llama family's (llama.hpp), which differ in four places a block has:
//   positions   GPT-2 adds a learned position embedding to the tokens'; Llama turns each head's q
//               and k by an angle of position × a frequency (rotary embeddings, RoPE), so a score
//               depends on how far apart two tokens are.
//   norms       GPT-2's LayerNorm, (x − mean) / √(var + ε) · w + b; Llama's RMSNorm, x / √(mean(x²)
//               + ε) · w, with no mean taken out and no bias (and, in Qwen3, each head's q and k
//               normalised so too, before they are turned).
//   heads       GPT-2 gives every query head its own key and value head; Llama's may share one
//               key/value head among a group of query heads (grouped-query attention), so the KV
//               cache holds only the key/value heads.
//   MLP         GPT-2's GELU between a widening and a narrowing; Llama's SwiGLU, SiLU(gate) ⊙ up,
//               then down.
// Both end in a final norm and the unembedding, tied to the token embedding unless the file has
// its own lm_head. The loaders map a family's tensor names onto DecoderBlock and check every shape.
//
// A KvCache holds the keys and values of the tokens seen so far: append() runs the new tokens
// against them, adds a row of K and V per layer for each, and returns their logits and, per layer,
// their Q and attention weights, the explainer's steps for a real model (the K and V are the
// cache's own). Q and K are as the scores use them: after RoPE.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common.hpp"

namespace attn {

enum class Family { gpt2, llama };

// Llama 3's stretching of RoPE to a longer context: wavelengths longer than original_context /
// low_freq_factor turn `factor` times slower, those shorter than original_context /
// high_freq_factor as before, and those between are blended smoothly. factor 0: no scaling.
struct RopeScaling {
  double factor = 0, low_freq_factor = 1, high_freq_factor = 4;
  std::size_t original_context = 0;
};

struct DecoderConfig {
  std::size_t vocab = 0, context = 0, width = 0, layers = 0, heads = 0;
  bool tied = true;  // the unembedding is the token embedding (no lm_head.weight)
  Family family = Family::gpt2;
  std::size_t kv_heads = 0;  // key/value heads, dividing `heads`; 0: one per query head
  std::size_t head_dim = 0;  // d, a head's size; 0: width / heads
  std::size_t mlp = 0;       // the MLP's hidden width; 0: 4 × width (GPT-2's)
  double norm_eps = 1e-5;    // the ε every norm adds (GPT-2's LayerNorm: 1e-5)
  double rope_theta = 0;     // RoPE's base: head pair i turns by position · θ^(−2i/d); 0: none
  RopeScaling rope_scaling;
  bool qk_norm = false;  // each head's q and k RMS-normalised before RoPE (Qwen3)

  std::size_t head_size() const { return head_dim ? head_dim : heads ? width / heads : 0; }
  std::size_t kv_head_count() const { return kv_heads ? kv_heads : heads; }
  std::size_t mlp_width() const { return mlp ? mlp : 4 * width; }
  std::size_t q_width() const { return heads * head_size(); }             // a token's Q
  std::size_t kv_width() const { return kv_head_count() * head_size(); }  // its K, and its V
  // The key/value head query head h reads: heads come in groups of heads / kv_heads.
  std::size_t kv_head_of(std::size_t h) const { return h / (heads / kv_head_count()); }
};

// A weight matrix (rows × cols, input by output: x · W) kept in the form the products read: strips
// of 8 columns, each rows × 8 floats in a row, the last strip padded with zeros. A tile of tokens
// and a single generated token then both read the weights front to back, and no product has to
// copy them first.
struct PackedMatrix {
  std::size_t rows = 0, cols = 0;
  std::vector<float> strips;
  // From w (rows, cols) row-major, as GPT-2's Conv1D stores it.
  static PackedMatrix pack(const std::vector<float>& w, std::size_t rows, std::size_t cols);
  // From PyTorch Linear weights (out, in), each an (out_k, rows) matrix, their outputs side by
  // side: the columns are the first's outputs, then the second's, … (q, k and v as one product).
  static PackedMatrix pack_linear(const std::vector<const std::vector<float>*>& ws,
                                  std::size_t rows);
};

// One block's weights. C is the width, H the query heads and G the key/value heads of d numbers,
// I the MLP's width. A bias absent from the file is empty.
struct DecoderBlock {
  std::vector<float> norm1_w, norm1_b;  // (C) the norm before attention (no bias in RMSNorm)
  PackedMatrix qkv_w;        // (C, (H + 2G)·d) x → [Q | K | V], head h at h·d … of each
  std::vector<float> qkv_b;  // ((H + 2G)·d)
  std::vector<float> q_norm, k_norm;  // (d) the RMSNorm of each head's q and of its k (Qwen3)
  PackedMatrix proj_w;                // (H·d, C) the heads' outputs, side by side → the residual
  std::vector<float> proj_b;          // (C)
  std::vector<float> norm2_w, norm2_b;  // (C) the norm before the MLP
  PackedMatrix fc_w;                    // (C, I) GELU's widening, or (C, 2I) SwiGLU's [gate | up]
  std::vector<float> fc_b;              // (I)
  PackedMatrix out_w;                   // (I, C) the MLP's narrowing back to the residual
  std::vector<float> out_b;             // (C)
};

struct Decoder {
  DecoderConfig config;
  std::vector<float> wte;             // (vocab, C) token embedding, and the unembedding when tied
  std::vector<float> wpe;             // (context, C) learned position embedding; empty with RoPE
  std::vector<float> norm_w, norm_b;  // (C) the final norm
  std::vector<float> lm_head;         // (vocab, C) the unembedding; empty when tied
  std::vector<DecoderBlock> blocks;   // (layers)
};

// RoPE's frequency of each of a head's d / 2 pairs (coordinates i and i + d/2, as Hugging Face
// pairs them), θ^(−2i/d) in float32 as PyTorch computes it, with Llama 3's scaling; empty for a
// model of learned positions.
std::vector<float> rope_frequencies(const DecoderConfig& config);

// One layer's steps for the tokens an append ran; their keys and values, with every earlier
// token's, are the cache's own (KvCache::keys, values), not copied here.
struct LayerSteps {
  std::vector<float> q;        // (n, H·d) the new tokens' queries
  std::vector<float> weights;  // (heads, n, t) row i: new token i's weights over the t tokens
};

struct DecoderSteps {
  std::size_t first = 0;           // the position of the first new token
  std::vector<float> logits;       // (n, vocab)
  std::vector<LayerSteps> layers;  // empty unless asked for
};

// −log₂ of the probability a row of logits (the vocabulary's) gives token `id`: how surprised
// the model is by it, in bits.
double surprisal_bits(const float* logits, std::size_t vocab, int id);

class KvCache {
 public:
  explicit KvCache(const Decoder& model);
  std::size_t size() const { return size_; }  // tokens seen
  // Layer `layer`'s keys and values of every token seen, (size(), G·d): row t is position t's,
  // key/value head g its columns g·d … (g+1)·d − 1. What generation reads instead of running the
  // tokens again.
  const std::vector<float>& keys(std::size_t layer) const { return k_[layer]; }
  const std::vector<float>& values(std::size_t layer) const { return v_[layer]; }
  // Runs `tokens` after those seen. Errors: no tokens, a token outside the vocabulary (named by
  // its place), or more tokens in all than the model's context.
  Result<DecoderSteps> append(const std::vector<int>& tokens, bool steps = false);

 private:
  const Decoder& model_;
  std::vector<float> frequencies_;  // (d / 2) RoPE's, empty for learned positions
  std::size_t size_ = 0;
  std::vector<std::vector<float>> k_, v_;  // (layers) of (size_, G·d): the KV cache

  // Normalises each head's q and k (Qwen3) and turns them by their positions (RoPE), in place in
  // qkv (n, (H + 2G)·d); `turns` (n, d) holds each position's cosines and sines (empty: no RoPE).
  void position(const DecoderBlock& b, float* qkv, std::size_t n,
                const std::vector<float>& turns) const;
  // Attention of layer `l` for the n new tokens (qkv (n, (H + 2G)·d)) into z (n, H·d); fills
  // `steps`' weights.
  void attend(std::size_t l, const float* qkv, std::size_t n, float* z, LayerSteps* steps);
};

}  // namespace attn
