// Sizes from outside the core (cpp/core/sizes.hpp): held to what 32 bits count, natively as in
// wasm, and refused in words that give the size and the limit.
#include <cmath>
#include <limits>

#include "sizes.hpp"
#include "test_utils.hpp"

using namespace attn;

TEST_CASE("sizes: sums and products past 32 bits are refused natively too", "[sizes]") {
  CHECK(add_sizes(4000000000u, 294967295u) == std::optional<std::size_t>(4294967295u));
  CHECK_FALSE(add_sizes(4000000000u, 294967296u));  // 2^32: a wasm32 size_t would read 0
  CHECK(multiply_sizes(65536, 65535) == std::optional<std::size_t>(4294901760u));
  CHECK_FALSE(multiply_sizes(65536, 65536));
  CHECK(multiply_sizes(0, std::numeric_limits<std::uint64_t>::max()) ==
        std::optional<std::size_t>(0));
  CHECK_FALSE(multiply_sizes(3, 4, 11));  // a limit of the caller's own
  CHECK(add_sizes(5, 6, 11) == std::optional<std::size_t>(11));
}

TEST_CASE("sizes: a number from JavaScript is a size only when it is whole and in range",
          "[sizes]") {
  CHECK(size_of_number(0) == std::optional<std::size_t>(0));
  CHECK(size_of_number(4294967295.0) == std::optional<std::size_t>(4294967295u));
  CHECK_FALSE(size_of_number(4294967296.0 + 16));  // as a 32-bit size_t it would be 16
  CHECK_FALSE(size_of_number(-1));
  CHECK_FALSE(size_of_number(2.5));
  CHECK_FALSE(size_of_number(std::nan("")));
  CHECK_FALSE(size_of_number(INFINITY));
  CHECK_FALSE(size_of_number(51, 50));
}

TEST_CASE("sizes: said as a reader would say them", "[sizes]") {
  CHECK(bytes_text(0) == "0 bytes");
  CHECK(bytes_text(1) == "1 byte");
  CHECK(bytes_text(1023) == "1023 bytes");
  CHECK(bytes_text(51200) == "50.0 KB");  // not "0.0 MB"
  CHECK(bytes_text(1536.0 * 1024 * 1024) == "1.5 GB");
  CHECK(bytes_text(100.0 * 1024 * 1024) == "100.0 MB");
}

TEST_CASE("sizes: a refusal names the size and the limit, exactly when both round alike",
          "[sizes]") {
  Result<std::size_t> big =
      checked_bytes(4294967296.0 + 16, kMaxSize, "model", "the file", "this page can still hold");
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().code == ErrorCode::too_large);
  CHECK(big.error().message ==
        "model: the file is 4294967312 bytes, more than the 4294967295 bytes this page can still "
        "hold.");
  Result<std::size_t> some =
      checked_bytes(3.0 * 1024 * 1024, 1024 * 1024, "model", "the file", "this page can hold");
  REQUIRE_FALSE(some.ok());
  CHECK(some.error().message ==
        "model: the file is 3.0 MB, more than the 1.0 MB this page can hold.");
  Result<std::size_t> odd = checked_bytes(-3, kMaxSize, "model", "the file", "x");
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.error().code == ErrorCode::bad_argument);
  CHECK(odd.error().message == "model: the file must be a whole number of bytes; got -3.");
  CHECK(checked_bytes(16, 16, "model", "the file", "x").value() == 16);
}
