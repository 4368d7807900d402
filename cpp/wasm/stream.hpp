// How numbers cross the JS boundary: as flat runs of doubles in the wasm heap, never as Embind
// vectors or val objects. Passing an 8×4 problem as register_vector costs 12 µs, a typed copy
// into the heap and back 0.5 µs (TOOLCHAIN.md, "Speed in WebAssembly").
//
//   in:  api.js writes each matrix as [rows, cols, row-major data…] into the input buffer and
//        the bindings read them in the same order with a Reader.
//   out: the bindings write a result into the output buffer with a Writer, [length, fields…];
//        api.js copies it out with one slice and reads it back field by field in the order
//        written there (attention() puts its numbers first and slices only its arrays: see
//        attention_steps in bindings.cpp). That order is the contract between bindings.cpp and
//        api.js: change both together.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
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
  // Starts a new result. Its first double is its length, filled in by finish(), so that api.js
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

  // [rows, cols, one byte per entry…], the bytes packed eight to a double, so that api.js can
  // hand them out as a Uint8Array view without converting. Returns the room for the bytes
  // (the padding after them is zero).
  void* mask_slot(std::size_t rows, std::size_t cols) {
    double* p = take(2 + mask_doubles(rows * cols));
    p[0] = static_cast<double>(rows);
    p[1] = static_cast<double>(cols);
    std::fill(p + 2, p + 2 + mask_doubles(rows * cols), 0.0);
    return p + 2;
  }

  void mask(const Mask& m) {
    static_assert(sizeof(bool) == 1);
    std::memcpy(mask_slot(m.shape()[0], m.shape()[1]), m.data(), m.size());  // bool: 0 or 1
  }

  static std::size_t mask_doubles(std::size_t bytes) { return (bytes + 7) / 8; }

 private:
  std::vector<double>& out_;
  std::size_t end_ = 0;  // doubles written so far
};

}  // namespace attn::wasm
