// Types shared by every part of the core: matrices, errors as values, and the size limits.
//
// The core never throws across its API. Every entry point returns a Result<T>: either a value,
// or an Error that says what went wrong and where (which input, which row, which column), in
// words a learner can act on.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <xtensor/xtensor.hpp>

namespace attn {

using Matrix = xt::xtensor<double, 2>;  // (rows, cols), row-major
using Vector = xt::xtensor<double, 1>;  // (len)
using Mask = xt::xtensor<bool, 2>;      // (n, m); true = query i may attend to key j

enum class ErrorCode {
  empty_input,      // a matrix, text or file with nothing in it
  shape_mismatch,   // e.g. Q has 3 columns but K has 4
  not_finite,       // NaN or ±Inf in an input, or a step that overflows
  bad_dimension,    // d_k = 0, heads = 0, a dimension that does not divide, …
  bad_temperature,  // temperature ≤ 0 (or not finite)
  zero_vector,      // cosine similarity of a row of length zero
  too_large,        // above a documented limit (see Limits)
  parse_error,      // text that is not a number, a ragged row, bad JSON, …
  bad_argument,     // anything else the caller got wrong
};

// Stable, machine-readable name of a code ("shape_mismatch"), used at the JS boundary.
const char* to_string(ErrorCode code);

// What went wrong and where. `row` and `col` are 0-based indices into `input` (for text inputs:
// the line and the character column), or -1 when they do not apply. `message` is a complete
// sentence for the reader and numbers rows and columns from 1, as people do.
struct Error {
  ErrorCode code = ErrorCode::bad_argument;
  std::string message;
  std::string input;  // "queries", "keys", "values", "mask", "temperature", "text", …
  long row = -1;
  long col = -1;
};

// A value or an error. T must be default-constructible.
template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}                  // NOLINT: implicit on purpose
  Result(Error error) : ok_(false), error_(std::move(error)) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const T& value() const& { return value_; }
  T& value() & { return value_; }
  T&& value() && { return std::move(value_); }
  const T& operator*() const& { return value_; }
  const T* operator->() const { return &value_; }
  const Error& error() const { return error_; }

 private:
  bool ok_ = true;
  T value_{};
  Error error_{};
};

// Documented caps. Above them the core returns ErrorCode::too_large instead of trying.
// They keep the explainer path (which keeps every step, in double) interactive and its memory
// bounded: n·m cells of several n×m matrices, and per-head copies for multi-head.
struct Limits {
  static constexpr std::size_t max_tokens = 1024;     // n and m (rows of Q, K, V, X)
  static constexpr std::size_t max_dim = 1024;        // d_k, d_v, d_model, features
  static constexpr std::size_t max_cells = 1u << 20;  // n·m, and rows·cols of any matrix
  static constexpr std::size_t max_heads = 16;
  static constexpr std::size_t max_text_bytes = 1u << 20;          // typed or pasted text
  static constexpr std::size_t max_embedding_bytes = 64u << 20;    // a word-vector file
  static constexpr std::size_t max_words = 200000;                 // words of a word-vector file
  static constexpr std::size_t max_vector_file_bytes = 16u << 20;  // a packed word-vector file
  static constexpr std::size_t max_neighbours = 50;                // nearest_words' k
};

// Row i of a row-major matrix, as a pointer. Inner loops index it directly: xtensor's two-index
// operator() recomputes strides on every access, which cost a third of a small attention call
// (and Emscripten turns off the loop strength reduction that would otherwise hide it).
template <class T>
T* row_of(xt::xtensor<T, 2>& a, std::size_t i) {
  return a.data() + i * a.shape()[1];
}
template <class T>
const T* row_of(const xt::xtensor<T, 2>& a, std::size_t i) {
  return a.data() + i * a.shape()[1];
}

// Builds an Error. `row`/`col` are 0-based; the message is written by the caller.
inline Error make_error(ErrorCode code, std::string input, long row, long col,
                        std::string message) {
  return Error{code, std::move(message), std::move(input), row, col};
}

// The first NaN or ±Inf in `m`, as an error naming `input` and the cell; nullopt if all finite.
std::optional<Error> check_finite(const Matrix& m, const std::string& input);
// The same for a row-major (rows, cols) matrix the caller holds as a pointer.
std::optional<Error> check_finite(const double* data, std::size_t rows, std::size_t cols,
                                  const std::string& input);
std::optional<Error> check_finite(const float* data, std::size_t rows, std::size_t cols,
                                  const std::string& input);

// A step whose inputs were finite can still overflow (1e200 · 1e200 in a double, 1e20 · 1e20 in
// float32): "<what> at row i[, column j] is too large to compute (it overflows <type>). Use
// smaller numbers<advice>", a not_finite error naming `input` and the cell (col < 0: the row).
Error overflow_error(const std::string& input, const std::string& what, long row, long col,
                     const char* type, const char* advice = ".");

// x as a reader would write it, for messages: printf's %g (six significant digits, no trailing
// zeros, an exponent below 1e-4 and from 1e6: 0, -1, 0.125, 2.5e-300, 1e+06), and NaN, Infinity,
// -Infinity as JavaScript writes them. Written out rather than with snprintf, whose formatting
// code was 6 KB of the engine's gzipped size.
std::string number_text(double x);

// A word or token as a message quotes it: "cat". One longer than 24 characters is cut (at a
// character boundary) and ends with …, so that the message stays readable.
std::string quote(std::string_view token);

// Whether a rows×cols matrix is non-empty and within Limits: check_size() without building the
// input's name, for hot paths that ask check_size() only for the error.
inline bool size_ok(std::size_t rows, std::size_t cols) {
  return rows > 0 && cols > 0 && rows <= Limits::max_tokens && cols <= Limits::max_dim &&
         rows * cols <= Limits::max_cells;
}

// Whether queries (n, d_k), keys (m, d_k) and values (m, d_v) fit together: a shape_mismatch
// naming "keys" (another length than the queries') or "values" (another count of rows than the
// keys), with both shapes in the message; nullopt if they fit. Shared by attention() and the
// fast path, so both say it in the same words.
std::optional<Error> check_qkv_shapes(std::size_t q_rows, std::size_t q_cols, std::size_t k_rows,
                                      std::size_t k_cols, std::size_t v_rows, std::size_t v_cols);

// A rows×cols matrix within Limits, or an error naming `input`.
std::optional<Error> check_size(std::size_t rows, std::size_t cols, const std::string& input);

}  // namespace attn
