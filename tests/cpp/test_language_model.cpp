// A model file with its tokenizer in the metadata (cpp/core/lm/language_model.hpp), on a model of
// zeros whose every prediction is uniform, so each number can be counted by hand: tokens as the
// model sees them, the byte fallback marked, the context kept full from the end, the cache grown
// a token at a time, and what a file without a tokenizer or with the wrong one is told.
#include <cmath>
#include <string>
#include <vector>

#include "lm/bpe_train.hpp"
#include "lm/language_model.hpp"
#include "lm/safetensors.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

// Vocabulary `vocab`, context 6 (or `context`), width 4 (or `C`), one layer, every weight 0 and
// every LayerNorm gain 1; or, `huge`, embeddings of ±huge and a final gain of `huge`².
std::string zeros(std::size_t vocab, const std::vector<std::pair<std::string, std::string>>& meta,
                  std::size_t context = 6, std::size_t C = 4, float huge = 0) {
  const auto z = [](std::size_t n) { return std::vector<float>(n, 0.0f); };
  const auto one = [](std::size_t n) { return std::vector<float>(n, 1.0f); };
  std::vector<float> wte = z(vocab * C), lnf = one(C);
  if (huge != 0) {
    for (std::size_t i = 0; i < wte.size(); ++i) wte[i] = i % 2 ? -huge : huge;
    lnf.assign(C, huge * huge);
  }
  return write_safetensors({{"wte.weight", {{vocab, C}, wte}},
                            {"wpe.weight", {{context, C}, z(context * C)}},
                            {"h.0.ln_1.weight", {{C}, one(C)}},
                            {"h.0.ln_1.bias", {{C}, z(C)}},
                            {"h.0.attn.c_attn.weight", {{C, 3 * C}, z(3 * C * C)}},
                            {"h.0.attn.c_attn.bias", {{3 * C}, z(3 * C)}},
                            {"h.0.attn.c_proj.weight", {{C, C}, z(C * C)}},
                            {"h.0.attn.c_proj.bias", {{C}, z(C)}},
                            {"h.0.ln_2.weight", {{C}, one(C)}},
                            {"h.0.ln_2.bias", {{C}, z(C)}},
                            {"h.0.mlp.c_fc.weight", {{C, 4 * C}, z(4 * C * C)}},
                            {"h.0.mlp.c_fc.bias", {{4 * C}, z(4 * C)}},
                            {"h.0.mlp.c_proj.weight", {{4 * C, C}, z(4 * C * C)}},
                            {"h.0.mlp.c_proj.bias", {{C}, z(C)}},
                            {"ln_f.weight", {{C}, lnf}},
                            {"ln_f.bias", {{C}, z(C)}}},
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
  CHECK(lm.cache().keys(0).size() == 4 * 4);  // a row of K for each of the 4 tokens

  // Uniform logits: every token 1/257, ties taken in id order.
  const std::vector<Prediction> p = lm.predict(3);
  REQUIRE(p.size() == 3);
  CHECK(p[0].id == 0);
  CHECK(p[2].id == 2);
  CHECK(p[0].probability == Approx(1.0 / 257));
}

TEST_CASE("language model: no text, or more than a run reads, is said so", "[lm]") {
  const std::string bytes = zeros(257, kMeta);
  Result<LanguageModel> opened = LanguageModel::open(bytes);
  REQUIRE(opened.ok());
  LanguageModel& lm = opened.value();
  const Result<LmRun> none = lm.run("");
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().code == ErrorCode::empty_input);
  CHECK(none.error().message ==
        "text: there is no text to read; give the model a word or a sentence.");
  const Result<LmRun> huge = lm.run(std::string(Limits::max_text_bytes + 1, 'a'));
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().code == ErrorCode::too_large);
  CHECK(huge.error().message ==
        "text: the text is 1048577 bytes, more than the 1048576 bytes a run reads.");
  CHECK(lm.run(std::string(Limits::max_text_bytes, 'a')).ok());
}

TEST_CASE("language model: weights so large their products overflow are said so, not run", "[lm]") {
  // Each weight is finite, but after the final LayerNorm a token is ±1e30 in each of its 4
  // numbers, and its logits 4 · 1e30 · 1e15 = 4e45: past float32's 3.4e38.
  const std::string bytes = zeros(257, kMeta, 6, 4, 1e15f);
  Result<LanguageModel> opened = LanguageModel::open(bytes);
  REQUIRE(opened.ok());
  const Result<LmRun> run = opened.value().run("ab");
  REQUIRE_FALSE(run.ok());
  CHECK(run.error().code == ErrorCode::not_finite);
  CHECK(run.error().message ==
        "model: on this text its numbers grow past what float32 can hold, so its predictions are "
        "not numbers: its weights are too large to run (damaged, or not trained).");
  CHECK(opened.value().predict(5).empty());
}

TEST_CASE("language model: on a model of many heads a run keeps what 32 Mi weights hold", "[lm]") {
  // One layer of 16 heads, context 1500: √(2^25 / 16) = 1448.15, so a run holds 1448 tokens, and
  // its weights, 16 · 1448² = 33,546,240 numbers, stay within 2^25 = 33,554,432.
  const std::vector<std::pair<std::string, std::string>> meta{
      {"n_head", "16"}, {"vocab.json", kBytes.vocab_json}, {"merges.txt", kBytes.merges_txt}};
  const std::string bytes = zeros(257, meta, 1500, 16);
  Result<LanguageModel> opened = LanguageModel::open(bytes);
  REQUIRE(opened.ok());
  LanguageModel& lm = opened.value();
  CHECK(lm.config().context == 1500);
  CHECK(lm.window() == 1448);
  const Result<LmRun> run = lm.run(std::string(1460, 'a'));
  REQUIRE(run.ok());
  CHECK(run->tokens.size() == 1448);
  CHECK(run->dropped == 1460 - 1447);
  CHECK(run->steps.layers[0].weights.size() == 16u * 1448 * 1448);
  const Result<LmRun> full = lm.extend(97);
  REQUIRE_FALSE(full.ok());
  CHECK(
      full.error().message ==
      "tokens: this page shows at most 1448 tokens of this model (every head's weights for each), "
      "and the run has them all.");
}

TEST_CASE("language model: a file without its tokenizer, or with another's, is refused", "[lm]") {
  const std::string bare = zeros(257, {{"n_head", "2"}});
  const Result<LanguageModel> none = LanguageModel::open(bare);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message ==
        "model: it has no tokenizer: give its tokenizer.json, or its vocab.json and merges.txt, so "
        "that its tokens can be read from text.");
  const std::string other = zeros(300, kMeta);
  const Result<LanguageModel> wrong = LanguageModel::open(other);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message ==
        "model: its tokenizer has 257 tokens, but its embedding has 300 rows: they do not belong "
        "together.");
}

TEST_CASE("language model: the tokenizer and config.json as separate files, as checkpoints come",
          "[lm]") {
  const std::string bare = zeros(257, {});
  // vocab.json and merges.txt beside the file; no n_head anywhere, so config.json says it.
  ModelFiles files{
      bare, {}, kBytes.vocab_json, kBytes.merges_txt, R"({"n_head": 2, "n_layer": 1})"};
  Result<LanguageModel> lm = LanguageModel::open(files);
  REQUIRE(lm.ok());
  CHECK(lm->config().heads == 2);
  CHECK(lm->bos() == 256);
  // Without config.json, heads of 64 do not divide the width of 4.
  files.config_json = {};
  CHECK(LanguageModel::open(files).error().message ==
        "model: its width, 4, does not divide into heads of 64 heads: give the head count.");
  files.config_json = R"({"n_head": 2, "n_layer": 12})";
  CHECK(
      LanguageModel::open(files).error().message ==
      "config.json says n_layer 12, but the model file has 1 blocks: they do not belong together.");
  files.config_json = R"({"n_head": 2, "model_type": "gemma"})";
  CHECK(LanguageModel::open(files).error().message ==
        "config.json: byte 28: its model_type is \"gemma\"; this page runs the GPT-2 family "
        "(\"gpt2\") and the Llama family (\"llama\", \"qwen2\", \"qwen3\", \"mistral\").");
  files.config_json = R"({"n_head": 2, "model_type": "llama"})";
  CHECK(LanguageModel::open(files).error().message ==
        "config.json says it is a Llama-family model, but the model file has no Llama-family "
        "layers (model.layers.0.self_attn.q_proj …): they do not belong together.");
  files.config_json = R"({"n_head": 2, "activation_function": "relu"})";
  CHECK(LanguageModel::open(files).error().message ==
        "config.json: byte 37: its activation_function is \"relu\"; this page computes GPT-2's "
        "tanh GELU (\"gelu_new\").");
  files.config_json = R"({"layer_norm_epsilon": 1e-6})";
  CHECK(LanguageModel::open(files).error().message ==
        "config.json: byte 23: its layer_norm_epsilon is 1e-6; this page's LayerNorm adds GPT-2's "
        "1e-5.");
  files.config_json = R"({"n_head": 2})";
  files.merges_txt = {};
  CHECK(LanguageModel::open(files).error().message ==
        "model: its tokenizer needs both vocab.json and merges.txt; merges.txt is missing.");
}

TEST_CASE("language model: Hugging Face's tokenizer.json, merges in either form", "[lm]") {
  // The bytes and <|endoftext|> as tokenizer.json holds them: the special token added by id.
  const std::string vocab = kBytes.vocab_json.substr(0, kBytes.vocab_json.rfind(','));  // drops it
  const std::string bare = zeros(258, {{"n_head", "2"}});
  const auto with = [&](const std::string& merges, const std::string& extra = "") {
    return R"({"version": "1.0", "added_tokens": [{"id": 256, "content": "<|endoftext|>"}],)"
           R"( "normalizer": null, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false},)" +
           extra + R"( "model": {"type": "BPE", "vocab": )" + vocab +
           R"(, "ab": 257}, "merges": )" + merges + "}}";
  };
  for (const std::string merges : {R"(["a b"])", R"([["a", "b"]])"}) {
    const std::string tokenizer = with(merges);
    Result<LanguageModel> lm = LanguageModel::open(ModelFiles{bare, tokenizer, {}, {}, {}});
    REQUIRE(lm.ok());
    CHECK(lm->bos() == 256);
    const Result<std::vector<LmToken>> t = lm->tokenize("abc");
    REQUIRE(t.ok());
    REQUIRE(t->size() == 2);  // "ab" merged, then "c"
    CHECK((*t)[0].id == 257);
    CHECK((*t)[1].text == "c");
  }
  const auto refused = [&](const std::string& tokenizer) {
    return LanguageModel::open(ModelFiles{bare, tokenizer, {}, {}, {}}).error().message;
  };
  CHECK(refused(with(R"(["a c"])")).find("merge 1 makes \"ac\", which the vocabulary lacks.") !=
        std::string::npos);
  CHECK(refused(with(R"(["ab"])")).find("merge 1 is not two tokens") != std::string::npos);
  std::string prefix = with("[]");
  prefix.replace(prefix.find("false"), 5, "true");
  CHECK(refused(prefix).find("adds a space before the text (add_prefix_space)") !=
        std::string::npos);
  std::string wordpiece = with("[]");
  wordpiece.replace(wordpiece.find("\"BPE\""), 5, "\"WordPiece\"");
  CHECK(refused(wordpiece).find("its model is \"WordPiece\", not a byte-pair encoding") !=
        std::string::npos);
  std::string normal = with("[]");
  normal.replace(normal.find("null"), 4, R"({"type": "NFC"})");
  CHECK(refused(normal).find("it changes the text first (normalizer \"NFC\")") !=
        std::string::npos);
  // Id 300 leaves 258 … 299 without a token.
  std::string hole = with("[]");
  hole.replace(hole.find("\"id\": 256"), 9, "\"id\": 300");
  CHECK(refused(hole).find("no token has the id 256, so its ids are not 0 to 300.") !=
        std::string::npos);
  CHECK(refused(R"({"vocab": {}})") ==
        "tokenizer: byte 0: it has no \"model\" object: it is not a tokenizer.json.");
}

TEST_CASE("language model: a plan from the header alone says what opening would", "[lm]") {
  const std::string bytes = zeros(257, kMeta);
  const std::size_t header = 8 + static_cast<unsigned char>(bytes[0]) +
                             256u * static_cast<unsigned char>(bytes[1]) +
                             65536u * static_cast<unsigned char>(bytes[2]);
  ModelFiles head{std::string_view(bytes).substr(0, header), {}, {}, {}, {}};
  const Result<ModelPlan> plan = LanguageModel::plan(head, bytes.size());
  REQUIRE(plan.ok());
  CHECK(plan->config.vocab == 257);
  CHECK(plan->config.heads == 2);
  // wte 257·4, wpe 6·4, c_attn 4·12 + 12, c_proj 16 + 4, c_fc 64 + 16, mlp c_proj 64 + 4,
  // four LayerNorm vectors of 4 and ln_f's two: 1,348 floats.
  CHECK(plan->weight_bytes == 4 * (257 * 4 + 24 + 60 + 20 + 80 + 68 + 16 + 8));
  // A file cut short is refused by its size before a byte of its tensors is read.
  const Result<ModelPlan> cut = LanguageModel::plan(head, bytes.size() - 1);
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.error().message.find("lie outside the " + std::to_string(bytes.size() - header - 1) +
                                 " bytes of data") != std::string::npos);
  // A tokenizer of another size, from the header's wte shape alone.
  const std::string other = zeros(300, kMeta);
  const Result<ModelPlan> wrong =
      LanguageModel::plan(ModelFiles{other, {}, {}, {}, {}}, other.size());
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find("its tokenizer has 257 tokens") != std::string::npos);
}
