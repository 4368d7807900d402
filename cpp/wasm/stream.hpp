// How numbers cross the JS boundary: as flat runs of doubles in the wasm heap, never as Embind
// vectors or val objects. Passing an 8×4 problem as register_vector costs 12 µs, a typed copy
// into the heap and back 0.5 µs (docs/toolchain.md, "Crossing the JS boundary").
//
// Both modules, the engine and the trainer, cross it this way, through the buffers of boundary.hpp.
//
//   in:  api/matrices.js writes each matrix as [rows, cols, row-major data…] (and plain numbers
//        as themselves) into the input buffer and the bindings read them in the same order with
//        a Reader.
//   out: the bindings write a result into the output buffer with a Writer, [length, fields…];
//        api/ copies it out with one slice and reads it back field by field in the order
//        written; text goes as its UTF-8 bytes (Writer::text). The steps of attention, which
//        attention() and multiHead() share, have one layout with named offsets: StepsLayout
//        below, read by api/steps.js.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attention.hpp"

namespace attn::wasm {

class Reader {
 public:
  explicit Reader(const double* p) : p_(p) {}

  double number() { return *p_++; }

  Matrix matrix() {
    const auto rows = static_cast<std::size_t>(number());
    const auto cols = static_cast<std::size_t>(number());
    Matrix m = Matrix::from_shape({rows, cols});  // (rows, cols)
    std::copy(p_, p_ + rows * cols, m.data());
    p_ += rows * cols;
    return m;
  }

  MatrixView view() {  // a matrix where it lies in the buffer, not copied
    MatrixView m;
    m.rows = static_cast<std::size_t>(number());
    m.cols = static_cast<std::size_t>(number());
    m.data = p_;
    p_ += m.rows * m.cols;
    return m;
  }

  Mask mask() {  // written as a matrix of 0 and 1
    const auto rows = static_cast<std::size_t>(number());
    const auto cols = static_cast<std::size_t>(number());
    Mask m = Mask::from_shape({rows, cols});  // (n, m)
    std::transform(p_, p_ + rows * cols, m.data(), [](double x) { return x != 0; });
    p_ += rows * cols;
    return m;
  }

 private:
  const double* p_;
};

class Writer {
 public:
  // Starts a new result. Its first double is its length, filled in by finish(), so that api/
  // can copy the whole result out of the heap with one slice.
  explicit Writer(std::vector<double>& out) : out_(out) { take(1); }

  // The byte address of the finished result.
  std::uintptr_t finish() {
    out_[0] = static_cast<double>(end_ - 1);
    return reinterpret_cast<std::uintptr_t>(out_.data());
  }

  // Room for the next `count` doubles, for the caller to fill. The buffer's size is its
  // high-water mark (it never shrinks and is never cleared), so a warm engine neither allocates
  // nor zero-fills here. A pointer take() returned is valid until a later take() grows the
  // buffer: reserve() the whole result first to hold several at once.
  double* take(std::size_t count) {
    reserve(count);
    double* p = out_.data() + end_;
    end_ += count;
    return p;
  }

  // Makes room for `count` more doubles, so that taking them moves nothing.
  void reserve(std::size_t count) {
    if (end_ + count > out_.size()) out_.resize(std::max(end_ + count, 2 * out_.size()));
  }

  void number(double x) { *take(1) = x; }

  void values(const double* p, std::size_t size) { std::copy(p, p + size, take(size)); }

  template <class Range>
  void values(const Range& r) {  // small ranges of anything convertible to double
    double* p = take(std::size(r));
    for (const auto& x : r) *p++ = static_cast<double>(x);
  }

  void vector(const Vector& v) {  // [len, data…]
    number(static_cast<double>(v.size()));
    values(v.data(), v.size());
  }

  void matrix(const Matrix& m) {  // [rows, cols, data…]
    std::copy(m.data(), m.data() + m.size(), matrix_slot(m.shape()[0], m.shape()[1]));
  }

  // Writes [rows, cols] and returns the room for the rows·cols values that follow.
  double* matrix_slot(std::size_t rows, std::size_t cols) {
    double* p = take(2 + rows * cols);
    p[0] = static_cast<double>(rows);
    p[1] = static_cast<double>(cols);
    return p + 2;
  }

  // Bytes travel packed eight to a double, so that api/ can hand them out as a Uint8Array view
  // without converting.
  static std::size_t mask_doubles(std::size_t bytes) { return (bytes + 7) / 8; }

  // Text as [bytes, its UTF-8 packed like a mask's bytes]: it travels in the result it belongs
  // to, so no string outlives the call (api/matrices.js, Output.str, decodes it).
  void text(std::string_view s) {
    number(static_cast<double>(s.size()));
    double* p = take(mask_doubles(s.size()));
    if (!s.empty()) p[mask_doubles(s.size()) - 1] = 0;
    std::memcpy(p, s.data(), s.size());
  }

 private:
  std::vector<double>& out_;
  std::size_t end_ = 0;  // doubles written so far
};

// The steps of one head of attention as they cross the boundary, in doubles from their start:
//
//   [n, m, d_k, d_v, divisor | row stats, row_stat a query row | the arrays, row-major, in the
//    order below; the mask as one byte per entry, eight to a double]
//
// attention() and multiHead() both write it (convert_steps.cpp); api/steps.js reads it with the
// same list, in the same order. A field is added here, and there.
struct StepsLayout {
  static constexpr std::size_t header = 5;    // n, m, d_k, d_v, divisor
  static constexpr std::size_t row_stat = 7;  // put_row_stats

  std::size_t row_stats;    // (n, row_stat)
  std::size_t queries;      // (n, d_k)
  std::size_t keys;         // (m, d_k)
  std::size_t values;       // (m, d_v)
  std::size_t query_norms;  // (n)
  std::size_t key_norms;    // (m)
  std::size_t scores;       // (n, m)
  std::size_t scaled;       // (n, m)
  std::size_t masked;       // (n, m)
  std::size_t exps;         // (n, m)
  std::size_t weights;      // (n, m)
  std::size_t output;       // (n, d_v)
  std::size_t visible;      // (n, m) bytes
  std::size_t size;         // doubles in all

  StepsLayout(std::size_t n, std::size_t m, std::size_t d_k, std::size_t d_v) {
    std::size_t at = header;
    const auto next = [&at](std::size_t count) { return std::exchange(at, at + count); };
    row_stats = next(row_stat * n);
    queries = next(n * d_k);
    keys = next(m * d_k);
    values = next(m * d_v);
    query_norms = next(n);
    key_norms = next(m);
    scores = next(n * m);
    scaled = next(n * m);
    masked = next(n * m);
    exps = next(n * m);
    weights = next(n * m);
    output = next(n * d_v);
    visible = next(Writer::mask_doubles(n * m));
    size = at;
  }
};

// Writes the header of the steps at p (StepsLayout::header doubles).
inline void put_steps_header(double* p, std::size_t n, std::size_t m, std::size_t d_k,
                             std::size_t d_v, double divisor) {
  p[0] = static_cast<double>(n), p[1] = static_cast<double>(m);
  p[2] = static_cast<double>(d_k), p[3] = static_cast<double>(d_v);
  p[4] = divisor;
}

// Each row's stats as StepsLayout::row_stat doubles, into p (row_stat · n).
inline void put_row_stats(double* p, const RowStats* rows, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i, p += StepsLayout::row_stat) {
    const RowStats& r = rows[i];
    p[0] = r.max, p[1] = r.exp_sum, p[2] = r.score_sum, p[3] = r.weight_sum, p[4] = r.entropy;
    p[5] = static_cast<double>(r.visible);
    p[6] = static_cast<double>(r.problem);  // an index into enumNames().problem
  }
}

// Writes the mask's bytes at p (StepsLayout's visible), zero-padding the last double.
inline void put_mask_bytes(double* p, const bool* visible, std::size_t entries) {
  static_assert(sizeof(bool) == 1);
  if (entries > 0) p[Writer::mask_doubles(entries) - 1] = 0;
  std::memcpy(p, visible, entries);  // bool: 0 or 1
}

}  // namespace attn::wasm
