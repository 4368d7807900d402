// The decoder's Llama-family steps (cpp/core/lm/decoder.hpp) on a model small enough to follow by
// hand: rotary positions turn q and k so that a score depends on how far apart two tokens are,
// query heads share a key/value head, and the KV cache holds that one head's turned keys. RoPE's
// frequencies, with Llama 3's scaling in each of its three cases. The whole forward is checked
// against an independent PyTorch one in tests/js/llama-parity.test.mjs.
#include <cmath>
#include <vector>

#include "lm/decoder.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

// Width 2, one layer of 2 query heads of size 2 sharing one key/value head, RoPE of frequency 1
// (d = 2: one pair, θ^0). Every token embeds as (1, 0), which RMSNorm (ε 0) makes (√2, 0); query
// head 0 is that vector, query head 1 its negative, and the key and value are it too. The
// attention's output and the MLP are zero, so every layer sees the same inputs.
Decoder turning_model() {
  Decoder m;
  DecoderConfig& c = m.config;
  c.family = Family::llama;
  c.vocab = 2;
  c.context = 8;
  c.width = 2;
  c.layers = 1;
  c.heads = 2;
  c.kv_heads = 1;
  c.head_dim = 2;
  c.mlp = 1;
  c.norm_eps = 0;
  c.rope_theta = 10000;
  m.wte = {1, 0, 1, 0};
  m.norm_w = {1, 1};
  DecoderBlock b;
  b.norm1_w = b.norm2_w = {1, 1};
  const std::vector<float> q = {1, 0, 0, 1, -1, 0, 0, -1}, k = {1, 0, 0, 1}, v = k;
  b.qkv_w = PackedMatrix::pack_linear({&q, &k, &v}, 2);
  const std::vector<float> o(8, 0.0f), gate(2, 0.0f), down(2, 0.0f);
  b.proj_w = PackedMatrix::pack_linear({&o}, 4);
  b.fc_w = PackedMatrix::pack_linear({&gate, &gate}, 2);
  b.out_w = PackedMatrix::pack_linear({&down}, 1);
  m.blocks.push_back(b);
  return m;
}

// softmax over x, in double.
std::vector<double> softmax(const std::vector<double>& x) {
  double sum = 0;
  std::vector<double> out;
  for (double s : x) sum += std::exp(s);
  for (double s : x) out.push_back(std::exp(s) / sum);
  return out;
}

}  // namespace

TEST_CASE("decoder: RoPE makes a score depend on the distance, and heads share keys", "[decoder]") {
  const Decoder m = turning_model();
  KvCache cache(m);
  const Result<DecoderSteps> r = cache.append({0, 1, 0}, true);
  REQUIRE(r.ok());
  const std::vector<float>& w = r->layers[0].weights;  // (heads 2, n 3, t 3)
  // q at position p is √2(cos p, sin p), and so is k: q_m · k_n / √2 = √2 cos(m − n), whatever
  // the token.
  const double r2 = std::sqrt(2.0);
  const std::vector<double> row2 = softmax({r2 * std::cos(2.0), r2 * std::cos(1.0), r2});
  const std::vector<double> row1 = softmax({r2 * std::cos(1.0), r2});
  for (std::size_t j = 0; j < 3; ++j) CHECK(w[2 * 3 + j] == Approx(row2[j]).epsilon(1e-6));
  for (std::size_t j = 0; j < 2; ++j) CHECK(w[1 * 3 + j] == Approx(row1[j]).epsilon(1e-6));
  // Head 1's query is head 0's negated, over the same (shared) keys: its scores are negated.
  const std::vector<double> negated = softmax({-r2 * std::cos(2.0), -r2 * std::cos(1.0), -r2});
  for (std::size_t j = 0; j < 3; ++j) CHECK(w[(3 + 2) * 3 + j] == Approx(negated[j]).epsilon(1e-6));
  // The cache holds one key/value head a token (2 numbers, not 4), each key turned by its place.
  REQUIRE(cache.keys(0).size() == 3 * 2);
  CHECK(cache.keys(0)[2] == Approx(r2 * std::cos(1.0)).epsilon(1e-6));
  CHECK(cache.keys(0)[3] == Approx(r2 * std::sin(1.0)).epsilon(1e-6));
  CHECK(cache.values(0)[2] == Approx(r2).epsilon(1e-6));  // values are not turned
  // One more token against the cache is position 3: its row is the distances 3, 2, 1, 0.
  const Result<DecoderSteps> more = cache.append({1}, true);
  REQUIRE(more.ok());
  const std::vector<double> row3 =
      softmax({r2 * std::cos(3.0), r2 * std::cos(2.0), r2 * std::cos(1.0), r2});
  for (std::size_t j = 0; j < 4; ++j)
    CHECK(more->layers[0].weights[j] == Approx(row3[j]).epsilon(1e-6));
}

TEST_CASE("decoder: RoPE's frequencies, and Llama 3's three cases", "[decoder]") {
  DecoderConfig c;
  c.width = 6;
  c.heads = 1;
  c.rope_theta = 10000;
  // θ^(−2i/d) for d = 6: 1, 10000^(−1/3), 10000^(−2/3).
  const double f1 = std::pow(10000.0, -1.0 / 3), f2 = std::pow(10000.0, -2.0 / 3);
  std::vector<float> f = rope_frequencies(c);
  REQUIRE(f.size() == 3);
  CHECK(f[0] == 1.0f);
  CHECK(f[1] == Approx(f1).epsilon(1e-6));
  CHECK(f[2] == Approx(f2).epsilon(1e-6));
  // An original context of 200, factor 8, low 1, high 4: wavelengths 2π/f of 6.3 (under 200 / 4:
  // kept), 135.4 (between: blended) and 2916 (over 200 / 1: slowed 8 times).
  c.rope_scaling = {8, 1, 4, 200};
  f = rope_frequencies(c);
  const double smooth = (200 / (2 * M_PI / f1) - 1) / (4 - 1);
  CHECK(f[0] == 1.0f);
  CHECK(f[1] == Approx((1 - smooth) * f1 / 8 + smooth * f1).epsilon(1e-6));
  CHECK(f[2] == Approx(f2 / 8).epsilon(1e-6));
  // Learned positions (GPT-2) have none.
  c.rope_theta = 0;
  CHECK(rope_frequencies(c).empty());
}

TEST_CASE("decoder: a GPT-2 config's head size and groups default from its width", "[decoder]") {
  DecoderConfig c;
  c.width = 768;
  c.heads = 12;
  CHECK(c.head_size() == 64);
  CHECK(c.kv_head_count() == 12);
  CHECK(c.kv_head_of(5) == 5);
  CHECK(c.mlp_width() == 3072);
  // Qwen3-0.6B: 16 query heads of 128 in groups of 2 on a width of 1024.
  c.width = 1024;
  c.heads = 16;
  c.kv_heads = 8;
  c.head_dim = 128;
  CHECK(c.q_width() == 2048);
  CHECK(c.kv_width() == 1024);
  CHECK(c.kv_head_of(5) == 2);
}
