#include "language_model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "safetensors.hpp"
#include "utf8.hpp"

namespace attn {

namespace {

constexpr const char* kEndOfText = "<|endoftext|>";

Error model_error(const std::string& message) {
  return make_error(ErrorCode::parse_error, "model", -1, -1, "model: " + message);
}

}  // namespace

Result<LanguageModel> LanguageModel::open(std::string_view bytes, std::size_t heads) {
  Result<SafeTensors> file = read_safetensors(bytes);
  if (!file) return file.error();
  const std::string* vocab = file->meta("vocab.json");
  const std::string* merges = file->meta("merges.txt");
  if (!vocab || !merges)
    return model_error(
        "its metadata has no tokenizer (\"vocab.json\" and \"merges.txt\"), so its tokens cannot "
        "be read from text.");
  Result<Gpt2> model = load_gpt2(*file, heads);
  if (!model) return model.error();
  Result<BytePairEncoder> bpe = load_bpe(*vocab, *merges);
  if (!bpe) return bpe.error();
  if (bpe->size() != model->config.vocab)
    return model_error("its tokenizer has " + std::to_string(bpe->size()) +
                       " tokens, but its embedding has " + std::to_string(model->config.vocab) +
                       " rows: they do not belong together.");
  LanguageModel lm;
  lm.model_ = std::make_unique<Gpt2>(std::move(model).value());
  lm.bpe_ = std::move(bpe).value();
  for (std::size_t id = lm.bpe_.size(); id-- > 0;)
    if (lm.bpe_.token_bytes(static_cast<int>(id)) == kEndOfText) lm.bos_ = static_cast<int>(id);
  if (lm.bos_ < 0) return model_error("its tokenizer has no <|endoftext|> token to begin with.");
  lm.cache_ = std::make_unique<Gpt2Cache>(*lm.model_);
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

Result<LmRun> LanguageModel::run(std::string_view text) {
  Result<std::vector<LmToken>> tokens = tokenize(text);
  if (!tokens) return tokens.error();
  LmRun out;
  const std::size_t room = config().context - 1;
  if (tokens->size() > room) out.dropped = tokens->size() - room;
  out.tokens.push_back(token(bos_));
  out.tokens.insert(out.tokens.end(), tokens->begin() + static_cast<long>(out.dropped),
                    tokens->end());
  std::vector<int> ids;
  for (const LmToken& t : out.tokens) ids.push_back(t.id);
  cache_ = std::make_unique<Gpt2Cache>(*model_);
  Result<Gpt2Steps> steps = cache_->append(ids, true);
  if (!steps) return steps.error();
  out.steps = std::move(steps).value();
  const std::size_t V = config().vocab;
  for (std::size_t i = 1; i < out.tokens.size(); ++i)
    out.tokens[i].bits = surprisal_bits(out.steps.logits.data() + (i - 1) * V, V, out.tokens[i].id);
  last_logits_.assign(out.steps.logits.end() - static_cast<long>(V), out.steps.logits.end());
  return out;
}

Result<LmRun> LanguageModel::extend(int id) {
  LmRun out;
  if (cache_->size() >= config().context)
    return make_error(
        ErrorCode::too_large, "tokens", -1, -1,
        "tokens: the model's context of " + std::to_string(config().context) + " tokens is full.");
  Result<Gpt2Steps> steps = cache_->append({id}, true);
  if (!steps) return steps.error();
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
  const float top = *std::max_element(z.begin(), z.end());
  double total = 0;
  for (float v : z) total += std::exp(static_cast<double>(v - top));
  std::vector<int> order(z.size());
  std::iota(order.begin(), order.end(), 0);
  k = std::min(k, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<long>(k), order.end(),
                    [&](int a, int b) { return z[a] > z[b] || (z[a] == z[b] && a < b); });
  std::vector<Prediction> out;
  for (std::size_t i = 0; i < k; ++i) {
    const LmToken t = token(order[i]);
    out.push_back(
        {t.id, t.text, t.partial, std::exp(static_cast<double>(z[order[i]] - top)) / total});
  }
  return out;
}

}  // namespace attn
