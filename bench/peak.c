// The machine's practical limit for this benchmark: a plain wasm SIMD loop of multiplies and adds
// (wasm has no fused multiply-add) with ten independent accumulators and nothing else, no loads,
// no stores. bench/run.mjs compiles it with emcc and times it beside the implementations, so each
// run reports how close the engine comes to what its machine can do at that moment.
#include <emscripten.h>

typedef float f32x4 __attribute__((vector_size(16)));

// 80 flops per iteration: ten accumulators, each += x · b (4 lanes, a multiply and an add).
EMSCRIPTEN_KEEPALIVE float peak(int iterations, float seed) {
  const f32x4 x = {seed, seed, seed, seed};
  const f32x4 b[2] = {x * 0.001f, x * 0.002f};
  f32x4 acc[10] = {};
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < 10; ++i) acc[i] += x * b[i & 1];
  }
  f32x4 sum = {};
  for (int i = 0; i < 10; ++i) sum += acc[i];
  return sum[0] + sum[1] + sum[2] + sum[3];
}
