// Splitting text into tokens, and tokens into vectors.
//
// tokenize():
// - whitespace and punctuation (ASCII and CJK: ，。！？、；：“”‘’（）《》…) separate tokens and
//   are dropped;
// - a run of letters and digits (Latin with accents, Greek, Cyrillic, fullwidth ＡＢＣ１２３) is
//   one token, including apostrophes and hyphens between two letters and a decimal point between
//   two digits ("don't", "don’t", "e-mail", "iPhone", "3.14");
// - a run of CJK characters (Han incl. extensions, kana, hangul) written without spaces is
//   segmented by longest match against the lexicon, looking at most
//   lexicon.longest_word_bytes() ahead, falling back to single characters (我喜欢苹果 → 我 /
//   喜欢 / 苹果 when those are in the lexicon);
// - every other character (emoji, symbols, other scripts) is a token of its own, kept whole
//   including the marks that follow it (combining marks, variation selectors, skin tones, tags),
//   ZWJ sequences (👩‍💻 stays one token) and flag pairs (🇨🇳);
// - invalid UTF-8 is ErrorCode::parse_error with the byte offset (0-based) in Error::col.
// Limits: text up to Limits::max_text_bytes, up to Limits::max_tokens tokens; above either,
// ErrorCode::too_large. Text with no tokens (empty, only spaces or punctuation) is an empty list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "lexicon.hpp"

namespace attn {

struct Token {
  std::string text;
  std::size_t offset = 0;  // byte offset in the input
  std::size_t length = 0;  // bytes
};

Result<std::vector<Token>> tokenize(std::string_view text, const Lexicon& lexicon);

struct Embedding {
  std::vector<Token> tokens;          // (n)
  std::vector<std::string> features;  // (d) the lexicon's feature names
  Matrix vectors;                     // (n, d)
  std::vector<bool> unknown;          // (n) true: not in the lexicon, vector from unknown_vector
};

// Tokenizes and looks up every token; a token the lexicon does not know gets
// unknown_vector(token, dims) and unknown = true. Errors: those of tokenize(), and
// ErrorCode::empty_input when the text has no tokens ("Type some words …").
Result<Embedding> embed(std::string_view text, const Lexicon& lexicon);

}  // namespace attn
