// The transformer's configuration and where each weight tensor sits in the one flat array
// (transformer_config.hpp): counted by hand for small models.
#include <catch2/catch.hpp>
#include <string>

#include "test_utils.hpp"
#include "transformer_config.hpp"

using namespace attn;

TEST_CASE(
    "transformer config: the tensors of a model tile its one array, in the sizes counted by hand",
    "[trainer]") {
  // vocab 10, length 8, D 16, 2 layers, attention only, no LayerNorm:
  // embeddings 10·16 + 8·16 = 288; per layer W_Q, W_K, W_V, W_O 4·256 = 1024; unembedding 16·10.
  TransformerConfig c;
  c.vocab = 10;
  c.seq_len = 8;
  c.d_model = 16;
  c.layers = 2;
  c.heads = 2;
  REQUIRE_FALSE(check_transformer_config(c).has_value());
  auto layout = parameter_layout(c);
  std::size_t at = 0;
  for (const auto& t : layout) {
    CHECK(t.offset == at);  // one after the other, no gap, no overlap
    at += t.size();
  }
  CHECK(at == 288 + 2 * 1024 + 160);
  CHECK(parameter_offsets(c).total == at);
  // Only the matrices decay: W_Q … W_O and the unembedding, not the embeddings.
  std::size_t decayed = 0;
  for (const auto& t : layout) decayed += t.decay ? t.size() : 0;
  CHECK(decayed == 2 * 1024 + 160);

  // With the MLP (4·D wide) and LayerNorm: per layer 2·(2·16) gains and biases, 16·64 + 64 + 64·16
  // + 16; and the final LayerNorm's 2·16.
  c.mlp = Mlp::gelu;
  c.layer_norm = true;
  REQUIRE_FALSE(check_transformer_config(c).has_value());
  CHECK(parameter_offsets(c).total == 288 + 2 * (1024 + 64 + 1024 + 64 + 1024 + 16) + 32 + 160);
}

TEST_CASE("transformer config: a size past its limit is refused, naming the field", "[trainer]") {
  TransformerConfig c;
  c.vocab = 10;
  c.seq_len = 8;
  c.d_model = 16;
  c.heads = 3;  // 3 does not divide 16
  auto e = check_transformer_config(c);
  REQUIRE(e.has_value());
  CHECK(e->message.find("heads") != std::string::npos);
  c.heads = 2;
  c.seq_len = TransformerLimits::max_seq_len + 1;
  e = check_transformer_config(c);
  REQUIRE(e.has_value());
  CHECK(e->message.find("seqLen") != std::string::npos);
}
