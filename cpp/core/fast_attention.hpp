// Fast attention for large inputs, in float32: out = softmax(scale · Q·Kᵀ, masked) · V.
//
// The explainer path (attention.hpp) keeps every step in double and is the reference; this path
// keeps only what a large problem needs and is checked against it (relative 1e-5).
//
//   q (n, d)   k (m, d)   v (m, d_v)   out (n, d_v)   weights (n, m), only when materialised
//
// One implementation serves both modes. It walks the keys in blocks with an online softmax
// (Milakov & Gimelshein 2018; the streaming idea of FlashAttention): per query row it keeps the
// running max, the running sum of exponentials and the output so far, normalised (a weighted mean
// of the rows of V seen, so it stays inside their range and float32's), and rescales them after
// each block, as the block raises the max or adds to the sum. Streaming uses 256-key blocks, so the
// n×m matrix never exists; materialising uses one block as wide as all the keys and also writes the
// normalised weights.
//
// Kernels are written once with GCC/Clang vector extensions (4 floats, 16 bytes): they compile
// to wasm simd128 under em++ -msimd128 and to SSE natively. Q·Kᵀ runs on 4×8 register tiles over
// keys packed into panels of 8 (so the inner loop reads contiguous memory); weights·V on 4×8
// tiles over V packed into panels of 8 columns, splatting the probabilities straight from their
// rows.
//
// Masks: none, causal (query i sees keys j ≤ i, top-left aligned as in attention.hpp), or a
// custom n×m byte mask (1 = visible). A fully masked row gives a zero output row and zero weights.
// Limits: n, m ≤ 4096, d, d_v ≤ 256. Inputs must be finite; so must the scores, which finite
// inputs can still push past float32's range (1e20 · 1e20). An output, a weighted mean of V's
// rows, cannot leave it: 1000 values of 1e38 give 1e38, and a mean of values of FLT_MAX whose
// rounding carries it past FLT_MAX gives FLT_MAX.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"

namespace attn {

struct FastLimits {
  static constexpr std::size_t max_tokens = 4096;
  static constexpr std::size_t max_dim = 256;
};

enum class FastMask { none, causal, custom };

struct FastProblem {
  const float* q = nullptr;  // (n, d) row-major
  const float* k = nullptr;  // (m, d)
  const float* v = nullptr;  // (m, d_v)
  std::size_t n = 0, m = 0, d = 0, d_v = 0;
  float scale = 1;  // scores are multiplied by this: 1/√d, 1/T or 1
  FastMask mask = FastMask::none;
  const std::uint8_t* custom = nullptr;  // (n, m), when mask == custom
};

// Scratch memory, kept between calls so a hot loop allocates nothing after the first call.
struct FastWorkspace {
  std::vector<float> k_panels;  // (⌈m/8⌉, d, 8) keys packed in panels of 8
  std::vector<float> values;    // (⌈d_v/8⌉, m rounded up to 8, 8) V in column panels of 8
  std::vector<float> scores;    // (4, block) a tile's scores, then probabilities
  std::vector<float> acc;       // (4, d_v rounded up to 8) output rows so far, normalised
  std::vector<float> q_panel;   // (d, 4) the current tile's 4 query rows, interleaved
};

// The shapes of the inputs as the caller holds them, before they become one FastProblem (whose
// single d and m assume they agree).
struct FastShapes {
  std::size_t q_rows = 0, q_cols = 0;  // queries (n, d)
  std::size_t k_rows = 0, k_cols = 0;  // keys (m, d)
  std::size_t v_rows = 0, v_cols = 0;  // values (m, d_v)
  bool custom_mask = false;
  std::size_t mask_entries = 0;  // of the custom mask: must be n·m
};

// An error naming the input that does not fit the others (keys whose length is not the queries',
// values with another count of rows than the keys, a custom mask that is not n×m), or nullopt.
std::optional<Error> check_fast_shapes(const FastShapes& s);

// Checks shapes and limits (cheap: it reads no data); returns an error naming the input, or
// nullopt.
std::optional<Error> check_fast_problem(const FastProblem& p);

// out: n·d_v floats. weights: n·m floats, or nullptr to stream without materialising.
// Returns an error (and writes nothing) if check_fast_problem fails or an input holds a NaN or
// ±∞ (named by input, row and column); an error, with out and weights partly written, if a query
// row's scores overflow float32 (input "scores", the row), or, a guard that finite scores do not
// trip, if an output is not finite (input "output", its row and column).
std::optional<Error> fast_attention(const FastProblem& p, float* out, float* weights,
                                    FastWorkspace& workspace);

}  // namespace attn
