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

namespace {
using Axis = std::vector<double>;

Axis unit(Axis v) {
  double len = 0;
  for (const double x : v) len += x * x;
  for (double& x : v) x /= std::sqrt(len);
  return v;
}

// N points (N a power of two) p_i = Σ_k c_k·H(i, k + 1)·w_k, H the N×N Sylvester–Hadamard matrix
// (H(i, j) = (−1)^popcount(i & j)), whose columns past the first are orthogonal and sum to 0.
// So the points' mean is 0 and their covariance is exactly Σ_k c_k²·w_k·w_kᵀ for orthogonal
// w_k: its eigenvectors are the w_k whatever the c_k, and c_k = √(λ_k / |w_k|²) gives them the
// eigenvalues λ_k. The first N/2 points are the values, the rest the outputs; `pad` zero
// features after the w_k's put the same points in more dimensions than there are points, where
// the plane is found from the Gram matrix.
std::pair<Matrix, Matrix> points_with(const std::vector<Axis>& w, const std::vector<double>& lambda,
                                      std::size_t N, std::size_t pad = 0) {
  const std::size_t d = w[0].size();
  Matrix all = xt::zeros<double>({N, d + pad});
  for (std::size_t k = 0; k < w.size(); ++k) {
    double len2 = 0;
    for (const double x : w[k]) len2 += x * x;
    const double c = std::sqrt(lambda[k] / len2);
    for (std::size_t i = 0; i < N; ++i) {
      const double h = __builtin_popcount(static_cast<unsigned>(i & (k + 1))) % 2 ? -1 : 1;
      for (std::size_t t = 0; t < d; ++t) all(i, t) += h * c * w[k][t];
    }
  }
  Matrix values = Matrix::from_shape({N / 2, d + pad}), outputs = values;
  for (std::size_t i = 0; i < N / 2; ++i)
    for (std::size_t t = 0; t < d + pad; ++t) {
      values(i, t) = all(i, t);
      outputs(i, t) = all(N / 2 + i, t);
    }
  return {values, outputs};
}

// ‖P − P̂‖₂, P and P̂ the orthogonal projections onto span(e1, e2) and onto the plane's axes (the
// sine of the largest angle between the two planes), from the part of the axes outside span(e1,
// e2): accurate for tiny angles, where 1 − cos² is not.
double plane_error(const Plane& p, const Axis& e1, const Axis& e2) {
  const std::size_t d = p.axes.shape()[1];
  double r[2][64] = {};
  for (int a = 0; a < 2; ++a) {
    double p1 = 0, p2 = 0;
    for (std::size_t t = 0; t < d; ++t) {
      const double x = p.axes(a, t), y1 = t < e1.size() ? e1[t] : 0, y2 = t < e2.size() ? e2[t] : 0;
      p1 += x * y1;
      p2 += x * y2;
    }
    for (std::size_t t = 0; t < d; ++t)
      r[a][t] = p.axes(a, t) - p1 * (t < e1.size() ? e1[t] : 0) - p2 * (t < e2.size() ? e2[t] : 0);
  }
  double g11 = 0, g12 = 0, g22 = 0;
  for (std::size_t t = 0; t < d; ++t) {
    g11 += r[0][t] * r[0][t];
    g12 += r[0][t] * r[1][t];
    g22 += r[1][t] * r[1][t];
  }
  const double half = (g11 + g22) / 2;
  return std::sqrt(half + std::sqrt(std::max(0.0, half * half - (g11 * g22 - g12 * g12))));
}

void check_axes(const Plane& p, const Axis& e1, const Axis& e2, double margin) {
  for (std::size_t t = 0; t < p.axes.shape()[1]; ++t) {
    INFO("feature " << t);
    CHECK(p.axes(0, t) == Approx(t < e1.size() ? e1[t] : 0).margin(margin));
    CHECK(p.axes(1, t) == Approx(t < e2.size() ? e2[t] : 0).margin(margin));
  }
}

// Three orthogonal directions of length 3 in 3-D (the rows of a rational rotation), and the
// eight orthogonal rows of the 8×8 Sylvester–Hadamard matrix, of length √8.
const std::vector<Axis> kRotation = {{2, -2, 1}, {1, 2, 2}, {2, 1, -2}};
std::vector<Axis> hadamard8() {
  std::vector<Axis> h(8, Axis(8));
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned j = 0; j < 8; ++j) h[i][j] = __builtin_popcount(i & j) % 2 ? -1 : 1;
  return h;
}
}  // namespace

TEST_CASE("projection: the exact plane when the second and third spreads differ by 1e-3 to 1e-6",
          "[projection][exact]") {
  // Covariance eigenvalues (1, 0.5, 0.5 − gap) along the rotation's rows, and (1, 0.9, 0.9 − gap,
  // 0.5, …, 0.1) along Hadamard rows: the plane is exactly span(w₁, w₂) and its axes w₁/|w₁|,
  // w₂/|w₂| (signed by the largest component: (2, −2, 1) / 3 keeps its sign, the first of two
  // equal magnitudes). The subspace iteration this replaced was off by 0.13–0.71 (‖P − P̂‖₂) on
  // these. What is left is the rounding of the covariance: about ε / gap, as for any solver.
  const std::vector<Axis> h = hadamard8();
  for (const double gap : {1e-3, 1e-4, 1e-6}) {
    for (const std::size_t pad : {0, 9}) {  // the covariance (8×8 or 3×3) and the Gram (16×16) way
      INFO("gap " << gap << ", pad " << pad);
      const double bound = 1e-15 / gap;  // measured: 0.3–0.6 of it natively
      {
        const auto [values, outputs] = points_with(kRotation, {1, 0.5, 0.5 - gap}, 16, pad);
        const Plane p = run(values, outputs);
        CHECK(plane_error(p, unit(kRotation[0]), unit(kRotation[1])) < bound);
        check_axes(p, unit(kRotation[0]), unit(kRotation[1]), bound);
        CHECK(p.variance(0) == Approx(1).epsilon(1e-13));
        CHECK(p.variance(1) == Approx(0.5).epsilon(1e-13));
        CHECK(p.shown == Approx(1.5 / (2 - gap)).epsilon(1e-13));
      }
      {
        const auto [values, outputs] =
            points_with(h, {1, 0.9, 0.9 - gap, 0.5, 0.4, 0.3, 0.2, 0.1}, 16, pad);
        const Plane p = run(values, outputs);
        CHECK(plane_error(p, unit(h[0]), unit(h[1])) < bound);
        check_axes(p, unit(h[0]), unit(h[1]), bound);
        CHECK(p.shown == Approx(1.9 / (4.3 - gap)).epsilon(1e-13));
      }
    }
  }
}

TEST_CASE("projection: equal spreads give the documented axes, the same for any order or scale",
          "[projection][exact]") {
  const std::vector<Axis> h = hadamard8();
  for (const std::size_t pad : {0, 9}) {
    INFO("pad " << pad);
    // λ₂ = λ₃: the plane holds w₁ and one direction of span(w₂, w₃) = w₁⊥. The coordinate axis
    // nearest that space is e₃ (|e_t projected|² = 1 − (w₁[t]/3)² = 5/9, 5/9, 8/9), projected:
    // e₃ − (1/9)·w₁ = (−2, 2, 8) / 9, that is (−1, 1, 4) / √18.
    auto [values, outputs] = points_with(kRotation, {1, 0.5, 0.5}, 16, pad);
    Plane p = run(values, outputs);
    check_axes(p, unit(kRotation[0]), unit({-1, 1, 4}), 1e-13);
    CHECK(p.shown == Approx(0.75).epsilon(1e-13));
    // The same points in another order, and times 1e-30: the same axes.
    Matrix reversed = values;
    for (std::size_t i = 0; i < 8; ++i)
      for (std::size_t t = 0; t < values.shape()[1]; ++t) reversed(i, t) = outputs(7 - i, t);
    const Plane q = run(reversed * 1e-30, values * 1e-30);
    check_axes(q, unit(kRotation[0]), unit({-1, 1, 4}), 1e-13);

    // λ₁ = λ₂: the plane is span(w₁, w₂) = w₃⊥, well defined, and its axes the nearest
    // coordinate axis e₂ projected, (−2, 8, 2) / 9 ∝ (−1, 4, 1) / √18, then the nearest to what is
    // left, e₁ (|e_t|² left: 1/2, 0, 1/2), projected: (1, 0, 1) / √2.
    std::tie(values, outputs) = points_with(kRotation, {1, 1, 0.2}, 16, pad);
    p = run(values, outputs);
    check_axes(p, unit({-1, 4, 1}), unit({1, 0, 1}), 1e-13);
    CHECK(p.variance(0) == Approx(1).epsilon(1e-13));
    CHECK(p.variance(1) == Approx(1).epsilon(1e-13));

    // Hadamard rows, λ₂ = λ₃: every coordinate axis is as near span(h₂, h₃) (|e_t|² = 1/4), so the
    // first, e₁, projected: (h₂ + h₃) / 8 ∝ (1, 0, 0, −1, 1, 0, 0, −1) / 2.
    std::tie(values, outputs) = points_with(h, {1, 0.9, 0.9, 0.5, 0.4, 0.3, 0.2, 0.1}, 16, pad);
    p = run(values, outputs);
    check_axes(p, unit(h[0]), unit({1, 0, 0, -1, 1, 0, 0, -1}), 1e-13);
  }
  // ±e_i for i < 4, in 4 and in 10 dimensions (the Gram way): every direction of their space has
  // the same spread, and the axes are the first two coordinate axes.
  for (const std::size_t d : {4, 10}) {
    Matrix values = xt::zeros<double>({std::size_t{4}, d}), outputs = values;
    for (std::size_t i = 0; i < 4; ++i) values(i, i) = 1, outputs(i, i) = -1;
    const Plane p = run(values, outputs);
    check_axes(p, {1, 0}, {0, 1}, 1e-13);
    CHECK(p.shown == Approx(0.5).epsilon(1e-13));
  }
}

TEST_CASE("projection: points in a rotated plane show exactly all of their variance",
          "[projection][exact][shown]") {
  const std::vector<Axis> h = hadamard8();
  for (const std::size_t pad : {0, 9}) {
    INFO("pad " << pad);
    auto [values, outputs] = points_with(kRotation, {1, 0.5, 0}, 16, pad);
    Plane p = run(values, outputs);
    CHECK(std::abs(p.shown - 1) <= 1e-13);  // the subspace iteration gave 0.999938 at gap 1e-3
    check_axes(p, unit(kRotation[0]), unit(kRotation[1]), 1e-13);
    std::tie(values, outputs) = points_with(h, {1, 0.9, 0, 0, 0, 0, 0, 0}, 16, pad);
    p = run(values, outputs);
    CHECK(std::abs(p.shown - 1) <= 1e-13);
    check_axes(p, unit(h[0]), unit(h[1]), 1e-13);
    // A plane whose second spread is small: λ₂ = 1e-3 or 1e-6, λ₃ = 0.
    for (const double small : {1e-3, 1e-6}) {
      std::tie(values, outputs) = points_with(kRotation, {1, small, 0}, 16, pad);
      p = run(values, outputs);
      CHECK(std::abs(p.shown - 1) <= 1e-13);
      check_axes(p, unit(kRotation[0]), unit(kRotation[1]), 1e-15 / small);
    }
  }
}

TEST_CASE("projection: random points get NumPy's SVD plane", "[projection][exact]") {
  // The second test's points. Expected: numpy 1.24.2, np.linalg.svd of the 12 points less their
  // mean (printed with %.17g from the doubles this Rng makes); the rows of Vᵀ for the two largest
  // singular values, signed as the header says; variances s² / 12.
  Rng rng(3);
  Matrix values = Matrix::from_shape({6, 5}), outputs = Matrix::from_shape({6, 5});
  for (auto& x : values) x = rng.uniform(-1, 1);
  for (auto& x : outputs) x = rng.uniform(-1, 1);
  const Plane p = run(values, outputs);
  check_axes(p,
             {0.70380793907584194, -0.1760090734048444, -0.49279909115407916, 0.08611631348774032,
              0.47266079516073523},
             {0.06970031756022238, 0.71019711388109386, -0.56093415440761629, -0.03095446758868459,
              -0.41851716873060618},
             1e-13);
  CHECK(p.variance(0) == Approx(0.4656206161479762).epsilon(1e-13));
  CHECK(p.variance(1) == Approx(0.40641764560846433).epsilon(1e-13));
  CHECK(p.shown == Approx(0.6599264383767708).epsilon(1e-13));
}
