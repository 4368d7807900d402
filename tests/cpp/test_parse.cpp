// Tests for parse.hpp: matrices and word-vector files typed or pasted by a reader.
#include <string>
#include <vector>

#include "parse.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

Matrix parsed(std::string_view text) {
  const Result<Matrix> result = parse_matrix(text);
  INFO("text: " << text);
  if (!result.ok()) FAIL("parse_matrix failed: " << result.error().message);
  return result.value();
}

Error matrix_error(std::string_view text, std::string_view input = "matrix") {
  const Result<Matrix> result = parse_matrix(text, input);
  INFO("text: " << text);
  REQUIRE_FALSE(result.ok());
  return result.error();
}

Error embeddings_error(std::string_view text) {
  const Result<Lexicon> result = parse_embeddings(text);
  INFO("text: " << text);
  REQUIRE_FALSE(result.ok());
  return result.error();
}

}  // namespace

TEST_CASE("parse_matrix: semicolons separate rows", "[parse]") {
  test::require_close(parsed("1 2 1; 2 2 0"), test::mat({{1, 2, 1}, {2, 2, 0}}));
  test::require_close(parsed("1 2 1;2 2 0;"), test::mat({{1, 2, 1}, {2, 2, 0}}));
  test::require_close(parsed("7"), test::mat({{7}}));
}

TEST_CASE("parse_matrix: newlines and commas and tabs", "[parse]") {
  const Matrix expected = test::mat({{1, 2, 1}, {2, 2, 0}});  // (2, 3)
  test::require_close(parsed("1, 2, 1\n2, 2, 0\n"), expected);
  test::require_close(parsed("1,2,1\n2,2,0"), expected);
  test::require_close(parsed("1\t2\t1\r\n2\t2\t0\r\n"), expected);
  test::require_close(parsed("\n\n  1 2 1\n\n\n2 2 0\n\n"), expected);  // blank lines skipped
  test::require_close(parsed("1, 2, 1,\n2, 2, 0,"), expected);          // a trailing comma
  test::require_close(parsed("1，2，1；2，2，0"), expected);  // as a Chinese input method types
}

TEST_CASE("parse_matrix: a JSON array of arrays", "[parse]") {
  const Matrix expected = test::mat({{1, 2, 1}, {2, 2, 0}});
  test::require_close(parsed("[[1, 2, 1], [2, 2, 0]]"), expected);
  test::require_close(parsed("  [\n  [1,2,1],\n  [2,2,0]\n]\n"), expected);
  test::require_close(parsed("[[-1.5e3]]"), test::mat({{-1500}}));
}

TEST_CASE("parse_matrix: signs and fractions and exponents", "[parse]") {
  test::require_close(parsed("-1.5e3 +2 .5 5. 1E-2 −3 -0"),
                      test::mat({{-1500, 2, 0.5, 5, 0.01, -3, 0}}));
  test::require_close(parsed("1e-999"), test::mat({{0}}));  // underflows to zero: still finite
}

TEST_CASE("parse_matrix: a ragged row names its line", "[parse]") {
  const Error error = matrix_error("1 2 3\n4 5 6\n7 8");
  CHECK(error.code == ErrorCode::parse_error);
  CHECK(error.input == "matrix");
  CHECK(error.row == 2);
  CHECK(error.col == 0);
  CHECK(error.message ==
        "matrix: line 3 has 2 numbers but line 1 has 3; every row needs the same count.");

  // Blank lines count as lines: the message names the line the reader sees.
  CHECK(matrix_error("\n1 2\n\n3", "keys").message ==
        "keys: line 4 has 1 number but line 2 has 2; every row needs the same count.");

  // Rows on one line are numbered, with the line and column where the row starts.
  const Error same_line = matrix_error("1 2 3; 4 5");
  CHECK(same_line.row == 0);
  CHECK(same_line.col == 7);
  CHECK(same_line.message ==
        "matrix: row 2 (line 1, column 8) has 2 numbers but row 1 has 3; every row needs the "
        "same count.");
}

TEST_CASE("parse_matrix: a word that is not a number names line and column", "[parse]") {
  const Error error = matrix_error("1 2 3\n4 5 abc");
  CHECK(error.code == ErrorCode::parse_error);
  CHECK(error.row == 1);
  CHECK(error.col == 4);
  CHECK(error.message == "matrix: line 2, column 5: \"abc\" is not a number.");

  // Columns count characters, not bytes: "−1" is 3 + 1 bytes but 2 characters.
  const Error after_minus = matrix_error("−1 x", "values");
  CHECK(after_minus.input == "values");
  CHECK(after_minus.col == 3);
  CHECK(after_minus.message == "values: line 1, column 4: \"x\" is not a number.");

  CHECK(matrix_error("1 苹果").message == "matrix: line 1, column 3: \"苹果\" is not a number.");
  // A long token is cut in the message.
  CHECK(matrix_error(std::string(100, 'z')).message ==
        "matrix: line 1, column 1: \"" + std::string(24, 'z') + "…\" is not a number.");
}

TEST_CASE("parse_matrix: nan and inf and hex are not numbers here", "[parse]") {
  const Error nan = matrix_error("1 nan");
  CHECK(nan.code == ErrorCode::parse_error);
  CHECK(nan.col == 2);
  CHECK(nan.message ==
        "matrix: line 1, column 3: \"nan\" is not a number; every entry must be a finite number.");
  for (const char* text :
       {"inf", "-Infinity", "NaN", "0x10", "1e", "1.2.3", "--1", "1e5x", ".", "+", "1_000", "½"}) {
    INFO("text: " << text);
    CHECK(matrix_error(text).code == ErrorCode::parse_error);
  }
}

TEST_CASE("parse_matrix: a number too large for a double is not finite", "[parse]") {
  const Error error = matrix_error("1 2\n3 1e999");
  CHECK(error.code == ErrorCode::not_finite);
  CHECK(error.row == 1);
  CHECK(error.col == 2);
  CHECK(error.message ==
        "matrix: line 2, column 3: \"1e999\" is too large; every entry must be a finite number.");
  CHECK(matrix_error("[[-1e400]]").code == ErrorCode::not_finite);
}

TEST_CASE("parse_matrix: empty or whitespace-only input", "[parse]") {
  for (const char* text : {"", "   ", "\n\t \r\n", ";;", " ; \n ; ", "[]", " [ ] "}) {
    INFO("text: " << text);
    const Error error = matrix_error(text, "queries");
    CHECK(error.code == ErrorCode::empty_input);
    CHECK(error.input == "queries");
    CHECK(error.message.rfind("queries is empty;", 0) == 0);
  }
}

TEST_CASE("parse_matrix: too many rows or columns is too large", "[parse]") {
  std::string rows;
  for (int i = 0; i < 2000; ++i) rows += "1\n";
  const Error tall = matrix_error(rows);
  CHECK(tall.code == ErrorCode::too_large);
  CHECK(tall.row == 1024);  // the 1025th row
  CHECK(tall.message ==
        "matrix: line 1025: more than 1024 rows; a matrix here has at most 1024 rows.");

  std::string wide;
  for (std::size_t i = 0; i <= Limits::max_dim; ++i) wide += "1 ";
  const Error too_wide = matrix_error(wide);
  CHECK(too_wide.code == ErrorCode::too_large);
  CHECK(too_wide.col == 2048);  // the 1025th number

  std::string exactly;
  for (std::size_t i = 0; i < Limits::max_tokens; ++i) exactly += "1 2\n";
  CHECK(parse_matrix(exactly).value().shape()[0] == Limits::max_tokens);

  CHECK(matrix_error(std::string(Limits::max_text_bytes + 1, ' ')).code == ErrorCode::too_large);
}

TEST_CASE("parse_matrix: bad JSON says what and where", "[parse]") {
  const Error open = matrix_error("[[1, 2], [3, 4]");
  CHECK(open.code == ErrorCode::parse_error);
  CHECK(open.col == 15);
  CHECK(open.message == "matrix: line 1, column 16: the JSON ends before its closing \"]\".");

  const Error word = matrix_error("[[1, 2], [3, x]]");
  CHECK(word.col == 13);
  CHECK(word.message == "matrix: line 1, column 14: \"x\" is not a number.");

  CHECK(matrix_error("[1, 2, 3]").message ==
        "matrix: line 1, column 2: JSON input is a list of rows, like [[1, 2], [3, 4]]; put each "
        "row in [ ].");
  CHECK(matrix_error("[[1 2]]").message ==
        "matrix: line 1, column 5: expected \",\" or \"]\" after a number but found \"2\".");
  CHECK(matrix_error("[[1, 2], [3]]").message ==
        "matrix: row 2 (line 1, column 11) has 1 number but row 1 has 2; every row needs the same "
        "count.");
  CHECK(matrix_error("[\n[1, 2],\n[3]\n]").message ==
        "matrix: row 2 (line 3, column 2) has 1 number but row 1 has 2; every row needs the same "
        "count.");
  CHECK(matrix_error("[[1]] x").message ==
        "matrix: line 1, column 7: there is more text after the closing \"]\".");
  CHECK(matrix_error("[[]]").message ==
        "matrix: line 1, column 3: this row is empty; every row needs at least one number.");
  CHECK(matrix_error("[[1,]]").message ==
        "matrix: line 1, column 5: expected a number but found \"]\".");
  CHECK(matrix_error("[[1], ]").message ==
        "matrix: line 1, column 7: expected \"[\" to start a row but found \"]\".");
  CHECK(matrix_error("[[1] [2]]").code == ErrorCode::parse_error);
}

TEST_CASE("parse_matrix: two commas without a number between them", "[parse]") {
  const Error error = matrix_error("1,,2");
  CHECK(error.code == ErrorCode::parse_error);
  CHECK(error.col == 2);
  CHECK(error.message == "matrix: line 1, column 3: there is no number between two commas.");
  CHECK(matrix_error("1, ,2").col == 3);
}

TEST_CASE("parse_matrix: a row that starts with a comma lost a number", "[parse]") {
  const Error error = matrix_error(",1,2");
  CHECK(error.code == ErrorCode::parse_error);
  CHECK(error.col == 0);
  CHECK(error.message == "matrix: line 1, column 1: there is no number before this comma.");
  CHECK(matrix_error("1,2\n ,3,4").row == 1);
  CHECK(matrix_error("1 2; ,3 4").col == 5);
}

TEST_CASE("parse_matrix: a lone carriage return ends a line as a newline does", "[parse]") {
  test::require_close(parsed("1 2\r3 4"), test::mat({{1, 2}, {3, 4}}));  // 2×2, not 1×4
  test::require_close(parsed("1 2\r\n3 4\r"), test::mat({{1, 2}, {3, 4}}));
  const Error error = matrix_error("1 2\r3 x");
  CHECK(error.row == 1);
  CHECK(error.col == 2);
}

TEST_CASE("parse_matrix: a byte-order mark before JSON is not part of it", "[parse]") {
  test::require_close(parsed("\xEF\xBB\xBF[[1,2],[3,4]]"), test::mat({{1, 2}, {3, 4}}));
  test::require_close(parsed("\xEF\xBB\xBF 1 2; 3 4"), test::mat({{1, 2}, {3, 4}}));
}

TEST_CASE("parse_matrix: invalid UTF-8 names line and column", "[parse]") {
  const Error error = matrix_error("1 2\n3 \xff");
  CHECK(error.code == ErrorCode::parse_error);
  CHECK(error.row == 1);
  CHECK(error.col == 2);
}

TEST_CASE("parse_embeddings: three GloVe lines", "[parse]") {
  const Result<Lexicon> result =
      parse_embeddings("cat 0.1 0.2 0.3\n\ndog 0.4 -0.5 6e-1\n苹果\t1\t2\t3\n");
  REQUIRE(result.ok());
  const Lexicon& lexicon = *result;
  CHECK(lexicon.size() == 3);
  CHECK(lexicon.features() == std::vector<std::string>{"f1", "f2", "f3"});
  CHECK(lexicon.words() == std::vector<std::string>{"cat", "dog", "苹果"});
  CHECK(*lexicon.find("dog") == std::vector<double>{0.4, -0.5, 0.6});
  CHECK(*lexicon.find("苹果") == std::vector<double>{1, 2, 3});
  CHECK(*lexicon.find("CAT") == std::vector<double>{0.1, 0.2, 0.3});
}

TEST_CASE("parse_embeddings: a word2vec header line and CRLF are accepted", "[parse]") {
  const Result<Lexicon> result = parse_embeddings("2 3\r\ncat 1 2 3\r\ndog 4 5 6\r\n");
  REQUIRE(result.ok());
  CHECK(result->size() == 2);
  CHECK(result->dims() == 3);
  CHECK(*result->find("dog") == std::vector<double>{4, 5, 6});
  CHECK(result->find("2") == nullptr);

  // Only the first line can be a header; later, "7 8" is the word "7" with one number.
  CHECK(embeddings_error("cat 1\n7 8 9").code == ErrorCode::parse_error);
  CHECK(parse_embeddings("cat 1\n7 8").value().size() == 2);
}

TEST_CASE("parse_embeddings: a line with a different count names the line", "[parse]") {
  const Error error = embeddings_error("cat 1 2 3\n\ndog 4 5\n");
  CHECK(error.code == ErrorCode::parse_error);
  CHECK(error.input == "embeddings");
  CHECK(error.row == 2);
  CHECK(error.message ==
        "embeddings: line 3 has 2 numbers but line 1 has 3; every word needs the same count.");

  CHECK(embeddings_error("cat\n").message ==
        "embeddings: line 1: \"cat\" has no numbers after it; each line is a word followed by "
        "its numbers, like: cat 0.2 -0.4 0.7");
}

TEST_CASE("parse_embeddings: a bad number names line and column", "[parse]") {
  const Error error = embeddings_error("cat 1 2\ndog 3 x");
  CHECK(error.code == ErrorCode::parse_error);
  CHECK(error.row == 1);
  CHECK(error.col == 6);
  CHECK(error.message == "embeddings: line 2, column 7: \"x\" is not a number.");
  CHECK(embeddings_error("cat nan 1").code == ErrorCode::parse_error);
  CHECK(embeddings_error("cat 1e999 1").code == ErrorCode::not_finite);
}

TEST_CASE("parse_embeddings: a repeated word keeps the last vector", "[parse]") {
  const Result<Lexicon> result = parse_embeddings("cat 1 2\ndog 0 0\ncat 3 4\n");
  REQUIRE(result.ok());
  CHECK(result->size() == 2);
  CHECK(*result->find("cat") == std::vector<double>{3, 4});
}

TEST_CASE("parse_embeddings: empty text or a header alone is empty", "[parse]") {
  for (const char* text : {"", "\n\n", "  \r\n", "3 2\n"}) {
    INFO("text: " << text);
    const Error error = embeddings_error(text);
    CHECK(error.code == ErrorCode::empty_input);
    CHECK(error.input == "embeddings");
  }
}

TEST_CASE("parse_embeddings: more numbers than the limit is too large", "[parse]") {
  std::string line = "wide";
  for (std::size_t i = 0; i <= Limits::max_dim; ++i) line += " 1";
  CHECK(embeddings_error(line).code == ErrorCode::too_large);
  CHECK(embeddings_error("\xff 1 2").code == ErrorCode::parse_error);
}

TEST_CASE("parse_embeddings: columns count UTF-16 units as JS does", "[parse]") {
  // "🍎 1 x": 🍎 is two UTF-16 units (four bytes), so x is at column 5 (bytes: 7, code points: 4).
  const Result<Lexicon> result = parse_embeddings("🍎 1 x");
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().col == 5);
  CHECK(result.error().message == "embeddings: line 1, column 6: \"x\" is not a number.");
  // A matrix, after a fullwidth comma (one unit, three bytes) and a CJK word.
  CHECK(parse_matrix("1，鸟").error().col == 2);
}
