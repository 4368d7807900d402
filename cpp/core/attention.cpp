#include "attention.hpp"

#include <string>
#include <utility>

namespace attn {
namespace {

MatrixView view(const Matrix& a) { return {a.data(), a.shape()[0], a.shape()[1]}; }

}  // namespace

Result<AttentionSteps> attention(const Matrix& queries, const Matrix& keys, const Matrix& values,
                                 const AttentionConfig& config) {
  if (auto e = check_attention(view(queries), view(keys), view(values), config)) return *e;

  AttentionSteps s;
  s.config = config;
  s.queries = queries;
  s.keys = keys;
  s.values = values;
  const std::size_t n = s.n(), m = s.m(), d_v = s.d_v();
  s.query_norms = Vector::from_shape({n});  // (n)
  s.key_norms = Vector::from_shape({m});    // (m)
  s.scores = Matrix::from_shape({n, m});    // (n, m)
  s.scaled = Matrix::from_shape({n, m});    // (n, m)
  s.visible = Mask::from_shape({n, m});     // (n, m)
  s.masked = Matrix::from_shape({n, m});    // (n, m)
  s.exps = Matrix::from_shape({n, m});      // (n, m)
  s.weights = Matrix::from_shape({n, m});   // (n, m)
  s.output = Matrix::from_shape({n, d_v});  // (n, d_v)
  s.rows.resize(n);
  StepBuffers b;
  b.query_norms = s.query_norms.data();
  b.key_norms = s.key_norms.data();
  b.scores = s.scores.data();
  b.scaled = s.scaled.data();
  b.visible = s.visible.data();
  b.masked = s.masked.data();
  b.exps = s.exps.data();
  b.weights = s.weights.data();
  b.output = s.output.data();
  b.rows = s.rows.data();
  if (auto e = attention_into(view(s.queries), view(s.keys), view(s.values), config, b)) return *e;
  s.divisor = b.divisor;
  return Result<AttentionSteps>(std::move(s));
}

Result<CellExplanation> explain_cell(const AttentionSteps& s, std::size_t i, std::size_t j) {
  if (i >= s.n() || j >= s.m()) {
    return make_error(ErrorCode::bad_argument, "cell", static_cast<long>(i), static_cast<long>(j),
                      "There is no cell (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                          "): the matrix is " + std::to_string(s.n()) + "×" +
                          std::to_string(s.m()) + ".");
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
    return make_error(ErrorCode::bad_argument, "output", static_cast<long>(i), static_cast<long>(t),
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

Result<Matrix> difference(const Matrix& left, const Matrix& right) {
  const std::size_t rows = left.shape()[0], cols = left.shape()[1];
  if (auto e = check_size(rows, cols, "left")) return *e;
  if (right.shape()[0] != rows || right.shape()[1] != cols) {
    return make_error(ErrorCode::shape_mismatch, "right", -1, -1,
                      "right is " + std::to_string(right.shape()[0]) + "×" +
                          std::to_string(right.shape()[1]) + " but left is " +
                          std::to_string(rows) + "×" + std::to_string(cols) +
                          "; a difference needs two matrices of the same shape.");
  }
  if (auto e = check_finite(left, "left")) return *e;
  if (auto e = check_finite(right, "right")) return *e;
  // A loop rather than `right - left`, whose xtensor assignment cost the engine 1 KB gzipped.
  Matrix out = Matrix::from_shape({rows, cols});  // (rows, cols)
  const double *l = left.data(), *r = right.data();
  for (std::size_t k = 0; k < rows * cols; ++k) out.data()[k] = r[k] - l[k];
  if (auto bad = check_finite(out, "difference")) {
    return overflow_error("difference", "The difference", bad->row, bad->col, "a double");
  }
  return out;
}

}  // namespace attn
