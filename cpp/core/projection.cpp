#include "projection.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn {
namespace {

using Vec = std::vector<double>;

double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (std::size_t t = 0; t < a.size(); ++t) s += a[t] * b[t];
  return s;
}

// Normalises v in place; returns its former length.
double normalize(Vec& v) {
  const double len = std::sqrt(dot(v, v));
  if (len > 0)
    for (double& x : v) x /= len;
  return len;
}

// Removes from v its component along the unit vector u.
void orthogonalize(Vec& v, const Vec& u) {
  const double p = dot(v, u);
  for (std::size_t t = 0; t < v.size(); ++t) v[t] -= p * u[t];
}

// s (k, k) times v.
Vec times(const Matrix& s, const Vec& v) {
  const std::size_t k = v.size();
  Vec out(k, 0.0);
  for (std::size_t i = 0; i < k; ++i) {
    double x = 0;
    for (std::size_t j = 0; j < k; ++j) x += s(i, j) * v[j];
    out[i] = x;
  }
  return out;
}

// A unit vector orthogonal to the unit vector u: the basis vector least aligned with u, with its
// u component removed. Deterministic. Zero when d = 1 (there is no such vector).
Vec orthogonal_to(const Vec& u) {
  const std::size_t d = u.size();
  Vec v(d, 0.0);
  if (d < 2) return v;
  std::size_t best = 0;
  for (std::size_t t = 1; t < d; ++t)
    if (std::abs(u[t]) < std::abs(u[best])) best = t;
  v[best] = 1;
  orthogonalize(v, u);
  normalize(v);
  return v;
}

// Flips v so its largest-magnitude component is positive (the first of equal magnitudes).
void fix_sign(Vec& v) {
  std::size_t best = 0;
  for (std::size_t t = 1; t < v.size(); ++t)
    if (std::abs(v[t]) > std::abs(v[best])) best = t;
  if (v[best] < 0)
    for (double& x : v) x = -x;
}

// The top two eigenvectors of a symmetric positive semi-definite s (k, k), by orthogonal
// (subspace) iteration followed by a 2×2 Rayleigh–Ritz step, which makes the result exact once
// the plane has converged, even when the two eigenvalues are equal. Zero vectors if s is zero.
void top_two_eigenvectors(const Matrix& s, Vec& a1, Vec& a2) {
  const std::size_t k = s.shape()[0];
  // Start from the two largest columns of s (the second made orthogonal to the first):
  // deterministic, and inside the space the data spans, unlike a fixed basis vector.
  Vec column(k);
  double best = 0, best2 = 0;
  a1.assign(k, 0.0);
  a2.assign(k, 0.0);
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < k; ++i) column[i] = s(i, j);
    const double len2 = dot(column, column);
    if (len2 > best) best = len2, a1 = column;
  }
  if (best == 0) return;  // every point at the mean
  normalize(a1);
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < k; ++i) column[i] = s(i, j);
    orthogonalize(column, a1);
    const double len2 = dot(column, column);
    if (len2 > best2) best2 = len2, a2 = column;
  }
  if (best2 <= 1e-24 * best) a2 = orthogonal_to(a1);
  normalize(a2);

  for (int iteration = 0; iteration < 1000; ++iteration) {
    Vec b1 = times(s, a1), b2 = times(s, a2);
    const double scale = normalize(b1);
    if (scale == 0) break;
    orthogonalize(b2, b1);
    if (normalize(b2) <= 1e-13 * scale) b2 = orthogonal_to(b1);  // rank one: the data lie on a line
    const double change = std::abs(std::abs(dot(a1, b1)) - 1) + std::abs(std::abs(dot(a2, b2)) - 1);
    a1 = std::move(b1);
    a2 = std::move(b2);
    if (change < 1e-15) break;
  }

  // Rayleigh–Ritz in the plane span(a1, a2): diagonalise s restricted to it.
  const Vec c1 = times(s, a1), c2 = times(s, a2);
  const double s11 = dot(a1, c1), s12 = dot(a1, c2), s22 = dot(a2, c2);
  // The rotation to the eigenbasis turns by θ = atan2(2·s12, s11 − s22) / 2. Its cosine and sine
  // come from the half-angle formulas, each taken on the side where 1 ± cos 2θ does not cancel:
  // the same rotation without trigonometric functions, which cost the engine 5.5 KB gzipped.
  const double x = s11 - s22, y = 2 * s12, r = std::hypot(x, y);
  double c = 1, sn = 0;  // r = 0: the plane is already the eigenbasis (θ = atan2(0, 0) / 2 = 0)
  if (r > 0 && x >= 0) {
    c = std::sqrt((1 + x / r) / 2);  // θ in [−π/4, π/4]: cos θ ≥ 1/√2
    sn = y / (2 * r * c);
  } else if (r > 0) {
    sn = std::copysign(std::sqrt((1 - x / r) / 2), y);  // |θ| in (π/4, π/2]: |sin θ| > 1/√2
    c = y / (2 * r * sn);
  }
  Vec r1(k), r2(k);
  for (std::size_t t = 0; t < k; ++t) {
    r1[t] = c * a1[t] + sn * a2[t];
    r2[t] = -sn * a1[t] + c * a2[t];
  }
  a1 = std::move(r1);
  a2 = std::move(r2);
}

// The two principal axes (unit, orthogonal, in d-space) of the rows of `centred` (rows, d).
// The iteration runs on the smaller of the two matrices with the same nonzero eigenvalues: the
// covariance CᵀC (d, d) or the Gram matrix CCᵀ (rows, rows), whose eigenvector u maps to the axis
// Cᵀu. So a page of 256 points in 64 dimensions iterates on 64×64, not on the points.
void principal_axes(const Matrix& centred, Vec& a1, Vec& a2) {
  const std::size_t rows = centred.shape()[0], d = centred.shape()[1];
  const bool covariance = d <= rows;
  const std::size_t k = covariance ? d : rows;
  Matrix s = xt::zeros<double>({k, k});  // (k, k)
  if (covariance) {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < d; ++i) {
        const double x = centred(r, i);
        if (x != 0)
          for (std::size_t j = 0; j < d; ++j) s(i, j) += x * centred(r, j);
      }
  } else {
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < rows; ++j) {
        double x = 0;
        for (std::size_t t = 0; t < d; ++t) x += centred(i, t) * centred(j, t);
        s(i, j) = x;
      }
  }
  Vec u1, u2;
  top_two_eigenvectors(s, u1, u2);
  if (covariance) {
    a1 = std::move(u1);
    a2 = std::move(u2);
  } else {  // axis = Cᵀu, normalised
    a1.assign(d, 0.0);
    a2.assign(d, 0.0);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t t = 0; t < d; ++t) {
        a1[t] += u1[r] * centred(r, t);
        a2[t] += u2[r] * centred(r, t);
      }
    normalize(a1);
    orthogonalize(a2, a1);  // exact in theory; removes rounding
    if (normalize(a2) == 0) a2 = orthogonal_to(a1);
  }
  if (dot(a1, a1) == 0) {  // every point at the mean: any axes will do
    a1.assign(d, 0.0);
    a1[0] = 1;
    a2 = orthogonal_to(a1);
  }
}

Matrix coordinates(const Matrix& points, const Vector& mean, const Vec& a1, const Vec& a2) {
  const std::size_t rows = points.shape()[0], d = points.shape()[1];
  Matrix out = Matrix::from_shape({rows, 2});  // (rows, 2)
  for (std::size_t r = 0; r < rows; ++r) {
    double x = 0, y = 0;
    for (std::size_t t = 0; t < d; ++t) {
      const double c = points(r, t) - mean(t);
      x += c * a1[t];
      y += c * a2[t];
    }
    out(r, 0) = x;
    out(r, 1) = y;
  }
  return out;
}

}  // namespace

Result<Plane> project_2d(const Matrix& values, const Matrix& outputs) {
  if (auto e = check_size(values.shape()[0], values.shape()[1], "values")) return *e;
  if (auto e = check_size(outputs.shape()[0], outputs.shape()[1], "output")) return *e;
  if (values.shape()[1] != outputs.shape()[1]) {
    return make_error(ErrorCode::shape_mismatch, "output", -1, -1,
                      "values have " + std::to_string(values.shape()[1]) + " columns and outputs " +
                          std::to_string(outputs.shape()[1]) +
                          "; both must live in the same space to share a plane.");
  }
  if (auto e = check_finite(values, "values")) return *e;
  if (auto e = check_finite(outputs, "output")) return *e;

  const std::size_t m = values.shape()[0], n = outputs.shape()[0], d = values.shape()[1];
  Matrix all = Matrix::from_shape({m + n, d});  // (m + n, d): every point, values first
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t t = 0; t < d; ++t) all(r, t) = values(r, t);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t t = 0; t < d; ++t) all(m + r, t) = outputs(r, t);

  Plane plane;
  plane.mean = xt::zeros<double>({d});  // (d)
  for (std::size_t r = 0; r < m + n; ++r)
    for (std::size_t t = 0; t < d; ++t) plane.mean(t) += all(r, t);
  plane.mean /= static_cast<double>(m + n);
  Matrix centred = all;  // (m + n, d)
  for (std::size_t r = 0; r < m + n; ++r)
    for (std::size_t t = 0; t < d; ++t) centred(r, t) -= plane.mean(t);

  // The axes do not depend on the points' scale, but finding them squares the coordinates and
  // squares those again (1e80 overflows a double that way, 1e-90 underflows to 0): find them
  // on the points divided by their largest magnitude.
  double largest = 0;
  for (const double x : centred) largest = std::max(largest, std::abs(x));
  Matrix unit = centred;  // (m + n, d) every |entry| ≤ 1
  if (largest > 0) unit /= largest;
  Vec a1, a2;
  principal_axes(unit, a1, a2);
  fix_sign(a1);
  fix_sign(a2);

  plane.axes = Matrix::from_shape({2, d});  // (2, d)
  for (std::size_t t = 0; t < d; ++t) {
    plane.axes(0, t) = a1[t];
    plane.axes(1, t) = a2[t];
  }
  plane.values_2d = coordinates(values, plane.mean, a1, a2);
  plane.outputs_2d = coordinates(outputs, plane.mean, a1, a2);
  plane.variance = xt::zeros<double>({std::size_t{2}});
  for (std::size_t r = 0; r < m + n; ++r) {
    double x = 0, y = 0, all_dims = 0;
    for (std::size_t t = 0; t < d; ++t) {
      x += centred(r, t) * a1[t];
      y += centred(r, t) * a2[t];
      all_dims += centred(r, t) * centred(r, t);
    }
    plane.variance(0) += x * x;
    plane.variance(1) += y * y;
    plane.total_variance += all_dims;
  }
  plane.variance /= static_cast<double>(m + n);
  plane.total_variance /= static_cast<double>(m + n);
  if (plane.total_variance > 0) {
    plane.shown = (plane.variance(0) + plane.variance(1)) / plane.total_variance;
  }
  return plane;
}

}  // namespace attn
