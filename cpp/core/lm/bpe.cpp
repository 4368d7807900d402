#include "bpe.hpp"

#include <algorithm>

#include "json.hpp"
#include "utf8.hpp"

namespace attn {

namespace tables {
extern const std::uint32_t kPretokenRanges[];
extern const std::size_t kPretokenRangeCount;
}  // namespace tables

PretokenClass pretoken_class(char32_t c) {
  const std::uint32_t* begin = tables::kPretokenRanges;
  const std::uint32_t* end = begin + tables::kPretokenRangeCount;
  const std::uint32_t key = static_cast<std::uint32_t>(c) << 2 | 3;
  return static_cast<PretokenClass>(*(std::upper_bound(begin, end, key) - 1) & 3);
}

namespace {

struct Char {
  PretokenClass kind;
  std::size_t end;  // the byte after it
};

Char char_at(std::string_view text, std::size_t at) {
  const utf8::CodePoint cp = utf8::decode(text, at);
  return {pretoken_class(cp.value), at + std::max<std::size_t>(cp.length, 1)};
}

// A contraction GPT-2 keeps apart ('s 't 're 've 'm 'll 'd) at `at`: its length, or 0.
std::size_t contraction(std::string_view text, std::size_t at) {
  if (text[at] != '\'') return 0;
  for (std::string_view c : {"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"})
    if (text.substr(at, c.size()) == c) return c.size();
  return 0;
}

// The code point each byte is written as (GPT-2's bytes_to_unicode), as UTF-8.
const std::vector<std::string>& byte_chars() {
  static const std::vector<std::string> chars = [] {
    std::vector<std::string> out(256);
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable =
          (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      utf8::append(out[b], printable ? static_cast<char32_t>(b) : next++);
    }
    return out;
  }();
  return chars;
}

}  // namespace

std::vector<std::string_view> pretokenize(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = at + contraction(text, at);
    if (end == at) {
      const Char first = char_at(text, at);
      // " ?\p{L}+", " ?\p{N}+" and " ?[^\s\p{L}\p{N}]+": a run of one class, with one space before
      // it.
      Char c = first;
      if (text[at] == ' ' && first.end < text.size()) {
        const Char after = char_at(text, first.end);
        if (after.kind != PretokenClass::space) {
          c = after;
        }
      }
      if (c.kind != PretokenClass::space) {
        end = c.end;
        while (end < text.size()) {
          const Char more = char_at(text, end);
          if (more.kind != c.kind) break;
          end = more.end;
        }
      } else {
        // "\s+(?!\S)", else "\s+": a run of spaces, less its last when text follows (that one
        // goes with the word after it, if it is a " ").
        std::size_t last = at;
        end = first.end;
        while (end < text.size()) {
          const Char more = char_at(text, end);
          if (more.kind != PretokenClass::space) break;
          last = end;
          end = more.end;
        }
        if (end < text.size() && last > at) end = last;
      }
    }
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

std::vector<std::string> byte_symbols(std::string_view bytes) {
  std::vector<std::string> out;
  out.reserve(bytes.size());
  for (unsigned char b : bytes) out.push_back(byte_chars()[b]);
  return out;
}

std::vector<std::string> BytePairEncoder::piece_tokens(const std::string& piece) const {
  std::vector<std::string> word = byte_symbols(piece);
  while (word.size() > 1) {
    std::size_t best = ranks_.size(), at = 0;
    for (std::size_t i = 0; i + 1 < word.size(); ++i) {
      const auto r = ranks_.find(word[i] + " " + word[i + 1]);
      if (r != ranks_.end() && r->second < best) best = r->second, at = i;
    }
    if (best == ranks_.size()) break;
    const std::string left = word[at], right = word[at + 1];
    std::vector<std::string> merged;
    for (std::size_t i = 0; i < word.size(); ++i) {
      if (i + 1 < word.size() && word[i] == left && word[i + 1] == right) {
        merged.push_back(left + right);
        ++i;
      } else {
        merged.push_back(word[i]);
      }
    }
    word = std::move(merged);
  }
  return word;
}

Result<std::vector<int>> BytePairEncoder::encode(std::string_view text) const {
  const std::size_t bad = utf8::find_invalid(text);
  if (bad != std::string_view::npos)
    return make_error(ErrorCode::parse_error, "text", -1, static_cast<long>(bad),
                      "text: byte " + std::to_string(bad) + " is not UTF-8.");
  std::vector<int> out;
  for (std::size_t at = 0;;) {
    // The next added token, the longest where several start at one place (added_ is sorted so).
    std::size_t next = std::string_view::npos;
    const std::pair<std::string, int>* found = nullptr;
    for (const auto& a : added_)
      if (const std::size_t p = text.find(a.first, at); p < next) {
        next = p;
        found = &a;
      }
    if (auto e = encode_between(text.substr(at, found ? next - at : std::string_view::npos), out))
      return *e;
    if (!found) return out;
    out.push_back(found->second);
    at = next + found->first.size();
  }
}

std::optional<Error> BytePairEncoder::encode_between(std::string_view text,
                                                     std::vector<int>& out) const {
  for (std::string_view piece : pretokenize(text))
    for (const std::string& token : piece_tokens(std::string(piece))) {
      const auto id = ids_.find(token);
      if (id == ids_.end())
        return make_error(ErrorCode::bad_argument, "vocab", -1, -1,
                          "vocab: it has no token \"" + token + "\", which its merges make.");
      out.push_back(id->second);
    }
  return std::nullopt;
}

void BytePairEncoder::add_added(std::string text, int id) {
  if (text.empty()) return;  // nothing to find
  const auto longer = [](const std::pair<std::string, int>& a,
                         const std::pair<std::string, int>& b) {
    return a.first.size() > b.first.size();
  };
  const std::pair<std::string, int> item{std::move(text), id};
  added_.insert(std::upper_bound(added_.begin(), added_.end(), item, longer), item);
}

std::string BytePairEncoder::token_bytes(int id) const {
  static const std::unordered_map<std::string, char> byte_of = [] {
    std::unordered_map<std::string, char> m;
    for (int b = 0; b < 256; ++b) m[byte_chars()[b]] = static_cast<char>(b);
    return m;
  }();
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) return {};
  std::string out;
  const std::string& t = tokens_[id];
  for (std::size_t at = 0; at < t.size();) {
    const utf8::CodePoint cp = utf8::decode(t, at);
    const std::size_t n = std::max<std::size_t>(cp.length, 1);
    const auto b = byte_of.find(t.substr(at, n));
    if (b != byte_of.end()) out += b->second;
    at += n;
  }
  return out;
}

std::string BytePairEncoder::decode(const std::vector<int>& ids) const {
  std::string out;
  for (int id : ids) out += token_bytes(id);
  return out;
}

namespace {

Error bpe_error(const std::string& input, long line, std::size_t byte, const std::string& message) {
  return make_error(ErrorCode::parse_error, input, line, line < 0 ? static_cast<long>(byte) : -1,
                    message);
}

}  // namespace

std::string BytePairEncoder::add_token(const std::string& token, const Json& id) {
  if (!id.is_count() || id.number >= static_cast<double>(tokens_.size()))
    return "the id of \"" + token + "\" is not a whole number below " +
           std::to_string(tokens_.size()) + ", the vocabulary's size.";
  const auto i = static_cast<std::size_t>(id.number);
  if (tokens_[i] == token) return {};  // an added token the vocabulary already holds
  if (!tokens_[i].empty())
    return "\"" + token + "\" and \"" + tokens_[i] + "\" share the id " + std::to_string(i) + ".";
  tokens_[i] = token;
  ids_[token] = static_cast<int>(i);
  return {};
}

std::string BytePairEncoder::add_merge(std::string_view left, std::string_view right) {
  const std::string joined = std::string(left) + std::string(right);
  if (!ids_.count(joined)) return "makes \"" + joined + "\", which the vocabulary lacks.";
  ranks_.emplace(std::string(left) + " " + std::string(right), ranks_.size());
  return {};
}

Result<BytePairEncoder> load_bpe(std::string_view vocab_json, std::string_view merges_txt) {
  Result<Json> vocab = parse_json(vocab_json, "vocab");
  if (!vocab) return vocab.error();
  if (vocab->kind != Json::Kind::object)
    return bpe_error("vocab", -1, 0,
                     "vocab: byte 0: it is not a JSON object of tokens and their ids.");
  BytePairEncoder bpe;
  bpe.tokens_.resize(vocab->keys.size());
  for (const auto& [token, id] : vocab->keys)
    if (const std::string why = bpe.add_token(token, id); !why.empty())
      return bpe_error("vocab", -1, id.offset,
                       "vocab: byte " + std::to_string(id.offset) + ": " + why);
  std::size_t line = 0, at = 0;
  while (at < merges_txt.size()) {
    std::size_t end = merges_txt.find('\n', at);
    if (end == std::string_view::npos) end = merges_txt.size();
    std::string_view text = merges_txt.substr(at, end - at);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    ++line;
    at = end + 1;
    if (text.empty() || (line == 1 && text.rfind("#version", 0) == 0)) continue;
    const std::size_t space = text.find(' ');
    const std::string where = "merges: line " + std::to_string(line) + " ";
    if (space == std::string_view::npos || space == 0 || space + 1 == text.size() ||
        text.find(' ', space + 1) != std::string_view::npos)
      return bpe_error("merges", static_cast<long>(line - 1), 0,
                       where + "is not two tokens with one space between them.");
    if (const std::string why = bpe.add_merge(text.substr(0, space), text.substr(space + 1));
        !why.empty())
      return bpe_error("merges", static_cast<long>(line - 1), 0, where + why);
  }
  // A vocab.json says nothing of added tokens; GPT-2's <|endoftext|> is one, and so is any token
  // written as it is.
  for (std::size_t id = 0; id < bpe.tokens_.size(); ++id) {
    const std::string& t = bpe.tokens_[id];
    if (t.size() > 4 && t.rfind("<|", 0) == 0 && t.compare(t.size() - 2, 2, "|>") == 0)
      bpe.add_added(t, static_cast<int>(id));
  }
  return bpe;
}

}  // namespace attn
