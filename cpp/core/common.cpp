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
  // Written into a buffer: built with std::string operations, which -Oz still inlines
  // (cpp/wasm/CMakeLists.txt says why), this function was 1.3 KB of the engine.
  char out[16];  // at most "-1.23457e-308"
  char* p = out;
  if (std::signbit(x)) *p++ = '-';
  double a = std::abs(x);
  if (a == 0) {
    *p++ = '0';
    return std::string(out, p);
  }
  // a = m · 10^e with 1 ≤ m < 10, by steps of ten (at most ~330; each step's rounding is far
  // below the sixth digit), then six digits of m, rounded.
  int e = 0;
  for (; a >= 1e10; a /= 1e10) e += 10;
  for (; a >= 10; a /= 10) ++e;
  for (; a < 1e-10; a *= 1e10) e -= 10;
  for (; a < 1; a *= 10) --e;
  long digits = std::lround(a * 1e5);  // 100000 … 1000000
  if (digits == 1000000) digits = 100000, ++e;
  char d[6];
  for (int i = 5; i >= 0; --i, digits /= 10) d[i] = static_cast<char>('0' + digits % 10);
  int n = 6;  // the digits that matter: no trailing zeros
  while (n > 1 && d[n - 1] == '0') --n;
  if (e < -4 || e >= 6) {  // d.ddde±XX
    *p++ = d[0];
    if (n > 1) *p++ = '.';
    for (int i = 1; i < n; ++i) *p++ = d[i];
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    const int x10 = e < 0 ? -e : e;
    if (x10 >= 100) *p++ = static_cast<char>('0' + x10 / 100);
    *p++ = static_cast<char>('0' + x10 / 10 % 10);
    *p++ = static_cast<char>('0' + x10 % 10);
  } else if (e < 0) {  // 0.000ddd
    *p++ = '0';
    *p++ = '.';
    for (int i = -1; i > e; --i) *p++ = '0';
    for (int i = 0; i < n; ++i) *p++ = d[i];
  } else {  // e + 1 digits before the point
    for (int i = 0; i <= e; ++i) *p++ = i < n ? d[i] : '0';
    if (n > e + 1) *p++ = '.';
    for (int i = e + 1; i < n; ++i) *p++ = d[i];
  }
  return std::string(out, p);
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
