// How numbers cross the JS boundary: as flat runs of doubles in the wasm heap, never as Embind
// vectors or val objects. Passing an 8×4 problem as register_vector costs 12 µs, a typed copy
// into the heap and back 0.5 µs (TOOLCHAIN.md, "Speed in WebAssembly").
//
//   in:  api.js writes each matrix as [rows, cols, row-major data…] into the input buffer and
//        the bindings read them in the same order with a Reader.
//   out: the bindings write a result into the output buffer with a Writer, [length, fields…];
//        api.js copies it out with one slice and reads it back field by field in the order
//        written there. That order is the contract between
//        bindings.cpp and api.js: change both together.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
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
  // can copy the whole result out of the heap with one slice. The buffer keeps its capacity, so
  // a warm engine does not allocate here.
  explicit Writer(std::vector<double>& out) : out_(out) {
    out_.clear();
    out_.push_back(0);
  }

  // The byte address of the finished result.
  std::uintptr_t finish() {
    out_[0] = static_cast<double>(out_.size() - 1);
    return reinterpret_cast<std::uintptr_t>(out_.data());
  }

  void number(double x) { out_.push_back(x); }

  void values(const double* p, std::size_t size) { out_.insert(out_.end(), p, p + size); }

  template <class Range>
  void values(const Range& r) {  // small ranges of anything convertible to double
    for (const auto& x : r) out_.push_back(static_cast<double>(x));
  }

  void vector(const Vector& v) {  // [len, data…]
    number(static_cast<double>(v.size()));
    values(v.data(), v.size());
  }

  void matrix(const Matrix& m) {  // [rows, cols, data…]
    number(static_cast<double>(m.shape()[0]));
    number(static_cast<double>(m.shape()[1]));
    values(m.data(), m.size());
  }

  // [rows, cols, one byte per entry…], the bytes packed eight to a double, so that api.js can
  // hand them out as a Uint8Array view without converting.
  void mask(const Mask& m) {
    number(static_cast<double>(m.shape()[0]));
    number(static_cast<double>(m.shape()[1]));
    static_assert(sizeof(bool) == 1);
    const std::size_t at = out_.size();
    out_.resize(at + (m.size() + 7) / 8);  // zero-filled
    std::memcpy(out_.data() + at, m.data(), m.size());  // bool is one byte, 0 or 1
  }

 private:
  std::vector<double>& out_;
};

}  // namespace attn::wasm
