// The arithmetic of attention() (attention.hpp) on storage the caller owns: check_attention()
// and attention_into(). attention.cpp wraps them into the AttentionSteps API.
//
// A file of its own: the explainer's hot path, plain loops over contiguous storage with no
// xtensor expression in them. The wasm build compiles it for size like the rest of the core;
// -O2 made it 3 KB larger gzipped and no faster.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "attention.hpp"

namespace attn {
namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

// A sum-normalisation denominator this small, relative to the magnitudes summed, is numerically
// zero: dividing by it would turn rounding noise into huge weights.
constexpr double kZeroSumRelative = 1e-9;

// A step whose inputs were finite can still overflow (1e200 · 1e200, or a temperature of 1e-300):
// the error for the first such cell, k in row-major order, instead of passing ±∞ or NaN on to
// the page.
Error overflow_error(std::size_t k, std::size_t cols, const char* input, const char* what) {
  return attn::overflow_error(input, what, static_cast<long>(k / cols), static_cast<long>(k % cols),
                              "a double",
                              std::string(input) == "scaled" ? " or a larger temperature." : ".");
}

bool all_finite(MatrixView a) {
  for (std::size_t k = 0; k < a.rows * a.cols; ++k)
    if (!std::isfinite(a.data[k])) return false;
  return true;
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

// Row i of the mask: which of the m keys query i may see.
void mask_row(const AttentionConfig& config, std::size_t i, std::size_t m, bool* visible) {
  switch (config.mask) {
    case MaskKind::custom: {
      const bool* row = config.custom_mask.data() + i * m;
      std::copy(row, row + m, visible);
      return;
    }
    case MaskKind::causal:
      for (std::size_t j = 0; j < m; ++j) visible[j] = j <= i;
      return;
    case MaskKind::none:
      break;
  }
  std::fill(visible, visible + m, true);
}

// One row of the steps after masking, as pointers into the StepBuffers: (m) each. Its stats
// already hold the visible count and the max.
struct Row {
  const bool* visible;
  const double* masked;
  double* exps;
  double* weights;
  RowStats& stats;
};

// Softmax over the visible entries of the row, written into its exps, weights and stats, with
// the row's entropy −Σ w ln w over its positive weights, in nats: ln w_j = (x_j − max) − ln S, so
// H = ln S − Σ_j w_j·(x_j − max), one logarithm per row instead of one per weight (in wasm a
// logarithm is a library call, and these were a third of a small explainer call).
void softmax_row(Row r, std::size_t m) {
  // The max (found while masking, by hand: xt::amax of a row of −∞ is wrong in xtensor 0.24) is
  // subtracted before exponentiating, for numerical stability: every exponent is ≤ 0, so nothing
  // overflows.
  const double max = r.stats.max;
  if (r.stats.visible == 0) {
    r.stats.problem = RowProblem::fully_masked;
    std::fill(r.exps, r.exps + m, 0.0);  // nothing to attend to
    std::fill(r.weights, r.weights + m, 0.0);
    return;
  }
  double sum = 0;
  for (std::size_t j = 0; j < m; ++j) {
    const double e = r.visible[j] ? std::exp(r.masked[j] - max) : 0.0;
    r.exps[j] = e;
    sum += e;
  }
  r.stats.exp_sum = sum;  // ≥ 1: the max entry contributes exp(0)
  double weight_sum = 0, h = std::log(sum);
  for (std::size_t j = 0; j < m; ++j) {
    const double w = r.exps[j] / sum;
    r.weights[j] = w;
    weight_sum += w;
    if (w > 0) h -= w * (r.masked[j] - max);
  }
  r.stats.weight_sum = weight_sum;
  r.stats.entropy = std::max(h, 0.0);  // rounding can leave −1e-17 for a one-hot row
}

// The naive normalisation: each visible score divided by the row's sum.
// Finite scores can still sum past a double (1e308 + 1e308), and so can their magnitudes in the
// zero test ([1e308, −1e308, 1e308] sums to 1e308): both sums are taken on the scores times
// scale, the power of two that brings the row's largest |s| into (0.5, 1], where m ≤ 1024 terms
// cannot overflow (rows whose scores are all at most 1 are left as they are). Multiplying by a
// power of two is exact, so the weights s_j·scale / Σ s·scale are the bits of s_j / Σ s wherever
// that did not overflow.
void sum_normalize_row(Row r, std::size_t m) {
  std::fill(r.exps, r.exps + m, 0.0);  // no exponentials here
  std::fill(r.weights, r.weights + m, 0.0);
  double largest = 0;
  for (std::size_t j = 0; j < m; ++j)
    if (r.visible[j]) largest = std::max(largest, std::abs(r.masked[j]));
  double scale = 1;  // halved until the largest is at most 1: 2^−1024 at the least, exact
  while (largest * scale > 1) scale *= 0.5;
  double sum = 0, magnitude = 0;
  for (std::size_t j = 0; j < m; ++j) {
    if (!r.visible[j]) continue;
    sum += r.masked[j] * scale;
    magnitude += std::abs(r.masked[j] * scale);
  }
  r.stats.score_sum = sum / scale;  // ±∞ when the sum itself is beyond a double
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
    const double w = r.masked[j] * scale / sum;  // |w| < 1e9: |sum| > 1e-9 · Σ|s| ≥ 1e-9 · |s_j|
    r.weights[j] = w;
    negative = negative || w < 0;
  }
  if (negative) r.stats.problem = RowProblem::negative_weights;
  double weight_sum = 0;
  for (std::size_t j = 0; j < m; ++j) weight_sum += r.weights[j];
  r.stats.weight_sum = weight_sum;
  if (r.stats.problem != RowProblem::none) return;
  double h = 0;  // −Σ w ln w over the positive weights, in nats
  for (std::size_t j = 0; j < m; ++j)
    if (r.weights[j] > 0) h -= r.weights[j] * std::log(r.weights[j]);
  r.stats.entropy = std::max(h, 0.0);
}

}  // namespace

double scale_divisor(Scaling scaling, std::size_t d_k, double temperature) {
  switch (scaling) {
    case Scaling::sqrt_dk:
      return std::sqrt(static_cast<double>(d_k));
    case Scaling::temperature:
      return temperature;
    case Scaling::none:
      break;
  }
  return 1;
}

std::optional<Error> check_temperature(Scaling scaling, double temperature) {
  if (scaling != Scaling::temperature || (std::isfinite(temperature) && temperature > 0)) {
    return std::nullopt;
  }
  // As the reader would write it: 0, -1, 1e-300, NaN, Infinity (not 0.000000 or nan).
  return make_error(
      ErrorCode::bad_temperature, "temperature", -1, -1,
      "The temperature must be a number above 0 (got " + number_text(temperature) + ").");
}

std::optional<Error> check_attention(MatrixView q, MatrixView k, MatrixView v,
                                     const AttentionConfig& config) {
  const std::pair<MatrixView, const char*> inputs[] = {{q, "queries"}, {k, "keys"}, {v, "values"}};
  if ((q.rows > 0 && q.cols == 0) || (k.rows > 0 && k.cols == 0)) {
    const char* name = q.cols == 0 ? "queries" : "keys";
    return make_error(ErrorCode::bad_dimension, name, -1, -1,
                      std::string(name) + " have no columns: d_k must be at least 1.");
  }
  for (const auto& [m, name] : inputs) {
    if (size_ok(m.rows, m.cols)) continue;  // without building check_size()'s std::string
    if (auto e = check_size(m.rows, m.cols, name)) return e;
  }
  if (auto e = check_qkv_shapes(q.rows, q.cols, k.rows, k.cols, v.rows, v.cols)) return e;
  const std::size_t n = q.rows, m = k.rows;
  if (n * m > Limits::max_cells) {
    return make_error(ErrorCode::too_large, "queries", -1, -1,
                      std::to_string(n) + " queries × " + std::to_string(m) +
                          " keys is above the limit of " + std::to_string(Limits::max_cells) +
                          " cells.");
  }
  for (const auto& [a, name] : inputs) {
    if (all_finite(a)) continue;  // as above
    if (auto e = check_finite(a.data, a.rows, a.cols, name)) return e;
  }
  if (auto e = check_temperature(config.scaling, config.temperature)) return e;
  if (config.mask == MaskKind::custom &&
      (config.custom_mask.shape()[0] != n || config.custom_mask.shape()[1] != m)) {
    return make_error(ErrorCode::shape_mismatch, "mask", -1, -1,
                      "The mask is " + std::to_string(config.custom_mask.shape()[0]) + "×" +
                          std::to_string(config.custom_mask.shape()[1]) + " but there are " +
                          std::to_string(n) + " queries and " + std::to_string(m) +
                          " keys; it must be " + std::to_string(n) + "×" + std::to_string(m) + ".");
  }
  return std::nullopt;
}

std::optional<Error> attention_into(MatrixView queries, MatrixView keys, MatrixView values,
                                    const AttentionConfig& config, StepBuffers& s) {
  const std::size_t n = queries.rows, m = keys.rows, d_k = queries.cols, d_v = values.cols;
  const bool cosine = config.similarity == Similarity::cosine;
  // cos = (q/a)·(k/b) / (|q/a|·|k/b|) with a, b the rows' largest magnitudes: the same value as
  // q·k / (|q|·|k|), without overflow for 1e200 or underflow for 1e-200. Until the scores are
  // done, the norms' buffers hold those magnitudes.
  const double* qa = s.query_norms;  // (n)
  const double* ka = s.key_norms;    // (m)
  if (cosine) {
    row_max_abs(queries, s.query_norms);
    row_max_abs(keys, s.key_norms);
    if (auto e = check_nonzero_rows(qa, n, "queries", "Query")) return e;
    if (auto e = check_nonzero_rows(ka, m, "keys", "Key")) return e;
  }
  s.divisor = scale_divisor(config.scaling, d_k, config.temperature);

  // Every step of a row is computed before the next row (one pass over the row per step costs
  // more than the arithmetic at these sizes), but a step that overflows is reported in the order
  // of the steps: the first cell where each one did, or its size if none.
  std::size_t bad_score = n * m, bad_scaled = n * m, bad_weight = n * m, bad_output = n * d_v;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = i * m;  // row i of the (n, m) steps
    bool* visible = s.visible + at;
    double* scores = s.scores + at;
    double* scaled = s.scaled + at;
    double* masked = s.masked + at;
    mask_row(config, i, m, visible);
    // scores = Q·Kᵀ as explicit loops over contiguous rows (no BLAS in Debian's xtensor), then
    // scaled and masked. Everything the loops update is a local: the compiler must assume that
    // a store through one double* may change any double it reads through another.
    const double* q = queries.data + i * d_k;
    const double divisor = s.divisor;
    double max = kMinusInf;  // the largest visible scaled score
    int visible_count = 0;
    for (std::size_t j = 0; j < m; ++j) {
      const double* k = keys.data + j * d_k;
      double score;
      if (!cosine) {
        double dot = 0;
        for (std::size_t t = 0; t < d_k; ++t) dot += q[t] * k[t];
        score = dot;
      } else {
        double dot = 0, qq = 0, kk = 0;
        for (std::size_t t = 0; t < d_k; ++t) {
          const double x = q[t] / qa[i], y = k[t] / ka[j];
          dot += x * y;
          qq += x * x;
          kk += y * y;
        }
        score = dot / std::sqrt(qq * kk);
      }
      const double x = score / divisor;
      scores[j] = score;
      scaled[j] = x;
      masked[j] = visible[j] ? x : kMinusInf;
      if (!std::isfinite(score)) bad_score = std::min(bad_score, at + j);
      if (!std::isfinite(x)) bad_scaled = std::min(bad_scaled, at + j);
      if (visible[j]) {
        visible_count += 1;
        if (x > max) max = x;
      }
    }
    RowStats& stats = s.rows[i];
    stats = RowStats{};
    stats.max = max;
    stats.visible = visible_count;

    const Row row{visible, masked, s.exps + at, s.weights + at, stats};
    if (config.normalization == Normalization::softmax) {
      softmax_row(row, m);
    } else {
      sum_normalize_row(row, m);
    }
    for (std::size_t j = 0; j < m; ++j)
      if (!std::isfinite(row.weights[j])) bad_weight = std::min(bad_weight, at + j);

    // output = weights · V, each entry summed in a local (a sum kept in out[t] made every add
    // wait for the store before it).
    double* out = s.output + i * d_v;
    for (std::size_t t = 0; t < d_v; ++t) {
      double sum = 0;
      for (std::size_t j = 0; j < m; ++j) {
        const double w = row.weights[j];
        if (w != 0) sum += w * values.data[j * d_v + t];
      }
      out[t] = sum;
      if (!std::isfinite(sum)) bad_output = std::min(bad_output, i * d_v + t);
    }
  }
  row_norms(queries, s.query_norms);
  row_norms(keys, s.key_norms);

  if (bad_score < n * m) return overflow_error(bad_score, m, "scores", "The similarity");
  if (bad_scaled < n * m) return overflow_error(bad_scaled, m, "scaled", "The scaled score");
  if (bad_weight < n * m) return overflow_error(bad_weight, m, "weights", "The weight");
  if (bad_output < n * d_v) return overflow_error(bad_output, d_v, "output", "The output");
  return std::nullopt;
}

}  // namespace attn
