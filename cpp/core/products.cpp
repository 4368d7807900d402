// The float32 matrix product every layer of the trainer and of a GPT-2 model runs through, on
// register tiles.
//
// A plain i-p-j loop reads and writes a whole output row once per term of the sum, and the
// compiler cannot keep that row in registers (it might alias the inputs): it ran at the speed of
// its stores. Here each 4×8 tile of the output stays in eight 4-float registers for the whole sum
// (the tile shape fast_attention.cpp found fastest under wasm), written once at the end. The vector
// type is the one fast_attention.cpp uses: simd128 under em++ -msimd128, SSE natively.
#include "products.hpp"

#include <cstring>

// clang 14 does not unroll fixed-length register-tile loops for wasm on its own (docs/toolchain.md,
// "Unrolling for wasm").
#if defined(__clang__)
#define ATTN_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define ATTN_UNROLL _Pragma("GCC unroll 8")
#else
#define ATTN_UNROLL
#endif

namespace attn::ops {

namespace {

typedef float f32x4 __attribute__((vector_size(16)));

inline f32x4 load(const float* p) {
  f32x4 x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
inline void store(float* p, f32x4 x) { std::memcpy(p, &x, sizeof x); }

constexpr std::size_t kRows = 4, kCols = 8;

// One tile: rows r0 … r0 + R − 1 of c, columns j0 … j0 + 7; `bj` is b's column j0 (its rows
// b_row apart), `cj` is c's.
template <std::size_t R>
void tile(const float* a, std::size_t a_row, std::size_t a_inner, const float* bj,
          std::size_t b_row, float* cj, std::size_t c_row, std::size_t r0, std::size_t inner,
          bool accumulate) {
  f32x4 acc[R][2];
  ATTN_UNROLL
  for (std::size_t r = 0; r < R; ++r) {
    float* out = cj + (r0 + r) * c_row;
    acc[r][0] = accumulate ? load(out) : f32x4{0, 0, 0, 0};
    acc[r][1] = accumulate ? load(out + 4) : f32x4{0, 0, 0, 0};
  }
  for (std::size_t i = 0; i < inner; ++i) {
    const f32x4 b0 = load(bj + i * b_row), b1 = load(bj + i * b_row + 4);
    ATTN_UNROLL
    for (std::size_t r = 0; r < R; ++r) {
      const float x = a[(r0 + r) * a_row + i * a_inner];
      const f32x4 xs = {x, x, x, x};
      acc[r][0] += xs * b0;
      acc[r][1] += xs * b1;
    }
  }
  ATTN_UNROLL
  for (std::size_t r = 0; r < R; ++r) {
    float* out = cj + (r0 + r) * c_row;
    store(out, acc[r][0]);
    store(out + 4, acc[r][1]);
  }
}

// One row of c from b read front to back, four of its rows at a time: a vector times a matrix
// (generation's one new token), where a tile would walk b's columns 8 floats at a time, a whole
// row of b apart, and wait on memory at every step. Each sum is still added term by term in order
// of i, so the numbers are the tile's to the bit.
void row_times(const float* a, std::size_t a_inner, const float* b, std::size_t b_row, float* out,
               std::size_t inner, std::size_t cols, bool accumulate) {
  if (!accumulate) std::memset(out, 0, cols * sizeof(float));
  const std::size_t wide = cols / 4 * 4;
  std::size_t i = 0;
  for (; i + 4 <= inner; i += 4) {
    const float x[4] = {a[i * a_inner], a[(i + 1) * a_inner], a[(i + 2) * a_inner],
                        a[(i + 3) * a_inner]};
    const f32x4 x0 = {x[0], x[0], x[0], x[0]}, x1 = {x[1], x[1], x[1], x[1]},
                x2 = {x[2], x[2], x[2], x[2]}, x3 = {x[3], x[3], x[3], x[3]};
    // Four row pointers, each indexed by j alone: Emscripten turns off loop strength reduction,
    // so an address such as b0 + 2·b_row + j would be computed again at every step.
    const float *b0 = b + i * b_row, *b1 = b0 + b_row, *b2 = b1 + b_row, *b3 = b2 + b_row;
    std::size_t j = 0;
    for (; j + 8 <= wide; j += 8) {
      f32x4 p = load(out + j), q = load(out + j + 4);
      p += x0 * load(b0 + j);
      q += x0 * load(b0 + j + 4);
      p += x1 * load(b1 + j);
      q += x1 * load(b1 + j + 4);
      p += x2 * load(b2 + j);
      q += x2 * load(b2 + j + 4);
      p += x3 * load(b3 + j);
      q += x3 * load(b3 + j + 4);
      store(out + j, p);
      store(out + j + 4, q);
    }
    for (; j < wide; j += 4) {
      f32x4 acc = load(out + j);
      acc += x0 * load(b0 + j);
      acc += x1 * load(b1 + j);
      acc += x2 * load(b2 + j);
      acc += x3 * load(b3 + j);
      store(out + j, acc);
    }
    for (j = wide; j < cols; ++j)
      out[j] = (((out[j] + x[0] * b0[j]) + x[1] * b1[j]) + x[2] * b2[j]) + x[3] * b3[j];
  }
  for (; i < inner; ++i) {
    const float x = a[i * a_inner];
    const float* bi = b + i * b_row;
    for (std::size_t j = 0; j < cols; ++j) out[j] += x * bi[j];
  }
}

}  // namespace

void gemm_f32(const float* a, std::size_t a_row, std::size_t a_inner, const float* b,
              std::size_t b_row, float* c, std::size_t c_row, std::size_t rows, std::size_t inner,
              std::size_t cols, bool accumulate) {
  if (rows < kRows) {
    for (std::size_t r = 0; r < rows; ++r)
      row_times(a + r * a_row, a_inner, b, b_row, c + r * c_row, inner, cols, accumulate);
    return;
  }
  const std::size_t wide = cols / kCols * kCols;
  const std::size_t tiled = rows / kRows * kRows;
  for (std::size_t j0 = 0; j0 < wide; j0 += kCols) {
    for (std::size_t r0 = 0; r0 < tiled; r0 += kRows)
      tile<kRows>(a, a_row, a_inner, b + j0, b_row, c + j0, c_row, r0, inner, accumulate);
    for (std::size_t r0 = tiled; r0 < rows; ++r0)
      tile<1>(a, a_row, a_inner, b + j0, b_row, c + j0, c_row, r0, inner, accumulate);
  }
  if (wide < cols)
    gemm_scalar(a, a_row, a_inner, b, b_row, c, c_row, rows, inner, cols, wide, accumulate);
}

void gemm_packed(const float* a, std::size_t a_row, const float* strips, float* c,
                 std::size_t c_row, std::size_t rows, std::size_t inner, std::size_t cols,
                 bool accumulate) {
  const std::size_t tiled = rows / kRows * kRows;
  for (std::size_t j0 = 0; j0 < cols; j0 += kCols) {
    const float* strip = strips + j0 * inner;  // strip j0 / 8: inner rows of 8
    if (j0 + kCols <= cols) {
      for (std::size_t r0 = 0; r0 < tiled; r0 += kRows)
        tile<kRows>(a, a_row, 1, strip, kCols, c + j0, c_row, r0, inner, accumulate);
      // One token (generation) or the last few: a strip's 8 sums stay in two registers while
      // the strip streams past, where a row of weights would add into the whole output row.
      for (std::size_t r0 = tiled; r0 < rows; ++r0)
        tile<1>(a, a_row, 1, strip, kCols, c + j0, c_row, r0, inner, accumulate);
    } else {  // the last columns, fewer than 8: their strip's padding is not written out
      gemm_scalar(a, a_row, std::size_t{1}, strip, kCols, c + j0, c_row, rows, inner, cols - j0, 0,
                  accumulate);
    }
  }
}

}  // namespace attn::ops
