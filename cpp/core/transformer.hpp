// The tiny transformer's forward and backward passes, written by hand (transformer_config.hpp has
// the architecture). T is float for training; the double instantiation exists so that the
// gradient check can compare against finite differences at double's precision.
//
// Shapes (N = batch · len rows, row r = b · len + i is position i of sequence b; D = d_model;
// H = heads; d_head = D / H; head h owns columns h·d_head … (h+1)·d_head − 1 of Q, K, V and Z):
//   tokens, targets  (batch, len)      targets[r] = the token position r should predict, or −1
//   x                (N, D)            the residual stream entering each layer
//   q, k, v, z       (N, D)            per layer; z = concat over heads of weights · V
//   weights          (batch, H, len, len)  per layer; row i is 0 beyond column i (causal)
//   probs            (N, vocab)        softmax of the logits, at every position
//
// Attention: scores = Q_h K_hᵀ / √d_head, masked causally (key j ≤ query i), softmax over each
// row (max-subtracted). An ablated head keeps its weights (so they can be shown) and contributes
// a zero output, forward and backward.
// Loss: the mean over positions with a target of −ln probs[r][target[r]].
//
// Memory: every buffer is sized at creation for max_batch sequences of seq_len and never grows;
// forward() takes any batch ≤ max_batch and len ≤ seq_len.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rng.hpp"
#include "transformer_config.hpp"

namespace attn {

template <class T>
struct LayerActivations {
  std::vector<T> x;          // (N, D) the layer's input
  std::vector<T> xhat1;      // (N, D) LN₁'s normalised input (layer_norm only)
  std::vector<T> rstd1;      // (N) 1/√(var + ε) of each row
  std::vector<T> h1;         // (N, D) LN₁(x), or empty: attention reads x itself
  std::vector<T> q, k, v;    // (N, D)
  std::vector<T> weights;    // (batch, H, len, len)
  std::vector<T> z;          // (N, D)
  std::vector<T> x_mid;      // (N, D) x + z·W_O (mlp only; otherwise the next layer's x)
  std::vector<T> xhat2;      // (N, D) LN₂ (mlp and layer_norm)
  std::vector<T> rstd2;      // (N)
  std::vector<T> h2;         // (N, D) LN₂(x_mid), or empty
  std::vector<T> pre, post;  // (N, 4·D) the MLP's hidden layer before and after its activation
};

template <class T>
struct Transformer {
  TransformerConfig config;
  ParameterOffsets offsets;
  std::size_t max_batch = 0;
  std::vector<T> params;              // (offsets.total) parameter_layout(config)
  std::vector<T> grads;               // (offsets.total) d loss / d params after backward()
  std::vector<std::uint8_t> ablated;  // (layers, heads) 1 = the head's output is zeroed

  // What the last forward() saw and computed.
  std::size_t batch = 0, len = 0;
  std::vector<int> tokens, targets;  // (batch, len)
  std::vector<LayerActivations<T>> layers;
  std::vector<T> x_final;              // (N, D) the stream after the last layer
  std::vector<T> xhat_f, rstd_f, h_f;  // LN_f (layer_norm only)
  std::vector<T> probs;                // (N, vocab)
  std::size_t target_count = 0;

  // Backward's scratch.
  std::vector<T> dx, dh, dq, dk, dv, dz;  // (N, D)
  std::vector<T> dhidden;                 // (N, 4·D), mlp only
  std::vector<T> dlogits;                 // (N, vocab)
  std::vector<T> drow;                    // (D) LayerNorm backward's dy ⊙ gain of one row
  std::vector<T> wt;  // (D · max(4·D, vocab, seq_len)) a weight matrix or K_h, V_h transposed
  std::vector<T> dscores;  // (seq_len, seq_len) one head's d loss / d weights, then / d scores
};

// A model for a config that passed check_transformer_config(), with every buffer allocated.
template <class T>
Transformer<T> make_transformer(const TransformerConfig& config, std::size_t max_batch);

// Draws every parameter from `rng`, in layout order: matrices uniform with variance 1/fan_in (so a
// product keeps its input's scale), embeddings uniform with variance 1 (so the stream starts at
// unit scale with or without LayerNorm, and first scores are neither flat nor saturated), LN
// gains 1, biases 0.
template <class T>
void init_parameters(Transformer<T>& model, Rng& rng);

// Runs the model on tokens and returns the loss (0 when no position has a target). Requires
// batch ≤ max_batch, len ≤ seq_len and every token below vocab; targets may be nullptr.
template <class T>
double forward(Transformer<T>& model, const int* tokens, const int* targets, std::size_t batch,
               std::size_t len);

// The gradient of the last forward()'s loss, written to model.grads (overwriting them).
template <class T>
void backward(Transformer<T>& model);

// Query i's weights over the keys of sequence b, head h, layer l, from the last forward(): len
// entries, 0 beyond i.
template <class T>
const T* weight_row(const Transformer<T>& model, std::size_t l, std::size_t b, std::size_t h,
                    std::size_t i) {
  const std::size_t len = model.len;
  return model.layers[l].weights.data() + ((b * model.config.heads + h) * len + i) * len;
}

}  // namespace attn
