// The hand-written backward pass against central finite differences, every entry of every
// parameter tensor, in the double instantiation of the same code the trainer runs in float32.
#include <cmath>
#include <string>
#include <vector>

#include "rng.hpp"
#include "test_utils.hpp"
#include "transformer.hpp"

using namespace attn;

namespace {

struct GradCase {
  const char* name;
  TransformerConfig config;
};

// In double, a central difference with step 1e-5 is exact to about h²·|f'''| + ε/h ≈ 1e-10 for
// these small, smooth losses; 1e-6 relative (floor 1e-8) leaves room for that and nothing else: a
// wrong term, a missing factor or a transposed product is off by far more.
constexpr double kStep = 1e-5;
constexpr double kRelative = 1e-6;
constexpr double kFloor = 1e-8;

void check_gradients(const TransformerConfig& config, std::uint64_t seed,
                     const std::vector<std::uint8_t>& ablated = {}) {
  const std::size_t batch = 2, len = config.seq_len;
  Transformer<double> m = make_transformer<double>(config, batch);
  Rng rng(seed);
  init_parameters(m, rng);
  if (!ablated.empty()) m.ablated = ablated;
  std::vector<int> tokens(batch * len), targets(batch * len);
  for (std::size_t r = 0; r < batch * len; ++r) {
    tokens[r] = static_cast<int>(rng.next_u64() % config.vocab);
    // Some positions have no target, as in every task: they must contribute nothing.
    targets[r] = r % 3 == 1 ? -1 : static_cast<int>(rng.next_u64() % config.vocab);
  }
  forward(m, tokens.data(), targets.data(), batch, len);
  backward(m);
  const std::vector<double> analytic = m.grads;

  for (const TensorInfo& t : parameter_layout(config)) {
    double worst = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      double& w = m.params[t.offset + i];
      const double saved = w;
      w = saved + kStep;
      const double up = forward(m, tokens.data(), targets.data(), batch, len);
      w = saved - kStep;
      const double down = forward(m, tokens.data(), targets.data(), batch, len);
      w = saved;
      const double numeric = (up - down) / (2 * kStep);
      const double a = analytic[t.offset + i];
      const double err = std::abs(a - numeric);
      worst = std::max(worst, err);
      if (err > kRelative * std::max(std::abs(a), std::abs(numeric)) + kFloor) {
        INFO("tensor " << to_string(t.kind) << " of layer " << t.layer << ", entry " << i
                       << ": backward " << a << ", finite differences " << numeric);
        REQUIRE(err <= kRelative * std::max(std::abs(a), std::abs(numeric)) + kFloor);
      }
    }
    INFO("tensor " << to_string(t.kind) << " of layer " << t.layer);
    CHECK(worst < 1e-6);
  }
}

}  // namespace

TEST_CASE("trainer gradients: every tensor of every layer kind matches finite differences",
          "[trainer]") {
  // Small shapes keep every entry checkable (two forward passes each): vocab 7, length 5, and the
  // head count, MLP and LayerNorm varied so each kind of tensor appears with one and four heads.
  const std::vector<GradCase> cases = {
      {"attention only, 1 head", {7, 5, 8, 1, 1, Mlp::none, false}},
      {"attention only, 4 heads, 2 layers", {7, 5, 8, 2, 4, Mlp::none, false}},
      {"ReLU MLP, 1 head", {7, 5, 8, 1, 1, Mlp::relu, false}},
      {"GELU MLP and LayerNorm, 4 heads, 2 layers", {7, 5, 8, 2, 4, Mlp::gelu, true}},
      {"LayerNorm without MLP, 4 heads", {7, 5, 8, 1, 4, Mlp::none, true}},
      {"ReLU MLP and LayerNorm, 1 head, 2 layers", {7, 5, 4, 2, 1, Mlp::relu, true}},
  };
  std::uint64_t seed = 11;
  for (const GradCase& c : cases) {
    SECTION(c.name) { check_gradients(c.config, seed); }
    ++seed;
  }
}

TEST_CASE("trainer gradients: an ablated head passes no gradient and the rest stay exact",
          "[trainer]") {
  // Layer 0 head 2 and layer 1 head 0 of four are zeroed: their W_Q, W_K and W_V columns get no
  // gradient, which finite differences confirm (the loss does not depend on them).
  const TransformerConfig config{7, 5, 8, 2, 4, Mlp::gelu, true};
  std::vector<std::uint8_t> ablated(8, 0);
  ablated[2] = 1;
  ablated[4] = 1;
  check_gradients(config, 99, ablated);
}
