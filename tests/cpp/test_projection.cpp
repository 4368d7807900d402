#include <cmath>
#include <vector>

#include "projection.hpp"
#include "rng.hpp"
#include "test_utils.hpp"

using namespace attn;
using attn::test::approx;
using attn::test::mat;

namespace {
Plane run(const Matrix& values, const Matrix& outputs) {
  auto r = project_2d(values, outputs);
  INFO(r.error().message);
  REQUIRE(r.ok());
  return r.value();
}
}  // namespace

TEST_CASE("projection: points already in a plane keep their distances", "[projection]") {
  // Points in the x–y plane of 3-D space, spread more along x than y.
  const Matrix values = mat({{-4, 0, 0}, {4, 0, 0}, {0, 1, 0}});
  const Matrix outputs = mat({{0, -1, 0}});
  const Plane p = run(values, outputs);
  CHECK(p.mean(0) == approx(0));
  CHECK(p.mean(2) == approx(0));
  // The first axis is x (largest spread), the second y; signs make the largest component positive.
  CHECK(p.axes(0, 0) == approx(1));
  CHECK(p.axes(1, 1) == approx(1));
  CHECK(p.values_2d(0, 0) == approx(-4));
  CHECK(p.values_2d(1, 0) == approx(4));
  CHECK(p.values_2d(2, 1) == approx(1));
  CHECK(p.outputs_2d(0, 1) == approx(-1));
  CHECK(p.variance(0) == approx(32.0 / 4));  // (16 + 16 + 0 + 0) / 4
  CHECK(p.variance(1) == approx(2.0 / 4));
  CHECK(p.total_variance == approx(34.0 / 4));
}

TEST_CASE("projection: axes are orthonormal and the first holds the most variance",
          "[projection]") {
  Rng rng(3);
  Matrix values = Matrix::from_shape({6, 5}), outputs = Matrix::from_shape({6, 5});
  for (auto& x : values) x = rng.uniform(-1, 1);
  for (auto& x : outputs) x = rng.uniform(-1, 1);
  const Plane p = run(values, outputs);
  double n1 = 0, n2 = 0, cross = 0;
  for (std::size_t t = 0; t < 5; ++t) {
    n1 += p.axes(0, t) * p.axes(0, t);
    n2 += p.axes(1, t) * p.axes(1, t);
    cross += p.axes(0, t) * p.axes(1, t);
  }
  CHECK(n1 == approx(1));
  CHECK(n2 == approx(1));
  CHECK(cross == Approx(0).margin(1e-12));
  CHECK(p.variance(0) >= p.variance(1));
  CHECK(p.variance(0) + p.variance(1) <= p.total_variance + 1e-12);
  // No direction holds more variance than the first axis: try every basis vector.
  for (std::size_t t = 0; t < 5; ++t) {
    double v = 0, mean = 0;
    for (std::size_t r = 0; r < 6; ++r) mean += values(r, t) + outputs(r, t);
    mean /= 12;
    for (std::size_t r = 0; r < 6; ++r)
      v += std::pow(values(r, t) - mean, 2) + std::pow(outputs(r, t) - mean, 2);
    CHECK(v / 12 <= p.variance(0) + 1e-12);
  }
}

TEST_CASE("projection: collinear and equal and one-dimensional points", "[projection]") {
  const Plane line = run(mat({{1, 1}, {2, 2}}), mat({{3, 3}}));
  CHECK(line.axes(0, 0) == approx(std::sqrt(0.5)));
  CHECK(line.values_2d(0, 1) == Approx(0).margin(1e-12));
  CHECK(line.outputs_2d(0, 0) == approx(std::sqrt(2.0)));

  const Plane same = run(mat({{2, 5}, {2, 5}}), mat({{2, 5}}));
  CHECK(same.values_2d(0, 0) == 0);
  CHECK(same.outputs_2d(0, 1) == 0);

  const Plane one = run(mat({{1}, {3}}), mat({{2}}));
  CHECK(one.axes(0, 0) == 1);
  CHECK(one.axes(1, 0) == 0);
  CHECK(one.values_2d(0, 0) == approx(-1));
  CHECK(one.values_2d(1, 0) == approx(1));
}

TEST_CASE("projection: errors for shapes and non-finite points", "[projection][errors]") {
  auto r = project_2d(mat({{1, 2}}), mat({{1, 2, 3}}));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::shape_mismatch);
  r = project_2d(Matrix::from_shape({0, 2}), mat({{1, 2}}));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::empty_input);
  r = project_2d(mat({{1, 2}}), mat({{1, std::numeric_limits<double>::infinity()}}));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::not_finite);
  CHECK(r.error().input == "output");
}

TEST_CASE("projection: more dimensions than points gives the same plane", "[projection]") {
  // The first test's points in 6-D: 4 points, 6 features, so the Gram matrix is the smaller one.
  const Matrix values = mat({{-4, 0, 0, 0, 0, 0}, {4, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0}});
  const Matrix outputs = mat({{0, -1, 0, 0, 0, 0}});
  const Plane p = run(values, outputs);
  CHECK(p.axes(0, 0) == approx(1));
  CHECK(p.axes(1, 1) == approx(1));
  for (std::size_t t = 2; t < 6; ++t) {
    CHECK(p.axes(0, t) == Approx(0).margin(1e-12));
    CHECK(p.axes(1, t) == Approx(0).margin(1e-12));
  }
  CHECK(p.values_2d(0, 0) == approx(-4));
  CHECK(p.values_2d(2, 1) == approx(1));
  CHECK(p.outputs_2d(0, 1) == approx(-1));
  CHECK(p.variance(0) == approx(8));
  CHECK(p.variance(1) == approx(0.5));

  // Random points both ways round agree on the variance the plane holds.
  Rng rng(12);
  Matrix wide = Matrix::from_shape({3, 9}), wide_out = Matrix::from_shape({2, 9});
  for (auto& x : wide) x = rng.uniform(-1, 1);
  for (auto& x : wide_out) x = rng.uniform(-1, 1);
  const Plane w = run(wide, wide_out);
  double n1 = 0, cross = 0;
  for (std::size_t t = 0; t < 9; ++t) {
    n1 += w.axes(0, t) * w.axes(0, t);
    cross += w.axes(0, t) * w.axes(1, t);
  }
  CHECK(n1 == approx(1));
  CHECK(cross == Approx(0).margin(1e-12));
  CHECK(w.variance(0) >= w.variance(1));
  CHECK(w.variance(0) + w.variance(1) <= w.total_variance + 1e-12);
}

TEST_CASE("projection: huge or tiny points give the same plane as ordinary ones", "[projection]") {
  // Three values and an output in 3-D (and the same in 5-D, more dimensions than points: the
  // Gram path). Their plane is not the (x, y) plane, so an answer that falls back to the basis
  // vectors is caught. Times 1e80 the fourth powers the axes are found with overflow; times
  // 1e-90 they underflow to 0.
  for (const bool gram : {false, true}) {
    const Matrix values = gram ? mat({{1, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 1, 1, 0, 0}})
                               : mat({{1, 0, 0}, {0, 1, 0}, {1, 1, 1}});
    const Matrix outputs = gram ? mat({{0.5, 0.25, 0, 0, 0}}) : mat({{0.5, 0.25, 0}});
    const Plane base = run(values, outputs);
    INFO("gram: " << gram);
    CHECK(std::abs(base.axes(0, 2)) > 0.3);  // not the (x, y) plane
    for (const double s : {1e80, 1e-90, 1e150}) {
      INFO("scale: " << s);
      const Plane p = run(values * s, outputs * s);
      for (std::size_t k = 0; k < 2; ++k)
        for (std::size_t t = 0; t < values.shape()[1]; ++t)
          CHECK(p.axes(k, t) == Approx(base.axes(k, t)).margin(1e-12));
      for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t k = 0; k < 2; ++k)
          CHECK(p.values_2d(r, k) / s == Approx(base.values_2d(r, k)).margin(1e-12));
      CHECK(p.outputs_2d(0, 0) / s == Approx(base.outputs_2d(0, 0)).margin(1e-12));
    }
  }
}

TEST_CASE("projection: two nearly equal spreads still give their own directions as the axes",
          "[projection]") {
  // Spreads of 1 and 0.999 along two directions (and 0.1 along a third) of a rotated basis of 4-D
  // space: iterating alone would leave the two axes mixed, since 0.999^1000 is still 0.37; the
  // final rotation within their plane must turn them onto the two directions.
  Rng rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<std::vector<double>> u;  // orthonormal, by Gram–Schmidt on random vectors
    while (u.size() < 3) {
      std::vector<double> w(4);
      for (auto& x : w) x = rng.uniform(-1, 1);
      for (const auto& b : u) {
        double d = 0;
        for (int t = 0; t < 4; ++t) d += w[t] * b[t];
        for (int t = 0; t < 4; ++t) w[t] -= d * b[t];
      }
      double len = 0;
      for (double x : w) len += x * x;
      len = std::sqrt(len);
      if (len < 0.1) continue;
      for (auto& x : w) x /= len;
      u.push_back(w);
    }
    const double spread[] = {1.0, std::sqrt(0.999), std::sqrt(0.1)};
    Matrix values = Matrix::from_shape({6, 4});
    for (int k = 0; k < 3; ++k)
      for (int t = 0; t < 4; ++t) {
        values(2 * k, t) = spread[k] * u[k][t];
        values(2 * k + 1, t) = -spread[k] * u[k][t];
      }
    const Plane p = run(values, mat({{0, 0, 0, 0}}));  // 7 points, mean 0
    INFO("trial " << trial);
    for (int a = 0; a < 2; ++a) {
      double along = 0;
      for (int t = 0; t < 4; ++t) along += p.axes(a, t) * u[a][t];
      CHECK(std::abs(along) == Approx(1).epsilon(1e-9));
    }
    CHECK(p.variance(0) == Approx(2.0 / 7).epsilon(1e-9));
    CHECK(p.variance(1) == Approx(2 * 0.999 / 7).epsilon(1e-9));
  }
}

TEST_CASE("projection: the plane shows 20/21 of variances 8/6 and 2/6 and 0.5/6",
          "[projection][shown]") {
  // Six points at ±2 on x, ±1 on y, ±0.5 on z: variances (8, 2, 0.5) / 6. The plane holds x and
  // y, so it shows (8 + 2) / (8 + 2 + 0.5) = 20/21 of the total.
  const Plane p =
      run(mat({{2, 0, 0}, {0, 1, 0}, {0, 0, 0.5}}), mat({{-2, 0, 0}, {0, -1, 0}, {0, 0, -0.5}}));
  CHECK(p.variance(0) == approx(8.0 / 6));
  CHECK(p.variance(1) == approx(2.0 / 6));
  CHECK(p.total_variance == approx(10.5 / 6));
  CHECK(p.shown == approx(20.0 / 21));
}

TEST_CASE("projection: points in a plane or all equal show all of it", "[projection][shown]") {
  CHECK(run(mat({{-4, 0, 0}, {4, 0, 0}, {0, 1, 0}}), mat({{0, -1, 0}})).shown == approx(1));
  CHECK(run(mat({{1, 2, 3}, {2, 4, 6}}), mat({{3, 6, 9}})).shown == approx(1));  // on a line
  const Plane same = run(mat({{1, 2, 3}, {1, 2, 3}}), mat({{1, 2, 3}}));
  CHECK(same.total_variance == 0);
  CHECK(same.shown == 1);  // nothing to hide
}
