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
  RowTrace r;
  r.row = i;
  r.m = m;
  r.d_k = d_k;
  r.d_v = d_v;
  for (std::size_t t = 0; t < d_k; ++t) r.query.push_back(s.queries(i, t));
  for (std::size_t j = 0; j < m; ++j) {
    double sum = 0;
    for (std::size_t t = 0; t < d_k; ++t) {
      const double term = s.queries(i, t) * s.keys(j, t);
      sum += term;
      r.terms.push_back(term);
      r.partial.push_back(sum);
    }
  }
  r.query_norm = s.query_norms(i);
  r.divisor = s.divisor;
  const RowStats& stats = s.rows[i];
  r.max = stats.max;
  r.exp_sum = stats.exp_sum;
  r.score_sum = stats.score_sum;
  r.problem = stats.problem;
  const double minus_inf = -std::numeric_limits<double>::infinity();
  const bool softmax = s.config.normalization == Normalization::softmax;
  for (std::size_t j = 0; j < m; ++j) {
    const bool visible = s.visible(i, j);
    r.key_norms.push_back(s.key_norms(j));
    r.scores.push_back(s.scores(i, j));
    r.scaled.push_back(s.scaled(i, j));
    r.visible.push_back(visible ? 1 : 0);
    r.masked.push_back(s.masked(i, j));
    // −∞ − (−∞) is NaN: a hidden key, and every key of a fully masked row, stays at −∞.
    r.shifted.push_back(softmax && visible ? s.masked(i, j) - r.max : minus_inf);
    r.exps.push_back(s.exps(i, j));
    r.weights.push_back(s.weights(i, j));
  }
  r.mixed.resize(m * d_v);
  r.filled.resize(m * d_v);
  for (std::size_t c = 0; c < d_v; ++c) {
    double sum = 0;
    for (std::size_t j = 0; j < m; ++j) {
      r.mixed[j * d_v + c] = r.weights[j] * s.values(j, c);
      sum += r.mixed[j * d_v + c];
      r.filled[j * d_v + c] = sum;
    }
    r.output.push_back(s.output(i, c));
  }
  return r;
}

}  // namespace attn
