// Scaled dot-product attention, every step kept:  Attention(Q, K, V) = softmax(QKᵀ / √d_k) · V
//
//   queries Q (n, d_k)   one row per token that asks
//   keys    K (m, d_k)   one row per token that may be looked at
//   values  V (m, d_v)   what each looked-at token contributes
//
// Steps, in order (each an n×m matrix unless noted):
//   scores   S[i][j] = q_i · k_j                 (dot), or cos(q_i, k_j) (cosine)
//   scaled   S[i][j] / c                         c = √d_k (default), 1 (none) or T (temperature)
//   masked   scaled, or −∞ where query i may not see key j
//   exps     exp(masked − row max)               (softmax only; 0 where masked)
//   weights  exps / Σ_j exps                     (softmax), or masked / Σ_j masked (sum)
//   output   weights · V                         (n, d_v)
//
// Semantics:
// - Causal mask: query i may see key j only if j ≤ i. Rows and columns are aligned at the top
//   left (as PyTorch's is_causal): when n > m, queries i ≥ m see every key; when n < m, query i
//   still sees keys 0..i only.
// - A custom mask is n×m; true means "may attend".
// - A fully masked row has all-zero weights and a zero output row, never NaN (as PyTorch's
//   scaled_dot_product_attention). Its row max is −∞ and its exp sum 0.
// - Softmax subtracts the row max before exponentiating (so [1000, 1001, 1002] does not
//   overflow); the max is found with an explicit loop, since xt::amax of a row of −∞ is wrong in
//   xtensor 0.24.
// - Sum-normalisation (the naive first idea: divide each score by the row's sum) is kept to show
//   why it fails. A row whose sum is zero, or too small to divide by (|sum| ≤ 1e-9 · Σ|s_j|), gets
//   zero weights and RowProblem::zero_sum; a row whose weights come out negative keeps them and
//   gets RowProblem::negative_weights. Masked entries count as 0 in the sum. Both sums are taken
//   on the row's scores divided by a power of two near its largest |s_j| (exact), so neither
//   overflows: [1e308, 1e308] gets weights [0.5, 0.5] and [1e308, −1e308, 1e308] gets [1, −1, 1]
//   (negative_weights), while [1, −1] is still zero_sum.
// - Errors (returned, never thrown): empty inputs, mismatched shapes, NaN or ±Inf in any input,
//   d_k = 0, temperature ≤ 0, a cosine of a zero-length row, a mask of the wrong shape, sizes
//   above Limits, and a step that overflows although its inputs were finite (1e200 · 1e200, or a
//   temperature of 1e-300): code not_finite, input "scores", "scaled", "weights" or "output",
//   with the cell. Cosine divides each row by its largest magnitude first, so it never overflows.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "common.hpp"

namespace attn {

enum class Similarity { dot, cosine };
enum class Scaling { sqrt_dk, none, temperature };
enum class MaskKind { none, causal, custom };
enum class Normalization { softmax, sum };

struct AttentionConfig {
  Similarity similarity = Similarity::dot;
  Scaling scaling = Scaling::sqrt_dk;
  double temperature = 1.0;  // used when scaling == temperature; must be > 0
  MaskKind mask = MaskKind::none;
  Mask custom_mask;  // (n, m), used when mask == custom
  Normalization normalization = Normalization::softmax;
};

enum class RowProblem {
  none,
  fully_masked,      // every key hidden: weights 0, output 0
  zero_sum,          // sum-normalisation: the row sums to (nearly) zero, nothing to divide by
  negative_weights,  // sum-normalisation: some weights are negative, not a distribution
};

struct RowStats {
  double max = 0;      // largest visible scaled score; −∞ if fully masked
  double exp_sum = 0;  // Σ_j exp(masked − max) (softmax); 0 for sum-normalisation
  // Σ_j masked over visible keys (the sum-normalisation denominator), 0 if none is visible. Where
  // that sum is beyond a double (|Σ| > 1.8e308, as for [1e308, 1e308]) it is ±∞, the sum's sign,
  // and the weights s_j / Σ are still finite: they are computed on the scores divided by a power
  // of two.
  double score_sum = 0;
  double weight_sum = 0;  // Σ_j weights: 1, or 0 for a fully masked / zero-sum row
  double entropy = 0;     // −Σ w ln w in nats over w > 0; 0 when RowProblem is not none
  int visible = 0;        // how many keys the query may see
  RowProblem problem = RowProblem::none;
};

struct AttentionSteps {
  AttentionConfig config;
  Matrix queries;      // (n, d_k)
  Matrix keys;         // (m, d_k)
  Matrix values;       // (m, d_v)
  Vector query_norms;  // (n) |q_i|, used by cosine
  Vector key_norms;    // (m) |k_j|, used by cosine
  double divisor = 1;  // what the scores were divided by: √d_k, T or 1
  Matrix scores;       // (n, m)
  Matrix scaled;       // (n, m)
  Mask visible;        // (n, m)
  Matrix masked;       // (n, m) scaled, −∞ where hidden
  Matrix exps;         // (n, m) exp(masked − row max); 0 where hidden or for sum-normalisation
  Matrix weights;      // (n, m)
  Matrix output;       // (n, d_v)
  std::vector<RowStats> rows;  // (n)

  std::size_t n() const { return queries.shape()[0]; }
  std::size_t m() const { return keys.shape()[0]; }
  std::size_t d_k() const { return queries.shape()[1]; }
  std::size_t d_v() const { return values.shape()[1]; }
};

// All the steps for one configuration.
Result<AttentionSteps> attention(const Matrix& queries, const Matrix& keys, const Matrix& values,
                                 const AttentionConfig& config = {});

// The same computation for callers that run it many times and keep their own storage: the wasm
// engine reads Q, K, V where JavaScript wrote them and has the steps written straight into the
// result it hands back, so that a warm engine allocates nothing. attention() is these two calls.

// A row-major matrix in storage the caller owns: (rows, cols).
struct MatrixView {
  const double* data = nullptr;
  std::size_t rows = 0, cols = 0;
};

// Where attention_into() writes each step: row-major storage the caller owns, of the sizes
// below (those of AttentionSteps). Every element is written; nothing needs clearing first.
struct StepBuffers {
  double* query_norms = nullptr;  // (n)
  double* key_norms = nullptr;    // (m)
  double* scores = nullptr;       // (n, m)
  double* scaled = nullptr;       // (n, m)
  bool* visible = nullptr;        // (n, m)
  double* masked = nullptr;       // (n, m)
  double* exps = nullptr;         // (n, m)
  double* weights = nullptr;      // (n, m)
  double* output = nullptr;       // (n, d_v)
  RowStats* rows = nullptr;       // (n)
  double divisor = 1;             // written: √d_k, T or 1
};

// What the scores are divided by: √d_k, the temperature or 1.
double scale_divisor(Scaling scaling, std::size_t d_k, double temperature);

// An error unless the temperature is a finite number above 0, when it is the chosen scaling.
std::optional<Error> check_temperature(Scaling scaling, double temperature);

// The checks attention() makes before computing anything (shapes, sizes, finite inputs, the
// temperature, the mask's shape), so that a caller knows n, m and d_v are sound before it sizes
// the buffers.
std::optional<Error> check_attention(MatrixView queries, MatrixView keys, MatrixView values,
                                     const AttentionConfig& config);

// The steps of inputs that passed check_attention(), and the errors only computing them can find
// (a cosine of a zero row, a step that overflows). On error `out` holds unspecified values.
std::optional<Error> attention_into(MatrixView queries, MatrixView keys, MatrixView values,
                                    const AttentionConfig& config, StepBuffers& out);

// Why score (i, j) is what it is. For dot: terms[t] = q_i[t]·k_j[t] and score = Σ terms.
// For cosine: terms[t] = q_i[t]·k_j[t] as well, and score = Σ terms / (|q_i|·|k_j|).
struct CellExplanation {
  std::size_t row = 0, col = 0;
  std::vector<double> query;            // (d_k) q_i
  std::vector<double> key;              // (d_k) k_j
  std::vector<double> terms;            // (d_k) q_i[t]·k_j[t]
  double dot = 0;                       // Σ terms
  double query_norm = 0, key_norm = 0;  // filled for cosine
  double score = 0;                     // scores(i, j)
  double divisor = 1;                   // √d_k, T or 1
  double scaled = 0;                    // score / divisor
  bool visible = true;
  double row_max = 0;    // RowStats::max
  double exp_value = 0;  // exp(scaled − row_max), 0 if hidden (softmax)
  double exp_sum = 0;    // RowStats::exp_sum (softmax)
  double score_sum = 0;  // RowStats::score_sum (sum-normalisation)
  double weight = 0;     // weights(i, j)
};

// Why output entry (i, t) is what it is: output(i, t) = Σ_j weights(i, j)·values(j, t).
struct OutputExplanation {
  std::size_t row = 0, col = 0;
  std::vector<double> weights;  // (m) w_ij
  std::vector<double> values;   // (m) v_j[t]
  std::vector<double> terms;    // (m) w_ij·v_j[t]
  double output = 0;            // Σ terms
};

// Errors name the index that is out of range.
Result<CellExplanation> explain_cell(const AttentionSteps& steps, std::size_t i, std::size_t j);
Result<OutputExplanation> explain_output(const AttentionSteps& steps, std::size_t i, std::size_t t);

// right − left, entry by entry (the weights of configuration B minus those of A, so a positive
// entry is attention B gives and A does not). Errors: an empty or too large matrix, `right` of
// another shape than `left` (shape_mismatch, input "right"), NaN or ±Inf in either, and a
// difference that overflows although both were finite (1e308 − (−1e308)): not_finite, input
// "difference", with the cell.
Result<Matrix> difference(const Matrix& left, const Matrix& right);

}  // namespace attn
