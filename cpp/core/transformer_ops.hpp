// The loops the transformer's passes are made of, over row-major arrays. Private to
// transformer*.cpp. Every inner loop runs over contiguous memory so the compiler vectorises it
// (Emscripten turns off the loop strength reduction that would rescue strided indexing).
#pragma once

#include <cmath>
#include <cstddef>

namespace attn::ops {

// c (n, m) = a (n, k) · w (k, m), or += when accumulate.
template <class T>
void matmul(const T* a, const T* w, T* c, std::size_t n, std::size_t k, std::size_t m,
            bool accumulate = false) {
  for (std::size_t i = 0; i < n; ++i) {
    T* out = c + i * m;
    if (!accumulate)
      for (std::size_t j = 0; j < m; ++j) out[j] = 0;
    const T* row = a + i * k;
    for (std::size_t p = 0; p < k; ++p) {
      const T x = row[p];
      const T* wr = w + p * m;
      for (std::size_t j = 0; j < m; ++j) out[j] += x * wr[j];
    }
  }
}

// dw (k, m) += aᵀ · g for a (n, k), g (n, m): the gradient of a weight matrix.
template <class T>
void matmul_tn_add(const T* a, const T* g, T* dw, std::size_t n, std::size_t k, std::size_t m) {
  for (std::size_t i = 0; i < n; ++i) {
    const T* row = a + i * k;
    const T* gr = g + i * m;
    for (std::size_t p = 0; p < k; ++p) {
      const T x = row[p];
      T* out = dw + p * m;
      for (std::size_t j = 0; j < m; ++j) out[j] += x * gr[j];
    }
  }
}

// Σ_t a[t]·b[t], in four interleaved sums so the additions do not wait on each other.
template <class T>
T dot(const T* a, const T* b, std::size_t n) {
  T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t t = 0;
  for (; t + 4 <= n; t += 4) {
    s0 += a[t] * b[t];
    s1 += a[t + 1] * b[t + 1];
    s2 += a[t + 2] * b[t + 2];
    s3 += a[t + 3] * b[t + 3];
  }
  for (; t < n; ++t) s0 += a[t] * b[t];
  return (s0 + s1) + (s2 + s3);
}

// da (n, k) = g (n, m) · wᵀ for w (k, m), or += when accumulate: the gradient of a layer's input.
template <class T>
void matmul_nt(const T* g, const T* w, T* da, std::size_t n, std::size_t k, std::size_t m,
               bool accumulate = false) {
  for (std::size_t i = 0; i < n; ++i) {
    const T* gr = g + i * m;
    T* out = da + i * k;
    for (std::size_t p = 0; p < k; ++p) {
      const T s = dot(gr, w + p * m, m);
      out[p] = accumulate ? out[p] + s : s;
    }
  }
}

constexpr double kLayerNormEps = 1e-5;

// y = gain ⊙ (x − mean) / √(var + ε) + bias over each row of x (n, d); keeps x̂ and 1/√(var + ε)
// for the backward pass. The variance is the mean of squared deviations, taken after the mean
// (the one-pass formula loses float32's digits when the mean is large).
template <class T>
void layer_norm(const T* x, const T* gain, const T* bias, T* xhat, T* rstd, T* y, std::size_t n,
                std::size_t d) {
  for (std::size_t i = 0; i < n; ++i) {
    const T* xr = x + i * d;
    T mean = 0, var = 0;
    for (std::size_t t = 0; t < d; ++t) mean += xr[t];
    mean /= static_cast<T>(d);
    for (std::size_t t = 0; t < d; ++t) var += (xr[t] - mean) * (xr[t] - mean);
    var /= static_cast<T>(d);
    const T r = static_cast<T>(1 / std::sqrt(static_cast<double>(var) + kLayerNormEps));
    rstd[i] = r;
    T* xh = xhat + i * d;
    T* yr = y + i * d;
    for (std::size_t t = 0; t < d; ++t) {
      xh[t] = (xr[t] - mean) * r;
      yr[t] = gain[t] * xh[t] + bias[t];
    }
  }
}

// dx (n, d) += the gradient through layer_norm, given dy; dgain and dbias accumulate.
// dx = r · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂)) with dx̂ = dy ⊙ gain.
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

// GELU, tanh form (Hendrycks & Gimpel), as GPT-2 uses it, and its derivative.
template <class T>
T gelu(T u) {
  const double c = 0.7978845608028654;  // √(2/π)
  const double x = static_cast<double>(u);
  return static_cast<T>(0.5 * x * (1 + std::tanh(c * (x + 0.044715 * x * x * x))));
}
template <class T>
T gelu_derivative(T u) {
  const double c = 0.7978845608028654;
  const double x = static_cast<double>(u);
  const double t = std::tanh(c * (x + 0.044715 * x * x * x));
  return static_cast<T>(0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x));
}

}  // namespace attn::ops
