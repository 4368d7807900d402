#include "fast_attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

// clang 14 does not unroll fixed-length register-tile loops for wasm on its own, and a tile left
// rolled ran ~50× slower there (TOOLCHAIN.md); GCC spells the pragma differently.
#if defined(__clang__)
#define ATTN_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define ATTN_UNROLL _Pragma("GCC unroll 8")
#else
#define ATTN_UNROLL
#endif

namespace attn {
namespace {

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));

constexpr std::size_t kRows = 4;          // query rows per register tile
constexpr std::size_t kPanel = 8;         // keys per packed panel = columns per register tile
constexpr std::size_t kStreamBlock = 64;  // keys per online-softmax block when streaming
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// memcpy loads and stores: no alignment or aliasing assumptions; they compile to one
// v128.load / movups.
inline f32x4 load(const float* p) {
  f32x4 x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
inline void store(float* p, f32x4 x) { std::memcpy(p, &x, sizeof x); }
inline f32x4 splat(float x) { return f32x4{x, x, x, x}; }
inline f32x4 select(i32x4 mask, f32x4 a, f32x4 b) {  // mask lanes are all ones or all zeros
  return (f32x4)((mask & (i32x4)a) | (~mask & (i32x4)b));
}

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// e^x for four floats: x = n·ln2 + r with |r| ≤ ln2/2, e^r by Cephes' expf polynomial (relative
// error ~1e-7), 2^n put straight into the exponent bits. Inputs below −87 (and −∞, a masked
// score) give exactly 0, which keeps masked keys out of every sum.
inline f32x4 exp4(f32x4 x) {
  const i32x4 underflow = x < splat(-87.0f);
  x = select(x > splat(88.0f), splat(88.0f), x);
  x = select(underflow, splat(0.0f), x);  // keeps the arithmetic below finite
  // Round x·log2(e) to the nearest integer with the 1.5·2²³ trick (valid for |x| < 2²²).
  const f32x4 magic = splat(12582912.0f);
  const f32x4 t = x * splat(1.44269504088896341f) + magic;
  const f32x4 n = t - magic;
  const i32x4 ni = (i32x4)t - (i32x4)magic;
  const f32x4 r = x - n * splat(0.693359375f) - n * splat(-2.12194440e-4f);  // ln2 in two parts
  f32x4 p = splat(1.9875691500e-4f);
  p = p * r + splat(1.3981999507e-3f);
  p = p * r + splat(8.3334519073e-3f);
  p = p * r + splat(4.1665795894e-2f);
  p = p * r + splat(1.6666665459e-1f);
  p = p * r + splat(5.0000001201e-1f);
  p = p * r * r + r + splat(1.0f);
  const f32x4 result = (f32x4)((i32x4)p + (ni << 23));
  return select(underflow, splat(0.0f), result);
}

inline float horizontal_max(f32x4 x) { return std::max(std::max(x[0], x[1]), std::max(x[2], x[3])); }
inline float horizontal_sum(f32x4 x) { return (x[0] + x[1]) + (x[2] + x[3]); }

// Keys into panels of 8: panel p holds keys 8p..8p+7 as (d, 8), zero-padded past m, so the
// Q·Kᵀ tile reads two contiguous vectors per feature.
void pack_keys(const FastProblem& p, std::vector<float>& panels) {
  const std::size_t m8 = round_up(p.m, kPanel);
  panels.assign(m8 * p.d, 0.0f);
  for (std::size_t j = 0; j < p.m; ++j) {
    float* panel = panels.data() + (j / kPanel) * p.d * kPanel + j % kPanel;
    const float* key = p.k + j * p.d;
    for (std::size_t t = 0; t < p.d; ++t) panel[t * kPanel] = key[t];
  }
}

// scores (4, width) = the query tile · the keys of `panels` (width a multiple of 8).
// q_panel is the tile's 4 query rows interleaved as (d, 4), so feature t of all four sits at one
// address plus constant offsets: four load-and-splat instructions (v128.load32_splat), which use
// load ports rather than the shuffle port that lane broadcasts would compete for.
void score_tile(const float* q_panel, std::size_t d, const float* panels, std::size_t width,
                float* scores, std::size_t stride) {
  for (std::size_t pb = 0; pb < width / kPanel; ++pb) {
    const float* kp = panels + pb * d * kPanel;
    f32x4 acc[kRows][2] = {};
    for (std::size_t t = 0; t < d; ++t) {
      const float* qt = q_panel + t * kRows;
      const f32x4 k0 = load(kp + t * kPanel), k1 = load(kp + t * kPanel + 4);
      const f32x4 q0 = splat(qt[0]), q1 = splat(qt[1]), q2 = splat(qt[2]), q3 = splat(qt[3]);
      acc[0][0] += q0 * k0;
      acc[0][1] += q0 * k1;
      acc[1][0] += q1 * k0;
      acc[1][1] += q1 * k1;
      acc[2][0] += q2 * k0;
      acc[2][1] += q2 * k1;
      acc[3][0] += q3 * k0;
      acc[3][1] += q3 * k1;
    }
    ATTN_UNROLL
    for (std::size_t r = 0; r < kRows; ++r) {
      store(scores + r * stride + pb * kPanel, acc[r][0]);
      store(scores + r * stride + pb * kPanel + 4, acc[r][1]);
    }
  }
}

// acc (4, d_v8) += probabilities · v rows (count, d_v8). p_panel holds the 4 rows'
// probabilities interleaved as (count, 4), read with load-and-splat like the queries above.
void accumulate_values(const float* p_panel, const float* v, std::size_t d_v8, std::size_t count,
                       float* acc) {
  for (std::size_t c = 0; c < d_v8; c += 8) {
    f32x4 a[kRows][2];
    ATTN_UNROLL
    for (std::size_t r = 0; r < kRows; ++r) {
      a[r][0] = load(acc + r * d_v8 + c);
      a[r][1] = load(acc + r * d_v8 + c + 4);
    }
    for (std::size_t j = 0; j < count; ++j) {
      const float* pj = p_panel + j * kRows;
      const f32x4 v0 = load(v + j * d_v8 + c), v1 = load(v + j * d_v8 + c + 4);
      const f32x4 p0 = splat(pj[0]), p1 = splat(pj[1]), p2 = splat(pj[2]), p3 = splat(pj[3]);
      a[0][0] += p0 * v0;
      a[0][1] += p0 * v1;
      a[1][0] += p1 * v0;
      a[1][1] += p1 * v1;
      a[2][0] += p2 * v0;
      a[2][1] += p2 * v1;
      a[3][0] += p3 * v0;
      a[3][1] += p3 * v1;
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
    case FastMask::causal: return j <= i;
    case FastMask::custom: return p.custom[i * p.m + j] != 0;
    case FastMask::none: break;
  }
  return true;
}

}  // namespace

std::optional<Error> check_fast_problem(const FastProblem& p) {
  if (p.n == 0 || p.m == 0 || p.d == 0 || p.d_v == 0) {
    return make_error(ErrorCode::empty_input, p.n == 0 ? "queries" : p.m == 0 ? "keys" : "values",
                      -1, -1, "Fast attention needs at least one query, key, feature and value column.");
  }
  if (p.n > FastLimits::max_tokens || p.m > FastLimits::max_tokens) {
    return make_error(ErrorCode::too_large, p.n > FastLimits::max_tokens ? "queries" : "keys", -1,
                      -1, "Fast attention takes at most " + std::to_string(FastLimits::max_tokens) +
                              " queries and keys (got " + std::to_string(p.n) + " and " +
                              std::to_string(p.m) + ").");
  }
  if (p.d > FastLimits::max_dim || p.d_v > FastLimits::max_dim) {
    return make_error(ErrorCode::too_large, p.d > FastLimits::max_dim ? "keys" : "values", -1, -1,
                      "Fast attention takes at most " + std::to_string(FastLimits::max_dim) +
                          " features (got d = " + std::to_string(p.d) + ", d_v = " +
                          std::to_string(p.d_v) + ").");
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
  const std::size_t n = p.n, m = p.m, d = p.d, d_v = p.d_v;
  const std::size_t d_v8 = round_up(d_v, 8);
  // Materialising: one block as wide as all the keys, so the probabilities of the only block are
  // the final weights once divided by the row sum.
  const std::size_t block = weights ? round_up(m, kPanel) : kStreamBlock;

  pack_keys(p, ws.k_panels);
  ws.scores.resize(kRows * block);
  ws.acc.resize(kRows * d_v8);
  ws.q_panel.resize(d * kRows);
  ws.p_panel.resize(block * kRows);
  // V with rows padded to a multiple of 8 floats, so the value tile never reads past a row.
  const float* values = p.v;  // (m, d_v8)
  if (d_v8 != d_v) {
    ws.values.assign(m * d_v8, 0.0f);
    for (std::size_t j = 0; j < m; ++j)
      std::memcpy(ws.values.data() + j * d_v8, p.v + j * d_v, d_v * sizeof(float));
    values = ws.values.data();
  }
  const float* panels = ws.k_panels.data();

  for (std::size_t i0 = 0; i0 < n; i0 += kRows) {
    const std::size_t rows = std::min(kRows, n - i0);
    for (std::size_t t = 0; t < d; ++t)  // the tile's queries interleaved, zero past row n
      for (std::size_t r = 0; r < kRows; ++r)
        ws.q_panel[t * kRows + r] = r < rows ? p.q[(i0 + r) * d + t] : 0.0f;
    float row_max[kRows], row_sum[kRows];
    std::fill(row_max, row_max + kRows, kMinusInf);
    std::fill(row_sum, row_sum + kRows, 0.0f);
    std::fill(ws.acc.begin(), ws.acc.end(), 0.0f);
    // Under a causal mask no query of this tile sees a key past its last row.
    const std::size_t key_end = p.mask == FastMask::causal ? std::min(m, i0 + rows) : m;

    for (std::size_t j0 = 0; j0 < key_end; j0 += block) {
      const std::size_t count = std::min(block, key_end - j0);
      const std::size_t width = round_up(count, kPanel);
      score_tile(ws.q_panel.data(), d, panels + j0 * d, width, ws.scores.data(), block);
      for (std::size_t r = 0; r < kRows; ++r) {
        float* s = ws.scores.data() + r * block;
        if (r >= rows) {  // padding rows: no probability mass
          std::fill(s, s + width, 0.0f);
          continue;
        }
        // Scale, hide masked and padding keys, and find the block's max.
        for (std::size_t j = 0; j < width; j += 4) store(s + j, load(s + j) * splat(p.scale));
        const std::size_t i = i0 + r;
        if (p.mask != FastMask::none)
          for (std::size_t j = 0; j < count; ++j)
            if (!visible(p, i, j0 + j)) s[j] = kMinusInf;
        std::fill(s + count, s + width, kMinusInf);
        f32x4 vmax = splat(kMinusInf);
        for (std::size_t j = 0; j < width; j += 4) {
          const f32x4 x = load(s + j);
          vmax = select(x > vmax, x, vmax);
        }
        const float new_max = std::max(row_max[r], horizontal_max(vmax));
        if (new_max == kMinusInf) {  // nothing visible yet in this row
          std::fill(s, s + width, 0.0f);
          continue;
        }
        // Online softmax: exponentiate against the new max, and shrink what came before by
        // e^(old max − new max) so every term is relative to the same max.
        f32x4 vsum = splat(0.0f);
        for (std::size_t j = 0; j < width; j += 4) {
          const f32x4 e = exp4(load(s + j) - splat(new_max));
          store(s + j, e);
          vsum += e;
        }
        const float correction = row_max[r] == kMinusInf ? 0.0f : std::exp(row_max[r] - new_max);
        row_sum[r] = row_sum[r] * correction + horizontal_sum(vsum);
        if (correction != 1.0f) {
          float* a = ws.acc.data() + r * d_v8;
          for (std::size_t c = 0; c < d_v8; c += 4) store(a + c, load(a + c) * splat(correction));
        }
        row_max[r] = new_max;
      }
      for (std::size_t j = 0; j < count; ++j)  // probabilities interleaved for the value tile
        for (std::size_t r = 0; r < kRows; ++r) ws.p_panel[j * kRows + r] = ws.scores[r * block + j];
      accumulate_values(ws.p_panel.data(), values + j0 * d_v8, d_v8, count, ws.acc.data());
    }

    for (std::size_t r = 0; r < rows; ++r) {
      const float inv = row_sum[r] > 0 ? 1.0f / row_sum[r] : 0.0f;  // 0: fully masked row
      const float* a = ws.acc.data() + r * d_v8;
      float* o = out + (i0 + r) * d_v;
      for (std::size_t c = 0; c < d_v; ++c) o[c] = a[c] * inv;
      if (weights) {
        float* w = weights + (i0 + r) * m;
        const float* s = ws.scores.data() + r * block;
        for (std::size_t j = 0; j < key_end; ++j) w[j] = s[j] * inv;
        std::fill(w + key_end, w + m, 0.0f);
      }
    }
  }
  return std::nullopt;
}

}  // namespace attn
