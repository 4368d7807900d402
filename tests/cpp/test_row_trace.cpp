#include <cmath>
#include <limits>

#include "rng.hpp"
#include "row_trace.hpp"
#include "test_utils.hpp"

using namespace attn;
using attn::test::approx;
using attn::test::mat;

namespace {

const double inf = std::numeric_limits<double>::infinity();

// The seed's fruit vectors over (colour, fruit, tech): apple, orange, iPhone.
Matrix fruit() { return mat({{1, 2, 1}, {2, 2, 0}, {0, 2, 3}}); }
Matrix identity3() { return mat({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}); }

AttentionSteps run(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionConfig& c) {
  auto r = attention(q, k, v, c);
  INFO(r.error().message);
  REQUIRE(r.ok());
  return std::move(r).value();
}

RowTrace trace(const AttentionSteps& s, std::size_t i) {
  auto r = trace_row(s, i);
  REQUIRE(r.ok());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("trace: apple's dot products add up term by term, 1x2 + 2x2 + 1x0 = 6", "[trace][seed]") {
  AttentionConfig c;
  c.scaling = Scaling::none;
  const RowTrace r = trace(run(fruit(), fruit(), identity3(), c), 0);
  // apple · orange: the terms 2, 4, 0 and the running sums 2, 6, 6.
  CHECK(r.terms[1 * r.d_k + 0] == 2);
  CHECK(r.terms[1 * r.d_k + 1] == 4);
  CHECK(r.terms[1 * r.d_k + 2] == 0);
  CHECK(r.partial[1 * r.d_k + 0] == 2);
  CHECK(r.partial[1 * r.d_k + 1] == 6);
  CHECK(r.partial[1 * r.d_k + 2] == 6);
  // apple · iPhone = 0 + 4 + 3 = 7, the largest: the row's max.
  CHECK(r.partial[2 * r.d_k + 2] == 7);
  CHECK(r.scores[2] == 7);
  CHECK(r.max == 7);
  // Softmax of [6, 6, 7]: shifted by the max to [−1, −1, 0], then e^−1, e^−1, 1 over 1 + 2/e.
  CHECK(r.shifted[0] == -1);
  CHECK(r.shifted[2] == 0);
  CHECK(r.exps[0] == approx(std::exp(-1.0)));
  CHECK(r.exp_sum == approx(1 + 2 / std::exp(1.0)));
  CHECK(r.weights[2] == approx(1 / (1 + 2 / std::exp(1.0))));
  // With V = I each key adds its weight into its own column of the output.
  CHECK(r.mixed[1 * r.d_v + 1] == approx(r.weights[1]));
  CHECK(r.mixed[1 * r.d_v + 0] == 0);
  CHECK(r.filled[0 * r.d_v + 1] == 0);
  CHECK(r.filled[1 * r.d_v + 1] == approx(r.weights[1]));
  CHECK(r.filled[2 * r.d_v + 0] == approx(r.weights[0]));
  for (std::size_t col = 0; col < 3; ++col) CHECK(r.output[col] == approx(r.weights[col]));
}

TEST_CASE("trace: cosine divides the dot product by both lengths, 6 / (√6·√8)", "[trace][seed]") {
  AttentionConfig c;
  c.similarity = Similarity::cosine;
  const RowTrace r = trace(run(fruit(), fruit(), identity3(), c), 0);
  CHECK(r.partial[1 * r.d_k + 2] == 6);
  CHECK(r.query_norm == approx(std::sqrt(6.0)));
  CHECK(r.key_norms[1] == approx(std::sqrt(8.0)));
  CHECK(r.scores[1] == approx(6 / std::sqrt(48.0)));
  CHECK(r.divisor == approx(std::sqrt(3.0)));
  CHECK(r.scaled[1] == approx(6 / std::sqrt(48.0) / std::sqrt(3.0)));
}

TEST_CASE("trace: a causal mask hides the later keys at −∞ and the first query keeps all",
          "[trace]") {
  AttentionConfig c;
  c.scaling = Scaling::temperature;
  c.temperature = 2;
  c.mask = MaskKind::causal;
  const AttentionSteps s = run(fruit(), fruit(), identity3(), c);
  const RowTrace r = trace(s, 0);
  CHECK(r.divisor == 2);
  CHECK(r.scaled[2] == 3.5);
  CHECK(!r.visible[1]);
  CHECK(r.masked[1] == -inf);
  CHECK(r.shifted[1] == -inf);
  CHECK(r.max == 3);  // apple · apple = 6, over T = 2
  CHECK(r.shifted[0] == 0);
  CHECK(r.exps[1] == 0);
  CHECK(r.weights[0] == 1);
  CHECK(r.filled[2 * r.d_v + 0] == 1);
  const RowTrace last = trace(s, 2);
  CHECK(last.visible[0]);
  CHECK(last.visible[2]);
}

TEST_CASE("trace: a fully masked row stays at −∞ and 0, never NaN", "[trace]") {
  for (auto norm : {Normalization::softmax, Normalization::sum}) {
    AttentionConfig c;
    c.normalization = norm;
    c.mask = MaskKind::custom;
    c.custom_mask = Mask::from_shape({2, 3});
    c.custom_mask.fill(true);
    for (std::size_t j = 0; j < 3; ++j) c.custom_mask(1, j) = false;
    const RowTrace r = trace(
        run(mat({{1, 2}, {3, 4}}), mat({{1, 0}, {0, 1}, {1, 1}}), mat({{1}, {2}, {3}}), c), 1);
    CHECK(r.problem == RowProblem::fully_masked);
    CHECK(r.max == -inf);
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(r.masked[j] == -inf);
      CHECK(r.shifted[j] == -inf);
      CHECK(r.exps[j] == 0);
      CHECK(r.weights[j] == 0);
      CHECK(r.mixed[j * r.d_v + 0] == 0);
      CHECK(r.filled[j * r.d_v + 0] == 0);
    }
    CHECK(r.output[0] == 0);
  }
}

TEST_CASE("trace: sum-normalisation divides 1, 0.71 and 0.5 by 2.21", "[trace][seed]") {
  AttentionConfig c;
  c.scaling = Scaling::none;
  c.normalization = Normalization::sum;
  const RowTrace r = trace(run(mat({{1}}), mat({{1}, {0.71}, {0.5}}), mat({{1}, {1}, {1}}), c), 0);
  CHECK(r.score_sum == approx(2.21));
  CHECK(r.weights[1] == approx(0.71 / 2.21));
  CHECK(r.exps[1] == 0);
  CHECK(r.shifted[1] == -inf);
  CHECK(r.filled[2 * r.d_v + 0] == approx(1));
}

TEST_CASE("trace: on random inputs its sums end where attention()'s steps are",
          "[trace][property]") {
  Rng rng(7);
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = 1 + rng.next_u64() % 5, m = 1 + rng.next_u64() % 6,
                      d_k = 1 + rng.next_u64() % 7, d_v = 1 + rng.next_u64() % 4;
    auto random = [&](std::size_t rows, std::size_t cols) {
      Matrix out = Matrix::from_shape({rows, cols});
      for (auto& x : out) x = rng.uniform(-2, 2);
      return out;
    };
    AttentionConfig c;
    c.mask = round % 3 == 0 ? MaskKind::causal : MaskKind::none;
    const AttentionSteps s = run(random(n, d_k), random(m, d_k), random(m, d_v), c);
    for (std::size_t i = 0; i < n; ++i) {
      const RowTrace r = trace(s, i);
      for (std::size_t j = 0; j < m; ++j) {
        CHECK(r.partial[j * d_k + d_k - 1] == approx(s.scores(i, j)));
        CHECK(r.weights[j] == s.weights(i, j));
      }
      for (std::size_t col = 0; col < d_v; ++col)
        CHECK(r.filled[(m - 1) * r.d_v + col] ==
              Approx(s.output(i, col)).epsilon(1e-12).margin(1e-12));
    }
  }
}

TEST_CASE("trace: a row the steps do not have is refused by name", "[trace]") {
  AttentionConfig c;
  const auto r = trace_row(run(fruit(), fruit(), identity3(), c), 3);
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::bad_argument);
  CHECK(r.error().input == "row");
  CHECK(r.error().row == 3);
}
