// UTF-8 decoding shared by the tokenizer and the parsers (internal to the core).
//
// Strict, as RFC 3629 says: no overlong forms, no surrogates, nothing above U+10FFFF. Text that
// is not UTF-8 is reported with the offset of the first bad byte instead of being guessed at,
// so the reader learns where the problem is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace attn::utf8 {

struct CodePoint {
  char32_t value = 0;
  std::size_t length = 0;  // bytes; 0 = the bytes at this offset are not valid UTF-8
};

// Appends code point `cp` (not a surrogate, at most U+10FFFF) to `out` as UTF-8.
inline void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The code point that starts at byte `pos` of `text` (pos < text.size()).
inline CodePoint decode(std::string_view text, std::size_t pos) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) return {lead, 1};

  std::size_t length = 0;
  char32_t value = 0;
  char32_t smallest = 0;  // below this the encoding is overlong
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    value = lead & 0x1Fu;
    smallest = 0x80;
  } else if ((lead & 0xF0u) == 0xE0) {
    length = 3;
    value = lead & 0x0Fu;
    smallest = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    value = lead & 0x07u;
    smallest = 0x10000;
  } else {
    return {};  // a continuation byte, or 0xC0, 0xC1, 0xF5…0xFF, which never start a character
  }
  if (text.size() - pos < length) return {};
  for (std::size_t i = 1; i < length; ++i) {
    const unsigned char next = byte(pos + i);
    if ((next & 0xC0u) != 0x80) return {};
    value = (value << 6) | (next & 0x3Fu);
  }
  if (value < smallest || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return {};
  return {value, length};
}

// The byte offset of the first character that is not valid UTF-8, or npos.
inline std::size_t find_invalid(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode(text, pos);
    if (cp.length == 0) return pos;
    pos += cp.length;
  }
  return std::string_view::npos;
}

// The number of UTF-16 code units of valid UTF-8, the unit JS strings index by: one per code
// point, two for one above U+FFFF (a four-byte sequence, a surrogate pair in UTF-16).
inline std::size_t count_utf16_units(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0u) != 0x80) count += byte >= 0xF0 ? 2 : 1;
  }
  return count;
}

}  // namespace attn::utf8
