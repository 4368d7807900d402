// Splitting text into tokens, and tokens into vectors.
//
// tokenize() never splits a grapheme cluster (UAX #29, Unicode 15.0: unicode.hpp), what a reader
// sees as one character: e + combining acute, the Devanagari स्, the Thai วั, 👩‍💻,
// 🇨🇳, 1️⃣.
// - whitespace and punctuation (ASCII and CJK: ，。！？、；：“”‘’（）《》…, and the symbols of
//   ASCII and Latin-1: + = × ©) separate tokens and are dropped;
// - a run of clusters of letters, marks and digits in a script written with spaces (Latin,
//   Greek, Cyrillic, Hangul, Arabic, Hebrew, Devanagari, fullwidth ＡＢＣ１２３, …) is one token,
//   including apostrophes and hyphens between two letters and a decimal point between two digits
//   ("don't", "don’t", "e-mail", "iPhone", "3.14", "नमस्ते", "안녕하세요"); a zero-width joiner or
//   non-joiner inside a word belongs to the letter before it (GB9), so it stays in the word;
// - a run of clusters of scripts written without spaces (Han incl. extensions, kana, bopomofo,
//   Thai, Lao, Khmer, Myanmar) is segmented by longest match against the lexicon, looking at
//   most lexicon.longest_word_bytes() ahead; what the lexicon does not know falls back to one
//   token per grapheme cluster (我喜欢苹果 → 我 / 喜欢 / 苹果 when those are in the lexicon;
//   สวัสดี → ส / วั / ส / ดี with no Thai words in it);
// - every other cluster (emoji with their ZWJ sequences, skin tones and flags, keycaps, € ∑ ★)
//   is a token of its own: 👩‍💻 and 🇨🇳 stay whole, 1️⃣2️⃣ is two tokens;
// - invalid UTF-8 is ErrorCode::parse_error with the position of the bad byte in Error::col, in
//   UTF-16 code units like every position here.
// Limits: text up to Limits::max_text_bytes, up to Limits::max_tokens tokens; above either,
// ErrorCode::too_large (for too many tokens, Error::col is where the first one too many starts).
// Text with no tokens (empty, only spaces or punctuation) is an empty list.
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
  // The same span in UTF-16 code units, as JS strings index the text: an emoji above U+FFFF is
  // two. text.slice(utf16_offset, utf16_offset + utf16_length) in JS is the token.
  std::size_t utf16_offset = 0;
  std::size_t utf16_length = 0;
};

Result<std::vector<Token>> tokenize(std::string_view text, const Lexicon& lexicon);

struct Embedding {
  std::vector<Token> tokens;          // (n)
  std::vector<std::string> features;  // (d) the lexicon's feature names
  Matrix vectors;                     // (n, d)
  std::vector<bool> unknown;          // (n) true: not in the lexicon (its vector: see below)
};

// Tokenizes and looks up every token; a token the lexicon does not know gets unknown = true and
// unknown_vector(token, dims), or zeros where lexicon.unknown_words() is Unknown::zero. Errors:
// those of tokenize(), and ErrorCode::empty_input when the text has no tokens ("Type some words
// …").
Result<Embedding> embed(std::string_view text, const Lexicon& lexicon);

}  // namespace attn
