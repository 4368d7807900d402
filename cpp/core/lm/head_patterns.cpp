#include "head_patterns.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "rng.hpp"

namespace attn {

const char* to_string(HeadPattern pattern) {
  switch (pattern) {
    case HeadPattern::previous:
      return "previous";
    case HeadPattern::first:
      return "first";
    case HeadPattern::same:
      return "same";
    case HeadPattern::induction:
      return "induction";
  }
  return "";
}

HeadPattern PatternScores::best() const {
  return static_cast<HeadPattern>(std::max_element(score.begin(), score.end()) - score.begin());
}

PatternScores score_head(const float* weights, std::size_t stride, const std::vector<int>& tokens,
                         std::size_t copy) {
  std::array<double, kHeadPatterns> sum{};
  PatternScores out;
  const auto add = [&](HeadPattern p, double w) {
    sum[static_cast<std::size_t>(p)] += w;
    ++out.rows[static_cast<std::size_t>(p)];
  };
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const float* row = weights + i * stride;
    add(HeadPattern::first, row[0]);
    if (i >= 2) add(HeadPattern::previous, row[i - 1]);
    double same = 0;
    bool seen = false;
    for (std::size_t j = 1; j < i; ++j)
      if (tokens[j] == tokens[i]) same += row[j], seen = true;
    if (seen) add(HeadPattern::same, same);
    if (copy > 0 && i > copy && i <= 2 * copy) add(HeadPattern::induction, row[i - copy + 1]);
  }
  for (std::size_t p = 0; p < kHeadPatterns; ++p)
    out.score[p] = out.rows[p] ? sum[p] / static_cast<double>(out.rows[p]) : 0.0;
  return out;
}

Result<HeadSurvey> survey_heads(const Decoder& model, int bos, std::size_t length,
                                std::size_t sequences, std::uint64_t seed) {
  const DecoderConfig& c = model.config;
  if (bos < 0 || static_cast<std::size_t>(bos) >= c.vocab || c.vocab < 2)
    return make_error(ErrorCode::bad_argument, "bos", -1, -1,
                      "bos: token " + std::to_string(bos) + " is outside the vocabulary of " +
                          std::to_string(c.vocab) + ".");
  HeadSurvey out;
  out.layers = c.layers;
  out.heads = c.heads;
  out.loss_blind = std::log2(static_cast<double>(c.vocab));
  out.sequences = sequences;
  out.length = std::max<std::size_t>(2, std::min(length, (c.context - 1) / 2));
  const std::size_t L = out.length, n = 1 + 2 * L;
  // What the probes cost in multiply-adds: per token and layer, the products of the block (Q, K
  // and V, the projection, and the MLP's two matrices or SwiGLU's three: 12·C² for GPT-2) and its
  // attention over the tokens before it (at most 2·n·H·d), and per token the unembedding
  // (vocab·C). A survey above kSurveyBudget, a few seconds on one core, is refused rather than
  // left to hold the caller's thread.
  const double C = static_cast<double>(c.width), Q = static_cast<double>(c.q_width());
  const double block = C * (Q + 2 * static_cast<double>(c.kv_width())) + Q * C +
                       (c.family == Family::llama ? 3 : 2) * C * static_cast<double>(c.mlp_width());
  const double cost = static_cast<double>(sequences) * static_cast<double>(n) *
                      (static_cast<double>(c.layers) * (block + 2 * static_cast<double>(n) * Q) +
                       static_cast<double>(c.vocab) * C);
  if (cost > kSurveyBudget)
    return make_error(ErrorCode::too_large, "survey", -1, -1,
                      "survey: " + std::to_string(sequences) + " probes of " + std::to_string(n) +
                          " tokens take about " + number_text(std::round(cost / 1e9)) +
                          " billion multiply-adds on this model, more than the " +
                          number_text(kSurveyBudget / 1e9) +
                          " billion a survey may; ask for fewer sequences or a shorter length.");
  std::vector<std::array<double, kHeadPatterns>> sums(c.layers * c.heads);
  std::vector<std::array<std::size_t, kHeadPatterns>> rows(c.layers * c.heads);
  double first = 0, second = 0;
  Rng rng(seed);
  for (std::size_t s = 0; s < sequences; ++s) {
    std::vector<int> tokens{bos};
    for (std::size_t i = 0; i < L; ++i) {
      int t = bos;
      while (t == bos) t = static_cast<int>(rng.next_u64() % c.vocab);
      tokens.push_back(t);
    }
    for (std::size_t i = 0; i < L; ++i) tokens.push_back(tokens[1 + i]);
    KvCache cache(model);
    Result<DecoderSteps> run = cache.append(tokens, true);
    if (!run) return run.error();
    for (std::size_t l = 0; l < c.layers; ++l)
      for (std::size_t h = 0; h < c.heads; ++h) {
        const PatternScores p = score_head(run->layers[l].weights.data() + h * n * n, n, tokens, L);
        for (std::size_t k = 0; k < kHeadPatterns; ++k)
          if (p.rows[k]) sums[l * c.heads + h][k] += p.score[k], ++rows[l * c.heads + h][k];
      }
    // Token i's logits predict token i + 1: the first copy's tokens 2 … L (its first is a guess
    // from <bos> alone) and the second copy's L + 2 … 2L (its first follows the first copy's end).
    for (std::size_t i = 1; i + 1 <= L; ++i)
      first += surprisal_bits(run->logits.data() + i * c.vocab, c.vocab, tokens[i + 1]);
    for (std::size_t i = L + 1; i + 1 < n; ++i)
      second += surprisal_bits(run->logits.data() + i * c.vocab, c.vocab, tokens[i + 1]);
  }
  for (std::size_t k = 0; k < sums.size(); ++k) {
    PatternScores p;
    for (std::size_t q = 0; q < kHeadPatterns; ++q) {
      p.rows[q] = rows[k][q];
      p.score[q] = rows[k][q] ? sums[k][q] / static_cast<double>(rows[k][q]) : 0.0;
    }
    out.scores.push_back(p);
  }
  const double predictions = static_cast<double>(sequences * (L - 1));
  out.loss_first = sequences ? first / predictions : 0;
  out.loss_second = sequences ? second / predictions : 0;
  return out;
}

}  // namespace attn
