#include "parse.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "utf8.hpp"

namespace attn {

namespace {

// ---- Places and messages --------------------------------------------------------------------

// A place in the text: 0-based line and column, the column counted in UTF-16 code units, as JS
// strings index the text the reader typed (an emoji above U+FFFF counts two), so that the page
// can put the caret there.
struct Place {
  long line = 0;
  long column = 0;
};

Place locate(std::string_view text, std::size_t pos) {
  // A line ends at "\n", at "\r\n", or at a lone "\r" (old Mac files, and some pastes).
  Place place;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
    const bool lone_cr = text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n');
    if (text[i] == '\n' || lone_cr) {
      ++place.line;
      line_start = i + 1;
    }
  }
  place.column =
      static_cast<long>(utf8::count_utf16_units(text.substr(line_start, pos - line_start)));
  return place;
}

// "line 2, column 5" (1-based, as people count).
std::string where(const Place& place) {
  return "line " + std::to_string(place.line + 1) + ", column " + std::to_string(place.column + 1);
}

Error error_at(ErrorCode code, std::string_view input, std::string_view text, std::size_t pos,
               const std::string& what) {
  const Place place = locate(text, pos);
  return make_error(code, std::string(input), place.line, place.column,
                    std::string(input) + ": " + where(place) + ": " + what);
}

std::string count_of(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::optional<Error> check_utf8(std::string_view input, std::string_view text) {
  const std::size_t bad = utf8::find_invalid(text);
  if (bad == std::string_view::npos) return std::nullopt;
  return error_at(ErrorCode::parse_error, input, text, bad,
                  "the text is not valid UTF-8 here; paste or type it again as UTF-8.");
}

// ---- Numbers --------------------------------------------------------------------------------

enum class NumberStatus { ok, not_a_number, not_finite };

struct Number {
  NumberStatus status = NumberStatus::not_a_number;
  double value = 0;
};

// Decimal numbers only: [+-] digits [. digits] [(e|E) [+-] digits], with a digit on at least one
// side of the point. std::strtod alone would also accept "nan", "inf", hex ("0x1p3") and leading
// spaces, none of which a reader means as an entry of a matrix.
bool is_decimal_number(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// `buffer` is reused between calls so that reading a large file does not allocate per number.
Number read_number(std::string_view token, std::string& buffer) {
  // "−" (U+2212) is the minus sign of typeset text, including this app's own tables, so a
  // number copied from the page reads back.
  static constexpr std::string_view unicode_minus = "\xE2\x88\x92";
  buffer.clear();
  for (std::size_t i = 0; i < token.size();) {
    if (token.substr(i, unicode_minus.size()) == unicode_minus) {
      buffer += '-';
      i += unicode_minus.size();
    } else {
      buffer += token[i++];
    }
  }
  if (!is_decimal_number(buffer)) return {};
  // strtod on a null-terminated copy: it never throws (std::stod does). It reads the decimal
  // point of the C locale, which is the locale of the wasm engine and of the tests.
  char* end = nullptr;
  const double value = std::strtod(buffer.c_str(), &end);
  if (end != buffer.c_str() + buffer.size()) return {};
  if (!std::isfinite(value)) return {NumberStatus::not_finite, 0};  // 1e999 overflows
  return {NumberStatus::ok, value};
}

bool names_nan_or_infinity(std::string_view token) {
  std::string lower;
  for (char c : token) {
    if (c != '+' && c != '-') lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  return lower == "nan" || lower == "inf" || lower == "infinity";
}

// The error for a token that read_number() refused.
Error bad_number(std::string_view input, std::string_view text, std::size_t pos,
                 std::string_view token, NumberStatus status) {
  if (status == NumberStatus::not_finite) {
    return error_at(ErrorCode::not_finite, input, text, pos,
                    quote(token) + " is too large; every entry must be a finite number.");
  }
  return error_at(
      ErrorCode::parse_error, input, text, pos,
      quote(token) + " is not a number" +
          (names_nan_or_infinity(token) ? "; every entry must be a finite number." : "."));
}

// ---- parse_matrix ---------------------------------------------------------------------------

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// What separates numbers and rows in the plain form. Beside the ASCII ones, the fullwidth
// forms a Chinese input method types (，、；and the ideographic space) mean the same.
enum class Separator { none, space, comma, row };

struct SeparatorAt {
  Separator kind = Separator::none;
  std::size_t length = 1;  // bytes
};

SeparatorAt separator_at(std::string_view text, std::size_t pos) {
  const char c = text[pos];
  if (c == '\n' || c == ';') return {Separator::row, 1};
  if (c == '\r') {  // "\r\n" is one line break (its "\n" ends the row); a lone "\r" is one too
    const bool crlf = pos + 1 < text.size() && text[pos + 1] == '\n';
    return {crlf ? Separator::space : Separator::row, 1};
  }
  if (c == ',') return {Separator::comma, 1};
  if (c == ' ' || c == '\t' || c == '\v' || c == '\f') return {Separator::space, 1};
  if (static_cast<unsigned char>(c) < 0x80) return {Separator::none, 1};
  const utf8::CodePoint cp = utf8::decode(text, pos);
  const char32_t fullwidth_semicolon = 0xFF1B, fullwidth_comma = 0xFF0C, ideographic_comma = 0x3001,
                 no_break_space = 0xA0, ideographic_space = 0x3000, byte_order_mark = 0xFEFF;
  if (cp.value == fullwidth_semicolon) return {Separator::row, cp.length};
  if (cp.value == fullwidth_comma || cp.value == ideographic_comma) {
    return {Separator::comma, cp.length};
  }
  if (cp.value == no_break_space || cp.value == ideographic_space || cp.value == byte_order_mark) {
    return {Separator::space, cp.length};
  }
  return {Separator::none, cp.length};
}

// Collects rows, checks that they all have the same count and stay within Limits.
class MatrixBuilder {
 public:
  MatrixBuilder(std::string_view text, std::string_view input, bool name_rows)
      : text_(text), input_(input), name_rows_(name_rows) {}

  std::optional<Error> add_number(double value, std::size_t pos) {
    if (row_.empty()) row_start_ = pos;
    if (row_.size() == Limits::max_dim) {
      return error_at(ErrorCode::too_large, input_, text_, pos,
                      "more than " + std::to_string(Limits::max_dim) +
                          " numbers in one row; a row here has at most " +
                          std::to_string(Limits::max_dim) + ".");
    }
    row_.push_back(value);
    return std::nullopt;
  }

  bool row_empty() const { return row_.empty(); }

  // Ends the current row; a row with no numbers (a blank line) is skipped.
  std::optional<Error> end_row() {
    if (row_.empty()) return std::nullopt;
    if (rows_ == 0) {
      cols_ = row_.size();
      first_row_start_ = row_start_;
    } else if (row_.size() != cols_) {
      return ragged();
    }
    if (rows_ == Limits::max_tokens) {
      const Place place = locate(text_, row_start_);
      return make_error(ErrorCode::too_large, std::string(input_), place.line, place.column,
                        std::string(input_) + ": line " + std::to_string(place.line + 1) +
                            ": more than " + std::to_string(Limits::max_tokens) +
                            " rows; a matrix here has at most " +
                            std::to_string(Limits::max_tokens) + " rows.");
    }
    data_.insert(data_.end(), row_.begin(), row_.end());
    ++rows_;
    row_.clear();
    return std::nullopt;
  }

  Result<Matrix> finish() const {
    if (rows_ == 0) {
      return make_error(ErrorCode::empty_input, std::string(input_), -1, -1,
                        std::string(input_) +
                            " is empty; type one row of numbers per line, or separate rows "
                            "with \";\" as in 1 2 1; 2 2 0.");
    }
    if (auto error = check_size(rows_, cols_, std::string(input_))) return *error;
    Matrix out = Matrix::from_shape({rows_, cols_});  // (rows, cols)
    std::copy(data_.begin(), data_.end(), out.begin());
    return out;
  }

 private:
  // "line 3 has 2 numbers but line 1 has 3"; when rows share lines (";" or JSON), rows are
  // numbered and the line and column of the row are given.
  Error ragged() const {
    const Place place = locate(text_, row_start_);
    const Place first = locate(text_, first_row_start_);
    const std::string input(input_);
    std::string message;
    if (name_rows_) {
      message = input + ": row " + std::to_string(rows_ + 1) + " (" + where(place) + ") has " +
                count_of(row_.size(), "number") + " but row 1 has " + std::to_string(cols_) +
                "; every row needs the same count.";
    } else {
      message = input + ": line " + std::to_string(place.line + 1) + " has " +
                count_of(row_.size(), "number") + " but line " + std::to_string(first.line + 1) +
                " has " + std::to_string(cols_) + "; every row needs the same count.";
    }
    return make_error(ErrorCode::parse_error, input, place.line, place.column, message);
  }

  std::string_view text_;
  std::string_view input_;
  bool name_rows_;
  std::vector<double> data_;  // (rows_ * cols_) row-major
  std::vector<double> row_;   // (numbers so far in the current row)
  std::size_t rows_ = 0, cols_ = 0;
  std::size_t row_start_ = 0, first_row_start_ = 0;  // byte offsets of the rows' first numbers
};

// 1 2 1; 2 2 0  or one row per line, numbers separated by spaces, tabs or commas.
Result<Matrix> parse_plain_matrix(std::string_view text, std::string_view input) {
  const bool semicolons = text.find(';') != std::string_view::npos ||
                          text.find("\xEF\xBC\x9B") != std::string_view::npos;  // ；
  MatrixBuilder builder(text, input, semicolons);
  std::string buffer;
  bool comma_since_number = false;
  for (std::size_t pos = 0; pos < text.size();) {
    const SeparatorAt separator = separator_at(text, pos);
    switch (separator.kind) {
      case Separator::row:
        if (auto error = builder.end_row()) return *error;
        comma_since_number = false;
        pos += separator.length;
        continue;
      case Separator::space:
        pos += separator.length;
        continue;
      case Separator::comma:
        // "1,,2" most likely lost a number; say so rather than read it as 1 2. So did ",1,2".
        if (comma_since_number) {
          return error_at(ErrorCode::parse_error, input, text, pos,
                          "there is no number between two commas.");
        }
        if (builder.row_empty()) {
          return error_at(ErrorCode::parse_error, input, text, pos,
                          "there is no number before this comma.");
        }
        comma_since_number = true;
        pos += separator.length;
        continue;
      case Separator::none:
        break;
    }
    std::size_t end = pos;
    for (SeparatorAt at = separator; at.kind == Separator::none;) {
      end += at.length;
      if (end == text.size()) break;
      at = separator_at(text, end);
    }
    const std::string_view token = text.substr(pos, end - pos);
    const Number number = read_number(token, buffer);
    if (number.status != NumberStatus::ok) {
      return bad_number(input, text, pos, token, number.status);
    }
    if (auto error = builder.add_number(number.value, pos)) return *error;
    comma_since_number = false;
    pos = end;
  }
  if (auto error = builder.end_row()) return *error;
  return builder.finish();
}

// [[1, 2, 1], [2, 2, 0]]: a JSON array of arrays of numbers.
class JsonMatrixParser {
 public:
  JsonMatrixParser(std::string_view text, std::string_view input)
      : text_(text), input_(input), builder_(text, input, /*name_rows=*/true) {}

  Result<Matrix> run() {
    skip_space();
    ++pos_;  // the '[' that made this JSON
    skip_space();
    if (at(']')) {
      ++pos_;
    } else {
      for (;;) {
        if (auto error = row()) return *error;
        skip_space();
        if (pos_ == text_.size()) return ends_early();
        if (at(']')) {
          ++pos_;
          break;
        }
        if (!at(',')) return expected("\",\" or \"]\" after a row");
        ++pos_;
        skip_space();
      }
    }
    skip_space();
    if (pos_ != text_.size()) return fail("there is more text after the closing \"]\".");
    return builder_.finish();
  }

 private:
  std::optional<Error> row() {
    if (pos_ == text_.size()) return ends_early();
    if (!at('[')) {
      if (at(']')) return expected("\"[\" to start a row");
      return fail("JSON input is a list of rows, like [[1, 2], [3, 4]]; put each row in [ ].");
    }
    ++pos_;
    skip_space();
    if (at(']')) return fail("this row is empty; every row needs at least one number.");
    for (;;) {
      skip_space();
      if (pos_ == text_.size()) return ends_early();
      const std::size_t start = pos_;
      while (pos_ < text_.size() && !is_json_space(text_[pos_]) && !at(',') && !at('[') &&
             !at(']')) {
        ++pos_;
      }
      if (pos_ == start) return expected("a number");
      const std::string_view token = text_.substr(start, pos_ - start);
      const Number number = read_number(token, buffer_);
      if (number.status != NumberStatus::ok) {
        return bad_number(input_, text_, start, token, number.status);
      }
      if (auto error = builder_.add_number(number.value, start)) return error;
      skip_space();
      if (pos_ == text_.size()) return ends_early();
      if (at(']')) {
        ++pos_;
        return builder_.end_row();
      }
      if (!at(',')) return expected("\",\" or \"]\" after a number");
      ++pos_;
    }
  }

  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  void skip_space() {
    while (pos_ < text_.size() && is_json_space(text_[pos_])) ++pos_;
  }
  Error fail(const std::string& what) const {
    return error_at(ErrorCode::parse_error, input_, text_, pos_, what);
  }
  Error expected(const std::string& what) const {
    const std::size_t length = std::max<std::size_t>(1, utf8::decode(text_, pos_).length);
    return fail("expected " + what + " but found " + quote(text_.substr(pos_, length)) + ".");
  }
  Error ends_early() const { return fail("the JSON ends before its closing \"]\"."); }

  std::string_view text_;
  std::string_view input_;
  MatrixBuilder builder_;
  std::string buffer_;
  std::size_t pos_ = 0;
};

// ---- parse_embeddings -----------------------------------------------------------------------

bool is_field_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool is_unsigned_integer(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

struct Field {
  std::string_view text;
  std::size_t offset;  // bytes from the start of the line
};

void split_fields(std::string_view line, std::vector<Field>& fields) {
  fields.clear();
  for (std::size_t pos = 0; pos < line.size();) {
    while (pos < line.size() && is_field_space(line[pos])) ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && !is_field_space(line[pos])) ++pos;
    if (pos > start) fields.push_back(Field{line.substr(start, pos - start), start});
  }
}

}  // namespace

Result<Matrix> parse_matrix(std::string_view text, std::string_view input) {
  const std::string name(input);
  if (text.size() > Limits::max_text_bytes) {
    return make_error(ErrorCode::too_large, name, -1, -1,
                      name + ": the text is " + std::to_string(text.size()) +
                          " bytes, above the limit of " + std::to_string(Limits::max_text_bytes) +
                          " bytes.");
  }
  if (auto error = check_utf8(input, text)) return *error;
  // A byte-order mark, as some editors save a file, is not part of the JSON (the plain form reads
  // it as a space).
  static constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
  const std::string_view json = text.substr(0, byte_order_mark.size()) == byte_order_mark
                                    ? text.substr(byte_order_mark.size())
                                    : text;
  const std::size_t first = json.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && json[first] == '[') {
    return JsonMatrixParser(json, input).run();
  }
  return parse_plain_matrix(text, input);
}

Result<Lexicon> parse_embeddings(std::string_view text) {
  const std::string input = "embeddings";
  if (text.size() > Limits::max_embedding_bytes) {
    return make_error(ErrorCode::too_large, input, -1, -1,
                      "embeddings: the file is " + std::to_string(text.size()) +
                          " bytes, above the limit of " +
                          std::to_string(Limits::max_embedding_bytes) + " bytes.");
  }
  if (auto error = check_utf8(input, text)) return *error;

  Lexicon lexicon;
  std::size_t d = 0;           // numbers per word, from the first word's line
  long first_word_line = -1;   // 0-based
  std::size_t word_lines = 0;  // lines with a word, for Limits::max_words
  bool seen_nonblank = false;
  std::vector<Field> fields;
  std::vector<double> vector;  // (d)
  std::string buffer;

  long line_number = 0;
  for (std::size_t line_start = 0; line_start <= text.size(); ++line_number) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    const std::size_t offset = line_start;
    line_start = line_end + 1;

    split_fields(line, fields);
    if (fields.empty()) continue;  // blank line
    const bool first_nonblank = !seen_nonblank;
    seen_nonblank = true;
    // word2vec's text format starts with "count dims"; GloVe's does not.
    if (first_nonblank && fields.size() == 2 && is_unsigned_integer(fields[0].text) &&
        is_unsigned_integer(fields[1].text)) {
      continue;
    }

    const std::string line_label = "embeddings: line " + std::to_string(line_number + 1);
    const std::size_t count = fields.size() - 1;
    if (count == 0) {
      return make_error(ErrorCode::parse_error, input, line_number, 0,
                        line_label + ": " + quote(fields[0].text) +
                            " has no numbers after it; each line is a word followed by its "
                            "numbers, like: cat 0.2 -0.4 0.7");
    }
    if (d == 0) {
      if (count > Limits::max_dim) {
        return make_error(ErrorCode::too_large, input, line_number, -1,
                          line_label + " has " + std::to_string(count) +
                              " numbers, above the limit of " + std::to_string(Limits::max_dim) +
                              " per word.");
      }
      d = count;
      first_word_line = line_number;
      std::vector<std::string> features;
      for (std::size_t j = 1; j <= d; ++j) features.push_back("f" + std::to_string(j));
      lexicon = Lexicon(std::move(features));
    } else if (count != d) {
      return make_error(ErrorCode::parse_error, input, line_number, -1,
                        line_label + " has " + count_of(count, "number") + " but line " +
                            std::to_string(first_word_line + 1) + " has " + std::to_string(d) +
                            "; every word needs the same count.");
    }
    if (++word_lines > Limits::max_words) {
      return make_error(ErrorCode::too_large, input, line_number, -1,
                        line_label + ": more than " + std::to_string(Limits::max_words) +
                            " words; the limit is " + std::to_string(Limits::max_words) + ".");
    }

    vector.clear();
    for (std::size_t j = 1; j < fields.size(); ++j) {
      const Number number = read_number(fields[j].text, buffer);
      if (number.status != NumberStatus::ok) {
        return bad_number(input, text, offset + fields[j].offset, fields[j].text, number.status);
      }
      vector.push_back(number.value);
    }
    lexicon.add(std::string(fields[0].text), vector);  // a repeated word: the last line wins
  }

  if (lexicon.size() == 0) {
    return make_error(ErrorCode::empty_input, input, -1, -1,
                      "embeddings: no word vectors found; each line is a word followed by its "
                      "numbers, like: cat 0.2 -0.4 0.7");
  }
  return lexicon;
}

}  // namespace attn
