// What a language model's heads do, measured: each head scored for the patterns the
// interpretability literature names, on sequences where each pattern has one right answer.
//
// The probe: <bos>, then `length` tokens drawn at random, then the same tokens again. Random
// tokens carry no meaning, so a head that still attends in a pattern does so by its mechanism,
// not by what the words say. Per head, each score is a share of its attention (0 to 1), averaged
// over the rows where the pattern is defined:
//   previous   the weight on the token just before (rows 2 …; row 1's previous is <bos>)
//   first      the weight on position 0, <bos>: the "attention sink" (rows 1 …)
//   same       the weight on earlier tokens equal to this one (rows that have one)
//   induction  the weight on the token after this token's earlier copy: what a head looks at to
//              predict that the sequence goes on as it went before (rows of the second copy)
// The survey also measures in-context learning: the model's loss on the second copy, which it
// can predict by copying, against the first, which it cannot (bits per token).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"
#include "gpt2.hpp"

namespace attn {

enum class HeadPattern { previous, first, same, induction };
constexpr std::size_t kHeadPatterns = 4;
const char* to_string(HeadPattern pattern);  // "previous", "first", "same", "induction"

// The least best score that names a head by its pattern. Heads of random weights score up to
// 0.26 on the survey's probe (480 heads: 30 checkpoints of the page's model's shape, drawn as
// scripts/model/safetensors.mjs's randomGpt2 draws them; median 0.06, 99th percentile 0.15), so a
// head below 0.3 does nothing a random head might not: it has no clear pattern.
// tests/js/head-names.test.mjs measures it again.
constexpr double kClearPattern = 0.3;

struct PatternScores {
  std::array<double, kHeadPatterns> score{};  // by HeadPattern; 0 where no row defines it
  std::array<std::size_t, kHeadPatterns> rows{};
  HeadPattern best() const;  // the highest score (the first of equal ones)
  bool clear() const { return score[static_cast<std::size_t>(best())] >= kClearPattern; }
};

// One head's weights over `tokens` (row i at weights + i·stride, its keys 0 … i), scored. `copy`
// is the probe's length when tokens are <bos> + r + r, else 0 (then induction has no rows).
PatternScores score_head(const float* weights, std::size_t stride, const std::vector<int>& tokens,
                         std::size_t copy);

struct HeadSurvey {
  std::size_t layers = 0, heads = 0, sequences = 0, length = 0;
  std::vector<PatternScores> scores;       // layer by layer, head by head: means over the sequences
  double loss_first = 0, loss_second = 0;  // bits per token, predicting each copy's tokens
  // What a blind guess costs, log₂ of the vocabulary: the copies' losses are read against it, as a
  // model can need more than it for the first copy by expecting what random tokens never do.
  double loss_blind = 0;
};

// The most multiply-adds a survey may take: about ten seconds on one core of the page's machine
// (GPT-2 small's size: 2 sequences of the default length, 1.6e10, as the page asks; 8 are refused).
inline constexpr double kSurveyBudget = 5e10;

// `sequences` probes of `length` random tokens (from `seed`; never `bos`), shortened to fit the
// model's context. Errors: a `bos` outside the vocabulary, a vocabulary of one token, or probes
// that would take more than kSurveyBudget multiply-adds (too_large).

Result<HeadSurvey> survey_heads(const Decoder& model, int bos, std::size_t length = 32,
                                std::size_t sequences = 8, std::uint64_t seed = 1);

}  // namespace attn
