// A Llama-family file read into the decoder (cpp/core/lm/llama.hpp): the sizes its tensors give
// and those only its config says, Qwen3's norms and an untied head found by their tensors, and
// every missing or misshapen part named. Its numbers are checked against PyTorch in
// tests/js/llama-parity.test.mjs.
#include <string>
#include <vector>

#include "lm/llama.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

using Tensors =
    std::vector<std::pair<std::string, std::pair<std::vector<std::size_t>, std::vector<float>>>>;

// vocab 5, width 4, one layer of 2 query heads of 2 sharing 1 key/value head, MLP width 6.
Tensors tiny(bool qk_norm = false, bool untied = false) {
  const auto v = [](std::size_t n) { return std::vector<float>(n, 0.25f); };
  Tensors t = {{"model.embed_tokens.weight", {{5, 4}, v(20)}},
               {"model.layers.0.input_layernorm.weight", {{4}, v(4)}},
               {"model.layers.0.self_attn.q_proj.weight", {{4, 4}, v(16)}},
               {"model.layers.0.self_attn.k_proj.weight", {{2, 4}, v(8)}},
               {"model.layers.0.self_attn.v_proj.weight", {{2, 4}, v(8)}},
               {"model.layers.0.self_attn.o_proj.weight", {{4, 4}, v(16)}},
               {"model.layers.0.post_attention_layernorm.weight", {{4}, v(4)}},
               {"model.layers.0.mlp.gate_proj.weight", {{6, 4}, v(24)}},
               {"model.layers.0.mlp.up_proj.weight", {{6, 4}, v(24)}},
               {"model.layers.0.mlp.down_proj.weight", {{4, 6}, v(24)}},
               {"model.norm.weight", {{4}, v(4)}}};
  if (qk_norm) {
    t.push_back({"model.layers.0.self_attn.q_norm.weight", {{2}, v(2)}});
    t.push_back({"model.layers.0.self_attn.k_norm.weight", {{2}, v(2)}});
  }
  if (untied) t.push_back({"lm_head.weight", {{5, 4}, v(20)}});
  return t;
}

DecoderConfig said(std::size_t heads = 2, std::size_t kv = 1) {
  DecoderConfig c;
  c.heads = heads;
  c.kv_heads = kv;
  c.context = 32;
  c.rope_theta = 10000;
  return c;
}

Result<Decoder> load(const Tensors& t, const DecoderConfig& c = said()) {
  const std::string bytes = write_safetensors(t);  // the file's tensors are views of these bytes
  const Result<SafeTensors> f = read_safetensors(bytes);
  REQUIRE(f.ok());
  CHECK(is_llama(*f));
  return load_llama(*f, c);
}

}  // namespace

TEST_CASE("llama: sizes from the tensors and from the config", "[llama]") {
  const Result<Decoder> m = load(tiny());
  REQUIRE(m.ok());
  const DecoderConfig& c = m->config;
  CHECK(c.family == Family::llama);
  CHECK(std::vector<std::size_t>{c.vocab, c.width, c.layers, c.heads, c.kv_heads, c.head_dim, c.mlp,
                                 c.context} == std::vector<std::size_t>{5, 4, 1, 2, 1, 2, 6, 32});
  CHECK(c.tied);
  CHECK_FALSE(c.qk_norm);
  CHECK(m->wpe.empty());
  // q, k and v as one product of (4 + 2 + 2) columns; gate and up as one of 12.
  CHECK(m->blocks[0].qkv_w.cols == 8);
  CHECK(m->blocks[0].fc_w.cols == 12);
  CHECK(m->blocks[0].qkv_b.empty());
  const Result<Decoder> qwen3 = load(tiny(true, true));
  REQUIRE(qwen3.ok());
  CHECK(qwen3->config.qk_norm);
  CHECK_FALSE(qwen3->config.tied);
  CHECK(qwen3->blocks[0].q_norm.size() == 2);
}

TEST_CASE("llama: what is missing or does not fit is named", "[llama]") {
  CHECK(load(tiny(), said(0)).error().message ==
        "model: its head count is not in its tensors: give its config.json "
        "(num_attention_heads).");
  CHECK(load(tiny(), said(2, 3)).error().message ==
        "model: its 2 query heads do not divide into groups of its 3 key/value heads "
        "(num_key_value_heads).");
  // 4 heads of width 4 are heads of 1: RoPE turns pairs.
  CHECK(load(tiny(), said(4, 1)).error().message ==
        "model: its heads are 1 numbers each: rotary positions turn pairs of them, so a head's "
        "size must be even.");
  // Two key/value heads where the file has one: k_proj's shape is named.
  CHECK(load(tiny(), said(2, 2)).error().message ==
        "model: tensor \"model.layers.0.self_attn.k_proj.weight\" has shape [2, 4]; this model "
        "needs [4, 4].");
  DecoderConfig no_context = said();
  no_context.context = 0;
  CHECK(load(tiny(), no_context).error().message ==
        "model: its context is not in its tensors: give its config.json "
        "(max_position_embeddings).");
  Tensors t = tiny();
  t.erase(t.begin() + 9);  // down_proj
  CHECK(load(t).error().message ==
        "model: it has no tensor \"model.layers.0.mlp.down_proj.weight\" [4, 6], which a "
        "Llama-family model needs.");
}
