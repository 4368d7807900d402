// The loops the transformer is made of (transformer_ops.hpp): the tiled float32 product against
// the plain one on sizes that leave partial tiles, LayerNorm's rows, and GELU at known points.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "rng.hpp"
#include "test_utils.hpp"
#include "transformer_ops.hpp"

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

TEST_CASE(
    "transformer ops: LayerNorm gives each row mean 0 and variance 1, and GELU is right at 0, 1 "
    "and −1",
    "[trainer]") {
  // Rows (1, 2, 3, 4) and (10, 10, 10, 14): means 2.5 and 11, variances 1.25 and 3.
  std::vector<double> x = {1, 2, 3, 4, 10, 10, 10, 14}, gain(4, 1), bias(4, 0), xhat(8), rstd(2),
                      y(8);
  ops::layer_norm(x.data(), gain.data(), bias.data(), xhat.data(), rstd.data(), y.data(), 2, 4);
  CHECK(y[0] == Approx(-1.5 / std::sqrt(1.25 + ops::kLayerNormEps)));
  CHECK(y[7] == Approx(3 / std::sqrt(3 + ops::kLayerNormEps)));
  CHECK(rstd[1] == Approx(1 / std::sqrt(3 + ops::kLayerNormEps)));
  // GELU (tanh form): 0 at 0, 0.8412 at 1 and −0.1588 at −1; float32's tanh agrees with double's.
  CHECK(ops::gelu(0.0) == 0);
  CHECK(ops::gelu(1.0) == Approx(0.841192).epsilon(1e-5));
  CHECK(ops::gelu(-1.0) == Approx(-0.158808).epsilon(1e-5));
  CHECK(ops::gelu(1.0f) == Approx(0.841192f).epsilon(1e-5));
  // Its derivative against a central difference.
  for (double u : {-2.0, -0.3, 0.0, 0.7, 3.0})
    CHECK(ops::gelu_derivative(u) ==
          Approx((ops::gelu(u + 1e-6) - ops::gelu(u - 1e-6)) / 2e-6).epsilon(1e-6));
}
