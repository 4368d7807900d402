#include <algorithm>

#include "bpe.hpp"
#include "json.hpp"

namespace attn {

namespace {

Error tokenizer_error(std::size_t byte, const std::string& message) {
  return make_error(ErrorCode::parse_error, "tokenizer", -1, static_cast<long>(byte),
                    "tokenizer: byte " + std::to_string(byte) + ": " + message);
}

const Json* field(const Json& object, std::string_view key, Json::Kind kind) {
  const Json* value = object.kind == Json::Kind::object ? object.find(key) : nullptr;
  return value && value->kind == kind ? value : nullptr;
}

// Why the pre-tokenizer does not split as GPT-2's does, or "".
std::string foreign_pretokenizer(const Json& pre) {
  const Json* type = field(pre, "type", Json::Kind::string);
  if (!type || type->text != "ByteLevel")
    return "its pre-tokenizer is \"" + (type ? type->text : std::string("?")) +
           "\", not GPT-2's \"ByteLevel\", so its tokens would not be the model's.";
  const Json* prefix = field(pre, "add_prefix_space", Json::Kind::boolean);
  if (prefix && prefix->boolean)
    return "its pre-tokenizer adds a space before the text (add_prefix_space), which GPT-2's "
           "does not.";
  const Json* regex = field(pre, "use_regex", Json::Kind::boolean);
  if (regex && !regex->boolean)
    return "its pre-tokenizer does not split the text as GPT-2's does (use_regex is false).";
  return {};
}

}  // namespace

Result<BytePairEncoder> load_tokenizer_json(std::string_view tokenizer_json) {
  Result<Json> root = parse_json(tokenizer_json, "tokenizer");
  if (!root) return root.error();
  const Json* model = field(*root, "model", Json::Kind::object);
  if (!model) return tokenizer_error(0, "it has no \"model\" object: it is not a tokenizer.json.");
  const Json* type = field(*model, "type", Json::Kind::string);
  if (type && type->text != "BPE")
    return tokenizer_error(type->offset, "its model is \"" + type->text +
                                             "\", not a byte-pair encoding (\"BPE\") as GPT-2's.");
  if (const Json* norm = root->find("normalizer"); norm && norm->kind != Json::Kind::null) {
    const Json* kind = field(*norm, "type", Json::Kind::string);
    return tokenizer_error(norm->offset, "it changes the text first (normalizer \"" +
                                             (kind ? kind->text : std::string("?")) +
                                             "\"), which GPT-2's tokenizer does not.");
  }
  if (const Json* pre = root->find("pre_tokenizer"); pre && pre->kind != Json::Kind::null)
    if (const std::string why = foreign_pretokenizer(*pre); !why.empty())
      return tokenizer_error(pre->offset, why);
  const Json* vocab = field(*model, "vocab", Json::Kind::object);
  const Json* merges = field(*model, "merges", Json::Kind::array);
  if (!vocab || !merges)
    return tokenizer_error(model->offset,
                           "its model has no \"vocab\" object or no \"merges\" list.");

  // The vocabulary's size: its tokens, and any added token with an id past them.
  std::vector<std::pair<std::string, const Json*>> tokens;
  std::vector<std::size_t> added_at;  // which of `tokens` came from added_tokens
  for (const auto& [token, id] : vocab->keys) tokens.emplace_back(token, &id);
  if (const Json* added = field(*root, "added_tokens", Json::Kind::array))
    for (const Json& a : added->items) {
      const Json* content = field(a, "content", Json::Kind::string);
      const Json* id = a.find("id");
      if (!content || !id)
        return tokenizer_error(a.offset, "an added token has no \"id\" or no \"content\".");
      tokens.emplace_back(content->text, id);
      added_at.push_back(tokens.size() - 1);
    }
  std::size_t size = vocab->keys.size();
  for (const auto& [token, id] : tokens)
    if (id->is_count() && id->number < 1e7)
      size = std::max(size, static_cast<std::size_t>(id->number) + 1);

  BytePairEncoder bpe;
  bpe.tokens_.resize(size);
  for (const auto& [token, id] : tokens)
    if (const std::string why = bpe.add_token(token, *id); !why.empty())
      return tokenizer_error(id->offset, why);
  for (std::size_t k : added_at)  // their ids were checked by add_token
    bpe.add_added(tokens[k].first, static_cast<int>(tokens[k].second->number));
  const auto hole = std::find(bpe.tokens_.begin(), bpe.tokens_.end(), std::string());
  if (hole != bpe.tokens_.end())
    return tokenizer_error(vocab->offset,
                           "no token has the id " + std::to_string(hole - bpe.tokens_.begin()) +
                               ", so its ids are not 0 to " + std::to_string(size - 1) + ".");
  std::size_t n = 0;
  for (const Json& m : merges->items) {
    ++n;
    std::string_view left, right;
    if (m.kind == Json::Kind::string) {
      const std::size_t space = m.text.find(' ');
      if (space != std::string::npos && space > 0 && space + 1 < m.text.size() &&
          m.text.find(' ', space + 1) == std::string::npos) {
        left = std::string_view(m.text).substr(0, space);
        right = std::string_view(m.text).substr(space + 1);
      }
    } else if (m.kind == Json::Kind::array && m.items.size() == 2 &&
               m.items[0].kind == Json::Kind::string && m.items[1].kind == Json::Kind::string &&
               !m.items[0].text.empty() && !m.items[1].text.empty()) {
      left = m.items[0].text;
      right = m.items[1].text;
    }
    const std::string where = "merge " + std::to_string(n) + " ";
    if (left.empty())
      return tokenizer_error(m.offset,
                             where + "is not two tokens (\"left right\" or [left, right]).");
    if (const std::string why = bpe.add_merge(left, right); !why.empty())
      return tokenizer_error(m.offset, where + why);
  }
  return bpe;
}

}  // namespace attn
