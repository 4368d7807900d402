#include "json.hpp"

#include <cstdlib>
#include <unordered_set>

#include "utf8.hpp"

namespace attn {

const Json* Json::find(std::string_view key) const {
  for (const auto& [k, v] : keys)
    if (k == key) return &v;
  return nullptr;
}

bool Json::is_count() const {
  if (kind != Kind::number || text.empty() || text.size() > 16) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return number <= 9007199254740992.0;  // 2^53: every whole number up to it is exact
}

namespace {

class Reader {
 public:
  Reader(std::string_view text, const std::string& input) : s_(text), input_(input) {}

  Result<Json> run() {
    Json out;
    if (!value(out, 0)) return error_;
    skip_space();
    if (at_ < s_.size()) return fail("unexpected text after the end of the JSON value");
    return out;
  }

 private:
  std::string_view s_;
  const std::string& input_;
  std::size_t at_ = 0;
  Error error_;

  bool fail_at(std::size_t at, const std::string& what) {
    error_ = make_error(ErrorCode::parse_error, input_, -1, static_cast<long>(at),
                        input_ + ": byte " + std::to_string(at) + ": " + what + ".");
    return false;
  }
  Error fail(const std::string& what) {
    fail_at(at_, what);
    return error_;
  }

  void skip_space() {
    while (at_ < s_.size() &&
           (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r'))
      ++at_;
  }

  bool literal(std::string_view word) {
    if (s_.substr(at_, word.size()) != word) return fail_at(at_, "expected a JSON value");
    at_ += word.size();
    return true;
  }

  bool value(Json& out, int depth) {
    if (depth > 64) return fail_at(at_, "nested deeper than 64 levels");
    skip_space();
    out.offset = at_;
    if (at_ >= s_.size()) return fail_at(at_, "the text ends where a JSON value should be");
    const char c = s_[at_];
    if (c == '{') return object(out, depth);
    if (c == '[') return array(out, depth);
    if (c == '"') {
      out.kind = Json::Kind::string;
      return string(out.text);
    }
    if (c == 't' || c == 'f') {
      out.kind = Json::Kind::boolean;
      out.boolean = c == 't';
      return literal(c == 't' ? "true" : "false");
    }
    if (c == 'n') return literal("null");
    return number(out);
  }

  bool object(Json& out, int depth) {
    out.kind = Json::Kind::object;
    ++at_;
    skip_space();
    if (at_ < s_.size() && s_[at_] == '}') return ++at_, true;
    std::unordered_set<std::string> seen;  // a tokenizer's vocabulary has 50,257 keys
    for (;;) {
      skip_space();
      const std::size_t key_at = at_;
      std::string key;
      if (at_ >= s_.size() || s_[at_] != '"') return fail_at(at_, "expected a key in quotes");
      if (!string(key)) return false;
      if (!seen.insert(key).second) return fail_at(key_at, "the key \"" + key + "\" appears twice");
      skip_space();
      if (at_ >= s_.size() || s_[at_] != ':') return fail_at(at_, "expected ':' after a key");
      ++at_;
      Json v;
      if (!value(v, depth + 1)) return false;
      out.keys.emplace_back(std::move(key), std::move(v));
      skip_space();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < s_.size() && s_[at_] == '}') return ++at_, true;
      return fail_at(at_, "expected ',' or '}' in an object");
    }
  }

  bool array(Json& out, int depth) {
    out.kind = Json::Kind::array;
    ++at_;
    skip_space();
    if (at_ < s_.size() && s_[at_] == ']') return ++at_, true;
    for (;;) {
      Json v;
      if (!value(v, depth + 1)) return false;
      out.items.push_back(std::move(v));
      skip_space();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < s_.size() && s_[at_] == ']') return ++at_, true;
      return fail_at(at_, "expected ',' or ']' in an array");
    }
  }

  bool hex4(unsigned& out) {
    if (s_.size() - at_ < 4) return fail_at(at_, "a \\u escape needs four hex digits");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[at_++];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return fail_at(at_ - 1, "a \\u escape needs four hex digits");
      out = out * 16 + static_cast<unsigned>(d);
    }
    return true;
  }

  bool string(std::string& out) {
    const std::size_t start = at_++;
    for (;;) {
      if (at_ >= s_.size()) return fail_at(start, "a string that never ends");
      const unsigned char c = static_cast<unsigned char>(s_[at_]);
      if (c == '"') return ++at_, true;
      if (c < 0x20) return fail_at(at_, "a control character inside a string");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++at_;
        continue;
      }
      if (++at_ >= s_.size()) return fail_at(start, "a string that never ends");
      const char e = s_[at_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const std::size_t escape = at_ - 2;
          unsigned cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return fail_at(escape, "a lone low surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            unsigned low = 0;
            if (s_.substr(at_, 2) != "\\u")
              return fail_at(escape, "a high surrogate without its low half");
            at_ += 2;
            if (!hex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF)
              return fail_at(escape, "a high surrogate without its low half");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          utf8::append(out, static_cast<char32_t>(cp));
          break;
        }
        default:
          return fail_at(at_ - 2, std::string("\\") + e + " is not a JSON escape");
      }
    }
  }

  bool number(Json& out) {
    const std::size_t start = at_;
    auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9') ++at_;
      return at_ - from;
    };
    if (at_ < s_.size() && s_[at_] == '-') ++at_;
    const std::size_t int_at = at_;
    const std::size_t n = digits();
    if (n == 0) return fail_at(start, "expected a JSON value");
    if (n > 1 && s_[int_at] == '0') return fail_at(start, "a number may not start with 0");
    if (at_ < s_.size() && s_[at_] == '.') {
      ++at_;
      if (digits() == 0) return fail_at(start, "a number needs digits after its '.'");
    }
    if (at_ < s_.size() && (s_[at_] == 'e' || s_[at_] == 'E')) {
      ++at_;
      if (at_ < s_.size() && (s_[at_] == '+' || s_[at_] == '-')) ++at_;
      if (digits() == 0) return fail_at(start, "a number needs digits in its exponent");
    }
    out.kind = Json::Kind::number;
    out.text = std::string(s_.substr(start, at_ - start));
    out.number = std::strtod(out.text.c_str(), nullptr);
    return true;
  }
};

}  // namespace

Result<Json> parse_json(std::string_view text, const std::string& input) {
  // RFC 8259: JSON exchanged between systems is UTF-8. Bytes that are not would reach the
  // tokenizer's vocabulary or a message as text that is not text.
  if (const std::size_t bad = utf8::find_invalid(text); bad != std::string_view::npos)
    return make_error(
        ErrorCode::parse_error, input, -1, static_cast<long>(bad),
        input + ": byte " + std::to_string(bad) + ": this is not UTF-8 text, as JSON must be.");
  return Reader(text, input).run();
}

std::string json_quote(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (b < 0x20) {
      out += "\\u00";
      out += hex[b >> 4];
      out += hex[b & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace attn
