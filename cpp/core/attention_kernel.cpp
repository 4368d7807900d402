// The arithmetic of attention() (attention.hpp) on storage the caller owns: check_attention()
// and attention_into(). attention.cpp wraps them into the AttentionSteps API.
//
// A file of its own because the wasm build compiles it for speed rather than size
// (cpp/wasm/CMakeLists.txt): it is the explainer's hot path, and it includes no xtensor code
// that would grow the engine when optimised for speed.
#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace attn {
namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// A sum-normalisation denominator this small, relative to the magnitudes summed, is numerically
// zero: dividing by it would turn rounding noise into huge weights.
constexpr double kZeroSumRelative = 1e-9;

std::string shape_text(MatrixView a) {
  return std::to_string(a.rows) + "×" + std::to_string(a.cols);
}

// A step whose inputs were finite can still overflow (1e200 · 1e200, or a temperature of 1e-300):
// report the first such cell instead of passing ±∞ or NaN on to the page.
std::optional<Error> check_overflow(const double* step, std::size_t rows, std::size_t cols,
                                    const char* input, const char* what) {
  for (std::size_t k = 0; k < rows * cols; ++k)
    if (!std::isfinite(step[k])) {
      const std::size_t i = k / cols, j = k % cols;
      return make_error(ErrorCode::not_finite, input, static_cast<long>(i), static_cast<long>(j),
                        std::string(what) + " at row " + std::to_string(i + 1) + ", column " +
                            std::to_string(j + 1) +
                            " is too large to compute (it overflows a double). Use smaller "
                            "numbers" + (std::string(input) == "scaled" ? " or a larger temperature." : "."));
    }
  return std::nullopt;
}

// The largest |a(i, t)| of each row, into out (rows): cosine divides by it first, so that squaring
// huge or tiny entries cannot overflow or underflow.
void row_max_abs(MatrixView a, double* out) {
  for (std::size_t i = 0; i < a.rows; ++i) {
    const double* r = a.data + i * a.cols;
    double max = 0;
    for (std::size_t t = 0; t < a.cols; ++t) max = std::max(max, std::abs(r[t]));
    out[i] = max;
  }
}

// |row i of a|, for each i, into out (rows).
void row_norms(MatrixView a, double* out) {
  for (std::size_t i = 0; i < a.rows; ++i) {
    const double* r = a.data + i * a.cols;
    double s = 0;
    for (std::size_t t = 0; t < a.cols; ++t) s += r[t] * r[t];
    out[i] = std::sqrt(s);
  }
}

std::optional<Error> check_nonzero_rows(const double* magnitudes, std::size_t rows,
                                        const char* input, const char* noun) {
  for (std::size_t i = 0; i < rows; ++i) {
    if (magnitudes[i] == 0) {
      return make_error(ErrorCode::zero_vector, input, static_cast<long>(i), -1,
                        std::string(noun) + " " + std::to_string(i + 1) +
                            " is all zeros: cosine similarity needs a direction, so a zero " +
                            "vector has none. Change one of its entries or use the dot product.");
    }
  }
  return std::nullopt;
}

void make_mask(const AttentionConfig& config, std::size_t n, std::size_t m, bool* visible) {
  switch (config.mask) {
    case MaskKind::custom:
      std::copy(config.custom_mask.data(), config.custom_mask.data() + n * m, visible);
      return;
    case MaskKind::causal:
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) visible[i * m + j] = j <= i;
      return;
    case MaskKind::none: break;
  }
  std::fill(visible, visible + n * m, true);
}

// One row of the steps after masking, as pointers into the StepBuffers: (m) each.
struct Row {
  const bool* visible;
  const double* masked;
  double* exps;
  double* weights;
  RowStats& stats;
};

// Softmax over the visible entries of the row, written into its exps, weights and stats.
void softmax_row(Row r, std::size_t m) {
  // Find the max by hand (xt::amax of a row of −∞ is wrong in xtensor 0.24), then subtract it
  // before exponentiating, for numerical stability: every exponent is ≤ 0, so nothing overflows.
  double max = kMinusInf;
  for (std::size_t j = 0; j < m; ++j)
    if (r.visible[j] && r.masked[j] > max) max = r.masked[j];
  r.stats.max = max;
  if (r.stats.visible == 0) {
    r.stats.problem = RowProblem::fully_masked;
    return;  // exps and weights stay 0: nothing to attend to
  }
  double sum = 0;
  for (std::size_t j = 0; j < m; ++j) {
    const double e = r.visible[j] ? std::exp(r.masked[j] - max) : 0.0;
    r.exps[j] = e;
    sum += e;
  }
  r.stats.exp_sum = sum;  // ≥ 1: the max entry contributes exp(0)
  for (std::size_t j = 0; j < m; ++j) r.weights[j] = r.exps[j] / sum;
}

// The naive normalisation: each visible score divided by the row's sum.
void sum_normalize_row(Row r, std::size_t m) {
  double sum = 0, magnitude = 0, max = kMinusInf;
  for (std::size_t j = 0; j < m; ++j) {
    if (!r.visible[j]) continue;
    sum += r.masked[j];
    magnitude += std::abs(r.masked[j]);
    if (r.masked[j] > max) max = r.masked[j];
  }
  r.stats.max = max;
  r.stats.score_sum = sum;
  if (r.stats.visible == 0) {
    r.stats.problem = RowProblem::fully_masked;
    return;
  }
  if (std::abs(sum) <= kZeroSumRelative * magnitude) {  // also catches sum == magnitude == 0
    r.stats.problem = RowProblem::zero_sum;
    return;  // nothing to divide by: weights stay 0
  }
  bool negative = false;
  for (std::size_t j = 0; j < m; ++j) {
    if (!r.visible[j]) continue;
    const double w = r.masked[j] / sum;
    r.weights[j] = w;
    negative = negative || w < 0;
  }
  if (negative) r.stats.problem = RowProblem::negative_weights;
}

// −Σ_j w ln w over the row's positive weights, in nats. For softmax, ln w_j = (x_j − max) − ln S,
// so H = ln S − Σ_j w_j·(x_j − max): one logarithm per row instead of one per weight (in wasm a
// logarithm is a library call, and these were a third of a small explainer call).
double entropy(Row r, std::size_t m, Normalization normalization) {
  double h = 0;
  if (normalization == Normalization::softmax) {
    h = std::log(r.stats.exp_sum);
    for (std::size_t j = 0; j < m; ++j)
      if (r.weights[j] > 0) h -= r.weights[j] * (r.masked[j] - r.stats.max);
  } else {
    for (std::size_t j = 0; j < m; ++j)
      if (r.weights[j] > 0) h -= r.weights[j] * std::log(r.weights[j]);
  }
  return std::max(h, 0.0);  // rounding can leave −1e-17 for a one-hot row
}

}  // namespace

std::optional<Error> check_attention(MatrixView q, MatrixView k, MatrixView v,
                                     const AttentionConfig& config) {
  const std::pair<MatrixView, const char*> inputs[] = {{q, "queries"}, {k, "keys"}, {v, "values"}};
  if ((q.rows > 0 && q.cols == 0) || (k.rows > 0 && k.cols == 0)) {
    const char* name = q.cols == 0 ? "queries" : "keys";
    return make_error(ErrorCode::bad_dimension, name, -1, -1,
                      std::string(name) + " have no columns: d_k must be at least 1.");
  }
  for (const auto& [m, name] : inputs) {
    if (auto e = check_size(m.rows, m.cols, name)) return e;
  }
  if (q.cols != k.cols) {
    return make_error(ErrorCode::shape_mismatch, "keys", -1, -1,
                      "queries are " + shape_text(q) + " and keys " + shape_text(k) +
                          ": each query and key needs the same length d_k to take a dot product.");
  }
  if (k.rows != v.rows) {
    return make_error(ErrorCode::shape_mismatch, "values", -1, -1,
                      "keys are " + shape_text(k) + " and values " + shape_text(v) +
                          ": there must be one value row for each key row.");
  }
  const std::size_t n = q.rows, m = k.rows;
  if (n * m > Limits::max_cells) {
    return make_error(ErrorCode::too_large, "queries", -1, -1,
                      std::to_string(n) + " queries × " + std::to_string(m) +
                          " keys is above the limit of " + std::to_string(Limits::max_cells) +
                          " cells.");
  }
  for (const auto& [a, name] : inputs) {
    if (auto e = check_finite(a.data, a.rows, a.cols, name)) return e;
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

std::optional<Error> attention_into(MatrixView queries, MatrixView keys, MatrixView values,
                                    const AttentionConfig& config, StepBuffers& s) {
  const std::size_t n = queries.rows, m = keys.rows, d_k = queries.cols, d_v = values.cols;

  // scores = Q·Kᵀ as explicit loops over contiguous rows (no BLAS in Debian's xtensor).
  if (config.similarity == Similarity::dot) {
    for (std::size_t i = 0; i < n; ++i) {
      const double* q = queries.data + i * d_k;
      double* scores = s.scores + i * m;
      for (std::size_t j = 0; j < m; ++j) {
        const double* k = keys.data + j * d_k;
        double dot = 0;
        for (std::size_t t = 0; t < d_k; ++t) dot += q[t] * k[t];
        scores[j] = dot;
      }
    }
  } else {
    // cos = (q/a)·(k/b) / (|q/a|·|k/b|) with a, b the rows' largest magnitudes: the same value
    // as q·k / (|q|·|k|), without overflow for 1e200 or underflow for 1e-200. Until the scores
    // are done, the norms' buffers hold those magnitudes.
    double* qa = s.query_norms;  // (n)
    double* ka = s.key_norms;    // (m)
    row_max_abs(queries, qa);
    row_max_abs(keys, ka);
    if (auto e = check_nonzero_rows(qa, n, "queries", "Query")) return e;
    if (auto e = check_nonzero_rows(ka, m, "keys", "Key")) return e;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        const double* q = queries.data + i * d_k;
        const double* k = keys.data + j * d_k;
        double dot = 0, qq = 0, kk = 0;
        for (std::size_t t = 0; t < d_k; ++t) {
          const double x = q[t] / qa[i], y = k[t] / ka[j];
          dot += x * y;
          qq += x * x;
          kk += y * y;
        }
        s.scores[i * m + j] = dot / std::sqrt(qq * kk);
      }
  }
  row_norms(queries, s.query_norms);
  row_norms(keys, s.key_norms);
  if (auto e = check_overflow(s.scores, n, m, "scores", "The similarity")) return e;

  switch (config.scaling) {
    case Scaling::sqrt_dk: s.divisor = std::sqrt(static_cast<double>(d_k)); break;
    case Scaling::temperature: s.divisor = config.temperature; break;
    case Scaling::none: s.divisor = 1; break;
  }
  for (std::size_t k = 0; k < n * m; ++k) s.scaled[k] = s.scores[k] / s.divisor;
  if (auto e = check_overflow(s.scaled, n, m, "scaled", "The scaled score")) return e;

  make_mask(config, n, m, s.visible);
  for (std::size_t k = 0; k < n * m; ++k) s.masked[k] = s.visible[k] ? s.scaled[k] : kMinusInf;

  std::fill(s.exps, s.exps + n * m, 0.0);
  std::fill(s.weights, s.weights + n * m, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const Row row{s.visible + i * m, s.masked + i * m, s.exps + i * m, s.weights + i * m,
                  s.rows[i]};
    row.stats = RowStats{};
    for (std::size_t j = 0; j < m; ++j) row.stats.visible += row.visible[j] ? 1 : 0;
    if (config.normalization == Normalization::softmax) {
      softmax_row(row, m);
    } else {
      sum_normalize_row(row, m);
    }
    double weight_sum = 0;
    for (std::size_t j = 0; j < m; ++j) weight_sum += row.weights[j];
    row.stats.weight_sum = weight_sum;
    if (row.stats.problem == RowProblem::none) {
      row.stats.entropy = entropy(row, m, config.normalization);
    }
  }

  if (auto e = check_overflow(s.weights, n, m, "weights", "The weight")) return e;

  // output = weights · V, accumulated row by row so V is read contiguously.
  std::fill(s.output, s.output + n * d_v, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double* weights = s.weights + i * m;
    double* out = s.output + i * d_v;
    for (std::size_t j = 0; j < m; ++j) {
      const double w = weights[j];
      if (w == 0) continue;
      const double* v = values.data + j * d_v;
      for (std::size_t t = 0; t < d_v; ++t) out[t] += w * v[t];
    }
  }
  return check_overflow(s.output, n, d_v, "output", "The output");
}

}  // namespace attn
