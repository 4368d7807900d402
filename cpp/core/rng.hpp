// A small random generator that gives the same numbers on every platform (native and wasm):
// SplitMix64 (Steele, Lea, Flood 2014; the seeding generator of xoshiro). std::mt19937 would be
// portable too, but std:: distributions are not, so the mapping to doubles is written out here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next_u64() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1): the top 53 bits, exactly representable.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

 private:
  std::uint64_t state_;
};

// FNV-1a, 64-bit, over bytes: a stable hash of a word, used to seed its vector.
inline std::uint64_t fnv1a64(const char* data, std::size_t size) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 0x100000001B3ull;
  }
  return h;
}

}  // namespace attn
