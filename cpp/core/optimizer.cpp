#include "optimizer.hpp"

#include <cmath>
#include <string>

namespace attn {

std::optional<Error> check_optimizer_config(const OptimizerConfig& c) {
  struct Field {
    const char* name;
    double value, lo, hi;
    bool lo_open, hi_open;  // whether the bound itself is excluded
  };
  // Each range is where AdamW's formulas mean something: β = 1 would never forget a gradient,
  // ε = 0 divides by zero where a parameter never had one, and clip = 0 turns clipping off.
  const Field fields[] = {
      {"learningRate", c.learning_rate, 0, 1, true, false},
      {"beta1", c.beta1, 0, 1, false, true},
      {"beta2", c.beta2, 0, 1, false, true},
      {"epsilon", c.epsilon, 0, 1, true, false},
      {"weightDecay", c.weight_decay, 0, 1, false, false},
      {"clip", c.clip, 0, 1e6, false, false},
  };
  for (const Field& f : fields) {
    const bool ok = std::isfinite(f.value) && (f.lo_open ? f.value > f.lo : f.value >= f.lo) &&
                    (f.hi_open ? f.value < f.hi : f.value <= f.hi);
    if (!ok)
      return make_error(ErrorCode::bad_argument, f.name, -1, -1,
                        std::string(f.name) + ": " + number_text(f.value) + "; it must be " +
                            (f.lo_open ? "above " : "at least ") + number_text(f.lo) +
                            (f.hi_open ? " and below " : " and at most ") + number_text(f.hi) +
                            ".");
  }
  return std::nullopt;
}

AdamW::AdamW(const OptimizerConfig& config, const std::vector<TensorInfo>& layout, std::size_t size)
    : config_(config), m_(size, 0.0f), v_(size, 0.0f), decay_(size, 0.0f) {
  for (const TensorInfo& t : layout)
    if (t.decay)
      for (std::size_t i = 0; i < t.size(); ++i)
        decay_[t.offset + i] = static_cast<float>(config.weight_decay);
}

double AdamW::step(float* params, float* grads) {
  const std::size_t n = m_.size();
  double sq = 0;
  for (std::size_t i = 0; i < n; ++i) sq += static_cast<double>(grads[i]) * grads[i];
  const double norm = std::sqrt(sq);
  if (!std::isfinite(norm)) return norm;
  const double clip_scale = config_.clip > 0 && norm > config_.clip ? config_.clip / norm : 1.0;
  ++steps_;
  const double t = static_cast<double>(steps_);
  const float b1 = static_cast<float>(config_.beta1), b2 = static_cast<float>(config_.beta2);
  // The bias corrections folded into one step size and one ε, as in Kingma & Ba's Algorithm 1
  // (their "more efficient" ordering): the same update with two multiplies fewer per parameter.
  const double c1 = 1 - std::pow(config_.beta1, t), c2 = 1 - std::pow(config_.beta2, t);
  const float lr = static_cast<float>(config_.learning_rate);
  const float alpha = static_cast<float>(config_.learning_rate * std::sqrt(c2) / c1);
  const float eps = static_cast<float>(config_.epsilon * std::sqrt(c2));
  const float s = static_cast<float>(clip_scale);
  for (std::size_t i = 0; i < n; ++i) {
    const float g = grads[i] * s;
    m_[i] = b1 * m_[i] + (1 - b1) * g;
    v_[i] = b2 * v_[i] + (1 - b2) * g * g;
    params[i] -= alpha * m_[i] / (std::sqrt(v_[i]) + eps) + lr * decay_[i] * params[i];
  }
  return norm;
}

}  // namespace attn
