#include "attention.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace attn {
namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// A sum-normalisation denominator this small, relative to the magnitudes summed, is numerically
// zero: dividing by it would turn rounding noise into huge weights.
constexpr double kZeroSumRelative = 1e-9;

std::string shape_text(const Matrix& m) {
  return std::to_string(m.shape()[0]) + "×" + std::to_string(m.shape()[1]);
}

std::optional<Error> validate(const Matrix& q, const Matrix& k, const Matrix& v,
                              const AttentionConfig& config) {
  const std::pair<const Matrix*, const char*> inputs[] = {
      {&q, "queries"}, {&k, "keys"}, {&v, "values"}};
  if ((q.shape()[0] > 0 && q.shape()[1] == 0) || (k.shape()[0] > 0 && k.shape()[1] == 0)) {
    const char* name = q.shape()[1] == 0 ? "queries" : "keys";
    return make_error(ErrorCode::bad_dimension, name, -1, -1,
                      std::string(name) + " have no columns: d_k must be at least 1.");
  }
  for (const auto& [m, name] : inputs) {
    if (auto e = check_size(m->shape()[0], m->shape()[1], name)) return e;
  }
  if (q.shape()[1] != k.shape()[1]) {
    return make_error(ErrorCode::shape_mismatch, "keys", -1, -1,
                      "queries are " + shape_text(q) + " and keys " + shape_text(k) +
                          ": each query and key needs the same length d_k to take a dot product.");
  }
  if (k.shape()[0] != v.shape()[0]) {
    return make_error(ErrorCode::shape_mismatch, "values", -1, -1,
                      "keys are " + shape_text(k) + " and values " + shape_text(v) +
                          ": there must be one value row for each key row.");
  }
  const std::size_t n = q.shape()[0], m = k.shape()[0];
  if (n * m > Limits::max_cells) {
    return make_error(ErrorCode::too_large, "queries", -1, -1,
                      std::to_string(n) + " queries × " + std::to_string(m) +
                          " keys is above the limit of " + std::to_string(Limits::max_cells) +
                          " cells.");
  }
  for (const auto& [m2, name] : inputs) {
    if (auto e = check_finite(*m2, name)) return e;
  }
  if (config.scaling == Scaling::temperature &&
      !(std::isfinite(config.temperature) && config.temperature > 0)) {
    return make_error(ErrorCode::bad_temperature, "temperature", -1, -1,
                      "The temperature must be a number above 0 (got " +
                          std::to_string(config.temperature) + ").");
  }
  if (config.mask == MaskKind::custom &&
      (config.custom_mask.shape()[0] != n || config.custom_mask.shape()[1] != m)) {
    return make_error(ErrorCode::shape_mismatch, "mask", -1, -1,
                      "The mask is " + std::to_string(config.custom_mask.shape()[0]) + "×" +
                          std::to_string(config.custom_mask.shape()[1]) +
                          " but there are " + std::to_string(n) + " queries and " +
                          std::to_string(m) + " keys; it must be " + std::to_string(n) + "×" +
                          std::to_string(m) + ".");
  }
  return std::nullopt;
}

// A step whose inputs were finite can still overflow (1e200 · 1e200, or a temperature of 1e-300):
// report the first such cell instead of passing ±∞ or NaN on to the page.
std::optional<Error> check_overflow(const Matrix& step, const char* input, const std::string& what) {
  const std::size_t cols = step.shape()[1];
  for (std::size_t k = 0; k < step.size(); ++k)
    if (!std::isfinite(step.data()[k])) {
      const std::size_t i = k / cols, j = k % cols;
      return make_error(ErrorCode::not_finite, input, static_cast<long>(i), static_cast<long>(j),
                          what + " at row " + std::to_string(i + 1) + ", column " +
                              std::to_string(j + 1) +
                              " is too large to compute (it overflows a double). Use smaller "
                              "numbers" + (std::string(input) == "scaled" ? " or a larger temperature." : "."));
    }
  return std::nullopt;
}

// The largest |a(i, t)| of each row: cosine divides by it first, so that squaring huge or tiny
// entries cannot overflow or underflow.
Vector row_max_abs(const Matrix& a) {
  const std::size_t rows = a.shape()[0], cols = a.shape()[1];
  Vector out = xt::zeros<double>({rows});  // (rows)
  for (std::size_t i = 0; i < rows; ++i) {
    const double* r = row_of(a, i);
    for (std::size_t t = 0; t < cols; ++t) out(i) = std::max(out(i), std::abs(r[t]));
  }
  return out;
}

// |row i of a|, for each i.
Vector row_norms(const Matrix& a) {
  const std::size_t rows = a.shape()[0], cols = a.shape()[1];
  Vector norms = Vector::from_shape({rows});  // (rows)
  for (std::size_t i = 0; i < rows; ++i) {
    const double* r = row_of(a, i);
    double s = 0;
    for (std::size_t t = 0; t < cols; ++t) s += r[t] * r[t];
    norms(i) = std::sqrt(s);
  }
  return norms;
}

std::optional<Error> check_nonzero_rows(const Vector& magnitudes, const char* input, const char* noun) {
  for (std::size_t i = 0; i < magnitudes.size(); ++i) {
    if (magnitudes(i) == 0) {
      return make_error(ErrorCode::zero_vector, input, static_cast<long>(i), -1,
                        std::string(noun) + " " + std::to_string(i + 1) +
                            " is all zeros: cosine similarity needs a direction, so a zero " +
                            "vector has none. Change one of its entries or use the dot product.");
    }
  }
  return std::nullopt;
}

Mask make_mask(const AttentionConfig& config, std::size_t n, std::size_t m) {
  switch (config.mask) {
    case MaskKind::custom: return config.custom_mask;
    case MaskKind::causal: {
      Mask visible = Mask::from_shape({n, m});  // (n, m)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) visible(i, j) = j <= i;
      return visible;
    }
    case MaskKind::none: break;
  }
  Mask visible = Mask::from_shape({n, m});  // (n, m)
  visible.fill(true);
  return visible;
}

// Softmax over the visible entries of row i, written into steps.exps / weights / rows[i].
void softmax_row(AttentionSteps& s, std::size_t i) {
  const std::size_t m = s.m();
  RowStats& row = s.rows[i];
  const bool* visible = row_of(s.visible, i);
  const double* masked = row_of(s.masked, i);
  double* exps = row_of(s.exps, i);
  double* weights = row_of(s.weights, i);
  // Find the max by hand (xt::amax of a row of −∞ is wrong in xtensor 0.24), then subtract it
  // before exponentiating, for numerical stability: every exponent is ≤ 0, so nothing overflows.
  double max = kMinusInf;
  for (std::size_t j = 0; j < m; ++j)
    if (visible[j] && masked[j] > max) max = masked[j];
  row.max = max;
  if (row.visible == 0) {
    row.problem = RowProblem::fully_masked;
    return;  // exps and weights stay 0: nothing to attend to
  }
  double sum = 0;
  for (std::size_t j = 0; j < m; ++j) {
    const double e = visible[j] ? std::exp(masked[j] - max) : 0.0;
    exps[j] = e;
    sum += e;
  }
  row.exp_sum = sum;  // ≥ 1: the max entry contributes exp(0)
  for (std::size_t j = 0; j < m; ++j) weights[j] = exps[j] / sum;
}

// The naive normalisation: each visible score divided by the row's sum.
void sum_normalize_row(AttentionSteps& s, std::size_t i) {
  const std::size_t m = s.m();
  RowStats& row = s.rows[i];
  const bool* visible = row_of(s.visible, i);
  const double* masked = row_of(s.masked, i);
  double* weights = row_of(s.weights, i);
  double sum = 0, magnitude = 0, max = kMinusInf;
  for (std::size_t j = 0; j < m; ++j) {
    if (!visible[j]) continue;
    sum += masked[j];
    magnitude += std::abs(masked[j]);
    if (masked[j] > max) max = masked[j];
  }
  row.max = max;
  row.score_sum = sum;
  if (row.visible == 0) {
    row.problem = RowProblem::fully_masked;
    return;
  }
  if (std::abs(sum) <= kZeroSumRelative * magnitude) {  // also catches sum == magnitude == 0
    row.problem = RowProblem::zero_sum;
    return;  // nothing to divide by: weights stay 0
  }
  bool negative = false;
  for (std::size_t j = 0; j < m; ++j) {
    if (!visible[j]) continue;
    const double w = masked[j] / sum;
    weights[j] = w;
    negative = negative || w < 0;
  }
  if (negative) row.problem = RowProblem::negative_weights;
}

// −Σ_j w ln w over the row's positive weights, in nats. For softmax, ln w_j = (x_j − max) − ln S,
// so H = ln S − Σ_j w_j·(x_j − max): one logarithm per row instead of one per weight (in wasm a
// logarithm is a library call, and these were a third of a small explainer call).
double entropy(const AttentionSteps& s, std::size_t i) {
  const RowStats& row = s.rows[i];
  const double* weights = row_of(s.weights, i);
  const double* masked = row_of(s.masked, i);
  double h = 0;
  if (s.config.normalization == Normalization::softmax) {
    h = std::log(row.exp_sum);
    for (std::size_t j = 0; j < s.m(); ++j)
      if (weights[j] > 0) h -= weights[j] * (masked[j] - row.max);
  } else {
    for (std::size_t j = 0; j < s.m(); ++j)
      if (weights[j] > 0) h -= weights[j] * std::log(weights[j]);
  }
  return std::max(h, 0.0);  // rounding can leave −1e-17 for a one-hot row
}

}  // namespace

Result<AttentionSteps> attention(const Matrix& queries, const Matrix& keys, const Matrix& values,
                                 const AttentionConfig& config) {
  if (auto e = validate(queries, keys, values, config)) return *e;

  AttentionSteps s;
  s.config = config;
  s.queries = queries;
  s.keys = keys;
  s.values = values;
  const std::size_t n = s.n(), m = s.m(), d_k = s.d_k(), d_v = s.d_v();

  s.query_norms = row_norms(queries);  // (n)
  s.key_norms = row_norms(keys);       // (m)
  if (config.similarity == Similarity::cosine) {
    if (auto e = check_nonzero_rows(row_max_abs(queries), "queries", "Query")) return *e;
    if (auto e = check_nonzero_rows(row_max_abs(keys), "keys", "Key")) return *e;
  }

  // scores = Q·Kᵀ as explicit loops over contiguous rows (no BLAS in Debian's xtensor).
  s.scores = Matrix::from_shape({n, m});  // (n, m)
  if (config.similarity == Similarity::dot) {
    for (std::size_t i = 0; i < n; ++i) {
      const double* q = row_of(queries, i);
      double* scores = row_of(s.scores, i);
      for (std::size_t j = 0; j < m; ++j) {
        const double* k = row_of(keys, j);
        double dot = 0;
        for (std::size_t t = 0; t < d_k; ++t) dot += q[t] * k[t];
        scores[j] = dot;
      }
    }
  } else {
    // cos = (q/a)·(k/b) / (|q/a|·|k/b|) with a, b the rows' largest magnitudes: the same value
    // as q·k / (|q|·|k|), without overflow for 1e200 or underflow for 1e-200.
    const Vector qa = row_max_abs(queries), ka = row_max_abs(keys);  // (n), (m)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        const double* q = row_of(queries, i);
        const double* k = row_of(keys, j);
        double dot = 0, qq = 0, kk = 0;
        for (std::size_t t = 0; t < d_k; ++t) {
          const double x = q[t] / qa(i), y = k[t] / ka(j);
          dot += x * y;
          qq += x * x;
          kk += y * y;
        }
        s.scores(i, j) = dot / std::sqrt(qq * kk);
      }
  }
  if (auto e = check_overflow(s.scores, "scores", "The similarity")) return *e;

  switch (config.scaling) {
    case Scaling::sqrt_dk: s.divisor = std::sqrt(static_cast<double>(d_k)); break;
    case Scaling::temperature: s.divisor = config.temperature; break;
    case Scaling::none: s.divisor = 1; break;
  }
  s.scaled = s.scores / s.divisor;  // (n, m)
  if (auto e = check_overflow(s.scaled, "scaled", "The scaled score")) return *e;

  s.visible = make_mask(config, n, m);  // (n, m)
  s.masked = xt::where(s.visible, s.scaled, kMinusInf);  // (n, m)

  s.exps = xt::zeros<double>({n, m});     // (n, m)
  s.weights = xt::zeros<double>({n, m});  // (n, m)
  s.rows.assign(n, RowStats{});
  for (std::size_t i = 0; i < n; ++i) {
    RowStats& row = s.rows[i];
    const bool* visible = row_of(s.visible, i);
    for (std::size_t j = 0; j < m; ++j) row.visible += visible[j] ? 1 : 0;
    if (config.normalization == Normalization::softmax) {
      softmax_row(s, i);
    } else {
      sum_normalize_row(s, i);
    }
    double weight_sum = 0;
    const double* weights = row_of(s.weights, i);
    for (std::size_t j = 0; j < m; ++j) weight_sum += weights[j];
    row.weight_sum = weight_sum;
    if (row.problem == RowProblem::none) row.entropy = entropy(s, i);
  }

  if (auto e = check_overflow(s.weights, "weights", "The weight")) return *e;

  // output = weights · V, accumulated row by row so V is read contiguously.
  s.output = xt::zeros<double>({n, d_v});  // (n, d_v)
  for (std::size_t i = 0; i < n; ++i) {
    const double* weights = row_of(s.weights, i);
    double* out = row_of(s.output, i);
    for (std::size_t j = 0; j < m; ++j) {
      const double w = weights[j];
      if (w == 0) continue;
      const double* v = row_of(values, j);
      for (std::size_t t = 0; t < d_v; ++t) out[t] += w * v[t];
    }
  }
  if (auto e = check_overflow(s.output, "output", "The output")) return *e;
  return s;
}

Result<CellExplanation> explain_cell(const AttentionSteps& s, std::size_t i, std::size_t j) {
  if (i >= s.n() || j >= s.m()) {
    return make_error(ErrorCode::bad_argument, "cell", static_cast<long>(i),
                      static_cast<long>(j),
                      "There is no cell (" + std::to_string(i + 1) + ", " +
                          std::to_string(j + 1) + "): the matrix is " + std::to_string(s.n()) +
                          "×" + std::to_string(s.m()) + ".");
  }
  CellExplanation c;
  c.row = i;
  c.col = j;
  const std::size_t d_k = s.d_k();
  c.query.resize(d_k);
  c.key.resize(d_k);
  c.terms.resize(d_k);
  for (std::size_t t = 0; t < d_k; ++t) {
    c.query[t] = s.queries(i, t);
    c.key[t] = s.keys(j, t);
    c.terms[t] = c.query[t] * c.key[t];
    c.dot += c.terms[t];
  }
  c.query_norm = s.query_norms(i);
  c.key_norm = s.key_norms(j);
  c.score = s.scores(i, j);
  c.divisor = s.divisor;
  c.scaled = s.scaled(i, j);
  c.visible = s.visible(i, j);
  c.row_max = s.rows[i].max;
  c.exp_value = s.exps(i, j);
  c.exp_sum = s.rows[i].exp_sum;
  c.score_sum = s.rows[i].score_sum;
  c.weight = s.weights(i, j);
  return c;
}

Result<OutputExplanation> explain_output(const AttentionSteps& s, std::size_t i, std::size_t t) {
  if (i >= s.n() || t >= s.d_v()) {
    return make_error(ErrorCode::bad_argument, "output", static_cast<long>(i),
                      static_cast<long>(t),
                      "There is no output entry (" + std::to_string(i + 1) + ", " +
                          std::to_string(t + 1) + "): the output is " + std::to_string(s.n()) +
                          "×" + std::to_string(s.d_v()) + ".");
  }
  OutputExplanation o;
  o.row = i;
  o.col = t;
  const std::size_t m = s.m();
  o.weights.resize(m);
  o.values.resize(m);
  o.terms.resize(m);
  for (std::size_t j = 0; j < m; ++j) {
    o.weights[j] = s.weights(i, j);
    o.values[j] = s.values(j, t);
    o.terms[j] = o.weights[j] * o.values[j];
  }
  o.output = s.output(i, t);  // the sum as the core computed it (skipping zero weights)
  return o;
}

}  // namespace attn
