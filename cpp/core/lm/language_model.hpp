// A language model as the page uses it: a GPT-2- or Llama-family model (gpt2.hpp, llama.hpp) with
// its tokenizer (bpe.hpp), run on text. The page's own model carries its tokenizer in the file's
// metadata, as GPT-2's two files under the keys "vocab.json" and "merges.txt"
// (scripts/model/pack.py).
//
// A run reads <|endoftext|> first, as the model was trained to (every training window began with
// it), then the text's tokens. Text longer than the context keeps its last tokens, and the run
// says how many it left out. A token whose bytes are not whole UTF-8 characters is a piece of a
// character the tokenizer has no token for (its byte fallback): `partial` marks it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bpe.hpp"
#include "common.hpp"
#include "gpt2.hpp"

namespace attn {

struct LmToken {
  int id = 0;
  std::string text;      // its bytes (for a partial token, not text on their own)
  bool partial = false;  // not whole characters: part of a character, from the byte fallback
  double bits = 0;  // in a run: −log₂ of the probability the model gave it (0 for the first)
};

struct Prediction {
  int id = 0;
  std::string text;
  bool partial = false;
  double probability = 0;
};

// A model as its files come: the safetensors file, and its tokenizer as Hugging Face's
// tokenizer.json, or as vocab.json and merges.txt, or else in the file's own metadata (the page's
// model). config.json, when given, says the head count and is checked against the tensors.
// Empty views are files not given.
struct ModelFiles {
  std::string_view model, tokenizer_json, vocab_json, merges_txt, config_json;
};

// What a model will be, known from its header before its tensors are read.
struct ModelPlan {
  DecoderConfig config;
  std::size_t weight_bytes = 0;  // every tensor of the file as float32, as the model keeps them
};

struct LmRun {
  std::vector<LmToken> tokens;  // <|endoftext|> and the tokens the model saw
  std::size_t dropped = 0;      // the text's first tokens left out to fit the context
  DecoderSteps steps;           // every layer's Q, K, V and weights, and the logits
};

// The most attention weights a run keeps, over all its layers and heads (32 Mi numbers: 128 MiB
// as float32 on each side of the page's worker).
inline constexpr std::size_t kMaxRunWeights = std::size_t{1} << 25;

class LanguageModel {
 public:
  // Reads the file, its model and the tokenizer in its metadata. Errors name the byte, the
  // tensor or the tokenizer file at fault. `heads` as load_gpt2() takes it.
  static Result<LanguageModel> open(std::string_view bytes, std::size_t heads = 0);
  static Result<LanguageModel> open(const ModelFiles& files);
  // Every check open() makes but the tensors' values, from `files.model` holding only the file's
  // first bytes (its length and header) and `file_size` its whole size: a large file is refused
  // before it is read.
  static Result<ModelPlan> plan(const ModelFiles& files, std::size_t file_size);

  const DecoderConfig& config() const { return model_->config; }
  const Decoder& model() const { return *model_; }
  // The keys and values of the last run and what extended it (empty before a run).
  const KvCache& cache() const { return *cache_; }
  int bos() const { return bos_; }
  Result<std::vector<LmToken>> tokenize(std::string_view text) const;
  LmToken token(int id) const;

  // The most tokens a run holds, <|endoftext|> among them: the model's context, and no more than
  // keeps every head's weights (layers · heads · t² numbers) within kMaxRunWeights, so that a long
  // text on a model of many heads cannot take the page's memory (GPT-2 small: 482 of its 1024).
  std::size_t window() const;

  // Runs <|endoftext|> and `text` from an empty cache; a text longer than the window keeps its
  // last tokens. Errors: no text, text that is not UTF-8, or more than Limits::max_text_bytes.
  Result<LmRun> run(std::string_view text);
  // Runs one more token against the cache: the last run grows by a token, a row of K and V per
  // layer, and a row of weights over every earlier token. Errors: the window is full.
  Result<LmRun> extend(int id);
  // The `k` likeliest next tokens after the last run or extension, likeliest first.
  std::vector<Prediction> predict(std::size_t k) const;

 private:
  std::unique_ptr<Decoder> model_;  // on the heap, so the cache's reference survives a move
  BytePairEncoder bpe_;
  int bos_ = -1;
  std::unique_ptr<KvCache> cache_;
  std::vector<float> last_logits_;
};

}  // namespace attn
