#include "common.hpp"

#include <algorithm>
#include <cmath>

namespace attn {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::empty_input: return "empty_input";
    case ErrorCode::shape_mismatch: return "shape_mismatch";
    case ErrorCode::not_finite: return "not_finite";
    case ErrorCode::bad_dimension: return "bad_dimension";
    case ErrorCode::bad_temperature: return "bad_temperature";
    case ErrorCode::zero_vector: return "zero_vector";
    case ErrorCode::too_large: return "too_large";
    case ErrorCode::parse_error: return "parse_error";
    case ErrorCode::bad_argument: return "bad_argument";
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
      return make_error(ErrorCode::not_finite, input, static_cast<long>(i),
                        static_cast<long>(j),
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

Error overflow_error(const std::string& input, const std::string& what, long row, long col,
                     const char* type, const char* advice) {
  return make_error(ErrorCode::not_finite, input, row, col,
                    what + " at row " + std::to_string(row + 1) +
                        (col < 0 ? "" : ", column " + std::to_string(col + 1)) +
                        " is too large to compute (it overflows " + type +
                        "). Use smaller numbers" + advice);
}

std::optional<Error> check_size(std::size_t rows, std::size_t cols, const std::string& input) {
  if (size_ok(rows, cols)) return std::nullopt;
  if (rows == 0 || cols == 0) {
    return make_error(ErrorCode::empty_input, input, -1, -1,
                      input + " is empty (" + std::to_string(rows) + "×" +
                          std::to_string(cols) + "); it needs at least one row and one column.");
  }
  return make_error(ErrorCode::too_large, input, -1, -1,
                    input + " is " + std::to_string(rows) + "×" + std::to_string(cols) +
                        ", above the limit of " + std::to_string(Limits::max_tokens) +
                        " rows and " + std::to_string(Limits::max_dim) + " columns.");
}

}  // namespace attn
