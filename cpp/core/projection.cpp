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

// Flips v so its largest-magnitude component is positive: the first of those within 1e-9 of the
// largest, so that rounding cannot choose between equal magnitudes ((2, −2, 1) / 3 keeps its sign).
void fix_sign(Vec& v) {
  double most = 0;
  for (const double x : v) most = std::max(most, std::abs(x));
  std::size_t best = 0;
  while (best + 1 < v.size() && std::abs(v[best]) < (1 - 1e-9) * most) ++best;
  if (v[best] < 0)
    for (double& x : v) x = -x;
}

// Every eigenvalue and unit eigenvector of the symmetric s (k, k), row-major, which is
// overwritten: Householder reduction to a tridiagonal matrix, then the implicit QL method with
// Wilkinson's shift (EISPACK's tred2 and tql2; Golub & Van Loan, Matrix Computations, 8.3).
// On return lambda[i] is an eigenvalue (unsorted) and row i of `vectors` (k, k) its eigenvector.
// Backward stable: the results are exact for a matrix within a few k·ε·|s| of s, so a computed
// eigenvector is off by about that over its eigenvalue's distance to the others, and the span of
// a group of eigenvectors by that over the group's distance to the rest, however close or equal
// the eigenvalues inside the group are. Cyclic Jacobi is as exact, but its sweeps cost about 50·k³
// operations against 9·k³ here: natively 0.7 s against 0.05 s at k = 256, 11 s against 0.9 s
// at k = 512.
void eigen_symmetric(Vec& s, std::size_t k, Vec& lambda, Vec& vectors) {
  Vec e(k, 0.0), v(k), w(k);  // e[i]: the tridiagonal's entry (i, i + 1)
  vectors.assign(k * k, 0.0);
  for (std::size_t i = 0; i < k; ++i) vectors[i * k + i] = 1;
  // Column j below the subdiagonal is zeroed by the reflection H = I − β·v·vᵀ of rows and
  // columns j + 1.. (v = x − α·e₁ for the column's part x, α = ∓|x| against x's first entry, so
  // that nothing cancels). `vectors` gathers the reflections: H·…·H = Qᵀ where s = Q·T·Qᵀ.
  for (std::size_t j = 0; j + 2 < k; ++j) {
    const double* x = &s[j * k];  // row j is column j
    double tail = 0;
    for (std::size_t i = j + 2; i < k; ++i) tail += x[i] * x[i];
    e[j] = x[j + 1];
    if (tail == 0) continue;  // already tridiagonal there
    const double x0 = x[j + 1], norm = std::sqrt(x0 * x0 + tail);
    const double beta = 1 / (norm * (norm + std::abs(x0)));  // 2 / vᵀv
    for (std::size_t i = j + 1; i < k; ++i) v[i] = x[i];
    e[j] = x0 > 0 ? -norm : norm;  // α
    v[j + 1] -= e[j];
    // s ← H·s·H on the trailing block: w = β·s·v, w −= (β/2)(wᵀv)·v, s −= v·wᵀ + w·vᵀ.
    double wv = 0;
    for (std::size_t i = j + 1; i < k; ++i) {
      const double* row = &s[i * k];
      double dot = 0;
      for (std::size_t t = j + 1; t < k; ++t) dot += row[t] * v[t];
      w[i] = beta * dot;
      wv += w[i] * v[i];
    }
    for (std::size_t i = j + 1; i < k; ++i) w[i] -= beta * wv / 2 * v[i];
    for (std::size_t i = j + 1; i < k; ++i) {
      double* row = &s[i * k];
      for (std::size_t t = j + 1; t < k; ++t) row[t] -= v[i] * w[t] + w[i] * v[t];
    }
    // vectors ← H·vectors, a row at a time: rows j + 1.. less β·v_i·(vᵀ·vectors).
    std::fill(w.begin(), w.end(), 0.0);
    for (std::size_t i = j + 1; i < k; ++i)
      for (std::size_t c = 0; c < k; ++c) w[c] += v[i] * vectors[i * k + c];
    for (std::size_t i = j + 1; i < k; ++i)
      for (std::size_t c = 0; c < k; ++c) vectors[i * k + c] -= beta * v[i] * w[c];
  }
  lambda.resize(k);
  for (std::size_t i = 0; i < k; ++i) lambda[i] = s[i * k + i];
  if (k >= 2) e[k - 2] = s[(k - 2) * k + k - 1];
  // QL: split off each eigenvalue l in turn. Plane rotations chase the shifted bulge up from the
  // first negligible entry m below l; each rotation also turns rows i, i + 1 of `vectors`.
  double* d = lambda.data();
  for (std::size_t l = 0; l < k; ++l) {
    for (int iteration = 0; iteration < 60; ++iteration) {
      std::size_t m = l;
      while (m + 1 < k && std::abs(e[m]) > 0x1p-53 * (std::abs(d[m]) + std::abs(d[m + 1]))) ++m;
      if (m == l) break;
      double g = (d[l + 1] - d[l]) / (2 * e[l]), r = std::sqrt(g * g + 1);
      g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
      double sn = 1, c = 1, p = 0;
      bool split = false;
      for (std::size_t i = m; i-- > l;) {
        const double f = sn * e[i], b = c * e[i];
        r = std::sqrt(f * f + g * g);
        e[i + 1] = r;
        if (r == 0) {  // an underflow split the matrix: start again from l
          d[i + 1] -= p;
          e[m] = 0;
          split = true;
          break;
        }
        sn = f / r;
        c = g / r;
        g = d[i + 1] - p;
        r = (d[i] - g) * sn + 2 * c * b;
        p = sn * r;
        d[i + 1] = g + p;
        g = c * r - b;
        double* lo = &vectors[i * k];
        double* hi = lo + k;
        for (std::size_t t = 0; t < k; ++t) {
          const double y = hi[t];
          hi[t] = sn * lo[t] + c * y;
          lo[t] = c * lo[t] - sn * y;
        }
      }
      if (split) continue;
      d[l] -= p;
      e[l] = g;
      e[m] = 0;
    }
  }
}

// Eigenvalues this close to each other, relative to the largest, count as equal (tied): a little
// above what rounding the matrix and its eigenvalues can move them (a few k·ε, k ≤ 2048).
constexpr double kTie = 1e-12;

// Appends to `axes` (unit, orthogonal, in d-space) `count` axes from a tied eigenspace E, the
// choice the header documents: the projection onto E of the coordinate axis e_t nearest to it
// (the largest projection; the first t of those within 1e-9 of it), then that of the axis
// nearest to what is left of E, each made orthogonal to the axes before it. E is the span of the
// orthonormal `basis`, or with no basis everything orthogonal to `axes` (the eigenvalue 0 of
// points on a line or at one place). Nothing left (d = 1) gives a zero axis.
void tied_axes(const std::vector<Vec>& basis, std::size_t count, std::size_t d,
               std::vector<Vec>& axes) {
  const std::size_t first = basis.empty() ? 0 : axes.size();  // the axes inside E
  for (std::size_t picked = 0; picked < count; ++picked) {
    Vec near(d, basis.empty() ? 1.0 : 0.0);  // |e_t projected onto what is left of E|²
    for (const Vec& b : basis)
      for (std::size_t t = 0; t < d; ++t) near[t] += b[t] * b[t];
    for (std::size_t a = first; a < axes.size(); ++a)
      for (std::size_t t = 0; t < d; ++t) near[t] -= axes[a][t] * axes[a][t];
    const double most = *std::max_element(near.begin(), near.end());
    Vec axis(d, 0.0);
    if (most > 1e-20) {  // else nothing is left (rounding can leave 1 − 1² = −2e-16)
      std::size_t t = 0;
      while (near[t] < (1 - 1e-9) * most) ++t;
      if (basis.empty()) axis[t] = 1;
      for (const Vec& b : basis)
        for (std::size_t u = 0; u < d; ++u) axis[u] += b[t] * b[u];
      for (int twice = 0; twice < 2; ++twice)
        for (const Vec& a : axes) orthogonalize(axis, a);
      if (normalize(axis) == 0) axis.assign(d, 0.0);
    }
    axes.push_back(std::move(axis));
  }
}

// The two principal axes (unit, orthogonal, in d-space) of the rows of `centred` (rows, d): the
// eigenvectors of the covariance CᵀC (d, d) with the two largest eigenvalues. They are found on
// the smaller of the two matrices with the same nonzero eigenvalues: CᵀC, or the Gram matrix
// CCᵀ (rows, rows), whose eigenvector u maps to the axis Cᵀu. So a page of 256 points in 64
// dimensions solves 64×64, not the points. Ties are broken by tied_axes().
void principal_axes(const Matrix& centred, Vec& a1, Vec& a2) {
  const std::size_t rows = centred.shape()[0], d = centred.shape()[1];
  const bool covariance = d <= rows;
  const std::size_t k = covariance ? d : rows;
  const double* c = centred.data();  // (rows, d) row-major
  Vec s(k * k, 0.0);                 // (k, k): the upper triangle summed, then mirrored
  if (covariance) {
    for (std::size_t r = 0; r < rows; ++r) {
      const double* row = c + r * d;
      for (std::size_t i = 0; i < d; ++i)
        if (row[i] != 0)
          for (std::size_t j = i; j < d; ++j) s[i * k + j] += row[i] * row[j];
    }
  } else {
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = i; j < rows; ++j) {
        double x = 0;
        for (std::size_t t = 0; t < d; ++t) x += c[i * d + t] * c[j * d + t];
        s[i * k + j] = x;
      }
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < i; ++j) s[i * k + j] = s[j * k + i];
  Vec lambda, u;
  eigen_symmetric(s, k, lambda, u);
  std::vector<std::size_t> order(k);  // by eigenvalue, largest first, then by index
  for (std::size_t i = 0; i < k; ++i) {
    std::size_t at = i;
    for (; at > 0 && lambda[order[at - 1]] < lambda[i]; --at) order[at] = order[at - 1];
    order[at] = i;
  }
  const auto axis = [&](std::size_t i) {  // eigenvector i in d-space, unit
    Vec a(u.begin() + i * k, u.begin() + (i + 1) * k);
    if (!covariance) {
      a.assign(d, 0.0);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t t = 0; t < d; ++t) a[t] += u[i * k + r] * c[r * d + t];
      normalize(a);
    }
    return a;
  };
  const double tie = kTie * std::max(lambda[order[0]], 0.0);
  std::vector<Vec> axes;
  for (std::size_t next = 0; axes.size() < 2;) {
    std::size_t end = next;  // [next, end): the eigenvalues tied with the next one
    while (end < k && lambda[order[next]] - lambda[order[end]] <= tie) ++end;
    if (end == next || lambda[order[end - 1]] <= tie) {  // tied with 0: what is left of d-space
      tied_axes({}, 2 - axes.size(), d, axes);
      break;
    }
    std::vector<Vec> basis;
    for (std::size_t i = next; i < end; ++i) basis.push_back(axis(order[i]));
    if (basis.size() == 1) {
      for (const Vec& a : axes) orthogonalize(basis[0], a);  // exact in theory; removes rounding
      normalize(basis[0]);
      axes.push_back(std::move(basis[0]));
    } else {
      tied_axes(basis, std::min(2 - axes.size(), basis.size()), d, axes);
    }
    next = end;
  }
  a1 = std::move(axes[0]);
  a2 = std::move(axes[1]);
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
