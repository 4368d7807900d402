// The GPT-2 runner's contract (cpp/core/lm/gpt2.hpp) on a tiny model written here: which tensors it
// needs and how it names a wrong one, causal weights, and the KV cache. Its numbers are checked
// against an independent NumPy forward in tests/js/gpt2-parity.test.mjs.
#include <cmath>
#include <string>
#include <vector>

#include "lm/gpt2.hpp"
#include "products.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

using Tensors =
    std::vector<std::pair<std::string, std::pair<std::vector<std::size_t>, std::vector<float>>>>;

// vocab 5, context 4, width 4, one layer; weights from a fixed sequence, so every number differs.
Tensors tiny(const std::string& prefix = "") {
  float x = 0.1f;
  const auto fill = [&](std::size_t n) {
    std::vector<float> v(n);
    for (float& f : v) f = (x = std::fmod(x * 7.3f + 0.37f, 1.0f)) - 0.5f;
    return v;
  };
  const auto ones = [](std::size_t n) { return std::vector<float>(n, 1.0f); };
  return {{prefix + "wte.weight", {{5, 4}, fill(20)}},
          {prefix + "wpe.weight", {{4, 4}, fill(16)}},
          {prefix + "h.0.ln_1.weight", {{4}, ones(4)}},
          {prefix + "h.0.ln_1.bias", {{4}, fill(4)}},
          {prefix + "h.0.attn.c_attn.weight", {{4, 12}, fill(48)}},
          {prefix + "h.0.attn.c_attn.bias", {{12}, fill(12)}},
          {prefix + "h.0.attn.c_proj.weight", {{4, 4}, fill(16)}},
          {prefix + "h.0.attn.c_proj.bias", {{4}, fill(4)}},
          {prefix + "h.0.ln_2.weight", {{4}, ones(4)}},
          {prefix + "h.0.ln_2.bias", {{4}, fill(4)}},
          {prefix + "h.0.mlp.c_fc.weight", {{4, 16}, fill(64)}},
          {prefix + "h.0.mlp.c_fc.bias", {{16}, fill(16)}},
          {prefix + "h.0.mlp.c_proj.weight", {{16, 4}, fill(64)}},
          {prefix + "h.0.mlp.c_proj.bias", {{4}, fill(4)}},
          {prefix + "ln_f.weight", {{4}, ones(4)}},
          {prefix + "ln_f.bias", {{4}, fill(4)}}};
}

Result<Decoder> load(const std::string& bytes, std::size_t heads = 2) {
  const Result<SafeTensors> f = read_safetensors(bytes);
  REQUIRE(f.ok());
  return load_gpt2(*f, heads);
}

}  // namespace

TEST_CASE("gpt2: the shapes give the model, with or without the transformer. prefix", "[gpt2]") {
  for (const std::string prefix : {"", "transformer."}) {
    const std::string bytes = write_safetensors(tiny(prefix));
    const Result<Decoder> m = load(bytes);
    REQUIRE(m.ok());
    const DecoderConfig& c = m->config;
    CHECK(std::vector<std::size_t>{c.vocab, c.context, c.width, c.layers, c.heads, c.head_size()} ==
          std::vector<std::size_t>{5, 4, 4, 1, 2, 2});
    CHECK(c.tied);
  }
}

TEST_CASE(
    "gpt2: the first token weighs only itself, and each row's weights sum to 1 over the keys "
    "before it",
    "[gpt2]") {
  const std::string bytes = write_safetensors(tiny());
  const Result<Decoder> m = load(bytes);
  REQUIRE(m.ok());
  KvCache cache(*m);
  const Result<DecoderSteps> r = cache.append({3, 1, 4}, true);
  REQUIRE(r.ok());
  REQUIRE(r->layers.size() == 1);
  const std::vector<float>& w = r->layers[0].weights;  // (2 heads, 3, 3)
  for (std::size_t h = 0; h < 2; ++h) {
    CHECK(w[(h * 3 + 0) * 3 + 0] == 1.0f);
    for (std::size_t i = 0; i < 3; ++i) {
      float sum = 0;
      for (std::size_t j = 0; j < 3; ++j) {
        if (j > i) CHECK(w[(h * 3 + i) * 3 + j] == 0.0f);
        sum += w[(h * 3 + i) * 3 + j];
      }
      CHECK(sum == Approx(1.0f).epsilon(1e-6));
    }
  }
  CHECK(r->logits.size() == 3 * 5);
  CHECK(cache.keys(0).size() == 3 * 4);  // a row of K for each of the 3 tokens, in the cache
}

TEST_CASE("gpt2: the KV cache: one token at a time gives the logits of one pass", "[gpt2]") {
  const std::string bytes = write_safetensors(tiny());
  const Result<Decoder> m = load(bytes);
  REQUIRE(m.ok());
  KvCache whole(*m), steps(*m);
  const Result<DecoderSteps> all = whole.append({0, 2, 4, 1});
  REQUIRE(all.ok());
  for (std::size_t i = 0; i < 4; ++i) {
    const Result<DecoderSteps> one = steps.append({std::vector<int>{0, 2, 4, 1}[i]}, true);
    REQUIRE(one.ok());
    CHECK(one->first == i);
    CHECK(steps.keys(0).size() == (i + 1) * 4);  // a row of K per token seen
    CHECK(steps.values(0).size() == (i + 1) * 4);
    for (std::size_t v = 0; v < 5; ++v)
      CHECK(one->logits[v] == Approx(all->logits[i * 5 + v]).margin(1e-6));
  }
  const Result<DecoderSteps> over = steps.append({1});
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().message ==
        "tokens: 5 tokens in all, but the model sees at most 4 (its context).");
}

TEST_CASE("gpt2: a tensor missing or of the wrong shape is named, with the shape it needs",
          "[gpt2]") {
  Tensors t = tiny();
  t[4].second.first = {4, 4};  // c_attn.weight
  t[4].second.second.resize(16);
  const Result<Decoder> wrong = load(write_safetensors(t));
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message ==
        "model: tensor \"h.0.attn.c_attn.weight\" has shape [4, 4]; this model needs [4, 12].");
  Tensors u = tiny();
  u.erase(u.begin() + 13);  // mlp.c_proj.bias
  const Result<Decoder> missing = load(write_safetensors(u));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message ==
        "model: it has no tensor \"h.0.mlp.c_proj.bias\" [4], which a GPT-2 model needs.");
  const Result<Decoder> odd = load(write_safetensors(tiny()), 3);
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.error().message ==
        "model: its width, 4, does not divide into 3 heads: give the head count.");
  Tensors v = tiny();
  v[1].second.second[5] = NAN;
  const Result<Decoder> nan = load(write_safetensors(v));
  REQUIRE_FALSE(nan.ok());
  CHECK(nan.error().message ==
        "model: tensor \"wpe.weight\" holds a value that is not a finite number, at index 5.");
}

TEST_CASE("gpt2: weights packed in strips of 8 give the plain product, to the bit", "[gpt2]") {
  // Rows of 1 (a generated token), 3, 4 and 9 (tiles and what they leave), and widths that leave
  // a strip part-filled; every sum is added in order of i on both paths, so the floats are equal.
  const std::size_t inner = 11;
  for (std::size_t rows : {1u, 3u, 4u, 9u}) {
    for (std::size_t cols : {1u, 7u, 8u, 13u, 16u}) {
      std::vector<float> a(rows * inner), w(inner * cols);
      float x = 0.3f;
      for (float& f : a) f = (x = std::fmod(x * 7.3f + 0.37f, 1.0f)) - 0.5f;
      for (float& f : w) f = (x = std::fmod(x * 5.1f + 0.23f, 1.0f)) - 0.5f;
      const PackedMatrix p = PackedMatrix::pack(w, inner, cols);
      CHECK(p.strips.size() == (cols + 7) / 8 * 8 * inner);
      for (bool accumulate : {false, true}) {
        std::vector<float> packed(rows * cols, 0.25f), plain(rows * cols, 0.25f);
        ops::gemm_packed(a.data(), inner, p.strips.data(), packed.data(), cols, rows, inner, cols,
                         accumulate);
        ops::gemm_f32(a.data(), inner, 1, w.data(), cols, plain.data(), cols, rows, inner, cols,
                      accumulate);
        CHECK(packed == plain);
      }
    }
  }
}
