#include "tokenizer.hpp"

#include "utf8.hpp"

namespace attn {

namespace {

// What a code point does in tokenization. The ranges are the Unicode blocks a learner is likely
// to type or paste; anything not listed is `other` and becomes a token of its own.
enum class CharClass {
  separator,    // whitespace, invisible format characters and controls: dropped
  punctuation,  // dropped, except apostrophes, hyphens and decimal points inside a word
  word,         // letters and digits of scripts written with spaces between words
  cjk,          // Han, kana, hangul: written without spaces, segmented against the lexicon
  extend,       // combining marks, variation selectors, skin tones, tags: belong to the previous
  zwj,          // U+200D ZERO WIDTH JOINER: glues emoji into one (👩‍💻)
  other,        // emoji, symbols, other scripts: one token each
};

bool in(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

CharClass classify(char32_t c) {
  if (c < 0x80) {
    if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      return CharClass::word;
    }
    if (c <= 0x20 || c == 0x7F) return CharClass::separator;
    return CharClass::punctuation;
  }
  if (in(c, 0x80, 0xA0) || c == 0xAD) return CharClass::separator;  // C1, NBSP, soft hyphen
  if (c == 0xAA || c == 0xB5 || c == 0xBA) return CharClass::word;  // ª µ º
  if (in(c, 0xA1, 0xBF) || c == 0xD7 || c == 0xF7) return CharClass::punctuation;  // ¡ « » · × ÷
  if (in(c, 0xC0, 0x24F)) return CharClass::word;               // Latin-1 letters, Latin Ext.
  if (in(c, 0x250, 0x2AF)) return CharClass::word;              // IPA
  if (in(c, 0x300, 0x36F)) return CharClass::extend;            // combining diacritics
  if (c == 0x37E || c == 0x387) return CharClass::punctuation;  // Greek ; and ·
  if (in(c, 0x370, 0x3FF) || in(c, 0x400, 0x52F)) return CharClass::word;  // Greek, Cyrillic
  if (in(c, 0x1100, 0x11FF)) return CharClass::cjk;                        // Hangul jamo
  if (c == 0x1680) return CharClass::separator;
  if (in(c, 0x1AB0, 0x1AFF) || in(c, 0x1DC0, 0x1DFF)) return CharClass::extend;
  if (in(c, 0x1E00, 0x1EFF)) return CharClass::word;  // Latin Extended Additional
  if (c == 0x200D) return CharClass::zwj;
  if (in(c, 0x2000, 0x200F) || in(c, 0x2028, 0x202F) || in(c, 0x205F, 0x206F)) {
    return CharClass::separator;  // spaces, zero-width space/joiners, direction marks
  }
  if (in(c, 0x2010, 0x2027) || in(c, 0x2030, 0x205E)) return CharClass::punctuation;  // – “ ” …
  if (in(c, 0x20D0, 0x20FF)) return CharClass::extend;  // combining marks for symbols (keycap)
  if (in(c, 0x2E00, 0x2E7F)) return CharClass::punctuation;
  if (c == 0x3000) return CharClass::separator;  // ideographic space
  if (in(c, 0x3001, 0x3003) || in(c, 0x3008, 0x3011) || in(c, 0x3014, 0x301F) || c == 0x3030 ||
      c == 0x303D || c == 0x30A0 || c == 0x30FB) {
    return CharClass::punctuation;  // 、。〃 《》「」【】 〜 ゠ ・
  }
  if (in(c, 0x3005, 0x3007) || in(c, 0x3021, 0x3029) || in(c, 0x3031, 0x3035) ||
      in(c, 0x3038, 0x303C) || in(c, 0x3040, 0x30FF) || in(c, 0x3100, 0x31BF) ||
      in(c, 0x31F0, 0x31FF) || in(c, 0x3400, 0x4DBF) || in(c, 0x4E00, 0x9FFF) ||
      in(c, 0xA960, 0xA97F) || in(c, 0xAC00, 0xD7FF) || in(c, 0xF900, 0xFAFF)) {
    return CharClass::cjk;  // 々〇, kana, bopomofo, hangul, Han (ext. A, URO, compatibility)
  }
  if (in(c, 0xFE00, 0xFE0F) || in(c, 0xFE20, 0xFE2F)) return CharClass::extend;  // VS1–16
  if (in(c, 0xFE10, 0xFE19) || in(c, 0xFE30, 0xFE6B)) return CharClass::punctuation;
  if (c == 0xFEFF) return CharClass::separator;  // byte order mark
  if (in(c, 0xFF10, 0xFF19) || in(c, 0xFF21, 0xFF3A) || in(c, 0xFF41, 0xFF5A)) {
    return CharClass::word;  // fullwidth digits and letters, as a Chinese input method types them
  }
  if (in(c, 0xFF01, 0xFF65)) return CharClass::punctuation;  // fullwidth ，！？（）：； and ｡｢｣､･
  if (in(c, 0xFF66, 0xFFDC)) return CharClass::cjk;       // halfwidth katakana and hangul
  if (in(c, 0x1F3FB, 0x1F3FF)) return CharClass::extend;  // skin-tone modifiers
  if (in(c, 0x20000, 0x3134F)) return CharClass::cjk;     // Han extensions B–G, compatibility
  if (in(c, 0xE0020, 0xE007F) || in(c, 0xE0100, 0xE01EF)) return CharClass::extend;  // tags, VS
  return CharClass::other;
}

bool is_regional_indicator(char32_t c) { return in(c, 0x1F1E6, 0x1F1FF); }  // flag halves

struct Char {
  char32_t value;
  CharClass kind;
  std::size_t offset;  // bytes
  std::size_t length;  // bytes
};

// Joins two word characters into one word: "don't", "don’t", "e-mail", "3.14".
bool joins_word(const Char& before, const Char& joiner, const Char& after) {
  if (before.kind != CharClass::word || after.kind != CharClass::word) return false;
  switch (joiner.value) {
    case U'\'':
    case U'\u2019':  // ’ right single quotation mark, the apostrophe of typeset text
    case U'-':
    case U'\u2010':  // ‐ hyphen
    case U'\u2011':  // ‑ non-breaking hyphen
      return true;
    case U'.':
      return before.value >= '0' && before.value <= '9' && after.value >= '0' && after.value <= '9';
    default:
      return false;
  }
}

// 0x0A, as printf's "0x%02X" writes it, without printf (see number_text() in common.hpp).
std::string hex_byte(unsigned char byte) {
  const char* hex = "0123456789ABCDEF";
  return std::string("0x") + hex[byte >> 4] + hex[byte & 15];
}

Error invalid_utf8(std::string_view text, std::size_t offset) {
  return make_error(ErrorCode::parse_error, "text", -1, static_cast<long>(offset),
                    "text: byte " + std::to_string(offset + 1) + " (" +
                        hex_byte(static_cast<unsigned char>(text[offset])) +
                        ") is not valid UTF-8; paste or type the text again as UTF-8.");
}

// Walks valid UTF-8 text once, decoding code points only as far as it has read: text at the
// byte limit with more than Limits::max_tokens tokens stops early instead of first decoding a
// megabyte (wasm memory, once grown, never shrinks).
class Tokenizer {
 public:
  Tokenizer(std::string_view text, const Lexicon& lexicon) : text_(text), lexicon_(lexicon) {}

  Result<std::vector<Token>> run() {
    std::size_t i = 0;
    while (has(i) && !too_many_) {
      switch (chars_[i].kind) {
        case CharClass::word:
          i = word(i);
          break;
        case CharClass::cjk:
          i = cjk_run(i);
          break;
        case CharClass::other:
          i = other(i);
          break;
        case CharClass::punctuation:
          // Punctuation is dropped, unless an emoji selector or keycap makes it an emoji (‼️).
          i = is_emoji_mark(i + 1) ? other(i) : i + 1;
          break;
        // Separators are dropped, and so is a mark with nothing before it to attach to (a stray
        // variation selector or joiner after a space).
        default:
          ++i;
          break;
      }
    }
    if (too_many_) {
      return make_error(ErrorCode::too_large, "text", -1, static_cast<long>(too_many_offset_),
                        "text: more than " + std::to_string(Limits::max_tokens) +
                            " words; shorten the text to at most " +
                            std::to_string(Limits::max_tokens) + " words.");
    }
    return std::move(tokens_);
  }

 private:
  // Whether code point `i` exists, decoding up to it if needed.
  bool has(std::size_t i) {
    while (chars_.size() <= i && decoded_bytes_ < text_.size()) {
      const utf8::CodePoint cp = utf8::decode(text_, decoded_bytes_);  // valid: checked before
      chars_.push_back(Char{cp.value, classify(cp.value), decoded_bytes_, cp.length});
      decoded_bytes_ += cp.length;
    }
    return i < chars_.size();
  }

  bool is(std::size_t i, CharClass kind) { return has(i) && chars_[i].kind == kind; }

  bool is_emoji_mark(std::size_t i) {
    return is(i, CharClass::extend) && (chars_[i].value == 0xFE0F || chars_[i].value == 0x20E3);
  }

  // The end of the marks (combining, variation selectors, skin tones) that follow `i`.
  std::size_t skip_marks(std::size_t i) {
    while (is(i, CharClass::extend)) ++i;
    return i;
  }

  // A run of word characters, with the marks on them and the joiners between them.
  std::size_t word(std::size_t begin) {
    std::size_t last_letter = begin;  // the last word character, ignoring marks on it
    std::size_t end = skip_marks(begin + 1);
    for (;;) {
      if (is(end, CharClass::word)) {
        last_letter = end;
        end = skip_marks(end + 1);
      } else if (has(end + 1) && joins_word(chars_[last_letter], chars_[end], chars_[end + 1])) {
        last_letter = end + 1;
        end = skip_marks(end + 2);
      } else {
        break;
      }
    }
    emit(begin, end);
    return end;
  }

  // A run of CJK characters, split by longest match against the lexicon: at each position the
  // longest lexicon word that starts there, else one character (with its marks).
  std::size_t cjk_run(std::size_t begin) {
    std::size_t run_end = begin;
    while (is(run_end, CharClass::cjk)) run_end = skip_marks(run_end + 1);

    const std::size_t window = lexicon_.longest_word_bytes();
    for (std::size_t start = begin; start < run_end;) {
      std::size_t best = skip_marks(start + 1);  // one character
      for (std::size_t end = best; end < run_end;) {
        end = skip_marks(end + 1);
        if (bytes(start, end) > window) break;
        if (lexicon_.find(text_.substr(chars_[start].offset, bytes(start, end)))) best = end;
      }
      emit(start, best);
      if (too_many_) break;
      start = best;
    }
    return run_end;
  }

  // One emoji or symbol, kept whole: its marks, a flag's second half, and ZWJ-joined emoji.
  std::size_t other(std::size_t begin) {
    std::size_t end = begin + 1;
    if (is_regional_indicator(chars_[begin].value) && has(end) &&
        is_regional_indicator(chars_[end].value)) {
      ++end;  // 🇨 + 🇳 = 🇨🇳
    }
    end = skip_marks(end);
    while (is(end, CharClass::zwj) && is(end + 1, CharClass::other)) end = skip_marks(end + 2);
    emit(begin, end);
    return end;
  }

  std::size_t bytes(std::size_t begin, std::size_t end) const {
    return chars_[end - 1].offset + chars_[end - 1].length - chars_[begin].offset;
  }

  void emit(std::size_t begin, std::size_t end) {
    if (tokens_.size() == Limits::max_tokens) {
      too_many_ = true;
      too_many_offset_ = chars_[begin].offset;
      return;
    }
    const std::size_t offset = chars_[begin].offset, length = bytes(begin, end);
    tokens_.push_back(Token{std::string(text_.substr(offset, length)), offset, length});
  }

  std::string_view text_;
  const Lexicon& lexicon_;
  std::vector<Char> chars_;  // (code points decoded so far)
  std::size_t decoded_bytes_ = 0;
  std::vector<Token> tokens_;
  bool too_many_ = false;
  std::size_t too_many_offset_ = 0;
};

}  // namespace

Result<std::vector<Token>> tokenize(std::string_view text, const Lexicon& lexicon) {
  if (text.size() > Limits::max_text_bytes) {
    return make_error(ErrorCode::too_large, "text", -1, -1,
                      "text: " + std::to_string(text.size()) + " bytes is above the limit of " +
                          std::to_string(Limits::max_text_bytes) + " bytes; shorten the text.");
  }
  const std::size_t invalid = utf8::find_invalid(text);
  if (invalid != std::string_view::npos) return invalid_utf8(text, invalid);
  return Tokenizer(text, lexicon).run();
}

Result<Embedding> embed(std::string_view text, const Lexicon& lexicon) {
  Result<std::vector<Token>> tokens = tokenize(text, lexicon);
  if (!tokens) return tokens.error();
  const std::size_t n = tokens->size(), d = lexicon.dims();
  if (n == 0) {
    return make_error(ErrorCode::empty_input, "text", -1, -1,
                      "Type some words to see their vectors: the text has no words in it yet.");
  }
  if (d == 0) {
    return make_error(ErrorCode::bad_dimension, "lexicon", -1, -1,
                      "lexicon: it has no features, so its words have no vectors.");
  }
  if (auto error = check_size(n, d, "text")) return *error;

  Embedding out;
  out.tokens = std::move(tokens).value();
  out.features = lexicon.features();
  out.vectors = Matrix::from_shape({n, d});  // (n, d)
  out.unknown.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& word = out.tokens[i].text;
    const std::vector<double>* known = lexicon.find(word);
    const std::vector<double> vector = known ? *known : unknown_vector(word, d);
    out.unknown[i] = known == nullptr;
    for (std::size_t j = 0; j < d; ++j) out.vectors(i, j) = vector[j];
  }
  return out;
}

}  // namespace attn
