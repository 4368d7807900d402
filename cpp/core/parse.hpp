// Parsers for what a reader types or pastes. Errors are values, never exceptions.
//
// parse_matrix(): rows separated by line breaks ("\n", "\r\n" or a lone "\r") or ';', numbers by
//   spaces, tabs or commas:
//     1 2 1; 2 2 0          or          1, 2, 1
//                                        2, 2, 0
//   or a JSON array of arrays: [[1, 2, 1], [2, 2, 0]] (chosen when the first non-space character
//   is '['; a byte-order mark before it is skipped). Blank lines are skipped; a trailing comma is
//   fine, a comma that starts a row or follows another with no number between is an error. The
//   fullwidth ，、； and the ideographic space that a Chinese input method types work like their
//   ASCII counterparts. Numbers are decimal, with optional sign, fraction
//   and exponent ("-1.5e3", ".5", "5."); the typographic minus "−" (U+2212) is a minus sign.
//   "nan", "inf", hex and anything else are ErrorCode::parse_error; a number beyond the range of
//   a double ("1e999") is ErrorCode::not_finite.
//   Errors name `input` (Error::input and the start of the message) and where the problem is:
//   Error::row/col are the 0-based line and column, the column in UTF-16 code units as JS
//   strings count (an emoji above U+FFFF is two), the message counts from 1: `matrix: line 2,
//   column 5: "abc" is not a number.` A row with a different count than the first names its line
//   (`matrix: line 3 has 2 numbers but line 1 has 3; …`), or, when rows share lines (';' or JSON),
//   its row number and where it starts. Empty or blank text is ErrorCode::empty_input; text above
//   Limits::max_text_bytes, more than Limits::max_tokens rows or more than Limits::max_dim numbers
//   in a row are ErrorCode::too_large.
//
// parse_embeddings(): the GloVe text format, one word a line: `word v1 v2 … vd`, fields
//   separated by spaces or tabs, CRLF line ends accepted, blank lines skipped. Every line has
//   the same d. A first line of exactly two integers (word2vec's "count dims" header) is skipped.
//   A word that appears twice keeps its last vector. Errors name the line (and column for a bad
//   number), with Error::input = "embeddings". Limits: Limits::max_embedding_bytes,
//   Limits::max_words lines, Limits::max_dim values. Feature names are "f1" … "fd".
#pragma once

#include <string_view>

#include "common.hpp"
#include "lexicon.hpp"

namespace attn {

Result<Matrix> parse_matrix(std::string_view text, std::string_view input = "matrix");
Result<Lexicon> parse_embeddings(std::string_view text);

}  // namespace attn
