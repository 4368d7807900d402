// Saved models: bytes that load back into the same model, and damaged bytes refused with the
// byte and the field that is wrong.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "model_io.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

Trainer trained() {
  TrainerConfig c;
  c.task.kind = TaskKind::copy;
  c.task.length = 3;
  c.model.d_model = 8;
  c.model.layers = 2;
  c.model.heads = 2;
  c.model.mlp = Mlp::gelu;
  c.model.layer_norm = true;
  c.batch = 4;
  c.held_out = 16;
  auto t = Trainer::create(c);
  REQUIRE(t.ok());
  Trainer out = std::move(t).value();
  for (int s = 0; s < 5; ++s) out.step();
  return out;
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<std::uint8_t>(x >> (8 * i));
}

// The format's checksum (FNV-1a, 32-bit, of every byte before it), rewritten after an edit so
// that the edit, not the checksum, is what loading has to find.
void reseal(std::vector<std::uint8_t>& bytes) {
  std::uint32_t h = 0x811C9DC5u;
  for (std::size_t i = 0; i + 4 < bytes.size(); ++i) {
    h ^= bytes[i];
    h *= 0x01000193u;
  }
  put_u32(bytes, bytes.size() - 4, h);
}

Error refused(const std::vector<std::uint8_t>& bytes) {
  auto r = load_model(bytes.data(), bytes.size());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::parse_error);
  CHECK(r.error().input == "model");
  return r.error();
}

}  // namespace

TEST_CASE("model io: a saved model loads back into the same model", "[trainer]") {
  Trainer t = trained();
  const std::vector<std::uint8_t> bytes = save_model(t);
  const std::size_t weights = t.model().params.size();
  CHECK(bytes.size() == 52 + 4 * weights + 4);
  CHECK(std::memcmp(bytes.data(), "APTM", 4) == 0);
  auto saved = load_model(bytes.data(), bytes.size());
  REQUIRE(saved.ok());
  CHECK(saved->params == t.model().params);  // bit for bit
  CHECK(saved->model.heads == 2);
  CHECK(saved->model.mlp == Mlp::gelu);
  CHECK(saved->model.layer_norm);
  CHECK(saved->task.kind == TaskKind::copy);
  CHECK(saved->task.length == 3);

  auto loaded = trainer_from_saved(saved.value(), t.config());
  REQUIRE(loaded.ok());
  Trainer u = std::move(loaded).value();
  const Evaluation a = t.evaluate(), b = u.evaluate();
  CHECK(a.loss == b.loss);
  CHECK(a.head_scores == b.head_scores);
  CHECK(save_model(u) == bytes);
}

TEST_CASE("model io: damaged bytes are refused with the byte and the field", "[trainer]") {
  const std::vector<std::uint8_t> good = save_model(trained());

  std::vector<std::uint8_t> b = good;
  b[0] = 'X';
  Error e = refused(b);
  CHECK(e.col == 0);
  CHECK(e.message ==
        "Saved model, byte 0: this is not a saved model (it does not start with "
        "\"APTM\").");

  b = good;
  put_u32(b, 4, 2);
  CHECK(refused(b).message == "Saved model, byte 4: format version 2; this build reads version 1.");

  b = good;
  put_u32(b, 24, 5);  // heads
  reseal(b);
  e = refused(b);
  CHECK(e.col == 24);
  CHECK(e.message == "Saved model, byte 24: heads: 5 heads; it must be from 1 to 4.");

  b = good;
  put_u32(b, 40, 40);  // the task's length
  e = refused(b);
  CHECK(e.col == 40);
  CHECK(e.message.find("length: 40 for copy") != std::string::npos);

  b = good;
  put_u32(b, 48, 7);  // a weight count the config does not have
  CHECK(refused(b).col == 48);

  b.assign(good.begin(), good.end() - 10);  // cut short
  e = refused(b);
  CHECK(e.col == static_cast<long>(b.size()));
  CHECK(e.message.find("this model takes exactly " + std::to_string(good.size())) !=
        std::string::npos);
  CHECK(refused({}).message.find("the data ends after 0 bytes") != std::string::npos);

  b = good;
  b[100] ^= 0x40;  // one bit of one weight
  e = refused(b);
  CHECK(e.col == static_cast<long>(good.size() - 4));
  CHECK(e.message.find("checksum") != std::string::npos);

  b = good;  // a NaN weight with a checksum to match: the weight itself is named
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::uint32_t bits;
  std::memcpy(&bits, &nan, 4);
  // Entry 4 of layer 1's w_q: after 11·8 token and 6·8 position embeddings and LN₁'s gain and
  // bias (8 each).
  const std::size_t at = 52 + 4 * (11 * 8 + 6 * 8 + 16 + 3);
  put_u32(b, at, bits);
  reseal(b);
  e = refused(b);
  CHECK(e.col == static_cast<long>(at));
  CHECK(e.message == "Saved model, byte " + std::to_string(at) +
                         ": entry 4 of w_q in layer 1 is NaN; every weight must be a finite "
                         "number.");
}

TEST_CASE("model io: a weight of absurd size is refused with its tensor and byte", "[trainer]") {
  std::vector<std::uint8_t> b = save_model(trained());
  // Entry 1 of the unembedding, the last tensor: its first weight sits this far before the
  // checksum (8 dimensions × 11 tokens).
  const std::size_t at = b.size() - 4 - 4 * 8 * 11;
  for (const float w : {1e20f, -1e20f, 2e6f}) {
    std::uint32_t bits;
    std::memcpy(&bits, &w, 4);
    put_u32(b, at, bits);
    reseal(b);
    const Error e = refused(b);
    CHECK(e.col == static_cast<long>(at));
    CHECK(e.message.find("Saved model, byte " + std::to_string(at) +
                         ": entry 1 of unembedding is ") == 0);
    CHECK(e.message.find("; a weight's size must be at most 1000000.") != std::string::npos);
  }
  // At the bound itself the model loads.
  const float edge = -1e6f;
  std::uint32_t bits;
  std::memcpy(&bits, &edge, 4);
  put_u32(b, at, bits);
  reseal(b);
  CHECK(load_model(b.data(), b.size()).ok());
}

TEST_CASE("model io: more bytes than the largest model is refused by the size alone", "[trainer]") {
  // The largest model the limits allow: 64 tokens, 32 positions, 64 dimensions, 4 layers with
  // LayerNorm and an MLP: 209,280 weights.
  CHECK(max_saved_model_bytes() == 52 + 4 * 209280 + 4);
  const std::vector<std::uint8_t> zeros(10000000, 0);
  const Error e = refused(zeros);
  CHECK(e.col == static_cast<long>(max_saved_model_bytes()));
  CHECK(e.message ==
        "Saved model, byte 837176: the data has 10000000 bytes; the largest model "
        "this build makes has 837176.");
  REQUIRE(check_saved_size(max_saved_model_bytes()) == std::nullopt);
  CHECK(check_saved_size(max_saved_model_bytes() + 1)->message.find("has 837177 bytes") !=
        std::string::npos);
}
