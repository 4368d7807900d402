#include "sizes.hpp"

#include <cmath>

namespace attn {

namespace {

std::string whole_bytes(double x) {
  return x < 9.2e18 ? std::to_string(static_cast<unsigned long long>(x)) + " bytes"
                    : number_text(x) + " bytes";
}

}  // namespace

std::optional<std::size_t> add_sizes(std::uint64_t a, std::uint64_t b, std::uint64_t limit) {
  if (a > limit || b > limit - a) return std::nullopt;
  return static_cast<std::size_t>(a + b);
}

std::optional<std::size_t> multiply_sizes(std::uint64_t a, std::uint64_t b, std::uint64_t limit) {
  if (a != 0 && b > limit / a) return std::nullopt;
  if (a * b > limit) return std::nullopt;
  return static_cast<std::size_t>(a * b);
}

std::optional<std::size_t> size_of_number(double x, std::uint64_t limit) {
  // Compared as doubles before any cast: casting a double past the target's range is undefined.
  if (!(x >= 0) || x != std::floor(x) || x > static_cast<double>(limit)) return std::nullopt;
  return static_cast<std::size_t>(x);
}

std::string bytes_text(double bytes) {
  if (!(bytes >= 1024)) return bytes == 1 ? "1 byte" : number_text(bytes) + " bytes";
  const char* const units[] = {"KB", "MB", "GB", "TB"};
  std::size_t u = 0;
  bytes /= 1024;
  while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
    bytes /= 1024;
    ++u;
  }
  // One decimal, rounded: 50.0 KB, 1.5 GB.
  const double tenths = std::round(bytes * 10);
  const long long whole = static_cast<long long>(tenths) / 10,
                  tenth = static_cast<long long>(tenths) % 10;
  return std::to_string(whole) + "." + std::to_string(tenth) + " " + units[u];
}

Result<std::size_t> checked_bytes(double x, std::uint64_t limit, const std::string& input,
                                  const std::string& what, const std::string& where) {
  if (!(x >= 0) || x != std::floor(x))
    return make_error(
        ErrorCode::bad_argument, input, -1, -1,
        input + ": " + what + " must be a whole number of bytes; got " + number_text(x) + ".");
  if (const auto n = size_of_number(x, limit)) return *n;
  std::string size = bytes_text(x), most = bytes_text(static_cast<double>(limit));
  if (size == most) {  // both round to the same: say them exactly
    size = whole_bytes(x);
    most = whole_bytes(static_cast<double>(limit));
  }
  return make_error(
      ErrorCode::too_large, input, -1, -1,
      input + ": " + what + " is " + size + ", more than the " + most + " " + where + ".");
}

}  // namespace attn
