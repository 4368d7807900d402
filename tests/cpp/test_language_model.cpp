// A model file with its tokenizer in the metadata (cpp/core/language_model.hpp), on a model of
// zeros whose every prediction is uniform, so each number can be counted by hand: tokens as the
// model sees them, the byte fallback marked, the context kept full from the end, the cache grown
// a token at a time, and what a file without a tokenizer or with the wrong one is told.
#include <cmath>
#include <string>
#include <vector>

#include "bpe_train.hpp"
#include "language_model.hpp"
#include "safetensors.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

// Vocabulary `vocab`, context 6, width 4, one layer, every weight 0 and every LayerNorm gain 1.
std::string zeros(std::size_t vocab, const std::vector<std::pair<std::string, std::string>>& meta) {
  const auto z = [](std::size_t n) { return std::vector<float>(n, 0.0f); };
  const auto one = [](std::size_t n) { return std::vector<float>(n, 1.0f); };
  return write_safetensors({{"wte.weight", {{vocab, 4}, z(vocab * 4)}},
                            {"wpe.weight", {{6, 4}, z(24)}},
                            {"h.0.ln_1.weight", {{4}, one(4)}},
                            {"h.0.ln_1.bias", {{4}, z(4)}},
                            {"h.0.attn.c_attn.weight", {{4, 12}, z(48)}},
                            {"h.0.attn.c_attn.bias", {{12}, z(12)}},
                            {"h.0.attn.c_proj.weight", {{4, 4}, z(16)}},
                            {"h.0.attn.c_proj.bias", {{4}, z(4)}},
                            {"h.0.ln_2.weight", {{4}, one(4)}},
                            {"h.0.ln_2.bias", {{4}, z(4)}},
                            {"h.0.mlp.c_fc.weight", {{4, 16}, z(64)}},
                            {"h.0.mlp.c_fc.bias", {{16}, z(16)}},
                            {"h.0.mlp.c_proj.weight", {{16, 4}, z(64)}},
                            {"h.0.mlp.c_proj.bias", {{4}, z(4)}},
                            {"ln_f.weight", {{4}, one(4)}},
                            {"ln_f.bias", {{4}, z(4)}}},
                           meta);
}

// The 256 bytes and <|endoftext|>: 257 tokens, no merges.
const BpeFiles kBytes = bpe_files({}, {"<|endoftext|>"});
const std::vector<std::pair<std::string, std::string>> kMeta{
    {"n_head", "2"}, {"vocab.json", kBytes.vocab_json}, {"merges.txt", kBytes.merges_txt}};

}  // namespace

TEST_CASE("language model: tokens as the model sees them, from the file's own tokenizer", "[lm]") {
  const std::string bytes = zeros(257, kMeta);
  Result<LanguageModel> lm = LanguageModel::open(bytes);
  REQUIRE(lm.ok());
  CHECK(lm->bos() == 256);
  CHECK(lm->config().heads == 2);
  const Result<std::vector<LmToken>> ab = lm->tokenize("ab");
  REQUIRE(ab);
  REQUIRE(ab->size() == 2);
  CHECK((*ab)[0].text == "a");
  CHECK_FALSE((*ab)[0].partial);
  // No token makes 中 whole: its three bytes, each marked as part of a character.
  const Result<std::vector<LmToken>> zhong = lm->tokenize("中");
  REQUIRE(zhong);
  REQUIRE(zhong->size() == 3);
  CHECK((*zhong)[0].partial);
  CHECK((*zhong)[0].text + (*zhong)[1].text + (*zhong)[2].text == "中");
}

TEST_CASE("language model: a long text keeps its end, and the cache grows to the context", "[lm]") {
  const std::string bytes = zeros(257, kMeta);
  Result<LanguageModel> opened = LanguageModel::open(bytes);
  REQUIRE(opened.ok());
  LanguageModel& lm = opened.value();
  // Context 6: <|endoftext|> and the last 5 of the 8 letters.
  const Result<LmRun> run = lm.run("abcdefgh");
  REQUIRE(run.ok());
  CHECK(run->dropped == 3);
  REQUIRE(run->tokens.size() == 6);
  CHECK(run->tokens[0].text == "<|endoftext|>");
  CHECK(run->tokens[1].text == "d");
  // Uniform predictions: every token after the first costs log₂ 257 bits.
  CHECK(run->tokens[0].bits == 0.0);
  CHECK(run->tokens[3].bits == Approx(std::log2(257.0)));
  CHECK(run->steps.layers[0].weights.size() == 2 * 6 * 6);
  const Result<LmRun> full = lm.extend(97);
  REQUIRE_FALSE(full.ok());
  CHECK(full.error().message == "tokens: the model's context of 6 tokens is full.");

  // Two letters, then one more: its row of weights covers all four tokens, evenly (zeros).
  REQUIRE(lm.run("ab").ok());
  const Result<LmRun> more = lm.extend(99);
  REQUIRE(more.ok());
  CHECK(more->steps.first == 3);
  REQUIRE(more->steps.layers[0].weights.size() == 2 * 1 * 4);
  CHECK(more->steps.layers[0].weights[0] == Approx(0.25));
  CHECK(more->steps.layers[0].k.size() == 4 * 4);  // a row of K for each of the 4 tokens

  // Uniform logits: every token 1/257, ties taken in id order.
  const std::vector<Prediction> p = lm.predict(3);
  REQUIRE(p.size() == 3);
  CHECK(p[0].id == 0);
  CHECK(p[2].id == 2);
  CHECK(p[0].probability == Approx(1.0 / 257));
}

TEST_CASE("language model: a file without its tokenizer, or with another's, is refused", "[lm]") {
  const std::string bare = zeros(257, {{"n_head", "2"}});
  const Result<LanguageModel> none = LanguageModel::open(bare);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message.find("its metadata has no tokenizer") != std::string::npos);
  const std::string other = zeros(300, kMeta);
  const Result<LanguageModel> wrong = LanguageModel::open(other);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message ==
        "model: its tokenizer has 257 tokens, but its embedding has 300 rows: they do not belong "
        "together.");
}
