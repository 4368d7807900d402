// Multi-head self-attention on X (n, d_model):
//
//   for each head h:   Q_h = X·W_Q[h]  (n, d_k)    K_h = X·W_K[h]  (n, d_k)    V_h = X·W_V[h]  (n,
//   d_v)
//                      head_h = attention(Q_h, K_h, V_h)            (n, d_v), every step kept
//   concat = [head_1 … head_H]                                      (n, H·d_v)
//            column c is column c mod d_v of head ⌊c / d_v⌋ (column_head, column_in_head)
//   output = concat · W_O                                           (n, d_model)
//
// Projections:
// - identity: W_Q = W_K = W_V = I. Needs d_k = d_v = d_model. W_O is H identities stacked and
//   divided by H, so the output is the mean of the heads and stays in X's feature space.
// - random: every entry drawn from the core's Rng (rng.hpp) seeded with `seed`, uniform in
//   [−√(3/fan_in), √(3/fan_in)] (variance 1/fan_in), in the order W_Q[0], W_K[0], W_V[0],
//   W_Q[1], …, W_O, each row-major. The same seed gives the same numbers on every platform.
// - given: the caller passes every matrix; shapes are checked and named in errors.
//
// Errors: those of attention() for each head, its message starting "Head h: ". Finite inputs
// whose products overflow (1e200 · 1e200) are ErrorCode::not_finite with the cell: input
// "queries", "keys" or "values" for a head's X·W_Q, X·W_K, X·W_V, and "output" for concat·W_O.
#pragma once

#include <cstdint>
#include <vector>

#include "attention.hpp"

namespace attn {

enum class Projection { identity, random, given };

struct MultiHeadConfig {
  std::size_t heads = 1;
  std::size_t d_k = 0;  // 0 = d_model / heads (d_model if that does not divide)
  std::size_t d_v = 0;  // 0 = d_k
  Projection projection = Projection::identity;
  std::uint64_t seed = 1;
  std::vector<Matrix> w_q, w_k, w_v;  // given: heads × (d_model, d_k) / (d_model, d_v)
  Matrix w_o;                         // given: (heads·d_v, d_model)
  AttentionConfig attention;          // similarity, scaling, mask, normalisation of every head
};

struct HeadSteps {
  Matrix w_q;  // (d_model, d_k)
  Matrix w_k;  // (d_model, d_k)
  Matrix w_v;  // (d_model, d_v)
  AttentionSteps steps;
};

struct MultiHeadSteps {
  Matrix x;                      // (n, d_model)
  std::vector<HeadSteps> heads;  // (H)
  Matrix concat;                 // (n, H·d_v)
  // Where column c of concat came from: column column_in_head[c] of head column_head[c]'s
  // output (both 0-based), so that c = column_head[c]·d_v + column_in_head[c].
  std::vector<std::size_t> column_head;     // (H·d_v)
  std::vector<std::size_t> column_in_head;  // (H·d_v)
  Matrix w_o;                               // (H·d_v, d_model)
  Matrix output;                            // (n, d_model)
};

Result<MultiHeadSteps> multi_head(const Matrix& x, const MultiHeadConfig& config);

// Why a projected entry is what it is: value = Σ_t left[t]·right[t], the sum of terms.
//   queries, keys, values: left = row i of X (d_model), right = column j of head h's W_Q, W_K or
//                          W_V, value = that head's queries, keys or values (i, j)
//   output:                left = row i of concat (H·d_v), right = column j of W_O,
//                          value = output(i, j); the head is not used
enum class ProjectionKind { queries, keys, values, output };

struct ProjectionExplanation {
  std::size_t row = 0, col = 0;
  std::vector<double> left;   // (d_model) x_i, or (H·d_v) concat_i
  std::vector<double> right;  // (d_model) a column of W_Q, W_K, W_V, or (H·d_v) one of W_O
  std::vector<double> terms;  // left[t]·right[t]
  double value = 0;           // the entry as multi_head() computed it
};

// Errors: a head out of range (input "head"), an entry out of range (bad_argument, input
// "queries", "keys", "values" or "output", with the row and column asked for).
Result<ProjectionExplanation> explain_projection(const MultiHeadSteps& steps, ProjectionKind kind,
                                                 std::size_t head, std::size_t i, std::size_t j);

// Why the scores are divided by √d_k: how sharp one head's attention gets as d_k grows, with and
// without the division. For each d_k of `d_ks`, multi_head() runs on X twice with random
// projections (`seed`, d_v = d_k), softmax and `similarity` and `mask`: once scaled by √d_k and
// once unscaled. Each gives the mean over the n queries of head `head`'s row entropy
// (RowStats::entropy, in nats). The sweep stops before the first d_k with d_k·heads above
// Limits::max_dim.
struct EntropySweep {
  std::size_t heads = 1;
  std::size_t head = 0;           // 0-based, below heads
  std::vector<std::size_t> d_ks;  // strictly ascending, each at least 1
  std::uint64_t seed = 1;
  Similarity similarity = Similarity::dot;
  MaskKind mask = MaskKind::none;  // none or causal
};

struct EntropyRow {
  std::size_t d_k = 0;
  double scaled = 0;    // mean row entropy with the scores divided by √d_k, in nats
  double unscaled = 0;  // mean row entropy without
};

// Errors: those of multi_head() (their message starting "With d_k = 8: "), a head out of range
// (input "head"), d_ks with a 0 or out of order (input "dKs", col: the entry), a custom mask
// (input "mask").
Result<std::vector<EntropyRow>> entropy_by_dk(const Matrix& x, const EntropySweep& sweep);

}  // namespace attn
