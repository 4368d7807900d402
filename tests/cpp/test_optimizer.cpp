// AdamW with clipping (optimizer.hpp), one step worked by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "optimizer.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {
std::vector<TensorInfo> one_matrix(bool decay) {
  TensorInfo t;
  t.kind = TensorKind::w_q;
  t.layer = 0;
  t.rows = 1;
  t.cols = 2;
  t.decay = decay;
  return {t};
}
}  // namespace

TEST_CASE(
    "optimizer: AdamW's first step moves each weight by lr · (sign of its gradient + λ · itself)",
    "[trainer]") {
  // Bias-corrected, the first m̂ is g and v̂ is g², so m̂ / √v̂ is the sign of g:
  // 1 − 0.01 · (1 + 0.01 · 1) = 0.9899 and −2 − 0.01 · (−1 + 0.01 · −2) = −1.9898.
  OptimizerConfig c;
  c.clip = 0;
  AdamW adam(c, one_matrix(true), 2);
  std::vector<float> p = {1.0f, -2.0f}, g = {0.5f, -0.25f};
  const double norm = adam.step(p.data(), g.data());
  CHECK(norm == Approx(std::sqrt(0.25 + 0.0625)));
  CHECK(p[0] == Approx(0.9899).epsilon(1e-6));
  CHECK(p[1] == Approx(-1.9898).epsilon(1e-6));
  CHECK(adam.steps() == 1);
  // No decay where the tensor does not decay: 1 − 0.01 = 0.99.
  AdamW plain(c, one_matrix(false), 2);
  std::vector<float> q = {1.0f, -2.0f}, h = {0.5f, -0.25f};
  plain.step(q.data(), h.data());
  CHECK(q[0] == Approx(0.99).epsilon(1e-6));
  CHECK(q[1] == Approx(-1.99).epsilon(1e-6));
}

TEST_CASE(
    "optimizer: clipping reports the norm before it, and a gradient that is not finite changes "
    "nothing",
    "[trainer]") {
  OptimizerConfig c;
  c.clip = 0.1;  // below the norm 0.559; what the scaling does is the next test's
  AdamW adam(c, one_matrix(false), 2);
  std::vector<float> p = {1.0f, -2.0f}, g = {0.5f, -0.25f};
  CHECK(adam.step(p.data(), g.data()) == Approx(std::sqrt(0.3125)));
  CHECK(p[0] == Approx(0.99).epsilon(1e-6));
  std::vector<float> bad = {std::numeric_limits<float>::quiet_NaN(), 1.0f};
  const std::vector<float> before = p;
  CHECK_FALSE(std::isfinite(adam.step(p.data(), bad.data())));
  CHECK(p == before);
  CHECK(adam.steps() == 1);
  c.beta1 = 1.5;
  auto e = check_optimizer_config(c);
  REQUIRE(e.has_value());
  CHECK(e->message.find("beta1") != std::string::npos);
}

namespace {
// One step with ε = 1 and no decay. Then Adam's first update of a weight whose gradient reaches it
// as g is lr · g / (|g| + 1): the bias corrections make m̂ = g and v̂ = g², and ε is scaled by
// √(1 − β₂) as m and v are. Unlike the sign that a small ε gives, it shows g's size.
std::vector<float> one_step(double clip, std::vector<float> g, double* norm = nullptr) {
  OptimizerConfig c;
  c.learning_rate = 0.1;
  c.epsilon = 1;
  c.weight_decay = 0;
  c.clip = clip;
  AdamW adam(c, one_matrix(false), 2);
  std::vector<float> p = {0.0f, 0.0f};
  const double n = adam.step(p.data(), g.data());
  if (norm) *norm = n;
  return p;
}
}  // namespace

TEST_CASE(
    "optimizer: a gradient over the clip is scaled by clip / its norm, and one under it is not",
    "[trainer]") {
  // g = (3, 4) has norm 5; clipped at 0.5 it is (0.3, 0.4), and the updates are
  // −0.1 · 0.3 / 1.3 = −0.0230769 and −0.1 · 0.4 / 1.4 = −0.0285714
  // (unclipped they would be −0.1 · 3 / 4 = −0.075 and −0.1 · 4 / 5 = −0.08).
  double norm = 0;
  const std::vector<float> clipped = one_step(0.5, {3.0f, 4.0f}, &norm);
  CHECK(norm == Approx(5.0));
  CHECK(clipped[0] == Approx(-0.03 / 1.3).epsilon(1e-6));
  CHECK(clipped[1] == Approx(-0.04 / 1.4).epsilon(1e-6));
  // The same as no clipping given the gradient already scaled by 0.5 / 5.
  CHECK(clipped == one_step(0, {0.3f, 0.4f}));
  const std::vector<float> unclipped = one_step(0, {3.0f, 4.0f});
  CHECK(unclipped[0] == Approx(-0.075).epsilon(1e-6));
  CHECK(unclipped[1] == Approx(-0.08).epsilon(1e-6));
  // Under the clip (norm 5 ≤ 6) and at it (5 ≤ 5), the gradient goes to Adam as it is.
  CHECK(one_step(6, {3.0f, 4.0f}) == unclipped);
  CHECK(one_step(5, {3.0f, 4.0f}) == unclipped);
  // A small gradient is never scaled up: (0.03, 0.04) under a clip of 0.5 gives
  // −0.1 · 0.03 / 1.03 and −0.1 · 0.04 / 1.04.
  const std::vector<float> small = one_step(0.5, {0.03f, 0.04f});
  CHECK(small[0] == Approx(-0.003 / 1.03).epsilon(1e-6));
  CHECK(small[1] == Approx(-0.004 / 1.04).epsilon(1e-6));
}
