// The matrix products every network in the core is made of, over row-major arrays: the trainer's
// passes (transformer*.cpp) and the language model runner (lm/gpt2.cpp, on gemm_packed). The
// operations between them, LayerNorm, GELU, softmax, are nn.hpp's. Every inner loop runs
// over contiguous memory, so that it vectorises and so that Emscripten, which turns off loop
// strength reduction, has no strided indexing to pay for.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace attn::ops {

// Every product below is one kernel: c (rows, cols) = A · b (or += when accumulate), where
// A(r, i) = a[r·a_row + i·a_inner] (so A may be a transposed view), b (inner, cols) has rows
// b_row apart and c rows c_row apart (so either may be one head's columns of a wider matrix).
// Columns from j_begin on; the float32 path (products.cpp) hands this the columns its
// 8-wide tiles leave over, and double (the gradient check) runs it all.
template <class T>
void gemm_scalar(const T* a, std::size_t a_row, std::size_t a_inner, const T* b, std::size_t b_row,
                 T* c, std::size_t c_row, std::size_t rows, std::size_t inner, std::size_t cols,
                 std::size_t j_begin, bool accumulate) {
  for (std::size_t r = 0; r < rows; ++r) {
    T* out = c + r * c_row;
    if (!accumulate)
      for (std::size_t j = j_begin; j < cols; ++j) out[j] = 0;
    for (std::size_t i = 0; i < inner; ++i) {
      const T x = a[r * a_row + i * a_inner];
      const T* br = b + i * b_row;
      for (std::size_t j = j_begin; j < cols; ++j) out[j] += x * br[j];
    }
  }
}

void gemm_f32(const float* a, std::size_t a_row, std::size_t a_inner, const float* b,
              std::size_t b_row, float* c, std::size_t c_row, std::size_t rows, std::size_t inner,
              std::size_t cols, bool accumulate);

// c (rows, cols) = A · b, or += when accumulate, for b packed in strips of 8 columns (strip s holds
// b's columns 8s … 8s + 7, `inner` rows of 8 floats; the last padded with zeros) and A(r, i) =
// a[r·a_row + i]. Each sum is added term by term in order of i, as gemm_f32's are.
void gemm_packed(const float* a, std::size_t a_row, const float* strips, float* c,
                 std::size_t c_row, std::size_t rows, std::size_t inner, std::size_t cols,
                 bool accumulate);

template <class T>
void gemm(const T* a, std::size_t a_row, std::size_t a_inner, const T* b, std::size_t b_row, T* c,
          std::size_t c_row, std::size_t rows, std::size_t inner, std::size_t cols,
          bool accumulate) {
  if constexpr (std::is_same_v<T, float>)
    gemm_f32(a, a_row, a_inner, b, b_row, c, c_row, rows, inner, cols, accumulate);
  else
    gemm_scalar(a, a_row, a_inner, b, b_row, c, c_row, rows, inner, cols, 0, accumulate);
}

// c (n, m) = a (n, k) · w (k, m), or += when accumulate.
template <class T>
void matmul(const T* a, const T* w, T* c, std::size_t n, std::size_t k, std::size_t m,
            bool accumulate = false) {
  gemm(a, k, 1, w, m, c, m, n, k, m, accumulate);
}

// dw (k, m) += aᵀ · g for a (n, k), g (n, m): the gradient of a weight matrix.
template <class T>
void matmul_tn_add(const T* a, const T* g, T* dw, std::size_t n, std::size_t k, std::size_t m) {
  gemm(a, 1, k, g, m, dw, m, k, n, m, true);
}

// da (n, k) = g (n, m) · wᵀ for w (k, m), or += when accumulate: the gradient of a layer's input.
// wᵀ is copied into `scratch` (k·m) first, so the product reads it row by row like the others.
template <class T>
void matmul_nt(const T* g, const T* w, T* da, std::size_t n, std::size_t k, std::size_t m,
               T* scratch, bool accumulate = false) {
  for (std::size_t p = 0; p < k; ++p)
    for (std::size_t j = 0; j < m; ++j) scratch[j * k + p] = w[p * m + j];
  gemm(g, m, 1, scratch, k, da, k, n, m, k, accumulate);
}

}  // namespace attn::ops
