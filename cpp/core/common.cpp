#include "common.hpp"

#include <algorithm>
#include <cmath>

#include "utf8.hpp"

namespace attn {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::empty_input:
      return "empty_input";
    case ErrorCode::shape_mismatch:
      return "shape_mismatch";
    case ErrorCode::not_finite:
      return "not_finite";
    case ErrorCode::bad_dimension:
      return "bad_dimension";
    case ErrorCode::bad_temperature:
      return "bad_temperature";
    case ErrorCode::zero_vector:
      return "zero_vector";
    case ErrorCode::too_large:
      return "too_large";
    case ErrorCode::parse_error:
      return "parse_error";
    case ErrorCode::bad_argument:
      return "bad_argument";
  }
  return "bad_argument";
}

std::optional<Error> check_finite(const Matrix& m, const std::string& input) {
  return check_finite(m.data(), m.shape()[0], m.shape()[1], input);
}

namespace {

template <typename T>
std::optional<Error> first_non_finite(const T* data, std::size_t rows, std::size_t cols,
                                      const std::string& input) {
  for (std::size_t k = 0; k < rows * cols; ++k) {
    const T x = data[k];
    if (!std::isfinite(x)) {
      const std::size_t i = k / cols, j = k % cols;  // cols > 0: the matrix has an entry
      const char* what = std::isnan(x) ? "NaN" : (x > 0 ? "infinity" : "minus infinity");
      return make_error(ErrorCode::not_finite, input, static_cast<long>(i), static_cast<long>(j),
                        input + ": row " + std::to_string(i + 1) + ", column " +
                            std::to_string(j + 1) + " is " + what +
                            "; every entry must be a finite number.");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Error> check_finite(const double* data, std::size_t rows, std::size_t cols,
                                  const std::string& input) {
  return first_non_finite(data, rows, cols, input);
}

std::optional<Error> check_finite(const float* data, std::size_t rows, std::size_t cols,
                                  const std::string& input) {
  return first_non_finite(data, rows, cols, input);
}

std::string number_text(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  std::string out = std::signbit(x) ? "-" : "";
  double a = std::abs(x);
  if (a == 0) return out + "0";
  // a = m · 10^e with 1 ≤ m < 10, by steps of ten (at most ~330; each step's rounding is far
  // below the sixth digit), then six digits of m, rounded.
  int e = 0;
  for (; a >= 1e10; a /= 1e10) e += 10;
  for (; a >= 10; a /= 10) ++e;
  for (; a < 1e-10; a *= 1e10) e -= 10;
  for (; a < 1; a *= 10) --e;
  long digits = std::lround(a * 1e5);  // 100000 … 1000000
  if (digits == 1000000) digits = 100000, ++e;
  std::string d = std::to_string(digits);
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  if (e < -4 || e >= 6) {  // d.ddde±XX
    const std::string exponent = std::to_string(e < 0 ? -e : e);
    return out + d[0] + (d.size() > 1 ? "." + d.substr(1) : "") + (e < 0 ? "e-" : "e+") +
           (exponent.size() < 2 ? "0" : "") + exponent;
  }
  if (e < 0) return out + "0." + std::string(static_cast<std::size_t>(-e - 1), '0') + d;
  const std::size_t point = static_cast<std::size_t>(e) + 1;  // digits before the point
  if (d.size() <= point) return out + d + std::string(point - d.size(), '0');
  return out + d.substr(0, point) + "." + d.substr(point);
}

Error overflow_error(const std::string& input, const std::string& what, long row, long col,
                     const char* type, const char* advice) {
  return make_error(ErrorCode::not_finite, input, row, col,
                    what + " at row " + std::to_string(row + 1) +
                        (col < 0 ? "" : ", column " + std::to_string(col + 1)) +
                        " is too large to compute (it overflows " + type +
                        "). Use smaller numbers" + advice);
}

std::string quote(std::string_view token) {
  constexpr std::size_t max_chars = 24;
  std::size_t end = 0, chars = 0;
  while (end < token.size() && chars < max_chars) {
    const utf8::CodePoint cp = utf8::decode(token, end);
    end += cp.length ? cp.length : 1;
    ++chars;
  }
  return "\"" + std::string(token.substr(0, end)) + (end < token.size() ? "…\"" : "\"");
}

std::optional<Error> check_size(std::size_t rows, std::size_t cols, const std::string& input) {
  if (size_ok(rows, cols)) return std::nullopt;
  if (rows == 0 || cols == 0) {
    return make_error(ErrorCode::empty_input, input, -1, -1,
                      input + " is empty (" + std::to_string(rows) + "×" + std::to_string(cols) +
                          "); it needs at least one row and one column.");
  }
  return make_error(ErrorCode::too_large, input, -1, -1,
                    input + " is " + std::to_string(rows) + "×" + std::to_string(cols) +
                        ", above the limit of " + std::to_string(Limits::max_tokens) +
                        " rows and " + std::to_string(Limits::max_dim) + " columns.");
}

std::optional<Error> check_qkv_shapes(std::size_t q_rows, std::size_t q_cols, std::size_t k_rows,
                                      std::size_t k_cols, std::size_t v_rows, std::size_t v_cols) {
  const auto shape = [](std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + "×" + std::to_string(cols);
  };
  if (q_cols != k_cols) {
    return make_error(ErrorCode::shape_mismatch, "keys", -1, -1,
                      "queries are " + shape(q_rows, q_cols) + " and keys " +
                          shape(k_rows, k_cols) +
                          ": each query and key needs the same length d_k to take a dot product.");
  }
  if (k_rows != v_rows) {
    return make_error(ErrorCode::shape_mismatch, "values", -1, -1,
                      "keys are " + shape(k_rows, k_cols) + " and values " + shape(v_rows, v_cols) +
                          ": there must be one value row for each key row.");
  }
  return std::nullopt;
}

}  // namespace attn
