// Head pattern scores (cpp/core/lm/head_patterns.hpp) on weights written by hand, and the survey on
// a model whose every weight is zero, where attention is uniform and every number is a fraction.
// The page's model's heads are measured in tests/js/model.test.mjs and docs/language-model.md's
// table.
#include <cmath>
#include <vector>

#include "lm/head_patterns.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

// <bos> = 9, then 1 2 3 and 1 2 3 again: rows 4, 5 and 6 are the second copy.
const std::vector<int> kProbe{9, 1, 2, 3, 1, 2, 3};

// A 7 × 7 weight matrix with each row's weight all on the key `key(i)`.
std::vector<float> one_hot(int (*key)(int)) {
  std::vector<float> w(49, 0.0f);
  w[0] = 1;
  for (int i = 1; i < 7; ++i) w[i * 7 + key(i)] = 1;
  return w;
}

double score(const std::vector<float>& w, HeadPattern p) {
  return score_head(w.data(), 7, kProbe, 3).score[static_cast<std::size_t>(p)];
}

}  // namespace

TEST_CASE("head patterns: each pattern's head scores 1 on it", "[heads]") {
  const auto previous = one_hot([](int i) { return i - 1; });
  CHECK(score(previous, HeadPattern::previous) == 1.0);
  CHECK(score(previous, HeadPattern::first) == Approx(1.0 / 6));  // row 1's previous is <bos>
  CHECK(score(previous, HeadPattern::induction) == 0.0);
  CHECK(score_head(previous.data(), 7, kProbe, 3).best() == HeadPattern::previous);

  const auto sink = one_hot([](int) { return 0; });
  CHECK(score(sink, HeadPattern::first) == 1.0);
  CHECK(score(sink, HeadPattern::previous) == 0.0);
  CHECK(score_head(sink.data(), 7, kProbe, 3).best() == HeadPattern::first);

  // Same token: the second copy looks back at its earlier self; the first copy has no earlier self.
  const auto same = one_hot([](int i) { return i > 3 ? i - 3 : 0; });
  CHECK(score(same, HeadPattern::same) == 1.0);
  CHECK(score_head(same.data(), 7, kProbe, 3).rows[2] == 3);

  // Induction: the second copy looks at the token after its earlier self (row 4 → key 2).
  const auto induction = one_hot([](int i) { return i > 3 ? i - 2 : 0; });
  CHECK(score(induction, HeadPattern::induction) == 1.0);
  CHECK(score(induction, HeadPattern::same) == 0.0);
  CHECK(score(induction, HeadPattern::first) == Approx(0.5));  // rows 1–3 of 6 on <bos>
  CHECK(score_head(induction.data(), 7, kProbe, 3).best() == HeadPattern::induction);

  // Without a copy, induction has no rows and scores 0.
  CHECK(score_head(induction.data(), 7, kProbe, 0).rows[3] == 0);
  CHECK(std::string(to_string(HeadPattern::induction)) == "induction");
}

TEST_CASE("head patterns: a model of zeros attends evenly and predicts nothing", "[heads]") {
  // Vocabulary 6, context 5 (so probes of 2 tokens: <bos> a b a b), width 4, one layer of 2 heads.
  Decoder m;
  m.config.vocab = 6;
  m.config.context = 5;
  m.config.width = 4;
  m.config.layers = 1;
  m.config.heads = 2;
  m.wte.assign(24, 0.0f);
  m.wpe.assign(20, 0.0f);
  m.norm_w.assign(4, 1.0f);
  m.norm_b.assign(4, 0.0f);
  DecoderBlock b;
  b.norm1_w = b.norm2_w = std::vector<float>(4, 1.0f);
  b.norm1_b = b.norm2_b = b.proj_b = b.out_b = std::vector<float>(4, 0.0f);
  b.qkv_w = PackedMatrix::pack(std::vector<float>(48, 0.0f), 4, 12);
  b.qkv_b.assign(12, 0.0f);
  b.proj_w = PackedMatrix::pack(std::vector<float>(16, 0.0f), 4, 4);
  b.fc_w = PackedMatrix::pack(std::vector<float>(64, 0.0f), 4, 16);
  b.fc_b.assign(16, 0.0f);
  b.out_w = PackedMatrix::pack(std::vector<float>(64, 0.0f), 16, 4);
  m.blocks.push_back(b);

  const Result<HeadSurvey> s = survey_heads(m, 5, 32, 3, 7);
  REQUIRE(s.ok());
  CHECK(s->length == 2);  // (5 − 1) / 2
  REQUIRE(s->scores.size() == 2);
  for (const PatternScores& p : s->scores) {
    // Row i weighs each of its i + 1 keys 1 / (i + 1).
    CHECK(p.score[1] == Approx((1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5) / 4));  // first, rows 1–4
    CHECK(p.score[0] == Approx((1.0 / 3 + 1.0 / 4 + 1.0 / 5) / 3));  // previous, rows 2–4
    CHECK(p.score[3] == Approx((1.0 / 4 + 1.0 / 5) / 2));            // induction, rows 3–4
  }
  // Uniform logits: log₂ 6 bits for every token, in both copies.
  CHECK(s->loss_first == Approx(std::log2(6.0)));
  CHECK(s->loss_second == Approx(std::log2(6.0)));
  CHECK(s->loss_blind == Approx(std::log2(6.0)));  // uniform logits are a blind guess

  const Result<HeadSurvey> bad = survey_heads(m, 6);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "bos: token 6 is outside the vocabulary of 6.");
}
