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
    "optimizer: clipping reports the norm before it; a gradient that is not finite changes nothing",
    "[trainer]") {
  OptimizerConfig c;
  c.clip =
      0.1;  // below the norm 0.559: the gradient is scaled, and Adam's first step does not mind
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
