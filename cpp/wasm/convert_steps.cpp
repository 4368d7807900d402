// attention(), its explanations and the difference: the steps of one head, written in the steps
// layout (StepsLayout in stream.hpp) that multiHead() uses for each of its heads too.
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <vector>

#include "convert.hpp"
#include "row_trace.hpp"

namespace attn::wasm {
namespace {

Result<AttentionSteps> run_attention(int similarity, int scaling, double temperature, int mask,
                                     int normalization) {
  Reader in = input();
  Matrix queries = in.matrix(), keys = in.matrix(), values = in.matrix();
  const AttentionConfig config =
      attention_config(similarity, scaling, temperature, mask, normalization, in);
  return attention(queries, keys, values, config);
}

void put_matrix(double* p, const Matrix& m) { std::copy(m.data(), m.data() + m.size(), p); }

void put_vector(double* p, const Vector& v) { std::copy(v.data(), v.data() + v.size(), p); }

// The row stats and the mask of attention() go through buffers of their own, which only grow.
std::vector<RowStats> g_rows;       // (n)
std::unique_ptr<bool[]> g_visible;  // (n, m)
std::size_t g_visible_size = 0;

}  // namespace

void release_step_buffers() {
  g_visible.reset();
  g_visible_size = 0;
  std::vector<RowStats>().swap(g_rows);
}

AttentionConfig attention_config(int similarity, int scaling, double temperature, int mask,
                                 int normalization, Reader& in) {
  AttentionConfig c;
  c.similarity = static_cast<Similarity>(similarity);
  c.scaling = static_cast<Scaling>(scaling);
  c.temperature = temperature;
  c.mask = static_cast<MaskKind>(mask);
  if (c.mask == MaskKind::custom) c.custom_mask = in.mask();
  c.normalization = static_cast<Normalization>(normalization);
  return c;
}

void write_steps(Writer& w, const AttentionSteps& s) {
  const std::size_t n = s.queries.shape()[0], m = s.keys.shape()[0];
  const std::size_t d_k = s.queries.shape()[1], d_v = s.values.shape()[1];
  const StepsLayout at(n, m, d_k, d_v);
  double* p = w.take(at.size);
  put_steps_header(p, n, m, d_k, d_v, s.divisor);
  put_row_stats(p + at.row_stats, s.rows.data(), n);
  put_matrix(p + at.queries, s.queries);
  put_matrix(p + at.keys, s.keys);
  put_matrix(p + at.values, s.values);
  put_vector(p + at.query_norms, s.query_norms);
  put_vector(p + at.key_norms, s.key_norms);
  put_matrix(p + at.scores, s.scores);
  put_matrix(p + at.scaled, s.scaled);
  put_matrix(p + at.masked, s.masked);
  put_matrix(p + at.exps, s.exps);
  put_matrix(p + at.weights, s.weights);
  put_matrix(p + at.output, s.output);
  put_mask_bytes(p + at.visible, s.visible.data(), s.visible.size());
}

// The explainer's hot path, called on every change the reader makes. Q, K and V are read where
// api/ wrote them and the core writes each step straight into the result, so that a warm engine
// allocates nothing (but a custom mask's copy in the config): an 8×4 call took 13 µs through the
// public API when it built an AttentionSteps and copied it out.
Address attention_steps(int similarity, int scaling, double temperature, int mask,
                        int normalization) {
  Reader in = input();
  const MatrixView q = in.view(), k = in.view(), v = in.view();
  const AttentionConfig config =
      attention_config(similarity, scaling, temperature, mask, normalization, in);
  if (auto e = check_attention(q, k, v, config)) return fail(*e);
  const std::size_t n = q.rows, m = k.rows, d_k = q.cols, d_v = v.cols;
  if (g_visible_size < n * m) {
    g_visible.reset(new bool[n * m]);
    g_visible_size = n * m;
  }
  if (g_rows.size() < n) g_rows.resize(n);

  Writer w = output();
  const StepsLayout at(n, m, d_k, d_v);
  double* p = w.take(at.size);  // one take(), so that the buffer cannot move under p
  std::copy(q.data, q.data + n * d_k, p + at.queries);
  std::copy(k.data, k.data + m * d_k, p + at.keys);
  std::copy(v.data, v.data + m * d_v, p + at.values);
  StepBuffers b;
  b.query_norms = p + at.query_norms;
  b.key_norms = p + at.key_norms;
  b.scores = p + at.scores;
  b.scaled = p + at.scaled;
  b.masked = p + at.masked;
  b.exps = p + at.exps;
  b.weights = p + at.weights;
  b.output = p + at.output;
  b.visible = g_visible.get();
  b.rows = g_rows.data();
  if (auto e = attention_into(q, k, v, config, b)) return fail(*e);
  put_steps_header(p, n, m, d_k, d_v, b.divisor);
  put_row_stats(p + at.row_stats, b.rows, n);
  put_mask_bytes(p + at.visible, b.visible, n * m);
  return w.finish();
}

Address explain_cell_of(int similarity, int scaling, double temperature, int mask,
                        int normalization, std::size_t i, std::size_t j) {
  auto steps = run_attention(similarity, scaling, temperature, mask, normalization);
  if (!steps) return fail(steps.error());
  auto c = explain_cell(*steps, i, j);
  if (!c) return fail(c.error());
  Writer w = output();
  w.values(std::initializer_list<double>{
      static_cast<double>(c->row), static_cast<double>(c->col), c->dot, c->query_norm, c->key_norm,
      c->score, c->divisor, c->scaled, c->visible ? 1.0 : 0.0, c->row_max, c->exp_value, c->exp_sum,
      c->score_sum, c->weight, static_cast<double>(c->terms.size())});
  w.values(c->query);
  w.values(c->key);
  w.values(c->terms);
  return w.finish();
}

Address explain_output_of(int similarity, int scaling, double temperature, int mask,
                          int normalization, std::size_t i, std::size_t t) {
  auto steps = run_attention(similarity, scaling, temperature, mask, normalization);
  if (!steps) return fail(steps.error());
  auto o = explain_output(*steps, i, t);
  if (!o) return fail(o.error());
  Writer w = output();
  w.values(std::initializer_list<double>{static_cast<double>(o->row), static_cast<double>(o->col),
                                         o->output, static_cast<double>(o->terms.size())});
  w.values(o->weights);
  w.values(o->values);
  w.values(o->terms);
  return w.finish();
}

// One query row's computation, operation by operation (row_trace.hpp), for the animation:
// [row, m, dK, dV, queryNorm, divisor, max, expSum, scoreSum, problem | query (dK) | terms,
// partial (m × dK) | keyNorms, scores, scaled, visible (0 or 1), masked, shifted, exps, weights
// (m) | mixed, filled (m × dV) | output (dV)]
Address trace_row_of(int similarity, int scaling, double temperature, int mask, int normalization,
                     std::size_t i) {
  auto steps = run_attention(similarity, scaling, temperature, mask, normalization);
  if (!steps) return fail(steps.error());
  auto t = trace_row(*steps, i);
  if (!t) return fail(t.error());
  Writer w = output();
  w.values(std::initializer_list<double>{static_cast<double>(t->row), static_cast<double>(t->m),
                                         static_cast<double>(t->d_k), static_cast<double>(t->d_v),
                                         t->query_norm, t->divisor, t->max, t->exp_sum,
                                         t->score_sum, static_cast<double>(t->problem)});
  for (const std::vector<double>* v :
       {&t->query, &t->terms, &t->partial, &t->key_norms, &t->scores, &t->scaled, &t->visible,
        &t->masked, &t->shifted, &t->exps, &t->weights, &t->mixed, &t->filled, &t->output})
    w.values(v->data(), v->size());
  return w.finish();
}

// The comparison view: right − left of two matrices, left first in the input buffer.
Address difference_of() {
  Reader in = input();
  const Matrix left = in.matrix(), right = in.matrix();
  auto d = difference(left, right);
  if (!d) return fail(d.error());
  Writer w = output();
  w.matrix(*d);
  return w.finish();
}

}  // namespace attn::wasm
