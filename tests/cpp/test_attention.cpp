#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "attention.hpp"
#include "rng.hpp"
#include "test_utils.hpp"

using namespace attn;
using attn::test::approx;
using attn::test::mat;
using attn::test::require_close;

namespace {

const double inf = std::numeric_limits<double>::infinity();
const double not_a_number = std::numeric_limits<double>::quiet_NaN();

// The seed's fruit vectors over (colour, fruit, tech).
Matrix fruit() { return mat({{1, 2, 1}, {2, 2, 0}, {0, 2, 3}}); }

AttentionConfig unscaled() {
  AttentionConfig c;
  c.scaling = Scaling::none;
  return c;
}

Matrix random_matrix(Rng& rng, std::size_t rows, std::size_t cols) {
  Matrix out = Matrix::from_shape({rows, cols});
  for (auto& x : out) x = rng.uniform(-2, 2);
  return out;
}

AttentionSteps run(const Matrix& q, const Matrix& k, const Matrix& v,
                   const AttentionConfig& c = {}) {
  auto r = attention(q, k, v, c);
  INFO(r.error().message);
  REQUIRE(r.ok());
  return r.value();
}

}  // namespace

TEST_CASE("fruit: apple dot orange is 6 from the terms 1x2 + 2x2 + 1x0", "[attention][seed]") {
  const AttentionSteps s = run(fruit(), fruit(), fruit(), unscaled());
  // Every pairwise dot product, by hand.
  require_close(s.scores, mat({{6, 6, 7}, {6, 8, 4}, {7, 4, 13}}));
  auto cell = explain_cell(s, 0, 1);
  REQUIRE(cell.ok());
  CHECK(cell->terms == std::vector<double>{2, 4, 0});
  CHECK(cell->dot == 6);
  CHECK(cell->score == 6);
  CHECK(cell->divisor == 1);
}

TEST_CASE("fruit: cosine of apple and orange is 6 over root 6 times root 8", "[attention][seed]") {
  AttentionConfig c = unscaled();
  c.similarity = Similarity::cosine;
  const AttentionSteps s = run(fruit(), fruit(), fruit(), c);
  // |apple| = √6, |orange| = √8, so cos = 6/√48 = √3/2.
  CHECK(s.scores(0, 1) == approx(std::sqrt(3.0) / 2));
  CHECK(s.scores(0, 2) == approx(7 / (std::sqrt(6.0) * std::sqrt(13.0))));
  for (std::size_t i = 0; i < 3; ++i) CHECK(s.scores(i, i) == approx(1));
  auto cell = explain_cell(s, 0, 1);
  REQUIRE(cell.ok());
  CHECK(cell->dot == 6);
  CHECK(cell->query_norm == approx(std::sqrt(6.0)));
  CHECK(cell->key_norm == approx(std::sqrt(8.0)));
}

TEST_CASE("fruit: unit-length vectors give the same dot product and cosine", "[attention][seed]") {
  Matrix unit = fruit();
  for (std::size_t i = 0; i < 3; ++i) {
    const double len =
        std::sqrt(unit(i, 0) * unit(i, 0) + unit(i, 1) * unit(i, 1) + unit(i, 2) * unit(i, 2));
    for (std::size_t t = 0; t < 3; ++t) unit(i, t) /= len;
  }
  AttentionConfig cosine = unscaled();
  cosine.similarity = Similarity::cosine;
  require_close(run(unit, unit, unit, unscaled()).scores, run(unit, unit, unit, cosine).scores);
}

TEST_CASE("painting: under the flying query the bird gets the largest weight",
          "[attention][seed]") {
  // One query against the five elements (person, mountain, flower, bird, ribbon). With d_k = 1
  // the scores are the query's scores of the seed's table; a temperature of 100 maps 0–100 to 0–1.
  const Matrix query = mat({{1}});
  const Matrix flying = mat({{20}, {30}, {10}, {100}, {10}});
  const Matrix plain = mat({{80}, {60}, {50}, {30}, {10}});
  const Matrix values = mat({{1, 0, 0, 0, 0},  // one-hot, as in the seed
                             {0, 1, 0, 0, 0},
                             {0, 0, 1, 0, 0},
                             {0, 0, 0, 1, 0},
                             {0, 0, 0, 0, 1}});
  AttentionConfig c;
  c.scaling = Scaling::temperature;
  c.temperature = 100;

  const AttentionSteps s = run(query, flying, values, c);
  require_close(s.scaled, mat({{0.2, 0.3, 0.1, 1.0, 0.1}}));
  // exp(x − max) with max = 1: e^−0.8, e^−0.7, e^−0.9, 1, e^−0.9.
  const double e[] = {std::exp(-0.8), std::exp(-0.7), std::exp(-0.9), 1, std::exp(-0.9)};
  const double sum = e[0] + e[1] + e[2] + e[3] + e[4];
  CHECK(s.rows[0].max == approx(1));
  CHECK(s.rows[0].exp_sum == approx(sum));
  for (std::size_t j = 0; j < 5; ++j) CHECK(s.weights(0, j) == approx(e[j] / sum));
  CHECK(s.weights(0, 3) == approx(0.362441).epsilon(1e-5));  // the bird
  // With one-hot values the output is the weights themselves.
  require_close(s.output, s.weights);

  // Before the condition, the person draws the eye most.
  const AttentionSteps before = run(query, plain, values, c);
  CHECK(before.weights(0, 0) > before.weights(0, 1));
  CHECK(before.weights(0, 1) > before.weights(0, 2));
  CHECK(before.weights(0, 3) < before.weights(0, 2));
}

TEST_CASE("sum-normalisation: 1 and 0.71 and 0.5 divide by 2.21", "[attention][seed]") {
  AttentionConfig c = unscaled();
  c.normalization = Normalization::sum;
  const AttentionSteps s = run(mat({{1}}), mat({{1}, {0.71}, {0.5}}), mat({{1}, {1}, {1}}), c);
  CHECK(s.rows[0].score_sum == approx(2.21));
  CHECK(s.weights(0, 0) == approx(1 / 2.21));
  CHECK(s.weights(0, 1) == approx(0.71 / 2.21));
  CHECK(s.weights(0, 2) == approx(0.5 / 2.21));
  CHECK(s.rows[0].weight_sum == approx(1));
  CHECK(s.rows[0].problem == RowProblem::none);
  CHECK(s.rows[0].exp_sum == 0);
}

TEST_CASE("sum-normalisation: a row summing to zero is reported and not divided",
          "[attention][seed]") {
  AttentionConfig c = unscaled();
  c.normalization = Normalization::sum;
  // Row 1 sums to 1 − 0.5 − 0.5 = 0; row 2 to 1 − 2 + 0.5 = −0.5; row 3 to 0.6.
  const Matrix q = mat({{1}, {1}, {1}});
  const AttentionSteps zero = run(mat({{1}}), mat({{1}, {-0.5}, {-0.5}}), mat({{1}, {2}, {3}}), c);
  CHECK(zero.rows[0].problem == RowProblem::zero_sum);
  CHECK(zero.rows[0].score_sum == approx(0));
  for (std::size_t j = 0; j < 3; ++j) CHECK(zero.weights(0, j) == 0);
  CHECK(zero.output(0, 0) == 0);
  CHECK(zero.rows[0].weight_sum == 0);

  const AttentionSteps flipped = run(mat({{1}}), mat({{1}, {-2}, {0.5}}), mat({{1}, {2}, {3}}), c);
  CHECK(flipped.rows[0].problem == RowProblem::negative_weights);
  require_close(flipped.weights, mat({{-2, 4, -1}}));
  // Softmax of the same scores is a distribution: every weight positive, summing to one.
  AttentionConfig soft = unscaled();
  const AttentionSteps fixed = run(mat({{1}}), mat({{1}, {-2}, {0.5}}), mat({{1}, {2}, {3}}), soft);
  CHECK(fixed.rows[0].problem == RowProblem::none);
  CHECK(fixed.rows[0].weight_sum == approx(1));
  for (std::size_t j = 0; j < 3; ++j) CHECK(fixed.weights(0, j) > 0);
}

TEST_CASE("sum-normalisation: rounding noise near zero counts as a zero sum", "[attention]") {
  AttentionConfig c = unscaled();
  c.normalization = Normalization::sum;
  // 0.1 + 0.2 − 0.3 is 5.5e-17 in doubles, not 0: still nothing to divide by.
  const AttentionSteps s = run(mat({{1}}), mat({{0.1}, {0.2}, {-0.3}}), mat({{1}, {1}, {1}}), c);
  CHECK(s.rows[0].problem == RowProblem::zero_sum);
  for (std::size_t j = 0; j < 3; ++j) CHECK(std::isfinite(s.weights(0, j)));
}

TEST_CASE("sum-normalisation: scores near the largest double are divided, not called zero",
          "[attention][overflow]") {
  AttentionConfig c = unscaled();
  c.normalization = Normalization::sum;
  // One query of 1e308 against keys ±1: the scores are ±1e308, finite. Their sum and the sum of
  // their magnitudes are past a double (2e308, 3e308) unless the row is scaled first.
  const Matrix q = mat({{1e308}});
  const AttentionSteps both = run(q, mat({{1}, {1}}), mat({{2}, {4}}), c);
  CHECK(both.rows[0].problem == RowProblem::none);
  CHECK(both.weights(0, 0) == 0.5);
  CHECK(both.weights(0, 1) == 0.5);
  CHECK(both.output(0, 0) == approx(3));
  CHECK(both.rows[0].weight_sum == 1);
  CHECK(both.rows[0].entropy == approx(std::log(2.0)));
  CHECK(both.rows[0].score_sum == std::numeric_limits<double>::infinity());  // 2e308: beyond

  // 1e308 − 1e308 + 1e308 = 1e308, a finite sum, whatever the order: weights [1, −1, 1].
  for (const Matrix& k : {mat({{1}, {-1}, {1}}), mat({{1}, {1}, {-1}})}) {
    const AttentionSteps s = run(q, k, mat({{1}, {2}, {4}}), c);
    CHECK(s.rows[0].problem == RowProblem::negative_weights);
    CHECK(s.rows[0].score_sum == 1e308);
    for (std::size_t j = 0; j < 3; ++j) CHECK(s.weights(0, j) == k(j, 0));
    CHECK(s.output(0, 0) == approx(k(0, 0) * 1 + k(1, 0) * 2 + k(2, 0) * 4));
  }
  // −1e308 twice: −∞, the sum's sign, and weights [0.5, 0.5].
  const AttentionSteps negative = run(q, mat({{-1}, {-1}}), mat({{2}, {4}}), c);
  CHECK(negative.rows[0].score_sum == -std::numeric_limits<double>::infinity());
  CHECK(negative.weights(0, 0) == 0.5);
  CHECK(negative.rows[0].problem == RowProblem::none);

  // A real zero sum is still one, large or small: [1, −1] and [1e308, −1e308].
  for (const double x : {1.0, 1e308}) {
    const AttentionSteps zero = run(mat({{x}}), mat({{1}, {-1}}), mat({{1}, {2}}), c);
    CHECK(zero.rows[0].problem == RowProblem::zero_sum);
    CHECK(zero.rows[0].score_sum == 0);
    CHECK(zero.weights(0, 0) == 0);
    CHECK(zero.weights(0, 1) == 0);
    CHECK(zero.output(0, 0) == 0);
  }
  // Scores of at most 1 are not scaled: 0.25 / 0.75 is the double it always was.
  const AttentionSteps small = run(mat({{0.25}}), mat({{1}, {2}}), mat({{1}, {1}}), c);
  CHECK(small.weights(0, 0) == 0.25 / 0.75);
}

TEST_CASE("2x2 by hand: scores and scaling by root 2 and softmax and output", "[attention]") {
  const Matrix q = mat({{1, 0}, {0, 1}});
  const Matrix k = mat({{1, 0}, {1, 1}});
  const Matrix v = mat({{1, 2}, {3, 4}});
  const AttentionSteps s = run(q, k, v);
  const double r = 1 / std::sqrt(2.0);
  require_close(s.scores, mat({{1, 1}, {0, 1}}));
  CHECK(s.divisor == approx(std::sqrt(2.0)));
  require_close(s.scaled, mat({{r, r}, {0, r}}));
  require_close(s.masked, s.scaled);
  const double w1 = std::exp(r) / (1 + std::exp(r));  // row 2: e^r / (e^0 + e^r)
  require_close(s.weights, mat({{0.5, 0.5}, {1 - w1, w1}}));
  require_close(s.exps, mat({{1, 1}, {std::exp(-r), 1}}));
  require_close(s.output, mat({{2, 3}, {1 + 2 * w1, 2 + 2 * w1}}));
  CHECK(s.rows[0].entropy == approx(std::log(2.0)));
  CHECK(s.rows[1].max == approx(r));
  CHECK(s.rows[1].exp_sum == approx(1 + std::exp(-r)));
}

TEST_CASE("2x2 by hand: unscaled and temperature 0.5 and causal", "[attention]") {
  const Matrix q = mat({{1, 0}, {0, 1}});
  const Matrix k = mat({{1, 0}, {1, 1}});
  const Matrix v = mat({{1, 2}, {3, 4}});

  const AttentionSteps none = run(q, k, v, unscaled());
  require_close(none.scaled, mat({{1, 1}, {0, 1}}));
  const double e = std::exp(1.0);
  require_close(none.weights, mat({{0.5, 0.5}, {1 / (1 + e), e / (1 + e)}}));

  AttentionConfig hot;
  hot.scaling = Scaling::temperature;
  hot.temperature = 0.5;
  const AttentionSteps t = run(q, k, v, hot);
  CHECK(t.divisor == 0.5);
  require_close(t.scaled, mat({{2, 2}, {0, 2}}));
  const double e2 = std::exp(2.0);
  require_close(t.weights, mat({{0.5, 0.5}, {1 / (1 + e2), e2 / (1 + e2)}}));

  AttentionConfig causal = unscaled();
  causal.mask = MaskKind::causal;
  const AttentionSteps c = run(q, k, v, causal);
  CHECK(c.masked(0, 1) == -inf);
  CHECK(c.visible(0, 1) == false);
  require_close(c.weights, mat({{1, 0}, {1 / (1 + e), e / (1 + e)}}));
  require_close(c.output, mat({{1, 2}, {1 + 2 * e / (1 + e), 2 + 2 * e / (1 + e)}}));
  CHECK(c.rows[0].visible == 1);
  CHECK(c.rows[0].entropy == 0);
}

TEST_CASE("3x3 by hand: identity inputs with and without scaling and causal", "[attention]") {
  const Matrix eye = mat({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  const double e = std::exp(1.0);
  const AttentionSteps plain = run(eye, eye, eye, unscaled());
  const double d = e / (e + 2), o = 1 / (e + 2);
  require_close(plain.weights, mat({{d, o, o}, {o, d, o}, {o, o, d}}));
  require_close(plain.output, plain.weights);  // V = I

  const AttentionSteps scaled = run(eye, eye, eye);  // ÷√3
  const double es = std::exp(1 / std::sqrt(3.0));
  CHECK(scaled.weights(0, 0) == approx(es / (es + 2)));
  CHECK(scaled.weights(0, 1) == approx(1 / (es + 2)));

  AttentionConfig causal = unscaled();
  causal.mask = MaskKind::causal;
  const AttentionSteps c = run(eye, eye, eye, causal);
  require_close(c.weights, mat({{1, 0, 0}, {1 / (1 + e), e / (1 + e), 0}, {o, o, d}}));
}

TEST_CASE("causal mask aligns at the top left when queries and keys differ in number",
          "[attention]") {
  AttentionConfig c = unscaled();
  c.mask = MaskKind::causal;
  Rng rng(7);
  // 4 queries, 2 keys: queries 2 and 3 see both keys.
  const AttentionSteps tall =
      run(random_matrix(rng, 4, 3), random_matrix(rng, 2, 3), random_matrix(rng, 2, 2), c);
  CHECK(tall.rows[0].visible == 1);
  CHECK(tall.rows[1].visible == 2);
  CHECK(tall.rows[3].visible == 2);
  // 2 queries, 4 keys: query 0 sees key 0, query 1 sees keys 0 and 1.
  const AttentionSteps wide =
      run(random_matrix(rng, 2, 3), random_matrix(rng, 4, 3), random_matrix(rng, 4, 2), c);
  CHECK(wide.visible(0, 0));
  CHECK_FALSE(wide.visible(0, 1));
  CHECK(wide.visible(1, 1));
  CHECK_FALSE(wide.visible(1, 2));
  CHECK(wide.weights(1, 3) == 0);
}

TEST_CASE("softmax: each row sums to one on random inputs", "[attention][property]") {
  Rng rng(2024);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 1 + rng.next_u64() % 9, m = 1 + rng.next_u64() % 9;
    const std::size_t d_k = 1 + rng.next_u64() % 6, d_v = 1 + rng.next_u64() % 6;
    AttentionConfig c;
    c.similarity = trial % 2 ? Similarity::cosine : Similarity::dot;
    c.mask = trial % 3 == 0 ? MaskKind::causal : MaskKind::none;
    const AttentionSteps s =
        run(random_matrix(rng, n, d_k), random_matrix(rng, m, d_k), random_matrix(rng, m, d_v), c);
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0;
      for (std::size_t j = 0; j < m; ++j) {
        CHECK(s.weights(i, j) >= 0);
        sum += s.weights(i, j);
      }
      CHECK(sum == approx(1));
      CHECK(s.rows[i].weight_sum == approx(1));
      CHECK(s.rows[i].entropy >= 0);
      CHECK(s.rows[i].entropy <= std::log(static_cast<double>(s.rows[i].visible)) + 1e-12);
    }
  }
}

TEST_CASE("softmax: adding a constant to every score of a row changes nothing",
          "[attention][property]") {
  Rng rng(11);
  const Matrix q = random_matrix(rng, 4, 3), k = random_matrix(rng, 5, 3),
               v = random_matrix(rng, 5, 2);
  // An extra feature that is 1 in every query and c in every key adds c to every score.
  const double c = 37.5;
  Matrix q2 = Matrix::from_shape({4, 4}), k2 = Matrix::from_shape({5, 4});
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t t = 0; t < 3; ++t) q2(i, t) = q(i, t);
    q2(i, 3) = 1;
  }
  for (std::size_t j = 0; j < 5; ++j) {
    for (std::size_t t = 0; t < 3; ++t) k2(j, t) = k(j, t);
    k2(j, 3) = c;
  }
  const AttentionSteps base = run(q, k, v, unscaled());
  const AttentionSteps shifted = run(q2, k2, v, unscaled());
  require_close(shifted.scores, base.scores + c, 1e-12);
  require_close(shifted.weights, base.weights, 1e-10);
  require_close(shifted.output, base.output, 1e-10);
}

TEST_CASE("softmax: scores of 1000 and 1001 and 1002 do not overflow", "[attention][property]") {
  const AttentionSteps s =
      run(mat({{1}}), mat({{1000}, {1001}, {1002}}), mat({{1}, {2}, {3}}), unscaled());
  const double sum = std::exp(-2.0) + std::exp(-1.0) + 1;
  require_close(s.exps, mat({{std::exp(-2.0), std::exp(-1.0), 1}}));
  require_close(s.weights, mat({{std::exp(-2.0) / sum, std::exp(-1.0) / sum, 1 / sum}}));
  CHECK(s.rows[0].max == 1002);
  CHECK(std::isfinite(s.output(0, 0)));
}

TEST_CASE("permuting keys and values together leaves the output unchanged",
          "[attention][property]") {
  Rng rng(5);
  const Matrix q = random_matrix(rng, 3, 4), k = random_matrix(rng, 6, 4),
               v = random_matrix(rng, 6, 3);
  const std::size_t order[] = {3, 0, 5, 1, 4, 2};
  Matrix kp = k, vp = v;
  for (std::size_t j = 0; j < 6; ++j) {
    for (std::size_t t = 0; t < 4; ++t) kp(j, t) = k(order[j], t);
    for (std::size_t t = 0; t < 3; ++t) vp(j, t) = v(order[j], t);
  }
  const AttentionSteps a = run(q, k, v), b = run(q, kp, vp);
  require_close(b.output, a.output, 1e-12);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 6; ++j) CHECK(b.weights(i, j) == approx(a.weights(i, order[j])));
}

TEST_CASE("a partially masked row equals softmax over its unmasked keys", "[attention][property]") {
  Rng rng(9);
  const Matrix q = random_matrix(rng, 1, 3), k = random_matrix(rng, 5, 3),
               v = random_matrix(rng, 5, 2);
  AttentionConfig c;
  c.mask = MaskKind::custom;
  c.custom_mask = Mask::from_shape({1, 5});
  const bool keep[] = {true, false, true, true, false};
  for (std::size_t j = 0; j < 5; ++j) c.custom_mask(0, j) = keep[j];
  const AttentionSteps masked = run(q, k, v, c);

  // The same attention over just keys 0, 2, 3.
  Matrix k3 = Matrix::from_shape({3, 3}), v3 = Matrix::from_shape({3, 2});
  const std::size_t kept[] = {0, 2, 3};
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t t = 0; t < 3; ++t) k3(r, t) = k(kept[r], t);
    for (std::size_t t = 0; t < 2; ++t) v3(r, t) = v(kept[r], t);
  }
  const AttentionSteps sub = run(q, k3, v3);
  for (std::size_t r = 0; r < 3; ++r)
    CHECK(masked.weights(0, kept[r]) == approx(sub.weights(0, r)));
  CHECK(masked.weights(0, 1) == 0);
  CHECK(masked.weights(0, 4) == 0);
  CHECK(masked.exps(0, 1) == 0);
  require_close(masked.output, sub.output, 1e-12);
  CHECK(masked.rows[0].visible == 3);
}

TEST_CASE("a fully masked row has zero weights and a zero output and no NaN",
          "[attention][property]") {
  for (auto norm : {Normalization::softmax, Normalization::sum}) {
    AttentionConfig c;
    c.normalization = norm;
    c.mask = MaskKind::custom;
    c.custom_mask = Mask::from_shape({2, 3});
    c.custom_mask.fill(true);
    for (std::size_t j = 0; j < 3; ++j) c.custom_mask(1, j) = false;
    const AttentionSteps s =
        run(mat({{1, 2}, {3, 4}}), mat({{1, 0}, {0, 1}, {1, 1}}), mat({{1}, {2}, {3}}), c);
    CHECK(s.rows[1].problem == RowProblem::fully_masked);
    CHECK(s.rows[1].max == -inf);
    CHECK(s.rows[1].exp_sum == 0);
    CHECK(s.rows[1].weight_sum == 0);
    CHECK(s.rows[1].entropy == 0);
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(s.weights(1, j) == 0);
      CHECK(s.masked(1, j) == -inf);
    }
    CHECK(s.output(1, 0) == 0);
    CHECK(s.rows[0].problem == RowProblem::none);
    CHECK(s.rows[0].weight_sum == approx(1));
  }
}

TEST_CASE("explain_output lists each weight times value", "[attention]") {
  const AttentionSteps s = run(mat({{1, 0}, {0, 1}}), mat({{1, 0}, {1, 1}}), mat({{1, 2}, {3, 4}}));
  auto o = explain_output(s, 0, 1);  // 0.5·2 + 0.5·4 = 3
  REQUIRE(o.ok());
  CHECK(o->weights == std::vector<double>{0.5, 0.5});
  CHECK(o->values == std::vector<double>{2, 4});
  CHECK(o->terms == std::vector<double>{1, 2});
  CHECK(o->output == approx(3));
  CHECK_FALSE(explain_output(s, 2, 0).ok());
  CHECK_FALSE(explain_output(s, 0, 2).ok());
  auto bad = explain_cell(s, 0, 5);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::bad_argument);
  CHECK_THAT(bad.error().message, Catch::Contains("(1, 6)"));
}

TEST_CASE("explain_cell of a masked cell says it is hidden with weight zero", "[attention]") {
  AttentionConfig c;
  c.mask = MaskKind::causal;
  const AttentionSteps s =
      run(mat({{1, 0}, {0, 1}}), mat({{1, 0}, {1, 1}}), mat({{1, 2}, {3, 4}}), c);
  auto cell = explain_cell(s, 0, 1);
  REQUIRE(cell.ok());
  CHECK_FALSE(cell->visible);
  CHECK(cell->weight == 0);
  CHECK(cell->exp_value == 0);
  CHECK(cell->score == 1);  // the score is still computed; the mask hides it afterwards
}

// --- errors --------------------------------------------------------------------------------

namespace {
Error fails(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionConfig& c = {}) {
  auto r = attention(q, k, v, c);
  REQUIRE_FALSE(r.ok());
  return r.error();
}
}  // namespace

TEST_CASE("errors: NaN or infinity names the input and row and column", "[attention][errors]") {
  Error e = fails(mat({{1, 2}, {3, not_a_number}}), mat({{1, 0}}), mat({{1}}));
  CHECK(e.code == ErrorCode::not_finite);
  CHECK(e.input == "queries");
  CHECK(e.row == 1);
  CHECK(e.col == 1);
  CHECK(e.message == "queries: row 2, column 2 is NaN; every entry must be a finite number.");

  e = fails(mat({{1}}), mat({{1}, {inf}}), mat({{1}, {2}}));
  CHECK(e.input == "keys");
  CHECK(e.row == 1);
  CHECK_THAT(e.message, Catch::Contains("infinity"));

  e = fails(mat({{1}}), mat({{1}}), mat({{1, -inf}}));
  CHECK(e.input == "values");
  CHECK(e.col == 1);
  CHECK_THAT(e.message, Catch::Contains("minus infinity"));
}

TEST_CASE("errors: mismatched shapes say which shapes", "[attention][errors]") {
  Error e = fails(mat({{1, 2, 3}}), mat({{1, 2}}), mat({{1}}));
  CHECK(e.code == ErrorCode::shape_mismatch);
  CHECK(e.input == "keys");
  CHECK_THAT(e.message, Catch::Contains("1×3") && Catch::Contains("1×2"));

  e = fails(mat({{1, 2}}), mat({{1, 2}, {3, 4}}), mat({{1}}));
  CHECK(e.code == ErrorCode::shape_mismatch);
  CHECK(e.input == "values");
  CHECK_THAT(e.message, Catch::Contains("one value row for each key row"));
}

TEST_CASE("errors: empty inputs and d_k of zero", "[attention][errors]") {
  Error e = fails(Matrix::from_shape({0, 2}), mat({{1, 2}}), mat({{1}}));
  CHECK(e.code == ErrorCode::empty_input);
  CHECK(e.input == "queries");
  CHECK_THAT(e.message, Catch::Contains("empty"));

  e = fails(Matrix::from_shape({2, 0}), Matrix::from_shape({3, 0}), mat({{1}, {2}, {3}}));
  CHECK(e.code == ErrorCode::bad_dimension);
  CHECK_THAT(e.message, Catch::Contains("d_k must be at least 1"));

  e = fails(mat({{1}}), mat({{1}}), Matrix::from_shape({1, 0}));
  CHECK(e.code == ErrorCode::empty_input);
  CHECK(e.input == "values");
}

TEST_CASE("errors: temperature must be above zero", "[attention][errors]") {
  AttentionConfig c;
  c.scaling = Scaling::temperature;
  const std::pair<double, const char*> cases[] = {{0.0, "(got 0)"},
                                                  {-1.0, "(got -1)"},
                                                  {-2.5e-300, "(got -2.5e-300)"},
                                                  {not_a_number, "(got NaN)"},
                                                  {inf, "(got Infinity)"}};
  for (const auto& [t, got] : cases) {
    c.temperature = t;
    Error e = fails(mat({{1}}), mat({{1}}), mat({{1}}), c);
    CHECK(e.code == ErrorCode::bad_temperature);
    CHECK(e.input == "temperature");
    CHECK_THAT(e.message, Catch::Contains("above 0") && Catch::Contains(got));
  }
  // The temperature is ignored unless it is the chosen scaling.
  AttentionConfig sqrt_scaling;
  sqrt_scaling.temperature = 0;
  CHECK(attention(mat({{1}}), mat({{1}}), mat({{1}}), sqrt_scaling).ok());
}

TEST_CASE("errors: cosine of an all-zero row names the row", "[attention][errors]") {
  AttentionConfig c;
  c.similarity = Similarity::cosine;
  Error e = fails(mat({{1, 1}}), mat({{1, 0}, {0, 0}}), mat({{1}, {2}}), c);
  CHECK(e.code == ErrorCode::zero_vector);
  CHECK(e.input == "keys");
  CHECK(e.row == 1);
  CHECK_THAT(e.message, Catch::StartsWith("Key 2 is all zeros"));
  // The dot product of a zero row is just 0.
  CHECK(attention(mat({{1, 1}}), mat({{1, 0}, {0, 0}}), mat({{1}, {2}})).ok());
}

TEST_CASE("errors: a custom mask of the wrong shape", "[attention][errors]") {
  AttentionConfig c;
  c.mask = MaskKind::custom;
  c.custom_mask = Mask::from_shape({2, 2});
  c.custom_mask.fill(true);
  Error e = fails(mat({{1}}), mat({{1}, {2}}), mat({{1}, {2}}), c);
  CHECK(e.code == ErrorCode::shape_mismatch);
  CHECK(e.input == "mask");
  CHECK_THAT(e.message, Catch::Contains("must be 1×2"));
}

TEST_CASE("errors: sizes above the limits", "[attention][errors]") {
  Error e = fails(Matrix(xt::zeros<double>({Limits::max_tokens + 1, std::size_t{1}})), mat({{1}}),
                  mat({{1}}));
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.input == "queries");
  CHECK_THAT(e.message, Catch::Contains("1025×1"));
  e = fails(mat({{1}}), mat({{1}}),
            Matrix(xt::zeros<double>({std::size_t{1}, Limits::max_dim + 1})));
  CHECK(e.code == ErrorCode::too_large);
  CHECK(e.input == "values");
}

TEST_CASE("errors: finite inputs whose scores overflow name the step and cell",
          "[attention][errors]") {
  // 1e200 · 1e200 = 1e400, beyond the largest double (~1.8e308).
  Error e = fails(mat({{1}, {1e200}}), mat({{1}, {1e200}}), mat({{1}, {2}}));
  CHECK(e.code == ErrorCode::not_finite);
  CHECK(e.input == "scores");
  CHECK(e.row == 1);
  CHECK(e.col == 1);
  CHECK(e.message ==
        "The similarity at row 2, column 2 is too large to compute (it overflows a "
        "double). Use smaller numbers.");

  AttentionConfig tiny;
  tiny.scaling = Scaling::temperature;
  tiny.temperature = 1e-300;
  e = fails(mat({{1e10}}), mat({{1e10}}), mat({{1}}), tiny);
  CHECK(e.input == "scaled");
  CHECK_THAT(e.message, Catch::EndsWith("or a larger temperature."));

  // Softmax outputs are averages of values and cannot overflow; sum-normalised weights of 2 and
  // −1 can: 2 · 1e308 is beyond the largest double.
  AttentionConfig sum = unscaled();
  sum.normalization = Normalization::sum;
  e = fails(mat({{1}}), mat({{2}, {-1}}), mat({{1e308}, {0}}), sum);
  CHECK(e.input == "output");
  CHECK(e.row == 0);
}

TEST_CASE("cosine of huge and tiny vectors is still exact", "[attention]") {
  AttentionConfig c = unscaled();
  c.similarity = Similarity::cosine;
  // apple and orange scaled by 1e200 and 1e-200: the cosine stays √3/2.
  const AttentionSteps s =
      run(mat({{1e200, 2e200, 1e200}}), mat({{2e-200, 2e-200, 0}}), mat({{1}}), c);
  CHECK(s.scores(0, 0) == approx(std::sqrt(3.0) / 2));
}

TEST_CASE("attention_into writes every step into caller storage as attention does", "[attention]") {
  // One set of buffers for two problems of different shapes and options, filled with NaN before
  // each: every entry must be overwritten, and with the numbers attention() gives.
  Rng rng(7);
  std::vector<double> norms(16), steps(6 * 64);
  std::vector<RowStats> rows(8);
  bool visible[64];
  AttentionConfig causal_sum = unscaled();
  causal_sum.mask = MaskKind::causal;
  causal_sum.normalization = Normalization::sum;
  AttentionConfig cosine;
  cosine.similarity = Similarity::cosine;
  const std::pair<std::array<std::size_t, 4>, AttentionConfig> problems[] = {
      {{8, 8, 4, 4}, AttentionConfig{}}, {{3, 5, 2, 6}, causal_sum}, {{5, 3, 3, 2}, cosine}};
  for (const auto& [shape, config] : problems) {
    const auto [n, m, d_k, d_v] = shape;
    const Matrix q = random_matrix(rng, n, d_k), k = random_matrix(rng, m, d_k),
                 v = random_matrix(rng, m, d_v);
    const AttentionSteps expected = run(q, k, v, config);
    std::fill(norms.begin(), norms.end(), not_a_number);
    std::fill(steps.begin(), steps.end(), not_a_number);
    StepBuffers b;
    b.query_norms = norms.data();
    b.key_norms = norms.data() + n;
    b.scores = steps.data();
    b.scaled = b.scores + n * m;
    b.masked = b.scaled + n * m;
    b.exps = b.masked + n * m;
    b.weights = b.exps + n * m;
    b.output = b.weights + n * m;
    b.visible = visible;
    b.rows = rows.data();
    const MatrixView qv{q.data(), n, d_k}, kv{k.data(), m, d_k}, vv{v.data(), m, d_v};
    REQUIRE_FALSE(check_attention(qv, kv, vv, config));
    REQUIRE_FALSE(attention_into(qv, kv, vv, config, b));
    CHECK(b.divisor == expected.divisor);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(b.query_norms[i] == expected.query_norms(i));
      CHECK(b.rows[i].max == expected.rows[i].max);
      CHECK(b.rows[i].exp_sum == expected.rows[i].exp_sum);
      CHECK(b.rows[i].score_sum == expected.rows[i].score_sum);
      CHECK(b.rows[i].visible == expected.rows[i].visible);
      CHECK(b.rows[i].weight_sum == expected.rows[i].weight_sum);
      CHECK(b.rows[i].entropy == expected.rows[i].entropy);
      CHECK(b.rows[i].problem == expected.rows[i].problem);
      for (std::size_t j = 0; j < m; ++j) {
        CHECK(b.scores[i * m + j] == expected.scores(i, j));
        CHECK(b.scaled[i * m + j] == expected.scaled(i, j));
        CHECK(b.masked[i * m + j] == expected.masked(i, j));
        CHECK(b.exps[i * m + j] == expected.exps(i, j));
        CHECK(b.weights[i * m + j] == expected.weights(i, j));
        CHECK(b.visible[i * m + j] == expected.visible(i, j));
      }
      for (std::size_t t = 0; t < d_v; ++t) CHECK(b.output[i * d_v + t] == expected.output(i, t));
    }
    for (std::size_t j = 0; j < m; ++j) CHECK(b.key_norms[j] == expected.key_norms(j));
  }
}

TEST_CASE("difference: right minus left entry by entry", "[attention][difference]") {
  // Weights of A (0.25 0.75) and B (0.5 0.5): B gives the first key 0.25 more and the second
  // 0.25 less.
  auto d = difference(mat({{0.25, 0.75}, {1, 0}}), mat({{0.5, 0.5}, {0, 1}}));
  REQUIRE(d.ok());
  require_close(*d, mat({{0.25, -0.25}, {-1, 1}}));
  auto same = difference(fruit(), fruit());
  REQUIRE(same.ok());
  require_close(*same, mat({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}));
}

TEST_CASE("difference: a right matrix of another shape is named",
          "[attention][difference][errors]") {
  auto d = difference(mat({{1, 2}}), mat({{1, 2, 3}}));
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().code == ErrorCode::shape_mismatch);
  CHECK(d.error().input == "right");
  CHECK(d.error().message ==
        "right is 1×3 but left is 1×2; a difference needs two matrices of "
        "the same shape.");
  auto empty = difference(Matrix::from_shape({0, 2}), Matrix::from_shape({0, 2}));
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().code == ErrorCode::empty_input);
  CHECK(empty.error().input == "left");
}

TEST_CASE("difference: NaN in an input or 1e308 minus -1e308 is not finite",
          "[attention][difference][errors]") {
  auto nan_in = difference(mat({{1, 2}}), mat({{1, not_a_number}}));
  REQUIRE_FALSE(nan_in.ok());
  CHECK(nan_in.error().code == ErrorCode::not_finite);
  CHECK(nan_in.error().input == "right");
  CHECK(nan_in.error().col == 1);
  auto inf_in = difference(mat({{inf, 2}}), mat({{1, 2}}));
  REQUIRE_FALSE(inf_in.ok());
  CHECK(inf_in.error().input == "left");
  auto overflow = difference(mat({{0, -1e308}}), mat({{0, 1e308}}));
  REQUIRE_FALSE(overflow.ok());
  CHECK(overflow.error().code == ErrorCode::not_finite);
  CHECK(overflow.error().input == "difference");
  CHECK(overflow.error().row == 0);
  CHECK(overflow.error().col == 1);
  CHECK(overflow.error().message.rfind("The difference at row 1, column 2 is too large", 0) == 0);
}
