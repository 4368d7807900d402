// multiHead() and what is computed from its inputs: one entry of a projection, the entropy as d_k
// grows, and the 2-D picture of values and outputs.
#include <initializer_list>
#include <vector>

#include "convert.hpp"
#include "multihead.hpp"
#include "projection.hpp"

namespace attn::wasm {
namespace {

// Input buffer: x, then the custom mask if any, then for `given` projections a count and that
// many matrices for each of W_Q, W_K, W_V, and W_O.
Result<MultiHeadSteps> run_multi_head(int heads, int d_k, int d_v, int projection, double seed,
                                      int similarity, int scaling, double temperature, int mask,
                                      int normalization) {
  Reader in = input();
  const Matrix x = in.matrix();
  MultiHeadConfig c;
  c.heads = static_cast<std::size_t>(heads);
  c.d_k = static_cast<std::size_t>(d_k);
  c.d_v = static_cast<std::size_t>(d_v);
  c.projection = static_cast<Projection>(projection);
  c.seed = static_cast<std::uint64_t>(seed);  // api/ checks: an integer in [0, 2⁵³]
  c.attention = attention_config(similarity, scaling, temperature, mask, normalization, in);
  if (c.projection == Projection::given) {
    for (std::vector<Matrix>* list : {&c.w_q, &c.w_k, &c.w_v}) {
      list->resize(static_cast<std::size_t>(in.number()));
      for (Matrix& w : *list) w = in.matrix();
    }
    c.w_o = in.matrix();
  }
  return multi_head(x, c);
}

}  // namespace

// [x, the count of heads, for each head W_Q, W_K, W_V and its steps (StepsLayout), concat, W_O,
// the output, then for each column of concat its head and its column in that head].
Address multi_head_steps(int heads, int d_k, int d_v, int projection, double seed, int similarity,
                         int scaling, double temperature, int mask, int normalization) {
  auto r = run_multi_head(heads, d_k, d_v, projection, seed, similarity, scaling, temperature, mask,
                          normalization);
  if (!r) return fail(r.error());
  Writer w = output();
  w.matrix(r->x);
  w.number(static_cast<double>(r->heads.size()));
  for (const HeadSteps& h : r->heads) {
    w.matrix(h.w_q);
    w.matrix(h.w_k);
    w.matrix(h.w_v);
    write_steps(w, h.steps);
  }
  w.matrix(r->concat);
  w.matrix(r->w_o);
  w.matrix(r->output);
  w.values(r->column_head);  // H·d_v each: the columns of concat
  w.values(r->column_in_head);
  return w.finish();
}

// The inputs of multiHead(), then which entry: kind is a ProjectionKind.
Address explain_projection_of(int heads, int d_k, int d_v, int projection, double seed,
                              int similarity, int scaling, double temperature, int mask,
                              int normalization, int kind, int head, std::size_t i, std::size_t j) {
  auto r = run_multi_head(heads, d_k, d_v, projection, seed, similarity, scaling, temperature, mask,
                          normalization);
  if (!r) return fail(r.error());
  auto p = explain_projection(*r, static_cast<ProjectionKind>(kind), static_cast<std::size_t>(head),
                              i, j);
  if (!p) return fail(p.error());
  Writer w = output();
  w.values(std::initializer_list<double>{static_cast<double>(p->row), static_cast<double>(p->col),
                                         p->value, static_cast<double>(p->terms.size())});
  w.values(p->left);
  w.values(p->right);
  w.values(p->terms);
  return w.finish();
}

// Input buffer: x, then the count of d_k values and the values. The result: the count of rows,
// then d_k, scaled, unscaled for each.
Address entropy_by_dk_of(int heads, int head, double seed, int similarity, int mask) {
  Reader in = input();
  const Matrix x = in.matrix();
  EntropySweep sweep;
  sweep.heads = static_cast<std::size_t>(heads);
  sweep.head = static_cast<std::size_t>(head);
  sweep.d_ks.resize(static_cast<std::size_t>(in.number()));
  for (std::size_t& d_k : sweep.d_ks) d_k = static_cast<std::size_t>(in.number());
  sweep.seed = static_cast<std::uint64_t>(seed);  // api/ checks: an integer in [0, 2⁵³]
  sweep.similarity = static_cast<Similarity>(similarity);
  sweep.mask = static_cast<MaskKind>(mask);
  auto rows = entropy_by_dk(x, sweep);
  if (!rows) return fail(rows.error());
  Writer w = output();
  w.number(static_cast<double>(rows->size()));
  for (const EntropyRow& r : *rows) {
    w.values(std::initializer_list<double>{static_cast<double>(r.d_k), r.scaled, r.unscaled});
  }
  return w.finish();
}

Address project_2d_of() {
  Reader in = input();
  const Matrix values = in.matrix(), outputs = in.matrix();
  auto p = project_2d(values, outputs);
  if (!p) return fail(p.error());
  Writer w = output();
  w.vector(p->mean);
  w.matrix(p->axes);
  w.vector(p->variance);
  w.number(p->total_variance);
  w.matrix(p->values_2d);
  w.matrix(p->outputs_2d);
  w.number(p->shown);
  return w.finish();
}

}  // namespace attn::wasm
