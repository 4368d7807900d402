// The machine's practical limit for this benchmark: a plain wasm SIMD loop of multiplies and adds
// (wasm has no fused multiply-add), with nothing else: no loads, no stores. bench/run.mjs
// compiles it with emcc and times it beside the implementations, so each run reports how close
// the engine comes to what its machine can do at that moment.
//
// Each accumulator is multiplied, then added to: acc = acc · x + b. The multiply has to depend on
// the loop. Written as acc += x · b, with x and b fixed, clang hoists the product out of the loop,
// which is then adds alone: counted as multiply-adds, those ran at about 1.5× the rate a real
// multiply and add manage together on the build machine. Thirteen chains keep enough
// multiplies and adds in flight to cover their latency; a fourteenth ran slower (V8 has 15
// vector registers on x64, and x and b take two).
#include <emscripten.h>

typedef float f32x4 __attribute__((vector_size(16)));

enum { kChains = 13 };

// Flops per iteration of peak(): each chain a multiply and an add on four lanes.
EMSCRIPTEN_KEEPALIVE int peak_flops_per_iteration(void) { return kChains * 8; }

// x in (0, 1): every chain converges to b / (1 − x), so nothing overflows or goes denormal.
EMSCRIPTEN_KEEPALIVE float peak(int iterations, float x_seed) {
  const f32x4 x = {x_seed, x_seed, x_seed, x_seed};
  const f32x4 b = (1.0f - x) * 0.5f;
  f32x4 acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = x * (float)i;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < kChains; ++i) acc[i] = acc[i] * x + b;
  }
  f32x4 sum = {};
  for (int i = 0; i < kChains; ++i) sum += acc[i];
  return sum[0] + sum[1] + sum[2] + sum[3];
}
