// AdamW (Loshchilov & Hutter 2019) with the gradient clipped to a largest global norm first.
//
//   g ← g · min(1, clip / ‖g‖₂)            over all parameters at once (clip ≤ 0: no clipping)
//   m ← β₁·m + (1 − β₁)·g                  v ← β₂·v + (1 − β₂)·g²
//   p ← p − lr · (m̂ / (√v̂ + ε) + λ·p)      m̂, v̂ bias-corrected; λ only where TensorInfo::decay
//
// Decay is decoupled from the gradient (the "W" of AdamW), so it shrinks matrices at the same rate
// whatever the scale of their gradients, and it leaves gains, biases and embeddings alone.
#pragma once

#include <cstddef>
#include <vector>

#include "transformer_config.hpp"

namespace attn {

struct OptimizerConfig {
  double learning_rate = 1e-2;  // what every convergence test here trains with
  double beta1 = 0.9;
  double beta2 = 0.98;
  double epsilon = 1e-8;
  double weight_decay = 0.01;
  double clip = 1.0;  // largest global gradient norm
};

// An error naming the field ("learningRate", "beta1", "beta2", "epsilon", "weightDecay", "clip")
// that is not finite or out of its range; nullopt if all are sound.
std::optional<Error> check_optimizer_config(const OptimizerConfig& config);

class AdamW {
 public:
  AdamW() = default;
  AdamW(const OptimizerConfig& config, const std::vector<TensorInfo>& layout, std::size_t size);

  // One update of `params` from `grads` (both `size` long). Returns the gradient's global norm
  // before clipping; when that is not finite, nothing is updated (one NaN would spread to every
  // weight through the clipping) and the step is not counted.
  double step(float* params, float* grads);

  std::size_t steps() const { return steps_; }

 private:
  OptimizerConfig config_;
  std::vector<float> m_, v_;
  std::vector<float> decay_;  // (size) λ where the tensor decays, else 0
  std::size_t steps_ = 0;
};

}  // namespace attn
