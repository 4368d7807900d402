// The matrix products the trainer and the runner are made of (products.hpp): the tiled float32
// product against the plain one on sizes that leave partial tiles and strided views. (LayerNorm,
// GELU and the other operations between them: test_nn.cpp.)
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "products.hpp"
#include "rng.hpp"
#include "test_utils.hpp"

using namespace attn;

TEST_CASE(
    "transformer ops: the tiled product equals the plain one, on partial tiles and strided views",
    "[trainer]") {
  Rng rng(7);
  for (std::size_t rows : {1u, 5u, 9u}) {
    for (std::size_t cols : {1u, 7u, 8u, 13u}) {
      const std::size_t inner = 11;
      std::vector<float> a(rows * inner), b(inner * cols), fast(rows * cols, 1),
          slow(rows * cols, 1);
      for (auto& x : a) x = static_cast<float>(rng.uniform(-1, 1));
      for (auto& x : b) x = static_cast<float>(rng.uniform(-1, 1));
      for (bool acc : {false, true}) {
        ops::gemm_f32(a.data(), inner, 1, b.data(), cols, fast.data(), cols, rows, inner, cols,
                      acc);
        ops::gemm_scalar(a.data(), inner, 1, b.data(), cols, slow.data(), cols, rows, inner, cols,
                         0, acc);
        for (std::size_t k = 0; k < fast.size(); ++k)
          CHECK(fast[k] == Approx(slow[k]).margin(1e-5));
      }
      // Aᵀ as a view (a_row 1, a_inner rows): the gradient of a weight matrix.
      std::vector<float> at(inner * rows);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < inner; ++i) at[i * rows + r] = a[r * inner + i];
      ops::gemm_f32(at.data(), 1, rows, b.data(), cols, fast.data(), cols, rows, inner, cols,
                    false);
      ops::gemm_scalar(a.data(), inner, 1, b.data(), cols, slow.data(), cols, rows, inner, cols, 0,
                       false);
      for (std::size_t k = 0; k < fast.size(); ++k) CHECK(fast[k] == Approx(slow[k]).margin(1e-5));
    }
  }
}
