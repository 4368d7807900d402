// The operations every network in the core is made of (cpp/core/nn.hpp), each once, on numbers
// worked out by hand: softmax and log-sum-exp, LayerNorm and its gradient, RMSNorm, GELU and SiLU.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "nn.hpp"
#include "test_utils.hpp"

using namespace attn;

TEST_CASE("nn: softmax of 1 2 3, and of a row with a hidden key", "[nn]") {
  // e^{-2}, e^{-1}, e^0 over their sum 1 + e^{-1} + e^{-2} = 1.5032147.
  std::vector<double> x = {1, 2, 3};
  const nn::SoftmaxRow<double> s = nn::softmax(x.data(), 3);
  CHECK(s.max == 3);
  CHECK(s.sum == test::approx(1 + std::exp(-1.0) + std::exp(-2.0)));
  CHECK(x[0] == test::approx(0.09003057317038046));
  CHECK(x[1] == test::approx(0.24472847105479764));
  CHECK(x[2] == test::approx(0.6652409557748219));
  // −∞ (a masked key) gets exactly 0; exp never overflows however large the scores.
  std::vector<float> y = {-std::numeric_limits<float>::infinity(), 1000, 1000};
  nn::softmax(y.data(), 3);
  CHECK(y[0] == 0);
  CHECK(y[1] == 0.5f);
  CHECK(y[2] == 0.5f);
}

TEST_CASE("nn: log-sum-exp in double, finite where float32 probabilities round to 0", "[nn]") {
  const std::vector<float> x = {0, std::log(3.0f)};
  CHECK(nn::log_sum_exp(x.data(), 2).value() == Approx(std::log(4.0)).epsilon(1e-7));
  CHECK(nn::log_sum_exp(x.data(), 2).probability(x[1]) == Approx(0.75).epsilon(1e-7));
  // A logit 200 below the other: its probability e^{-200} is 0 in float32, its log is −200.
  const std::vector<float> far = {0, -200};
  CHECK(nn::log_sum_exp(far.data(), 2).value() == Approx(0.0).margin(1e-80));
  CHECK(nn::log_sum_exp(far.data(), 2).log_probability(-200) == Approx(-200));
  const std::vector<float> big = {1000, 1000};
  CHECK(nn::log_sum_exp(big.data(), 2).value() == Approx(1000 + std::log(2.0)));
  // Two equal logits near float32's largest: top + log 2 rounds to top even in double, and yet
  // each has probability 1/2 and log-probability −log 2.
  const std::vector<float> huge = {3e38f, 3e38f, 0};
  CHECK(nn::log_sum_exp(huge.data(), 3).probability(huge[0]) == 0.5);
  CHECK(nn::log_sum_exp(huge.data(), 3).log_probability(huge[1]) == Approx(-std::log(2.0)));
  CHECK(nn::log_sum_exp(huge.data(), 3).probability(0) == 0);
}

TEST_CASE("nn: LayerNorm gives each row mean 0 and variance 1, in either accumulator", "[nn]") {
  // Rows (1, 2, 3, 4) and (10, 10, 10, 14): means 2.5 and 11, variances 1.25 and 3.
  std::vector<double> x = {1, 2, 3, 4, 10, 10, 10, 14}, gain(4, 1), bias(4, 0), xhat(8), rstd(2),
                      y(8);
  nn::layer_norm(x.data(), gain.data(), bias.data(), y.data(), 2, 4, nn::kLayerNormEps, xhat.data(),
                 rstd.data());
  CHECK(y[0] == Approx(-1.5 / std::sqrt(1.25 + 1e-5)));
  CHECK(y[7] == Approx(3 / std::sqrt(3 + 1e-5)));
  CHECK(rstd[1] == Approx(1 / std::sqrt(3 + 1e-5)));
  CHECK(xhat[3] == y[3]);  // gain 1, bias 0
  // Gain 2 and bias 1 on (1, 2, 3, 4) with eps 0: 2 · (−1.5, −0.5, 0.5, 1.5) / √1.25 + 1.
  std::vector<float> f = {1, 2, 3, 4}, g(4, 2), b(4, 1), out(4);
  nn::layer_norm<float, double>(f.data(), g.data(), b.data(), out.data(), 1, 4, 0.0);
  CHECK(out[0] == Approx(1 - 3 / std::sqrt(1.25)).epsilon(1e-6));
  CHECK(out[3] == Approx(1 + 3 / std::sqrt(1.25)).epsilon(1e-6));
  // A large mean: (1e4 + 1, 1e4 + 2, 1e4 + 3, 1e4 + 4) normalises as (1, 2, 3, 4) does, in float
  // too, since the variance is taken after the mean.
  std::vector<float> shifted = {10001, 10002, 10003, 10004}, one(4, 1), zero(4, 0), z(4);
  nn::layer_norm(shifted.data(), one.data(), zero.data(), z.data(), 1, 4, 0.0);
  CHECK(z[0] == Approx(-1.5 / std::sqrt(1.25)).epsilon(1e-4));
}

TEST_CASE("nn: LayerNorm's gradient against a central difference", "[nn]") {
  std::vector<double> x = {0.3, -1.2, 2.0, 0.5}, gain = {1.5, -0.5, 0.8, 1.0}, bias(4, 0.1);
  const std::vector<double> dy = {0.7, -0.2, 0.4, 1.1};
  std::vector<double> xhat(4), rstd(1), y(4), dx(4, 0), dgain(4, 0), dbias(4, 0), scratch(4);
  nn::layer_norm(x.data(), gain.data(), bias.data(), y.data(), 1, 4, nn::kLayerNormEps, xhat.data(),
                 rstd.data());
  nn::layer_norm_backward(dy.data(), xhat.data(), rstd.data(), gain.data(), dx.data(), dgain.data(),
                          dbias.data(), scratch.data(), 1, 4);
  const auto loss = [&](const std::vector<double>& at) {
    std::vector<double> out(4);
    nn::layer_norm(at.data(), gain.data(), bias.data(), out.data(), 1, 4, nn::kLayerNormEps);
    double s = 0;
    for (int t = 0; t < 4; ++t) s += dy[t] * out[t];
    return s;
  };
  for (int t = 0; t < 4; ++t) {
    std::vector<double> up = x, down = x;
    up[t] += 1e-6;
    down[t] -= 1e-6;
    CHECK(dx[t] == Approx((loss(up) - loss(down)) / 2e-6).epsilon(1e-6));
    CHECK(dbias[t] == dy[t]);
    CHECK(dgain[t] == Approx(dy[t] * xhat[t]));
  }
}

TEST_CASE("nn: RMSNorm divides by the root of the mean square, and takes no mean out", "[nn]") {
  // (3, 4): mean square 12.5, root 3.5355339; gain (1, 2).
  std::vector<float> x = {3, 4}, gain = {1, 2}, y(2);
  nn::rms_norm<float, double>(x.data(), gain.data(), y.data(), 1, 2, 0.0);
  CHECK(y[0] == Approx(3 / std::sqrt(12.5)).epsilon(1e-6));
  CHECK(y[1] == Approx(8 / std::sqrt(12.5)).epsilon(1e-6));
  // eps keeps a row of zeros at zero, and a constant row is not centred (LayerNorm would give 0).
  std::vector<double> zeros(3, 0), ones(3, 1), c = {2, 2, 2}, out(3);
  nn::rms_norm(zeros.data(), ones.data(), out.data(), 1, 3, 1e-6);
  CHECK(out[0] == 0);
  nn::rms_norm(c.data(), ones.data(), out.data(), 1, 3, 0.0);
  CHECK(out[1] == test::approx(1));
}

TEST_CASE("nn: GELU at 0 and ±1, its derivative, and SiLU at 0, ±1 and far below", "[nn]") {
  // GELU (tanh form): 0 at 0, 0.8412 at 1 and −0.1588 at −1; float32's tanh agrees with double's.
  CHECK(nn::gelu(0.0) == 0);
  CHECK(nn::gelu(1.0) == Approx(0.841192).epsilon(1e-5));
  CHECK(nn::gelu(-1.0) == Approx(-0.158808).epsilon(1e-5));
  CHECK(nn::gelu(1.0f) == Approx(0.841192f).epsilon(1e-5));
  for (double u : {-2.0, -0.3, 0.0, 0.7, 3.0})
    CHECK(nn::gelu_derivative(u) ==
          Approx((nn::gelu(u + 1e-6) - nn::gelu(u - 1e-6)) / 2e-6).epsilon(1e-6));
  // SiLU: x / (1 + e^{−x}): 0, 1/(1 + e^{−1}) = 0.7310586, −1/(1 + e) = −0.2689414.
  CHECK(nn::silu(0.0) == 0);
  CHECK(nn::silu(1.0) == test::approx(0.7310585786300049));
  CHECK(nn::silu(-1.0) == test::approx(-0.2689414213699951));
  CHECK(nn::silu(-200.0f) == 0);  // e^{200} is ∞ in float32: the limit, not NaN
  CHECK(nn::silu(50.0f) == 50.0f);
}
