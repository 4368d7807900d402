#include "tokenizer.hpp"

#include "unicode.hpp"
#include "utf8.hpp"

namespace attn {

namespace {

// What a grapheme cluster does in tokenization, from its first code point (after any prepended
// mark, as the Arabic number sign U+0600 is before its digits).
enum class Kind {
  space,        // spaces, controls, invisible format characters, a mark with no letter: dropped
  punctuation,  // dropped, except apostrophes, hyphens and decimal points inside a word
  word,         // letters, marks and digits of scripts written with spaces between words
  unspaced,     // Han, kana, Thai, Lao, Khmer, Myanmar: no spaces, segmented against the lexicon
  symbol,       // emoji (ZWJ sequences, flags, keycaps), € ∑ ★ and the like: one token each
};

bool in(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

// The scripts written without spaces between words, by block: their words can only be found
// with a lexicon. Hangul is written with spaces, so it is not here.
bool is_unspaced(char32_t c) {
  static constexpr char32_t kBlocks[][2] = {
      {0x0E00, 0x0EFF},    // Thai, Lao
      {0x1000, 0x109F},    // Myanmar
      {0x1780, 0x17FF},    // Khmer
      {0x19E0, 0x19FF},    // Khmer symbols
      {0x2E80, 0x2FDF},    // CJK and Kangxi radicals
      {0x3005, 0x3007},    // 々 〆 〇
      {0x3021, 0x3029},    // Hangzhou numerals
      {0x3031, 0x3035},    // kana repeat marks
      {0x3038, 0x303C},    // 〸 〹 〺 〻 〼
      {0x3040, 0x30FF},    // hiragana, katakana
      {0x3100, 0x312F},    // bopomofo
      {0x31A0, 0x31BF},    // bopomofo extended
      {0x31F0, 0x31FF},    // katakana phonetic extensions
      {0x3400, 0x4DBF},    // Han extension A
      {0x4E00, 0x9FFF},    // Han
      {0xA9E0, 0xA9FF},    // Myanmar extended B
      {0xAA60, 0xAA7F},    // Myanmar extended A
      {0xF900, 0xFAFF},    // Han compatibility
      {0xFF66, 0xFF9F},    // halfwidth katakana
      {0x1AFF0, 0x1B16F},  // kana extended and supplement, small kana
      {0x20000, 0x323AF},  // Han extensions B–H
  };
  for (const auto& block : kBlocks) {
    if (in(c, block[0], block[1])) return true;
  }
  return false;
}

struct Cluster {
  std::size_t offset = 0, length = 0;              // bytes
  std::size_t utf16_offset = 0, utf16_length = 0;  // UTF-16 code units
  std::size_t code_points = 0;
  char32_t base = 0;  // the first code point that is not a prepended mark
  unicode::Properties base_properties;
  bool prepended = false;   // base is a prepended mark still: the next code point takes its place
  bool emoji_mark = false;  // it holds U+FE0F (emoji presentation) or U+20E3 (keycap)
  Kind kind = Kind::space;
};

Kind classify(const Cluster& c) {
  using unicode::GraphemeBreak;
  const GraphemeBreak b = c.base_properties.grapheme_break;
  // A cluster only starts with a mark at the start of the text or after a control character
  // (GB4, GB9): there is no letter for it to belong to.
  if (b == GraphemeBreak::extend || b == GraphemeBreak::spacing_mark || b == GraphemeBreak::zwj) {
    return Kind::space;
  }
  switch (c.base_properties.word) {
    case unicode::WordClass::space:
      return Kind::space;
    case unicode::WordClass::symbol:
      return Kind::symbol;
    case unicode::WordClass::punctuation:  // ‼️ and #️⃣ are emoji
      return c.emoji_mark ? Kind::symbol : Kind::punctuation;
    case unicode::WordClass::letter:  // so is the keycap 1️⃣: 1️⃣2️⃣ is two of them
      if (c.emoji_mark) return Kind::symbol;
      return is_unspaced(c.base) ? Kind::unspaced : Kind::word;
  }
  return Kind::symbol;
}

// Joins two word clusters into one word: "don't", "don’t", "e-mail", "3.14".
bool joins_word(const Cluster& before, const Cluster& joiner, const Cluster& after) {
  if (before.kind != Kind::word || after.kind != Kind::word || joiner.code_points != 1) {
    return false;
  }
  switch (joiner.base) {
    case U'\'':
    case U'\u2019':  // ’ right single quotation mark, the apostrophe of typeset text
    case U'-':
    case U'\u2010':  // ‐ hyphen
    case U'\u2011':  // ‑ non-breaking hyphen
      return true;
    case U'.':
      return before.base >= '0' && before.base <= '9' && after.base >= '0' && after.base <= '9';
    default:
      return false;
  }
}

// 0x0A, as printf's "0x%02X" writes it, without printf (see number_text() in common.hpp).
std::string hex_byte(unsigned char byte) {
  const char* hex = "0123456789ABCDEF";
  return std::string("0x") + hex[byte >> 4] + hex[byte & 15];
}

// Error::col is the UTF-16 position of the bad byte, as for every position the core reports.
Error invalid_utf8(std::string_view text, std::size_t offset) {
  const std::size_t column = utf8::count_utf16_units(text.substr(0, offset));
  return make_error(ErrorCode::parse_error, "text", -1, static_cast<long>(column),
                    "text: character " + std::to_string(column + 1) + " (byte " +
                        hex_byte(static_cast<unsigned char>(text[offset])) +
                        ") is not valid UTF-8; paste or type the text again as UTF-8.");
}

// Walks valid UTF-8 text once, decoding grapheme clusters only as far as it has read: text at
// the byte limit with more than Limits::max_tokens tokens stops early instead of first decoding a
// megabyte (wasm memory, once grown, never shrinks).
class Tokenizer {
 public:
  Tokenizer(std::string_view text, const Lexicon& lexicon) : text_(text), lexicon_(lexicon) {}

  Result<std::vector<Token>> run() {
    std::size_t i = 0;
    while (has(i) && !too_many_) {
      switch (clusters_[i].kind) {
        case Kind::word:
          i = word(i);
          break;
        case Kind::unspaced:
          i = unspaced_run(i);
          break;
        case Kind::symbol:
          emit(i, i + 1);
          ++i;
          break;
        case Kind::punctuation:
        case Kind::space:
          ++i;
          break;
      }
    }
    if (too_many_) {
      return make_error(ErrorCode::too_large, "text", -1, static_cast<long>(too_many_at_),
                        "text: more than " + std::to_string(Limits::max_tokens) +
                            " words; shorten the text to at most " +
                            std::to_string(Limits::max_tokens) + " words.");
    }
    return std::move(tokens_);
  }

 private:
  // Whether cluster `i` exists, decoding up to the start of the next one if needed (a cluster is
  // complete only when the next starts, or the text ends).
  bool has(std::size_t i) {
    while (clusters_.size() <= i + 1 && decoded_bytes_ < text_.size()) decode_one();
    return i < clusters_.size();
  }

  void decode_one() {
    const utf8::CodePoint cp = utf8::decode(text_, decoded_bytes_);  // valid: checked before
    const unicode::Properties p = unicode::properties(cp.value);
    if (breaker_.starts_cluster(p.grapheme_break)) {
      Cluster c;
      c.offset = decoded_bytes_;
      c.utf16_offset = decoded_units_;
      c.base = cp.value;
      c.base_properties = p;
      c.prepended = p.grapheme_break == unicode::GraphemeBreak::prepend;
      clusters_.push_back(c);
    } else if (clusters_.back().prepended) {
      Cluster& c = clusters_.back();
      c.base = cp.value;  // the letter after the prepended marks
      c.base_properties = p;
      c.prepended = p.grapheme_break == unicode::GraphemeBreak::prepend;
    }
    Cluster& c = clusters_.back();
    const std::size_t units = cp.value > 0xFFFF ? 2 : 1;
    c.length += cp.length;
    c.utf16_length += units;
    ++c.code_points;
    c.emoji_mark = c.emoji_mark || cp.value == 0xFE0F || cp.value == 0x20E3;
    c.kind = classify(c);
    decoded_bytes_ += cp.length;
    decoded_units_ += units;
  }

  bool is(std::size_t i, Kind kind) { return has(i) && clusters_[i].kind == kind; }

  // A run of word clusters, with the joiners between them.
  std::size_t word(std::size_t begin) {
    std::size_t end = begin + 1;
    for (;;) {
      if (is(end, Kind::word)) {
        ++end;
      } else if (has(end + 1) &&
                 joins_word(clusters_[end - 1], clusters_[end], clusters_[end + 1])) {
        end += 2;
      } else {
        break;
      }
    }
    emit(begin, end);
    return end;
  }

  // A run of clusters of scripts written without spaces, split by longest match against the
  // lexicon: at each position the longest lexicon word that starts there, else one cluster.
  std::size_t unspaced_run(std::size_t begin) {
    std::size_t run_end = begin;
    while (is(run_end, Kind::unspaced)) ++run_end;

    const std::size_t window = lexicon_.longest_word_bytes();
    for (std::size_t start = begin; start < run_end;) {
      std::size_t best = start + 1;  // one cluster
      for (std::size_t end = best + 1; end <= run_end; ++end) {
        if (bytes(start, end) > window) break;
        if (lexicon_.find(text_.substr(clusters_[start].offset, bytes(start, end)))) best = end;
      }
      emit(start, best);
      if (too_many_) break;
      start = best;
    }
    return run_end;
  }

  std::size_t bytes(std::size_t begin, std::size_t end) const {
    return clusters_[end - 1].offset + clusters_[end - 1].length - clusters_[begin].offset;
  }

  void emit(std::size_t begin, std::size_t end) {
    const Cluster &first = clusters_[begin], &last = clusters_[end - 1];
    if (tokens_.size() == Limits::max_tokens) {
      too_many_ = true;
      too_many_at_ = first.utf16_offset;
      return;
    }
    const std::size_t offset = first.offset, length = bytes(begin, end);
    tokens_.push_back(Token{std::string(text_.substr(offset, length)), offset, length,
                            first.utf16_offset,
                            last.utf16_offset + last.utf16_length - first.utf16_offset});
  }

  std::string_view text_;
  const Lexicon& lexicon_;
  unicode::GraphemeBreaker breaker_;
  std::vector<Cluster> clusters_;  // (clusters decoded so far)
  std::size_t decoded_bytes_ = 0, decoded_units_ = 0;
  std::vector<Token> tokens_;
  bool too_many_ = false;
  std::size_t too_many_at_ = 0;  // UTF-16 code units
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
    out.unknown[i] = known == nullptr;
    const std::vector<double> vector = known ? *known
                                       : lexicon.unknown_words() == Lexicon::Unknown::zero
                                           ? std::vector<double>(d, 0.0)
                                           : unknown_vector(word, d);
    for (std::size_t j = 0; j < d; ++j) out.vectors(i, j) = vector[j];
  }
  return out;
}

}  // namespace attn
