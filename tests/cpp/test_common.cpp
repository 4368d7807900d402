#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "common.hpp"
#include "rng.hpp"
#include "test_utils.hpp"

using namespace attn;
using attn::test::mat;

TEST_CASE("common: every error code has its stable name", "[common]") {
  // These words cross to JavaScript as error.code; pages and tests match on them.
  CHECK(std::string(to_string(ErrorCode::empty_input)) == "empty_input");
  CHECK(std::string(to_string(ErrorCode::shape_mismatch)) == "shape_mismatch");
  CHECK(std::string(to_string(ErrorCode::not_finite)) == "not_finite");
  CHECK(std::string(to_string(ErrorCode::bad_dimension)) == "bad_dimension");
  CHECK(std::string(to_string(ErrorCode::bad_temperature)) == "bad_temperature");
  CHECK(std::string(to_string(ErrorCode::zero_vector)) == "zero_vector");
  CHECK(std::string(to_string(ErrorCode::too_large)) == "too_large");
  CHECK(std::string(to_string(ErrorCode::parse_error)) == "parse_error");
  CHECK(std::string(to_string(ErrorCode::bad_argument)) == "bad_argument");
}

TEST_CASE("common: a Result holds either a value or an error", "[common]") {
  const Result<int> good = 42;
  CHECK(good.ok());
  CHECK(static_cast<bool>(good));
  CHECK(*good == 42);

  const Result<int> bad = make_error(ErrorCode::too_large, "keys", 2, 3, "keys: too many.");
  CHECK_FALSE(bad.ok());
  CHECK_FALSE(static_cast<bool>(bad));
  CHECK(bad.error().code == ErrorCode::too_large);
  CHECK(bad.error().input == "keys");
  CHECK(bad.error().row == 2);
  CHECK(bad.error().col == 3);
  CHECK(bad.error().message == "keys: too many.");
  CHECK(bad.value() == 0);  // the value of an error is the default, never garbage
}

TEST_CASE("check_finite: the first NaN or infinity by row and column counted from one",
          "[common]") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_FALSE(check_finite(mat({{1, 2}, {3, 4}}), "queries").has_value());

  // Row-major order: (0, 2) comes before (1, 0).
  auto e =
      check_finite(mat({{1, 2, -inf}, {std::numeric_limits<double>::quiet_NaN(), 5, 6}}), "keys");
  REQUIRE(e.has_value());
  CHECK(e->code == ErrorCode::not_finite);
  CHECK(e->input == "keys");
  CHECK(e->row == 0);
  CHECK(e->col == 2);
  CHECK(e->message ==
        "keys: row 1, column 3 is minus infinity; every entry must be a finite number.");

  const double data[] = {1, 2, 3, 4, 5, inf};  // 3×2: the last entry is row 3, column 2
  e = check_finite(data, 3, 2, "values");
  REQUIRE(e.has_value());
  CHECK(e->row == 2);
  CHECK(e->col == 1);
  CHECK(e->message == "values: row 3, column 2 is infinity; every entry must be a finite number.");
}

TEST_CASE("check_size: empty and too large name the input and the shape", "[common]") {
  CHECK_FALSE(check_size(1, 1, "x").has_value());
  CHECK_FALSE(check_size(Limits::max_tokens, Limits::max_dim, "x").has_value());
  CHECK(size_ok(Limits::max_tokens, Limits::max_dim));
  CHECK_FALSE(size_ok(0, 3));
  CHECK_FALSE(size_ok(Limits::max_tokens + 1, 1));
  CHECK_FALSE(size_ok(1, Limits::max_dim + 1));

  auto e = check_size(0, 3, "queries");
  REQUIRE(e.has_value());
  CHECK(e->code == ErrorCode::empty_input);
  CHECK(e->input == "queries");
  CHECK(e->message == "queries is empty (0×3); it needs at least one row and one column.");

  e = check_size(2, Limits::max_dim + 1, "values");
  REQUIRE(e.has_value());
  CHECK(e->code == ErrorCode::too_large);
  CHECK(e->message == "values is 2×1025, above the limit of 1024 rows and 1024 columns.");
}

TEST_CASE("number_text writes a number as printf's %g does, and NaN and infinities as JavaScript",
          "[common]") {
  CHECK(number_text(0.0) == "0");
  CHECK(number_text(-0.0) == "-0");
  CHECK(number_text(-1) == "-1");
  CHECK(number_text(0.125) == "0.125");
  CHECK(number_text(-2.5e-300) == "-2.5e-300");
  CHECK(number_text(123456) == "123456");
  CHECK(number_text(1234567) == "1.23457e+06");
  CHECK(number_text(999999.6) == "1e+06");  // rounding carries into a new digit
  CHECK(number_text(0.0001) == "0.0001");
  CHECK(number_text(0.00001234) == "1.234e-05");
  CHECK(number_text(4.9e-324) == "4.94066e-324");  // the smallest denormal
  CHECK(number_text(1.7976931348623157e308) == "1.79769e+308");
  CHECK(number_text(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(number_text(std::numeric_limits<double>::infinity()) == "Infinity");
  CHECK(number_text(-std::numeric_limits<double>::infinity()) == "-Infinity");
  // Against the C library itself, over every magnitude a double has.
  Rng rng(7);
  for (int k = 0; k < 20000; ++k) {
    const double x = (rng.uniform() < 0.5 ? -1 : 1) * std::pow(10.0, rng.uniform(-323, 308));
    char expected[32];
    std::snprintf(expected, sizeof expected, "%g", x);
    INFO("x = " << expected);
    REQUIRE(number_text(x) == expected);
  }
}

TEST_CASE("check_qkv_shapes: 2×3 queries fit 4×3 keys and 4×1 values and not 3×1 values",
          "[common][errors]") {
  CHECK_FALSE(check_qkv_shapes(2, 3, 4, 3, 4, 1));
  const auto e = check_qkv_shapes(2, 3, 4, 3, 3, 1);
  REQUIRE(e);
  CHECK(e->code == ErrorCode::shape_mismatch);
  CHECK(e->input == "values");
  CHECK(e->message == "keys are 4×3 and values 3×1: there must be one value row for each key row.");
}
