#include "row_trace.hpp"

#include <limits>
#include <string>

namespace attn {

Result<RowTrace> trace_row(const AttentionSteps& s, std::size_t i) {
  if (i >= s.n()) {
    return make_error(ErrorCode::bad_argument, "row", static_cast<long>(i), -1,
                      "There is no query row " + std::to_string(i + 1) + ": there are " +
                          std::to_string(s.n()) + ".");
  }
  const std::size_t m = s.m(), d_k = s.d_k(), d_v = s.d_v();
  // The steps' matrices are row-major and contiguous: one row of each is a run of doubles.
  const double* q = s.queries.data() + i * d_k;
  const double* keys = s.keys.data();
  const double* values = s.values.data();
  const std::size_t row = i * m;
  RowTrace r;
  r.row = i;
  r.m = m;
  r.d_k = d_k;
  r.d_v = d_v;
  r.query.assign(q, q + d_k);
  r.terms.resize(m * d_k);
  r.partial.resize(m * d_k);
  for (std::size_t j = 0; j < m; ++j) {
    double sum = 0;
    for (std::size_t t = 0; t < d_k; ++t) {
      const double term = q[t] * keys[j * d_k + t];
      sum += term;
      r.terms[j * d_k + t] = term;
      r.partial[j * d_k + t] = sum;
    }
  }
  r.query_norm = s.query_norms.data()[i];
  r.divisor = s.divisor;
  const RowStats& stats = s.rows[i];
  r.max = stats.max;
  r.exp_sum = stats.exp_sum;
  r.score_sum = stats.score_sum;
  r.problem = stats.problem;
  r.key_norms.assign(s.key_norms.data(), s.key_norms.data() + m);
  r.scores.assign(s.scores.data() + row, s.scores.data() + row + m);
  r.scaled.assign(s.scaled.data() + row, s.scaled.data() + row + m);
  r.masked.assign(s.masked.data() + row, s.masked.data() + row + m);
  r.exps.assign(s.exps.data() + row, s.exps.data() + row + m);
  r.weights.assign(s.weights.data() + row, s.weights.data() + row + m);
  r.visible.resize(m);
  r.shifted.resize(m);
  const bool softmax = s.config.normalization == Normalization::softmax;
  for (std::size_t j = 0; j < m; ++j) {
    const bool visible = s.visible.data()[row + j];
    r.visible[j] = visible ? 1 : 0;
    // −∞ − (−∞) is NaN: a hidden key, and every key of a fully masked row, stays at −∞.
    r.shifted[j] =
        softmax && visible ? r.masked[j] - r.max : -std::numeric_limits<double>::infinity();
  }
  r.mixed.resize(m * d_v);
  r.filled.resize(m * d_v);
  for (std::size_t c = 0; c < d_v; ++c) {
    double sum = 0;
    for (std::size_t j = 0; j < m; ++j) {
      r.mixed[j * d_v + c] = r.weights[j] * values[j * d_v + c];
      sum += r.mixed[j * d_v + c];
      r.filled[j * d_v + c] = sum;
    }
  }
  r.output.assign(s.output.data() + i * d_v, s.output.data() + (i + 1) * d_v);
  return r;
}

}  // namespace attn
