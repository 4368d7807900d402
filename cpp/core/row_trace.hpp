// One query row of attention, operation by operation, with every partial result: the numbers an
// animation of the computation shows, frame by frame, so that it never computes one itself.
//
// Built from attention()'s steps: a number the steps hold (a score, a scaled score, a weight, the
// output) is the steps' own, and what the steps do not keep (the terms of each dot product as
// they add up, each value row scaled by its weight as it is added in) is computed here in the
// order the animation shows it:
//
//   terms[j][t]     q_i[t] · k_j[t]
//   partial[j][t]   terms[j][0] + … + terms[j][t]        (the dot product as it accumulates)
//   scores[j]       partial[j][d_k − 1] (dot), or that ÷ (|q_i|·|k_j|) (cosine)
//   scaled[j]       scores[j] ÷ divisor                  (√d_k, T or 1)
//   masked[j]       scaled[j], or −∞ where the key is hidden
//   shifted[j]      masked[j] − max                      (softmax; −∞ where hidden, and for sum)
//   exps[j]         exp(shifted[j])                      (softmax; 0 where hidden)
//   weights[j]      exps[j] ÷ exp_sum, or masked[j] ÷ score_sum (sum-normalisation)
//   mixed[j][c]     weights[j] · v_j[c]
//   filled[j][c]    mixed[0][c] + … + mixed[j][c]        (the output row as it fills)
//   output[c]       attention()'s output row
//
// A fully masked row has max −∞, every shifted −∞, exps, weights and output 0, never NaN.
#pragma once

#include <cstddef>
#include <vector>

#include "attention.hpp"
#include "common.hpp"

namespace attn {

// Flat row-major storage (std::vector rather than xtensor: it adds nothing to the engine's size).
struct RowTrace {
  std::size_t row = 0, m = 0, d_k = 0, d_v = 0;
  std::vector<double> query;      // (d_k) q_i
  std::vector<double> terms;      // (m, d_k)
  std::vector<double> partial;    // (m, d_k)
  double query_norm = 0;          // |q_i| (cosine)
  std::vector<double> key_norms;  // (m) |k_j| (cosine)
  std::vector<double> scores;     // (m)
  double divisor = 1;             // √d_k, T or 1
  std::vector<double> scaled;     // (m)
  std::vector<double> visible;    // (m) 1 where query i may see key j, else 0
  std::vector<double> masked;     // (m)
  double max = 0;                 // RowStats::max: the largest visible scaled score, −∞ if none
  std::vector<double> shifted;    // (m)
  std::vector<double> exps;       // (m)
  double exp_sum = 0;             // RowStats::exp_sum
  double score_sum = 0;           // RowStats::score_sum
  std::vector<double> weights;    // (m)
  std::vector<double> mixed;      // (m, d_v)
  std::vector<double> filled;     // (m, d_v)
  std::vector<double> output;     // (d_v)
  RowProblem problem = RowProblem::none;
};

// The trace of query row i of the steps. Errors: a row the steps do not have (bad_argument,
// input "row", row = i).
Result<RowTrace> trace_row(const AttentionSteps& steps, std::size_t i);

}  // namespace attn
