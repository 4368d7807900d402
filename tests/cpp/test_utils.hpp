// Shared test helpers: one tolerance for every comparison, and matrix builders.
#pragma once

#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>

#include "common.hpp"

namespace attn::test {

// Native and wasm libm differ by up to ~3e-16 relative; hand-computed values are exact to far
// better than this. Never compare doubles with == across platforms.
constexpr double tolerance = 1e-12;

inline Approx approx(double x) { return Approx(x).epsilon(tolerance).margin(1e-15); }

// A matrix from rows written inline: mat({{1, 2}, {3, 4}}).
inline Matrix mat(std::initializer_list<std::initializer_list<double>> rows) {
  const std::size_t n = rows.size();
  const std::size_t d = n ? rows.begin()->size() : 0;
  Matrix out = Matrix::from_shape({n, d});
  std::size_t i = 0;
  for (const auto& row : rows) {
    std::size_t j = 0;
    for (double x : row) out(i, j++) = x;
    ++i;
  }
  return out;
}

// Element-wise closeness of two matrices of the same shape.
inline void require_close(const Matrix& actual, const Matrix& expected, double eps = tolerance) {
  REQUIRE(actual.shape()[0] == expected.shape()[0]);
  REQUIRE(actual.shape()[1] == expected.shape()[1]);
  for (std::size_t i = 0; i < actual.shape()[0]; ++i)
    for (std::size_t j = 0; j < actual.shape()[1]; ++j) {
      INFO("cell (" << i << ", " << j << ")");
      REQUIRE(actual(i, j) == Approx(expected(i, j)).epsilon(eps).margin(1e-14));
    }
}

}  // namespace attn::test
