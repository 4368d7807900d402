#include <cmath>
#include <cstdint>
#include <string>

#include "rng.hpp"
#include "test_utils.hpp"

using namespace attn;

TEST_CASE("rng: SplitMix64 gives the published reference numbers", "[rng]") {
  // The first outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c) and with 1234567 (the
  // Rosetta Code task "Pseudo-random numbers/Splitmix64"): the same on every platform.
  Rng zero(0);
  CHECK(zero.next_u64() == 0xE220A8397B1DCDAFull);
  CHECK(zero.next_u64() == 0x6E789E6AA1B965F4ull);
  CHECK(zero.next_u64() == 0x06C45D188009454Full);
  Rng other(1234567);
  CHECK(other.next_u64() == 6457827717110365317ull);
  CHECK(other.next_u64() == 3203168211198807973ull);
  CHECK(other.next_u64() == 9817491932198370423ull);
}

TEST_CASE("rng: uniform is the top 53 bits over 2 to the 53", "[rng]") {
  Rng a(0), b(0);
  // 0xE220A8397B1DCDAF >> 11, over 2^53: about 0.88331.
  const double first = a.uniform();
  CHECK(first == static_cast<double>(b.next_u64() >> 11) / 9007199254740992.0);
  CHECK(first == Approx(0.8833108082).epsilon(1e-9));
  // uniform(lo, hi) is lo + (hi − lo)·u of the same draw.
  Rng c(0);
  CHECK(c.uniform(-1, 1) == attn::test::approx(-1 + 2 * first));
}

TEST_CASE("rng: uniform draws stay in range and spread evenly", "[rng]") {
  Rng rng(99);
  int below_half = 0;
  double sum = 0;
  const int draws = 20000;
  for (int k = 0; k < draws; ++k) {
    const double u = rng.uniform();
    REQUIRE(u >= 0);
    REQUIRE(u < 1);
    below_half += u < 0.5;
    sum += u;
    const double x = rng.uniform(-3, 5);
    REQUIRE(x >= -3);
    REQUIRE(x < 5);
  }
  // Mean 0.5 with standard error 1/√(12·20000) ≈ 0.002; half the draws below 0.5 within ±1.5%.
  CHECK(std::abs(sum / draws - 0.5) < 0.01);
  CHECK(std::abs(below_half - draws / 2) < 300);
}

TEST_CASE("rng: the same seed repeats and another seed differs", "[rng]") {
  Rng a(42), b(42), c(43);
  for (int k = 0; k < 100; ++k) {
    const std::uint64_t x = a.next_u64();
    REQUIRE(x == b.next_u64());
    REQUIRE(x != c.next_u64());
  }
}

TEST_CASE("fnv1a64: the published test vectors", "[rng]") {
  // From the FNV reference test suite (Fowler, Noll, Vo): offset basis, "a", "foobar".
  CHECK(fnv1a64("", 0) == 0xCBF29CE484222325ull);
  CHECK(fnv1a64("a", 1) == 0xAF63DC4C8601EC8Cull);
  CHECK(fnv1a64("foobar", 6) == 0x85944171F73967E8ull);
  // Bytes, not chars: a UTF-8 word hashes the same whatever the sign of char.
  const std::string bird = "鸟";
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char byte : bird) h = (h ^ byte) * 0x100000001B3ull;
  CHECK(fnv1a64(bird.data(), bird.size()) == h);
}
