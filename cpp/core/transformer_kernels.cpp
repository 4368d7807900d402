// The float32 matrix product every layer of the trainer runs through, on register tiles.
//
// A plain i-p-j loop reads and writes a whole output row once per term of the sum, and the
// compiler cannot keep that row in registers (it might alias the inputs): it ran at the speed of
// its stores. Here each 4×8 tile of the output stays in eight 4-float registers for the whole sum
// (the tile shape fast_attention.cpp found fastest under wasm), written once at the end. The vector
// type is the one fast_attention.cpp uses: simd128 under em++ -msimd128, SSE natively.
#include <cstring>

#include "transformer_ops.hpp"

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

// One tile: rows r0 … r0 + R − 1, columns j0 … j0 + 7.
template <std::size_t R>
void tile(const float* a, std::size_t a_row, std::size_t a_inner, const float* b, std::size_t b_row,
          float* c, std::size_t c_row, std::size_t r0, std::size_t j0, std::size_t inner,
          bool accumulate) {
  f32x4 acc[R][2];
  ATTN_UNROLL
  for (std::size_t r = 0; r < R; ++r) {
    float* out = c + (r0 + r) * c_row + j0;
    acc[r][0] = accumulate ? load(out) : f32x4{0, 0, 0, 0};
    acc[r][1] = accumulate ? load(out + 4) : f32x4{0, 0, 0, 0};
  }
  for (std::size_t i = 0; i < inner; ++i) {
    const f32x4 b0 = load(b + i * b_row + j0), b1 = load(b + i * b_row + j0 + 4);
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
    float* out = c + (r0 + r) * c_row + j0;
    store(out, acc[r][0]);
    store(out + 4, acc[r][1]);
  }
}

}  // namespace

void gemm_f32(const float* a, std::size_t a_row, std::size_t a_inner, const float* b,
              std::size_t b_row, float* c, std::size_t c_row, std::size_t rows, std::size_t inner,
              std::size_t cols, bool accumulate) {
  const std::size_t wide = cols / kCols * kCols;
  std::size_t r0 = 0;
  for (; r0 + kRows <= rows; r0 += kRows)
    for (std::size_t j0 = 0; j0 < wide; j0 += kCols)
      tile<kRows>(a, a_row, a_inner, b, b_row, c, c_row, r0, j0, inner, accumulate);
  for (; r0 < rows; ++r0)
    for (std::size_t j0 = 0; j0 < wide; j0 += kCols)
      tile<1>(a, a_row, a_inner, b, b_row, c, c_row, r0, j0, inner, accumulate);
  if (wide < cols)
    gemm_scalar(a, a_row, a_inner, b, b_row, c, c_row, rows, inner, cols, wide, accumulate);
}

}  // namespace attn::ops
