#include "fast_attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

// clang 14 does not unroll fixed-length register-tile loops for wasm on its own, and a tile left
// rolled ran ~50× slower there (docs/toolchain.md, "Unrolling for wasm"); GCC spells the pragma
// differently.
#if defined(__clang__)
#define ATTN_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define ATTN_UNROLL _Pragma("GCC unroll 8")
#else
#define ATTN_UNROLL
#endif

// The kernels stay separate functions: V8 allocates registers per function, and inlined into
// the driver loop the register tile spilled to the stack.
#if defined(__GNUC__)
#define ATTN_KERNEL __attribute__((noinline))
#else
#define ATTN_KERNEL
#endif

// What builds an error message runs once per call at most, so it is compiled for size and kept
// out of line: inlined at -O2, the string code of two overflow checks cost the engine 0.7 KB.
#if defined(__clang__)
#define ATTN_COLD __attribute__((noinline, cold, minsize))
#elif defined(__GNUC__)
#define ATTN_COLD __attribute__((noinline, cold))
#else
#define ATTN_COLD
#endif

namespace attn {
namespace {

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::uint32_t u32x4 __attribute__((vector_size(16)));

constexpr std::size_t kRows = 4;           // query rows per register tile
constexpr std::size_t kPanel = 8;          // keys per packed panel = columns per register tile
constexpr std::size_t kStreamBlock = 256;  // keys per online-softmax block when streaming
constexpr float kInf = std::numeric_limits<float>::infinity(), kMinusInf = -kInf;

// memcpy loads and stores: no alignment or aliasing assumptions; they compile to one
// v128.load / movups.
inline f32x4 load(const float* p) {
  f32x4 x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
inline void store(float* p, f32x4 x) { std::memcpy(p, &x, sizeof x); }
inline f32x4 splat(float x) { return f32x4{x, x, x, x}; }
// The larger of a and b lane by lane, as wasm's "pseudo" max: a < b ? b : a, so a NaN in a is
// kept and a NaN in b ignored. wasm's f32x4.max, which propagates NaN from either side, costs V8
// about eight instructions on x64; the pseudo-max is one maxps.
inline f32x4 max(f32x4 a, f32x4 b) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_pmax_f32x4(a, b);
#else
  return a < b ? b : a;  // lane by lane: the comparison's lanes are all 1s or all 0s
#endif
}

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// e^x, in place, for kRows vectors of four floats at once, for x ≤ 0 (a score minus its row's
// max), as 2^y with y = x·log₂e = n + r, n an integer and |r| ≤ 1/2: 2^r = 1 + r·q(r) with q a
// degree-4 minimax polynomial (relative error 1.1e-7, under float32's rounding), and n added
// straight into the exponent bits. Rounding y costs |x|·6e-8 of relative error: 5e-6 at e^-80,
// 3e-7 where weights matter (x > −5). y is first raised to −127, where r = 0 and the polynomial
// is exactly 1, whose exponent less 127 leaves the bits of +0: anything at or below e^-88.03, a
// masked score's −∞ included, comes out exactly 0 and stays out of every sum, with no compare
// and no select; just above, a tiny non-negative denormal. A NaN stays NaN.
// Each step runs over all the vectors before the next step: the four dependency chains
// interleave, so the polynomial's latency overlaps instead of stalling one long chain.
inline void exp_rows(f32x4 (&x)[kRows]) {
  const f32x4 magic = splat(12582912.0f);  // 1.5·2²³: adding it rounds to an integer
  u32x4 exponent[kRows];
  f32x4 r[kRows], p[kRows];
  ATTN_UNROLL
  for (std::size_t k = 0; k < kRows; ++k) {
    const f32x4 y = max(x[k] * splat(1.44269504088896341f), splat(-127.0f));
    const f32x4 t = y + magic;
    // t's bits are magic's plus n, and magic's low 9 bits are 0: shifted left by 23, t's bits
    // are n in the exponent field, ready to add.
    exponent[k] = (u32x4)t << 23;
    r[k] = y - (t - magic);
    p[k] = splat(1.3264727313e-3f);
  }
  for (const float c :
       {9.6715129912e-3f, 5.5507335812e-2f, 2.4022242427e-1f, 6.9314700365e-1f, 1.0f}) {
    ATTN_UNROLL
    for (std::size_t k = 0; k < kRows; ++k) p[k] = p[k] * r[k] + splat(c);
  }
  ATTN_UNROLL
  for (std::size_t k = 0; k < kRows; ++k) x[k] = (f32x4)((u32x4)p[k] + exponent[k]);
}

inline float horizontal_max(f32x4 x) {
  return std::max(std::max(x[0], x[1]), std::max(x[2], x[3]));
}
inline float horizontal_sum(f32x4 x) { return (x[0] + x[1]) + (x[2] + x[3]); }

// Every hot loop below advances its pointers by addition. Emscripten turns off LLVM's loop
// strength reduction, so an address computed from the loop counter (base + t·stride) costs
// shifts and adds every iteration, and those compete with the vector arithmetic for ports. The
// two innermost loops also end on a pointer rather than a counter: one add fewer per step, and
// V8 kept the counter's bound on the stack.

// Features t..t+3 of four rows (`src` at feature t of the first, rows `stride` floats apart),
// times `scale`, stored feature by feature: feature t + f of the four rows at dst + f·dst_stride.
// The 4×4 block is loaded row by row and transposed with shuffles.
inline void interleave4(const float* src, std::size_t stride, float* dst, std::size_t dst_stride,
                        float scale) {
  f32x4 a[4];
  for (std::size_t r = 0; r < 4; ++r) a[r] = load(src + r * stride);
  const f32x4 t0 = __builtin_shufflevector(a[0], a[1], 0, 4, 1, 5);  // a00 a10 a01 a11
  const f32x4 t1 = __builtin_shufflevector(a[2], a[3], 0, 4, 1, 5);  // a20 a30 a21 a31
  const f32x4 t2 = __builtin_shufflevector(a[0], a[1], 2, 6, 3, 7);  // a02 a12 a03 a13
  const f32x4 t3 = __builtin_shufflevector(a[2], a[3], 2, 6, 3, 7);  // a22 a32 a23 a33
  const f32x4 k = splat(scale);
  store(dst, __builtin_shufflevector(t0, t1, 0, 1, 4, 5) * k);
  store(dst + dst_stride, __builtin_shufflevector(t0, t1, 2, 3, 6, 7) * k);
  store(dst + 2 * dst_stride, __builtin_shufflevector(t2, t3, 0, 1, 4, 5) * k);
  store(dst + 3 * dst_stride, __builtin_shufflevector(t2, t3, 2, 3, 6, 7) * k);
}

// Keys into panels of 8: panel p holds keys 8p..8p+7 as (d, 8), zero-padded past m, so the
// score tile reads feature t of eight keys as two contiguous vectors. Whole panels go four
// features at a time, as two 4×4 transposes (a float at a time, 64 × 64 keys took 4.4 µs).
void pack_keys(const FastProblem& p, std::vector<float>& panels) {
  const std::size_t d = p.d;
  panels.assign(round_up(p.m, kPanel) * d, 0.0f);
  for (std::size_t j0 = 0; j0 < p.m; j0 += kPanel) {
    float* const panel = panels.data() + j0 * d;
    const float* const keys = p.k + j0 * d;
    const std::size_t count = std::min(kPanel, p.m - j0);
    std::size_t t = 0;
    if (count == kPanel) {
      for (; t + 4 <= d; t += 4) {
        interleave4(keys + t, d, panel + t * kPanel, kPanel, 1.0f);              // keys 0..3
        interleave4(keys + 4 * d + t, d, panel + t * kPanel + 4, kPanel, 1.0f);  // keys 4..7
      }
    }
    for (std::size_t j = 0; j < count; ++j)
      for (std::size_t u = t; u < d; ++u) panel[u * kPanel + j] = keys[j * d + u];
  }
}

// V in panels of 8 columns: panel c holds columns 8c..8c+7 of every key as (m rounded up to 8,
// 8), zero-padded past d_v and past m, so the value tile reads one contiguous stream of whole
// vectors per panel (a row of V, d_v floats apart, would touch a new cache line per key) and the
// padding keys (probability 0) meet zeros, never stale memory.
void pack_values(const FastProblem& p, std::size_t d_v8, std::vector<float>& values) {
  const std::size_t panel = round_up(p.m, kPanel) * kPanel;  // floats per panel
  values.assign(panel * (d_v8 / kPanel), 0.0f);
  for (std::size_t j = 0; j < p.m; ++j) {
    const float* row = p.v + j * p.d_v;
    float* to = values.data() + j * kPanel;
    std::size_t c = 0;
    for (; c + kPanel <= p.d_v; c += kPanel, to += panel) {
      store(to, load(row + c));
      store(to + 4, load(row + c + 4));
    }
    for (std::size_t t = 0; c + t < p.d_v; ++t) to[t] = row[c + t];
  }
}

// The query tile, times the scale, interleaved as (d, 4): feature t of the four queries at
// q_panel[4t..4t+3], zero past the last query, so the score tile splats each with a
// load-and-splat and its dot products come out scaled. A whole tile goes four features at a
// time, as a 4×4 transpose.
void pack_queries(const FastProblem& p, std::size_t i0, std::size_t rows, float* q_panel) {
  static_assert(kRows == 4, "a tile of queries is transposed as 4×4 blocks");
  const std::size_t d = p.d;
  const float* const q = p.q + i0 * d;
  std::size_t t = 0;
  if (rows == kRows) {
    for (; t + 4 <= d; t += 4) interleave4(q + t, d, q_panel + t * kRows, kRows, p.scale);
  }
  for (; t < d; ++t)
    for (std::size_t r = 0; r < kRows; ++r)
      q_panel[t * kRows + r] = r < rows ? q[r * d + t] * p.scale : 0.0f;
}

// s (4 rows, `stride` apart) = the (scaled) query tile · the keys of `panel_count` panels.
// Per feature: two vector loads of eight keys and four load-and-splats of the queries (which use
// load ports rather than the shuffle port a lane broadcast needs) feed eight multiply-adds into
// the 4×8 register tile. That is 14 of the 15 vector registers V8 hands out on x64.
ATTN_KERNEL void score_tile(const float* q_panel, std::size_t d, const float* panels,
                            std::size_t panel_count, float* s, std::size_t stride) {
  for (std::size_t pb = 0; pb < panel_count; ++pb, panels += d * kPanel) {
    f32x4 acc[kRows][2] = {};
    const float* qt = q_panel;
    const float* const kend = panels + d * kPanel;
    for (const float* kp = panels; kp != kend; kp += kPanel, qt += kRows) {
      const f32x4 k0 = load(kp), k1 = load(kp + 4);
      ATTN_UNROLL
      for (std::size_t r = 0; r < kRows; ++r) {
        const f32x4 q = splat(qt[r]);
        acc[r][0] += q * k0;
        acc[r][1] += q * k1;
      }
    }
    ATTN_UNROLL
    for (std::size_t r = 0; r < kRows; ++r) {
      store(s + r * stride + pb * kPanel, acc[r][0]);
      store(s + r * stride + pb * kPanel + 4, acc[r][1]);
    }
  }
}

// acc (4, d_v8) += p (4 rows of `count` probabilities, `stride` apart) · v (count, d_v8), v
// packed in panels of 8 columns, `panel` floats apart (pack_values).
// The probabilities are splat straight from their rows: with Stride fixed at compile time (the
// streaming block) the four rows are constant offsets of one pointer, free in a wasm load; the
// materialising path passes Stride = 0 and a runtime stride.
template <std::size_t Stride>
ATTN_KERNEL void accumulate_values(const float* p, std::size_t stride, const float* v,
                                   std::size_t panel, std::size_t d_v8, std::size_t count,
                                   float* acc) {
  const std::size_t st = Stride ? Stride : stride;
  for (std::size_t c = 0; c < d_v8; c += kPanel, v += panel) {
    f32x4 a[kRows][2];
    ATTN_UNROLL
    for (std::size_t r = 0; r < kRows; ++r) {
      a[r][0] = load(acc + r * d_v8 + c);
      a[r][1] = load(acc + r * d_v8 + c + 4);
    }
    const float* vj = v;
    const float* const pend = p + count;
    for (const float* pj = p; pj != pend; ++pj, vj += kPanel) {
      const f32x4 v0 = load(vj), v1 = load(vj + 4);
      ATTN_UNROLL
      for (std::size_t r = 0; r < kRows; ++r) {
        const f32x4 pr = splat(pj[r * st]);
        a[r][0] += pr * v0;
        a[r][1] += pr * v1;
      }
    }
    ATTN_UNROLL
    for (std::size_t r = 0; r < kRows; ++r) {
      store(acc + r * d_v8 + c, a[r][0]);
      store(acc + r * d_v8 + c + 4, a[r][1]);
    }
  }
}

bool visible(const FastProblem& p, std::size_t i, std::size_t j) {
  switch (p.mask) {
    case FastMask::causal:
      return j <= i;
    case FastMask::custom:
      return p.custom[i * p.m + j] != 0;
    case FastMask::none:
      break;
  }
  return true;
}

// One key block of the online softmax for a tile of 4 queries. On entry s (4 rows, `block`
// apart) holds the block's scaled scores; on exit their exponentials relative to each row's new
// max, divided by the row's new sum (the block's weights among all the keys seen so far), with
// row_max, row_sum and the output rows acc (4, d_v8) brought up to date. acc is kept normalised,
// the weighted mean of the rows of V seen so far, so it never leaves float32's range where the
// answer does not: the sum Σ e^(s − max)·v it replaces overflowed for 1000 values of 1e38.
ATTN_KERNEL void softmax_block(const FastProblem& p, std::size_t i0, std::size_t rows,
                               std::size_t j0, std::size_t count, std::size_t width, float* s,
                               std::size_t block, float* row_max, float* row_sum, float* acc,
                               std::size_t d_v8) {
  // Hide masked keys and the padding keys past the last one. Padding query rows keep their
  // zero scores: finite, and never written out.
  for (std::size_t r = 0; r < rows; ++r) {
    float* row = s + r * block;
    if (p.mask != FastMask::none)
      for (std::size_t j = 0; j < count; ++j)
        if (!visible(p, i0 + r, j0 + j)) row[j] = kMinusInf;
    std::fill(row + count, row + width, kMinusInf);
  }
  // Online softmax: exponentiate against each row's new max, and shrink what came before by
  // e^(old max − new max) so every term is relative to the same max. A row that has seen
  // nothing yet (max −∞) shifts by 0 instead, so its terms are e^−∞ = 0, not NaN. A NaN score
  // (+∞ and −∞ summed) never wins the pseudo-max; it makes the row's sum NaN, which
  // fast_attention() reports.
  float new_max[kRows];
  f32x4 shift[kRows], sum[kRows];
  for (std::size_t r = 0; r < kRows; ++r) {
    const float* row = s + r * block;
    f32x4 vmax = splat(kMinusInf);
    for (std::size_t j = 0; j < width; j += 4) {
      vmax = max(vmax, load(row + j));
    }
    new_max[r] = std::max(row_max[r], horizontal_max(vmax));
    shift[r] = splat(new_max[r] == kMinusInf ? 0.0f : new_max[r]);
    sum[r] = splat(0.0f);
  }
  for (std::size_t j = 0; j < width; j += 4) {
    f32x4 e[kRows];
    ATTN_UNROLL
    for (std::size_t r = 0; r < kRows; ++r) e[r] = load(s + r * block + j) - shift[r];
    exp_rows(e);
    ATTN_UNROLL
    for (std::size_t r = 0; r < kRows; ++r) {
      store(s + r * block + j, e[r]);
      sum[r] += e[r];
    }
  }
  // The block's terms are divided by the new sum, and acc, the mean over the old sum, is
  // brought to the new one: times old sum · e^(old max − new max) / new sum. A row that has seen
  // no key yet (sum 0) keeps its zeros.
  for (std::size_t r = 0; r < kRows; ++r) {
    const float correction =
        row_max[r] == kMinusInf ? 0.0f : std::exp(row_max[r] - new_max[r]);  // 1: max held
    const float before = row_sum[r] * correction;
    row_sum[r] = before + horizontal_sum(sum[r]);
    row_max[r] = new_max[r];
    const f32x4 inv = splat(row_sum[r] > 0 ? 1.0f / row_sum[r] : 0.0f);
    float* row = s + r * block;
    for (std::size_t j = 0; j < width; j += 4) store(row + j, load(row + j) * inv);
    float* a = acc + r * d_v8;
    const f32x4 rescale = splat(before) * inv;
    for (std::size_t c = 0; c < d_v8; c += 4) store(a + c, load(a + c) * rescale);
  }
}

// Whether all `count` floats at p are finite. x·0 is 0 for every finite x and NaN otherwise, so
// one vector pass of multiply-adds clears an input at several floats a nanosecond; common.hpp's
// scalar check_finite() then finds and names the entry of one that fails. Four sums, so that
// each add need not wait for the one before (with one, the check ran 1.6–1.8× slower).
bool all_finite(const float* p, std::size_t count) {
  const f32x4 zero = splat(0.0f);
  f32x4 acc[4] = {zero, zero, zero, zero};
  std::size_t k = 0;
  for (; k + 16 <= count; k += 16) {
    ATTN_UNROLL
    for (std::size_t a = 0; a < 4; ++a) acc[a] += load(p + k + 4 * a) * zero;
  }
  for (; k + 4 <= count; k += 4) acc[0] += load(p + k) * zero;
  float tail = 0.0f;
  for (; k < count; ++k) tail += p[k] * 0.0f;
  return horizontal_sum((acc[0] + acc[1]) + (acc[2] + acc[3])) + tail == 0.0f;
}

std::optional<Error> check_finite_rows(const float* p, std::size_t rows, std::size_t cols,
                                       const char* input) {
  return all_finite(p, rows * cols) ? std::nullopt : check_finite(p, rows, cols, input);
}

bool sees_a_key(const FastProblem& p, std::size_t i) {
  if (p.mask != FastMask::custom) return true;  // none, or causal: key 0 is always visible
  const std::uint8_t* row = p.custom + i * p.m;
  return std::any_of(row, row + p.m, [](std::uint8_t b) { return b != 0; });
}

// Finite inputs can still leave float32's range (about 3.4e38): a score of 1e20 · 1e20, or an
// output summing values of 3e38. The row (and column) of the first such, instead of ±∞ or NaN.
ATTN_COLD std::optional<Error> score_overflow(std::size_t i) {
  return overflow_error("scores", "A similarity", static_cast<long>(i), -1, "float32");
}

ATTN_COLD std::optional<Error> output_overflow(const float* out, std::size_t n, std::size_t d_v) {
  const Error bad = *check_finite(out, n, d_v, "output");  // finds the cell
  return overflow_error("output", "The output", bad.row, bad.col, "float32");
}

}  // namespace

ATTN_COLD std::optional<Error> check_fast_shapes(const FastShapes& s) {
  if (auto e = check_qkv_shapes(s.q_rows, s.q_cols, s.k_rows, s.k_cols, s.v_rows, s.v_cols))
    return e;
  if (s.custom_mask && s.mask_entries != s.q_rows * s.k_rows) {
    return make_error(ErrorCode::shape_mismatch, "mask", -1, -1,
                      "The mask has " + std::to_string(s.mask_entries) + " entries but there are " +
                          std::to_string(s.q_rows) + " queries and " + std::to_string(s.k_rows) +
                          " keys; it must be " + std::to_string(s.q_rows) + "×" +
                          std::to_string(s.k_rows) + ".");
  }
  return std::nullopt;
}

ATTN_COLD std::optional<Error> check_fast_problem(const FastProblem& p) {
  if (p.n == 0 || p.m == 0 || p.d == 0 || p.d_v == 0) {
    return make_error(ErrorCode::empty_input,
                      p.n == 0   ? "queries"
                      : p.m == 0 ? "keys"
                                 : "values",
                      -1, -1,
                      "Fast attention needs at least one query, key, feature and value column.");
  }
  if (p.n > FastLimits::max_tokens || p.m > FastLimits::max_tokens) {
    return make_error(
        ErrorCode::too_large, p.n > FastLimits::max_tokens ? "queries" : "keys", -1, -1,
        "Fast attention takes at most " + std::to_string(FastLimits::max_tokens) +
            " queries and keys (got " + std::to_string(p.n) + " and " + std::to_string(p.m) + ").");
  }
  if (p.d > FastLimits::max_dim || p.d_v > FastLimits::max_dim) {
    return make_error(ErrorCode::too_large, p.d > FastLimits::max_dim ? "keys" : "values", -1, -1,
                      "Fast attention takes at most " + std::to_string(FastLimits::max_dim) +
                          " features (got d = " + std::to_string(p.d) +
                          ", d_v = " + std::to_string(p.d_v) + ").");
  }
  if (!p.q || !p.k || !p.v || (p.mask == FastMask::custom && !p.custom)) {
    return make_error(ErrorCode::bad_argument, "queries", -1, -1, "Fast attention got no data.");
  }
  if (!(std::isfinite(p.scale))) {
    return make_error(ErrorCode::bad_temperature, "scale", -1, -1, "The scale must be finite.");
  }
  return std::nullopt;
}

std::optional<Error> fast_attention(const FastProblem& p, float* out, float* weights,
                                    FastWorkspace& ws) {
  if (auto e = check_fast_problem(p)) return e;
  if (auto e = check_finite_rows(p.q, p.n, p.d, "queries")) return e;
  if (auto e = check_finite_rows(p.k, p.m, p.d, "keys")) return e;
  if (auto e = check_finite_rows(p.v, p.m, p.d_v, "values")) return e;
  const std::size_t n = p.n, m = p.m, d = p.d, d_v = p.d_v;
  const std::size_t d_v8 = round_up(d_v, 8);
  // Materialising: one block as wide as all the keys, so the probabilities of the only block are
  // the final weights once divided by the row sum.
  const std::size_t block = weights ? round_up(m, kPanel) : kStreamBlock;

  pack_keys(p, ws.k_panels);
  pack_values(p, d_v8, ws.values);
  const std::size_t v_panel = round_up(m, kPanel) * kPanel;
  ws.scores.resize(kRows * block);
  ws.acc.resize(kRows * d_v8);
  ws.q_panel.resize(d * kRows);
  float* acc = ws.acc.data();

  for (std::size_t i0 = 0; i0 < n; i0 += kRows) {
    const std::size_t rows = std::min(kRows, n - i0);
    pack_queries(p, i0, rows, ws.q_panel.data());
    float row_max[kRows], row_sum[kRows];
    std::fill(row_max, row_max + kRows, kMinusInf);
    std::fill(row_sum, row_sum + kRows, 0.0f);
    std::fill(ws.acc.begin(), ws.acc.end(), 0.0f);
    // Under a causal mask no query of this tile sees a key past its last row.
    const std::size_t key_end = p.mask == FastMask::causal ? std::min(m, i0 + rows) : m;

    for (std::size_t j0 = 0; j0 < key_end; j0 += block) {
      const std::size_t count = std::min(block, key_end - j0);
      const std::size_t width = round_up(count, kPanel);
      score_tile(ws.q_panel.data(), d, ws.k_panels.data() + j0 * d, width / kPanel,
                 ws.scores.data(), block);
      softmax_block(p, i0, rows, j0, count, width, ws.scores.data(), block, row_max, row_sum, acc,
                    d_v8);
      const float* v = ws.values.data() + j0 * kPanel;  // key j0 in the first column panel
      if (weights)
        accumulate_values<0>(ws.scores.data(), block, v, v_panel, d_v8, width, acc);
      else
        accumulate_values<kStreamBlock>(ws.scores.data(), block, v, v_panel, d_v8, width, acc);
    }

    for (std::size_t r = 0; r < rows; ++r) {
      // A max of +∞ or a NaN sum: a score was +∞ or NaN (+∞ and −∞ in one dot product). A max
      // of −∞ with a key in sight: every score was −∞.
      if (std::isnan(row_sum[r]) || row_max[r] == kInf ||
          (row_max[r] == kMinusInf && sees_a_key(p, i0 + r)))
        return score_overflow(i0 + r);
      // acc is the output already (0 for a fully masked row). A weighted mean of finite values
      // cannot pass float32's largest, but its rounding can carry one there past it (ten values
      // of FLT_MAX, each weighted 1/10 rounded up): that is FLT_MAX, not +∞.
      const float* a = acc + r * d_v8;
      float* o = out + (i0 + r) * d_v;
      for (std::size_t c = 0; c < d_v; ++c)
        o[c] = std::isinf(a[c]) ? std::copysign(std::numeric_limits<float>::max(), a[c]) : a[c];
      if (weights) {  // one block: its terms are the weights
        float* w = weights + (i0 + r) * m;
        const float* s = ws.scores.data() + r * block;
        std::copy(s, s + key_end, w);
        std::fill(w + key_end, w + m, 0.0f);
      }
    }
  }
  return all_finite(out, n * d_v) ? std::nullopt : output_overflow(out, n, d_v);
}

}  // namespace attn
