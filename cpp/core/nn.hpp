// The operations the core's networks are made of, each defined once: the trainer's tiny
// transformer (transformer.cpp, in float and, for its gradient check, double), the language
// model runner (gpt2.cpp, float32) and the next-token numbers read from its logits. So the stacks
// cannot drift apart, and a model family that needs another (RMSNorm and SiLU, for the Llama
// family) finds it here. The products they run on are in products.hpp.
//
// All work on rows of a row-major array in place or into another; none allocates.
// tests/cpp/test_nn.cpp checks each on numbers that can be worked out by hand.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

namespace attn::nn {

// GPT-2's LayerNorm eps, which the trainer's models share.
constexpr double kLayerNormEps = 1e-5;

template <class T>
struct SoftmaxRow {
  T max;  // the row's largest entry, subtracted before exp so that exp cannot overflow
  T sum;  // Σ exp(x − max), at least 1: log(sum) + max is the row's log-sum-exp
};

// x[0 … n) ← softmax(x), in place. A causal row is its first i + 1 keys: the caller passes
// n = i + 1 and the weights after them stay as they are (0).
template <class T>
SoftmaxRow<T> softmax(T* x, std::size_t n) {
  T max = -std::numeric_limits<T>::infinity();
  for (std::size_t j = 0; j < n; ++j) max = x[j] > max ? x[j] : max;
  T sum = 0;
  for (std::size_t j = 0; j < n; ++j) sum += (x[j] = std::exp(x[j] - max));
  const T inv = 1 / sum;
  for (std::size_t j = 0; j < n; ++j) x[j] *= inv;
  return {max, sum};
}

// log Σ exp(x) over a row of float32 logits, kept as its two parts: the largest logit and
// Σ exp(x − top), summed in double. A token's log-probability, (x − top) − log(total), stays
// finite when its probability rounds to 0 in float32; and with logits near float32's limit, where
// top + log(total) rounds back to top (even in double), exp(x − top) / total still gives two equal
// logits 1/2 each where exp(x − (top + log total)) would give them 1 each.
struct LogSumExp {
  double top = 0, total = 1;
  double value() const { return top + std::log(total); }
  double log_probability(float x) const { return (static_cast<double>(x) - top) - std::log(total); }
  double probability(float x) const { return std::exp(static_cast<double>(x) - top) / total; }
};

inline LogSumExp log_sum_exp(const float* x, std::size_t n) {
  const float top = *std::max_element(x, x + n);
  double total = 0;
  for (std::size_t j = 0; j < n; ++j) total += std::exp(static_cast<double>(x[j] - top));
  return {static_cast<double>(top), total};
}

// LayerNorm: y = gain ⊙ (x − mean) / √(var + eps) + bias over each row of x (n, d), the variance
// the mean of squared deviations, taken after the mean (the one-pass formula loses float32's
// digits when the mean is large). `Acc` is what the mean and variance are summed in: double for
// the runner, as PyTorch's kernels do; the trainer's own T, for its speed. x̂ and 1/√(var + eps)
// are kept in xhat and rstd when given, for the backward pass. GPT-2's eps is 1e-5.
template <class T, class Acc = T>
void layer_norm(const T* x, const T* gain, const T* bias, T* y, std::size_t n, std::size_t d,
                double eps, T* xhat = nullptr, T* rstd = nullptr) {
  for (std::size_t i = 0; i < n; ++i) {
    const T* xr = x + i * d;
    Acc mean = 0, var = 0;
    for (std::size_t t = 0; t < d; ++t) mean += xr[t];
    mean /= static_cast<Acc>(d);
    for (std::size_t t = 0; t < d; ++t) var += (xr[t] - mean) * (xr[t] - mean);
    var /= static_cast<Acc>(d);
    const T r = static_cast<T>(1 / std::sqrt(static_cast<double>(var) + eps));
    const T m = static_cast<T>(mean);
    if (rstd) rstd[i] = r;
    T* yr = y + i * d;
    for (std::size_t t = 0; t < d; ++t) {
      const T h = (xr[t] - m) * r;
      if (xhat) xhat[i * d + t] = h;
      yr[t] = gain[t] * h + bias[t];
    }
  }
}

// dx (n, d) += the gradient through layer_norm, given dy and what it kept; dgain and dbias
// accumulate. dx = r · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂)) with dx̂ = dy ⊙ gain.
template <class T>
void layer_norm_backward(const T* dy, const T* xhat, const T* rstd, const T* gain, T* dx, T* dgain,
                         T* dbias, T* scratch, std::size_t n, std::size_t d) {
  for (std::size_t i = 0; i < n; ++i) {
    const T* dyr = dy + i * d;
    const T* xh = xhat + i * d;
    T mean_d = 0, mean_dx = 0;
    for (std::size_t t = 0; t < d; ++t) {
      dgain[t] += dyr[t] * xh[t];
      dbias[t] += dyr[t];
      scratch[t] = dyr[t] * gain[t];
      mean_d += scratch[t];
      mean_dx += scratch[t] * xh[t];
    }
    mean_d /= static_cast<T>(d);
    mean_dx /= static_cast<T>(d);
    T* out = dx + i * d;
    for (std::size_t t = 0; t < d; ++t) out[t] += rstd[i] * (scratch[t] - mean_d - xh[t] * mean_dx);
  }
}

// RMSNorm, as the Llama family normalises: y = gain ⊙ x / √(mean(x²) + eps) over each row of x
// (n, d), the mean of squares summed in Acc. No mean is taken out and there is no bias.
template <class T, class Acc = T>
void rms_norm(const T* x, const T* gain, T* y, std::size_t n, std::size_t d, double eps) {
  for (std::size_t i = 0; i < n; ++i) {
    const T* xr = x + i * d;
    Acc squares = 0;
    for (std::size_t t = 0; t < d; ++t) squares += static_cast<Acc>(xr[t]) * xr[t];
    const T r =
        static_cast<T>(1 / std::sqrt(static_cast<double>(squares) / static_cast<double>(d) + eps));
    T* yr = y + i * d;
    for (std::size_t t = 0; t < d; ++t) yr[t] = gain[t] * (xr[t] * r);
  }
}

// tanh from one exp: 1 − 2/(e^{2y} + 1), exact at ±∞ (e^{2y} overflows to ∞ or underflows to
// 0). In float32 this is absolute error ~1e-7, all GELU needs; libm's double tanh took half of a
// GELU model's training step. double (the gradient check) keeps std::tanh.
template <class T>
T tanh_of(T y) {
  if constexpr (std::is_same_v<T, float>)
    return 1.0f - 2.0f / (std::exp(2.0f * y) + 1.0f);
  else
    return std::tanh(y);
}

// GELU in its tanh form (Hendrycks & Gimpel), as GPT-2 computes it, and its derivative.
constexpr double kGeluC = 0.7978845608028654;  // √(2/π)
template <class T>
T gelu(T u) {
  const T c = static_cast<T>(kGeluC), k = static_cast<T>(0.044715);
  return static_cast<T>(0.5) * u * (1 + tanh_of(c * (u + k * u * u * u)));
}
template <class T>
T gelu_derivative(T u) {
  const T c = static_cast<T>(kGeluC), k = static_cast<T>(0.044715);
  const T t = tanh_of(c * (u + k * u * u * u));
  const T half = static_cast<T>(0.5);
  return half * (1 + t) + half * u * (1 - t * t) * c * (1 + 3 * k * u * u);
}

// SiLU (swish), the gate of the Llama family's MLP: x · sigmoid(x) = x / (1 + e^{−x}). For x far
// below 0, e^{−x} is ∞ and the result −0, its limit.
template <class T>
T silu(T x) {
  return x / (1 + std::exp(-x));
}

}  // namespace attn::nn
