#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "attention.hpp"
#include "fast_attention.hpp"
#include "rng.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

struct Case {
  std::size_t n, m, d, d_v;
};

std::vector<float> random_floats(Rng& rng, std::size_t count, double range) {
  std::vector<float> out(count);
  for (auto& x : out) x = static_cast<float>(rng.uniform(-range, range));
  return out;
}

Matrix to_matrix(const std::vector<float>& data, std::size_t rows, std::size_t cols) {
  Matrix out = Matrix::from_shape({rows, cols});
  for (std::size_t i = 0; i < rows * cols; ++i) out.data()[i] = data[i];
  return out;
}

// Every entry of `fast` within 1e-5 of the reference, relative to the largest magnitude in its
// row (entries near zero carry the rounding of the whole row, not of themselves).
void require_rows_close(const std::vector<float>& fast, const Matrix& reference) {
  const std::size_t rows = reference.shape()[0], cols = reference.shape()[1];
  for (std::size_t i = 0; i < rows; ++i) {
    double scale = 0;
    for (std::size_t j = 0; j < cols; ++j) scale = std::max(scale, std::abs(reference(i, j)));
    for (std::size_t j = 0; j < cols; ++j) {
      const double err = std::abs(fast[i * cols + j] - reference(i, j));
      if (err > 1e-5 * scale + 1e-30) {
        INFO("row " << i << " column " << j << ": fast " << fast[i * cols + j] << " reference "
                    << reference(i, j));
        REQUIRE(err <= 1e-5 * scale);
      }
    }
  }
}

// Runs the fast path on q, k, v (and the custom mask, if that is the mask) and requires its
// output, and its weights when materialised, to match the double-precision path.
void check_data(const Case& c, const std::vector<float>& q, const std::vector<float>& k,
                const std::vector<float>& v, FastMask mask, const std::vector<std::uint8_t>& custom,
                bool materialize, FastWorkspace& ws) {
  INFO("n=" << c.n << " m=" << c.m << " d=" << c.d << " d_v=" << c.d_v
            << " mask=" << static_cast<int>(mask) << " materialize=" << materialize);
  FastProblem p;
  p.q = q.data();
  p.k = k.data();
  p.v = v.data();
  p.n = c.n, p.m = c.m, p.d = c.d, p.d_v = c.d_v;
  p.scale = static_cast<float>(1 / std::sqrt(static_cast<double>(c.d)));
  p.mask = mask;
  p.custom = custom.data();
  std::vector<float> out(c.n * c.d_v, -7.0f), weights(c.n * c.m, -7.0f);
  REQUIRE_FALSE(fast_attention(p, out.data(), materialize ? weights.data() : nullptr, ws));

  AttentionConfig config;  // the double-precision explainer path: the reference
  config.scaling = Scaling::temperature;
  config.temperature = 1 / static_cast<double>(p.scale);
  config.mask = mask == FastMask::none     ? MaskKind::none
                : mask == FastMask::causal ? MaskKind::causal
                                           : MaskKind::custom;
  if (mask == FastMask::custom) {
    config.custom_mask = Mask::from_shape({c.n, c.m});
    for (std::size_t i = 0; i < c.n * c.m; ++i) config.custom_mask.data()[i] = custom[i] != 0;
  }
  auto ref =
      attention(to_matrix(q, c.n, c.d), to_matrix(k, c.m, c.d), to_matrix(v, c.m, c.d_v), config);
  REQUIRE(ref.ok());
  require_rows_close(out, ref->output);
  if (materialize) require_rows_close(weights, ref->weights);
}

void check_case(const Case& c, FastMask mask, bool materialize, Rng& rng, FastWorkspace& ws) {
  const auto q = random_floats(rng, c.n * c.d, 2), k = random_floats(rng, c.m * c.d, 2),
             v = random_floats(rng, c.m * c.d_v, 1);
  std::vector<std::uint8_t> custom(c.n * c.m);
  for (auto& b : custom) b = rng.uniform() < 0.7;
  if (c.n > 1)
    for (std::size_t j = 0; j < c.m; ++j) custom[1 * c.m + j] = 0;  // one fully masked row
  check_data(c, q, k, v, mask, custom, materialize, ws);
}

}  // namespace

TEST_CASE("fast attention matches the double-precision path on awkward shapes", "[fast]") {
  const std::size_t sizes[] = {1, 3, 5, 7, 13, 65, 129, 257};
  Rng rng(31);
  FastWorkspace ws;  // shared across calls, as the engine does
  for (std::size_t a = 0; a < 8; ++a) {
    // Each size as n, paired with sizes for m, d and d_v that walk the list at other strides,
    // so every size appears in every role without the full 8⁴ product.
    // Features stop at 256, so 257 stands for 255 there.
    auto feature = [&](std::size_t s) { return s > FastLimits::max_dim ? s - 2 : s; };
    const Case c{sizes[a], sizes[(a + 3) % 8], feature(sizes[(a + 5) % 8]),
                 feature(sizes[(a + 6) % 8])};
    for (FastMask mask : {FastMask::none, FastMask::causal, FastMask::custom})
      for (bool materialize : {false, true}) check_case(c, mask, materialize, rng, ws);
  }
}

TEST_CASE("fast attention on square shapes with causal mask streams like it materialises",
          "[fast]") {
  Rng rng(32);
  FastWorkspace ws;
  for (std::size_t s : {1, 7, 65, 257}) {
    check_case({s, s, 64, 64}, FastMask::causal, false, rng, ws);
    check_case({s, s, 64, 64}, FastMask::causal, true, rng, ws);
  }
}

TEST_CASE("fast attention streams through key blocks whose max rises and falls", "[fast]") {
  // 773 keys: three full streaming blocks and a part. Query 0's scores rise with the key (every
  // block raises the row's max, so what came before is rescaled), query 1's fall (the first
  // block holds the max), query 2's peak at key 600, in the third block.
  const Case c{3, 773, 4, 3};
  const std::vector<float> q = {1, 1, 0, 0, -1, -1, 0, 0, 0, 0, 2, 0};
  std::vector<float> k(c.m * c.d, 0.0f), v(c.m * c.d_v);
  for (std::size_t j = 0; j < c.m; ++j) {
    const float x = static_cast<float>(j);
    k[j * c.d + 0] = k[j * c.d + 1] = x / 150;
    k[j * c.d + 2] = -std::abs(x - 600) / 50;
    v[j * c.d_v + 0] = static_cast<float>(j % 7);
    v[j * c.d_v + 1] = x / 773;
    v[j * c.d_v + 2] = 1;
  }
  FastWorkspace ws;
  for (bool materialize : {false, true})
    check_data(c, q, k, v, FastMask::none, {}, materialize, ws);
}

TEST_CASE("fast attention: large scores do not overflow and masked rows are zero", "[fast]") {
  // Scores of 1000, 1001, 1002 for the first query; the second query sees nothing.
  const float q[] = {1, 1};
  const float k[] = {1000, 1001, 1002};
  const float v[] = {1, 2, 3};
  const std::uint8_t mask[] = {1, 1, 1, 0, 0, 0};
  FastProblem p;
  p.q = q, p.k = k, p.v = v;
  p.n = 2, p.m = 3, p.d = 1, p.d_v = 1;
  p.mask = FastMask::custom;
  p.custom = mask;
  FastWorkspace ws;
  float out[2] = {-1, -1}, weights[6];
  REQUIRE_FALSE(fast_attention(p, out, weights, ws));
  const double sum = std::exp(-2.0) + std::exp(-1.0) + 1;
  CHECK(out[0] == Approx((std::exp(-2.0) + 2 * std::exp(-1.0) + 3) / sum).epsilon(1e-6));
  CHECK(weights[2] == Approx(1 / sum).epsilon(1e-6));
  CHECK(out[1] == 0);
  CHECK(weights[3] == 0);
  CHECK(weights[5] == 0);
}

TEST_CASE("fast attention: keys far below the row's max weigh 0 or next to it, never less",
          "[fast]") {
  // One query, scale 1, d = 1: the scores are the keys. e^-50 and e^-80 are small but normal
  // floats and keep their precision to 1e-5; from about e^-87.3 float32 runs out of normal numbers,
  // and from e^-88.03 (2^-127) on the weight is exactly 0, as it is for a masked key.
  const std::vector<float> q = {1};
  const std::vector<float> k = {0, -50, -80, -87.5f, -88.0f, -88.2f, -89, -100, -1000, -3e38f, 5};
  const std::size_t m = k.size();
  std::vector<float> v(m);
  for (std::size_t j = 0; j < m; ++j) v[j] = static_cast<float>(j + 1);
  std::vector<std::uint8_t> custom(m, 1);
  custom[m - 1] = 0;  // the largest score, masked: every weight is relative to key 0's
  FastProblem p;
  p.q = q.data(), p.k = k.data(), p.v = v.data();
  p.n = 1, p.m = m, p.d = 1, p.d_v = 1;
  p.mask = FastMask::custom;
  p.custom = custom.data();
  FastWorkspace ws;
  std::vector<float> weights(m, -7.0f);
  float out[1] = {-7.0f};
  REQUIRE_FALSE(fast_attention(p, out, weights.data(), ws));
  const double sum = 1 + std::exp(-50.0) + std::exp(-80.0);  // the rest is below 1e-38
  CHECK(weights[0] == Approx(1 / sum).epsilon(1e-6));
  CHECK(weights[1] == Approx(std::exp(-50.0) / sum).epsilon(1e-5));
  CHECK(weights[2] == Approx(std::exp(-80.0) / sum).epsilon(1e-5));
  for (std::size_t j = 3; j <= 5; ++j) {
    INFO("key " << j << " weight " << weights[j]);
    CHECK(weights[j] >= 0);
    CHECK(weights[j] <= 2 * std::exp(static_cast<double>(k[j])));
  }
  for (std::size_t j = 6; j < m; ++j) CHECK(weights[j] == 0);
  CHECK(out[0] == Approx((1 + 2 * std::exp(-50.0) + 3 * std::exp(-80.0)) / sum).epsilon(1e-6));
}

TEST_CASE("fast attention: scores beyond float32 are refused with their row", "[fast][errors]") {
  const float big = 1e20f;
  struct Overflow {
    const char* what;
    std::vector<float> q, k, v;
    std::size_t d;
    const char* input;
    long row, col;
  };
  // Query row 2 of 2 overflows in each: +∞ scores, −∞ scores (every key), and +∞ and −∞ in one
  // dot product (NaN). (An output cannot: it is a weighted mean of finite values. The sum of 2 ·
  // 3e38 that once overflowed before it was divided by 2 is the next test's.)
  const Overflow cases[] = {
      {"+inf", {0, 1, big, 1}, {1, 0, big, 0}, {1, 2}, 2, "scores", 1, -1},
      {"-inf", {0, 1, big, 0}, {-big, 0, -2 * big, 0}, {1, 2}, 2, "scores", 1, -1},
      {"nan", {0, 0, big, big}, {big, -big, 1, 1}, {1, 2}, 2, "scores", 1, -1},
  };
  for (const auto& c : cases) {
    for (bool materialize : {false, true}) {
      INFO(c.what << (materialize ? " materialised" : " streaming"));
      FastProblem p;
      p.q = c.q.data(), p.k = c.k.data(), p.v = c.v.data();
      p.n = 2, p.m = 2, p.d = c.d, p.d_v = c.v.size() / 2;
      FastWorkspace ws;
      std::vector<float> out(p.n * p.d_v), weights(p.n * p.m);
      const auto e = fast_attention(p, out.data(), materialize ? weights.data() : nullptr, ws);
      REQUIRE(e);
      CHECK(e->code == ErrorCode::not_finite);
      CHECK(e->input == c.input);
      CHECK(e->row == c.row);
      CHECK(e->col == c.col);
      CHECK_THAT(e->message,
                 Catch::Contains("row " + std::to_string(c.row + 1)) && Catch::Contains("float32"));
    }
  }
}

TEST_CASE("fast attention: outputs up to float32's largest do not overflow", "[fast][overflow]") {
  // Equal scores (Q = K = 0) make every output the mean of V's rows. Their unnormalised sum, 1000
  // · 1e38 or 300 · 3e36 or 3e38 + 3.4e38, is past float32's 3.4e38; the mean is not. The scores
  // also rise key by key in `rising`, so the max moves in every block and the mean is rescaled.
  const float max = std::numeric_limits<float>::max();
  struct Case {
    const char* what;
    std::size_t m;
    std::vector<float> v;  // (m, 2): values in column 0, their negatives in column 1
    bool rising;
    float expected;
  };
  std::vector<Case> cases = {
      {"1000 × 1e38", 1000, std::vector<float>(2000, 1e38f), false, 1e38f},
      {"300 × 3e36", 300, std::vector<float>(600, 3e36f), false, 3e36f},
      {"3e38 and 3.4e38", 2, {3e38f, 3e38f, 3.4e38f, 3.4e38f}, false, 3.2e38f},
      {"10 × FLT_MAX", 10, std::vector<float>(20, max), false, max},  // 1/10 rounds up
      {"rising, 1000 × 2e38", 1000, std::vector<float>(2000, 2e38f), true, 2e38f},
  };
  for (auto& c : cases)
    for (std::size_t j = 0; j < c.m; ++j) c.v[2 * j + 1] = -c.v[2 * j];
  for (const auto& c : cases) {
    for (const bool materialize : {false, true}) {
      INFO(c.what << (materialize ? ", materialised" : ", streaming"));
      const std::size_t n = 5;  // a tile of four queries and one more
      std::vector<float> q(n, c.rising ? 1.0f : 0.0f), k(c.m, 0.0f);
      if (c.rising)
        for (std::size_t j = 0; j < c.m; ++j) k[j] = static_cast<float>(j) / 100;
      FastProblem p;
      p.q = q.data(), p.k = k.data(), p.v = c.v.data();
      p.n = n, p.m = c.m, p.d = 1, p.d_v = 2;
      FastWorkspace ws;
      std::vector<float> out(n * 2), weights(n * c.m);
      const auto e = fast_attention(p, out.data(), materialize ? weights.data() : nullptr, ws);
      INFO((e ? e->message : std::string("no error")));
      REQUIRE_FALSE(e);
      // A float32 sum of m equal terms rounds the same way every time: m · 2^-24 at worst, 6e-5
      // at m = 1000 (1.3e-5 measured; the unnormalised sum of 1000 · 1e30 was off by 4e-6).
      for (std::size_t i = 0; i < n; ++i) {
        CHECK(out[2 * i] == Approx(c.expected).epsilon(c.m * 0x1p-24));
        CHECK(out[2 * i + 1] == Approx(-c.expected).epsilon(c.m * 0x1p-24));
        CHECK(std::isfinite(out[2 * i]));
      }
    }
  }
  // Large and small columns side by side, each exact to float32: 1e38 and 1e-30 weighted 3:1.
  const std::vector<float> q = {1}, k = {std::log(3.0f), 0}, v = {1e38f, 1e-30f, 0, 0};
  FastProblem p;
  p.q = q.data(), p.k = k.data(), p.v = v.data();
  p.n = 1, p.m = 2, p.d = 1, p.d_v = 2;
  FastWorkspace ws;
  std::vector<float> out(2);
  REQUIRE_FALSE(fast_attention(p, out.data(), nullptr, ws));
  CHECK(out[0] == Approx(0.75e38).epsilon(1e-6));
  CHECK(out[1] == Approx(0.75e-30).epsilon(1e-6));
}

TEST_CASE("fast attention: a NaN or infinity in an input is refused with its row and column",
          "[fast][errors]") {
  // 3 queries and 5 keys of 3 features, values of 4: the keys' 15 entries end in a part vector
  // of three, so a bad entry is looked for inside whole vectors of four and past them.
  const float inf = std::numeric_limits<float>::infinity(),
              nan = std::numeric_limits<float>::quiet_NaN();
  for (const auto& [input, index, bad] :
       {std::tuple{"queries", 5, nan}, std::tuple{"keys", 9, inf}, std::tuple{"keys", 14, -inf},
        std::tuple{"values", 0, nan}}) {
    std::vector<float> q(3 * 3, 0.5f), k(5 * 3, 0.25f), v(5 * 4, 1.0f);
    const std::string name = input;
    (name == "queries" ? q : name == "keys" ? k : v)[index] = bad;
    const int cols = name == "values" ? 4 : 3;
    FastProblem p;
    p.q = q.data(), p.k = k.data(), p.v = v.data();
    p.n = 3, p.m = 5, p.d = 3, p.d_v = 4;
    FastWorkspace ws;
    std::vector<float> out(3 * 4, -7.0f);
    auto e = fast_attention(p, out.data(), nullptr, ws);
    INFO(name << " entry " << index);
    REQUIRE(e);
    CHECK(e->code == ErrorCode::not_finite);
    CHECK(e->input == name);
    CHECK(e->row == index / cols);
    CHECK(e->col == index % cols);
    CHECK_THAT(e->message, Catch::Contains("row " + std::to_string(index / cols + 1) + ", column " +
                                           std::to_string(index % cols + 1)));
    CHECK(out == std::vector<float>(3 * 4, -7.0f));  // nothing written
  }
}

TEST_CASE("fast attention: a NaN is found at every position of every input", "[fast][errors]") {
  // The check reads blocks of 16 floats as four vectors, then single vectors, then single floats:
  // 2 queries, 7 keys and 7 values of 5, 5 and 3 features hold 10, 35 and 21 floats, so every
  // lane of each of those passes is visited.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::size_t n = 2, m = 7, d = 5, d_v = 3;
  for (const std::string name : {"queries", "keys", "values"}) {
    const std::size_t cols = name == "values" ? d_v : d, count = (name == "queries" ? n : m) * cols;
    for (std::size_t index = 0; index < count; ++index) {
      std::vector<float> q(n * d, 0.5f), k(m * d, 0.25f), v(m * d_v, 1.0f);
      (name == "queries" ? q : name == "keys" ? k : v)[index] = nan;
      FastProblem p;
      p.q = q.data(), p.k = k.data(), p.v = v.data();
      p.n = n, p.m = m, p.d = d, p.d_v = d_v;
      FastWorkspace ws;
      std::vector<float> out(n * d_v, -7.0f);
      const auto e = fast_attention(p, out.data(), nullptr, ws);
      INFO(name << " entry " << index);
      REQUIRE(e);
      CHECK(e->input == name);
      CHECK(e->row == static_cast<long>(index / cols));
      CHECK(e->col == static_cast<long>(index % cols));
    }
  }
}

TEST_CASE("fast attention: shapes above its limits are refused with a message", "[fast][errors]") {
  std::vector<float> data(8, 0.0f);
  FastProblem p;
  p.q = p.k = p.v = data.data();
  p.n = FastLimits::max_tokens + 1, p.m = 1, p.d = 1, p.d_v = 1;
  FastWorkspace ws;
  auto e = fast_attention(p, data.data(), nullptr, ws);
  REQUIRE(e);
  CHECK(e->code == ErrorCode::too_large);
  CHECK(e->input == "queries");
  p.n = 1;
  p.d = 0;
  e = fast_attention(p, data.data(), nullptr, ws);
  REQUIRE(e);
  CHECK(e->code == ErrorCode::empty_input);
}

TEST_CASE("fast attention: 2×2 queries and 2×3 keys are refused as keys of the wrong length",
          "[fast][errors]") {
  FastShapes s;
  s.q_rows = 2, s.q_cols = 2, s.k_rows = 2, s.k_cols = 3, s.v_rows = 2, s.v_cols = 2;
  const auto e = check_fast_shapes(s);
  REQUIRE(e);
  CHECK(e->code == ErrorCode::shape_mismatch);
  CHECK(e->input == "keys");
  CHECK(e->message ==
        "queries are 2×2 and keys 2×3: each query and key needs the same length d_k to take a dot "
        "product.");
}

TEST_CASE("fast attention: 3 keys and 2 value rows are refused as values without a row per key",
          "[fast][errors]") {
  FastShapes s;
  s.q_rows = 1, s.q_cols = 4, s.k_rows = 3, s.k_cols = 4, s.v_rows = 2, s.v_cols = 5;
  const auto e = check_fast_shapes(s);
  REQUIRE(e);
  CHECK(e->code == ErrorCode::shape_mismatch);
  CHECK(e->input == "values");
  CHECK(e->message == "keys are 3×4 and values 2×5: there must be one value row for each key row.");
}

TEST_CASE("fast attention: a custom mask of 3 entries for 2 queries and 2 keys is refused",
          "[fast][errors]") {
  FastShapes s;
  s.q_rows = 2, s.q_cols = 2, s.k_rows = 2, s.k_cols = 2, s.v_rows = 2, s.v_cols = 2;
  s.custom_mask = true;
  s.mask_entries = 3;
  const auto e = check_fast_shapes(s);
  REQUIRE(e);
  CHECK(e->code == ErrorCode::shape_mismatch);
  CHECK(e->input == "mask");
  CHECK(e->message == "The mask has 3 entries but there are 2 queries and 2 keys; it must be 2×2.");
  s.mask_entries = 4;
  CHECK_FALSE(check_fast_shapes(s));
}

TEST_CASE(
    "fast attention: shapes that agree pass the shape check whatever the mask entries without a "
    "custom mask",
    "[fast][errors]") {
  FastShapes s;
  s.q_rows = 3, s.q_cols = 8, s.k_rows = 5, s.k_cols = 8, s.v_rows = 5, s.v_cols = 2;
  s.mask_entries = 7;  // ignored: no custom mask
  CHECK_FALSE(check_fast_shapes(s));
}
