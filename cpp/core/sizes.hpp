// Sizes that come from outside the core (a file's header, config.json, a server's length, a
// number the API was given) are checked here before they become a std::size_t.
//
// The core runs as wasm32, where a size_t is 32 bits: a sum or a product of sizes that does not
// fit wraps without a word, a buffer comes out smaller than what is then written into it, and the
// heap is overwritten. So every such size is held to kMaxSize, the most that 32 bits can count,
// natively too, so that the native tests and fuzzers refuse exactly what the page refuses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "common.hpp"

namespace attn {

inline constexpr std::uint64_t kMaxSize = 0xFFFFFFFFu;

// a + b and a · b, or nullopt when the result passes `limit`.
std::optional<std::size_t> add_sizes(std::uint64_t a, std::uint64_t b,
                                     std::uint64_t limit = kMaxSize);
std::optional<std::size_t> multiply_sizes(std::uint64_t a, std::uint64_t b,
                                          std::uint64_t limit = kMaxSize);

// A number from JavaScript or JSON as a size: a whole number from 0 to `limit`, else nullopt
// (negative, fractional, NaN, infinite, or too large).
std::optional<std::size_t> size_of_number(double x, std::uint64_t limit = kMaxSize);

// A size as a reader would say it: "16 bytes", "50.0 KB", "4.0 GB" (powers of 1024, one decimal).
std::string bytes_text(double bytes);

// `x` as a size of at most `limit` bytes, or a too_large error (bad_argument when `x` is not a
// whole number from 0) naming `input` and both sizes: "<what> is 4.0 GB, more than the 2.0 GB
// <where>.", e.g. where = "this page can still hold".
Result<std::size_t> checked_bytes(double x, std::uint64_t limit, const std::string& input,
                                  const std::string& what, const std::string& where);

}  // namespace attn
