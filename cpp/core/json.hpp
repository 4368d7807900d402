// A small, strict JSON reader for the headers of model files (safetensors.hpp): objects, arrays,
// strings, numbers, true, false and null, as RFC 8259 writes them. Each value keeps the byte
// offset where it starts, so that a caller can say where a field it does not accept is.
//
// parse_json() refuses, naming the byte (Error::col, counted from 0) and what was expected:
// bytes that are not UTF-8, trailing text, a control character or an invalid escape in a string, a
// lone surrogate, a number JSON does not allow ("01", "+1", ".5", "1."), nesting deeper than 64,
// and a key that repeats one before it in the same object (safetensors' names must be unique).
// Strings come out as UTF-8; numbers as double, with the text kept so that an integer above 2^53
// can be refused rather than rounded.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common.hpp"

namespace attn {

struct Json {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  std::size_t offset = 0;  // where the value starts, in bytes from the text's start
  bool boolean = false;
  double number = 0;
  std::string text;                                // a string's value, or a number as written
  std::vector<Json> items;                         // an array's
  std::vector<std::pair<std::string, Json>> keys;  // an object's, in the order written

  // The value of `key` in an object, or nullptr.
  const Json* find(std::string_view key) const;
  // A number that is a whole number from 0 to 2^53, as written (no fraction, no exponent).
  bool is_count() const;
};

// `input` names the text in errors ("model: byte 12: …").
Result<Json> parse_json(std::string_view text, const std::string& input);

// `text` (UTF-8) as a JSON string, quotes included: ", \ and control characters escaped.
std::string json_quote(std::string_view text);

}  // namespace attn
