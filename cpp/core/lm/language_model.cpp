#include "language_model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "llama.hpp"
#include "model_config_json.hpp"
#include "nn.hpp"
#include "safetensors.hpp"
#include "sizes.hpp"
#include "utf8.hpp"

namespace attn {

namespace {

constexpr const char* kEndOfText = "<|endoftext|>";

Error model_error(const std::string& message) {
  return make_error(ErrorCode::parse_error, "model", -1, -1, "model: " + message);
}

// Every weight is finite (load_gpt2 checked), but their products need not be: a file of huge
// weights gives logits of ±∞ or NaN, which would reach the page as probabilities that are not
// numbers. Said instead, as an overflow.
std::optional<Error> overflowed(const std::vector<float>& logits) {
  for (float z : logits)
    if (!std::isfinite(z))
      return make_error(ErrorCode::not_finite, "model", -1, -1,
                        "model: on this text its numbers grow past what float32 can hold, so "
                        "its predictions are not numbers: its weights are too large to run "
                        "(damaged, or not trained).");
  return std::nullopt;
}

}  // namespace

namespace {

// The tokenizer from whichever files brought one, else from the model file's metadata.
Result<BytePairEncoder> tokenizer_of(const ModelFiles& files, const SafeTensors& file) {
  if (!files.tokenizer_json.empty()) return load_tokenizer_json(files.tokenizer_json);
  if (!files.vocab_json.empty() || !files.merges_txt.empty()) {
    if (files.vocab_json.empty() || files.merges_txt.empty())
      return model_error(std::string("its tokenizer needs both vocab.json and merges.txt; ") +
                         (files.vocab_json.empty() ? "vocab.json" : "merges.txt") + " is missing.");
    return load_bpe(files.vocab_json, files.merges_txt);
  }
  const std::string* vocab = file.meta("vocab.json");
  const std::string* merges = file.meta("merges.txt");
  if (!vocab || !merges)
    return model_error(
        "it has no tokenizer: give its tokenizer.json, or its vocab.json and merges.txt, so that "
        "its tokens can be read from text.");
  return load_bpe(*vocab, *merges);
}

}  // namespace

Result<LanguageModel> LanguageModel::open(std::string_view bytes, std::size_t heads) {
  const std::string config = heads ? "{\"n_head\": " + std::to_string(heads) + "}" : "";
  return open(ModelFiles{bytes, {}, {}, {}, config});
}

namespace {

struct Checked {
  Decoder model;
  BytePairEncoder bpe;
  int bos = -1;
};

// Everything open() checks; `read` false reads no tensor (`file` from a header alone).
Result<Checked> check(const ModelFiles& files, const SafeTensors& file, bool read) {
  ModelConfigJson said;
  if (!files.config_json.empty()) {
    Result<ModelConfigJson> config = read_model_config(files.config_json);
    if (!config) return config.error();
    said = *config;
  }
  Result<BytePairEncoder> bpe = tokenizer_of(files, file);
  if (!bpe) return bpe.error();
  const bool llama = is_llama(file);
  if (llama && said.family != Family::llama)
    return model_error(
        "it is a Llama-family model (its tensors are named model.layers.N.self_attn.q_proj …), "
        "whose heads, context and rotary positions only its config.json says: give its "
        "config.json with it.");
  if (!llama && said.family == Family::llama)
    return make_error(ErrorCode::shape_mismatch, "config", -1, -1,
                      "config.json says it is a Llama-family model, but the model file has no "
                      "Llama-family layers (model.layers.0.self_attn.q_proj …): they do not "
                      "belong together.");
  Result<Decoder> model =
      llama ? load_llama(file, said.llama(), read) : load_gpt2(file, said.heads, read);
  if (!model) return model.error();
  if (Result<bool> fits = check_model_config(said, model->config); !fits) return fits.error();
  if (bpe->size() != model->config.vocab)
    return model_error("its tokenizer has " + std::to_string(bpe->size()) +
                       " tokens, but its embedding has " + std::to_string(model->config.vocab) +
                       " rows: they do not belong together.");
  Checked out{std::move(model).value(), std::move(bpe).value(), -1};
  for (std::size_t id = out.bpe.size(); id-- > 0;)
    if (out.bpe.token_bytes(static_cast<int>(id)) == kEndOfText) out.bos = static_cast<int>(id);
  if (out.bos < 0) return model_error("its tokenizer has no <|endoftext|> token to begin with.");
  return out;
}

}  // namespace

Result<ModelPlan> LanguageModel::plan(const ModelFiles& files, std::size_t file_size) {
  Result<SafeTensors> file = read_safetensors_header(files.model, file_size);
  if (!file) return file.error();
  Result<Checked> checked = check(files, *file, false);
  if (!checked) return checked.error();
  ModelPlan out{checked->model.config, 0};
  for (const TensorEntry& t : file->tensors) {
    // Each tensor's float32 bytes are a size (read_safetensors_header checked); their sum may not
    // be.
    const std::optional<std::size_t> sum = add_sizes(out.weight_bytes, t.count() * sizeof(float));
    if (!sum)
      return make_error(ErrorCode::too_large, "model", -1, -1,
                        "model: its weights, as float32, take more than " +
                            bytes_text(static_cast<double>(kMaxSize)) +
                            ", more than this page can hold.");
    out.weight_bytes = *sum;
  }
  return out;
}

Result<LanguageModel> LanguageModel::open(const ModelFiles& files) {
  Result<SafeTensors> file = read_safetensors(files.model);
  if (!file) return file.error();
  Result<Checked> checked = check(files, *file, true);
  if (!checked) return checked.error();
  LanguageModel lm;
  lm.model_ = std::make_unique<Decoder>(std::move(checked->model));
  lm.bpe_ = std::move(checked->bpe);
  lm.bos_ = checked->bos;
  lm.cache_ = std::make_unique<KvCache>(*lm.model_);
  return lm;
}

LmToken LanguageModel::token(int id) const {
  LmToken t;
  t.id = id;
  t.text = bpe_.token_bytes(id);
  t.partial = id != bos_ && utf8::find_invalid(t.text) != std::string::npos;
  return t;
}

Result<std::vector<LmToken>> LanguageModel::tokenize(std::string_view text) const {
  Result<std::vector<int>> ids = bpe_.encode(text);
  if (!ids) return ids.error();
  std::vector<LmToken> out;
  for (int id : *ids) out.push_back(token(id));
  return out;
}

std::size_t LanguageModel::window() const {
  const DecoderConfig& c = config();
  const std::size_t heads = std::max<std::size_t>(1, c.layers * c.heads);
  const auto most = static_cast<std::size_t>(
      std::floor(std::sqrt(static_cast<double>(kMaxRunWeights) / static_cast<double>(heads))));
  return std::max<std::size_t>(2, std::min(c.context, most));
}

Result<LmRun> LanguageModel::run(std::string_view text) {
  if (text.empty())
    return make_error(ErrorCode::empty_input, "text", -1, -1,
                      "text: there is no text to read; give the model a word or a sentence.");
  if (Result<std::size_t> size =
          checked_bytes(static_cast<double>(text.size()), Limits::max_text_bytes, "text",
                        "the text", "a run reads");
      !size)
    return size.error();
  Result<std::vector<LmToken>> tokens = tokenize(text);
  if (!tokens) return tokens.error();
  LmRun out;
  const std::size_t room = window() - 1;
  if (tokens->size() > room) out.dropped = tokens->size() - room;
  out.tokens.push_back(token(bos_));
  out.tokens.insert(out.tokens.end(), tokens->begin() + static_cast<long>(out.dropped),
                    tokens->end());
  std::vector<int> ids;
  for (const LmToken& t : out.tokens) ids.push_back(t.id);
  cache_ = std::make_unique<KvCache>(*model_);
  Result<DecoderSteps> steps = cache_->append(ids, true);
  if (!steps) return steps.error();
  if (auto e = overflowed(steps->logits)) {
    cache_ = std::make_unique<KvCache>(*model_);
    last_logits_.clear();
    return *e;
  }
  out.steps = std::move(steps).value();
  const std::size_t V = config().vocab;
  for (std::size_t i = 1; i < out.tokens.size(); ++i)
    out.tokens[i].bits = surprisal_bits(out.steps.logits.data() + (i - 1) * V, V, out.tokens[i].id);
  last_logits_.assign(out.steps.logits.end() - static_cast<long>(V), out.steps.logits.end());
  return out;
}

Result<LmRun> LanguageModel::extend(int id) {
  LmRun out;
  if (cache_->size() >= window())
    return make_error(ErrorCode::too_large, "tokens", -1, -1,
                      window() < config().context
                          ? "tokens: this page shows at most " + std::to_string(window()) +
                                " tokens of this model (every head's weights for each), and the "
                                "run has them all."
                          : "tokens: the model's context of " + std::to_string(config().context) +
                                " tokens is full.");
  Result<DecoderSteps> steps = cache_->append({id}, true);
  if (!steps) return steps.error();
  if (auto e = overflowed(steps->logits)) return *e;
  out.tokens.push_back(token(id));
  if (!last_logits_.empty())
    out.tokens[0].bits = surprisal_bits(last_logits_.data(), last_logits_.size(), id);
  out.steps = std::move(steps).value();
  last_logits_ = out.steps.logits;
  return out;
}

std::vector<Prediction> LanguageModel::predict(std::size_t k) const {
  const std::vector<float>& z = last_logits_;
  if (z.empty()) return {};
  const nn::LogSumExp lse = nn::log_sum_exp(z.data(), z.size());
  std::vector<int> order(z.size());
  std::iota(order.begin(), order.end(), 0);
  k = std::min(k, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<long>(k), order.end(),
                    [&](int a, int b) { return z[a] > z[b] || (z[a] == z[b] && a < b); });
  std::vector<Prediction> out;
  for (std::size_t i = 0; i < k; ++i) {
    const LmToken t = token(order[i]);
    out.push_back({t.id, t.text, t.partial, lse.probability(z[order[i]])});
  }
  return out;
}

}  // namespace attn
