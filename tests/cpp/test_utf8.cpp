#include <string>
#include <string_view>

#include "test_utils.hpp"
#include "utf8.hpp"

using namespace attn;

TEST_CASE("utf8: one to four bytes decode to their code points", "[utf8]") {
  // "a", "é" (U+00E9), "鸟" (U+9E1F), "🍎" (U+1F34E), one after the other.
  const std::string_view text = "a\xC3\xA9\xE9\xB8\x9F\xF0\x9F\x8D\x8E";
  auto cp = utf8::decode(text, 0);
  CHECK(cp.value == U'a');
  CHECK(cp.length == 1);
  cp = utf8::decode(text, 1);
  CHECK(cp.value == 0xE9);
  CHECK(cp.length == 2);
  cp = utf8::decode(text, 3);
  CHECK(cp.value == 0x9E1F);
  CHECK(cp.length == 3);
  cp = utf8::decode(text, 6);
  CHECK(cp.value == 0x1F34E);
  CHECK(cp.length == 4);
  CHECK(utf8::count_utf16_units(text) == 5);  // 1 + 1 + 1 + 2: 🍎 is a surrogate pair in JS
  CHECK(utf8::find_invalid(text) == std::string_view::npos);
}

TEST_CASE("utf8: the smallest and largest of each length are accepted", "[utf8]") {
  CHECK(utf8::decode("\xC2\x80", 0).value == 0x80);
  CHECK(utf8::decode("\xDF\xBF", 0).value == 0x7FF);
  CHECK(utf8::decode("\xE0\xA0\x80", 0).value == 0x800);
  CHECK(utf8::decode("\xEF\xBF\xBF", 0).value == 0xFFFF);
  CHECK(utf8::decode("\xF0\x90\x80\x80", 0).value == 0x10000);
  CHECK(utf8::decode("\xF4\x8F\xBF\xBF", 0).value == 0x10FFFF);
}

TEST_CASE("utf8: overlong forms and surrogates and values above U+10FFFF are refused", "[utf8]") {
  for (std::string_view bad : {
           std::string_view("\xC0\x80"),          // overlong NUL (two bytes)
           std::string_view("\xC1\xBF"),          // overlong U+007F
           std::string_view("\xE0\x80\x80"),      // overlong NUL (three bytes)
           std::string_view("\xE0\x9F\xBF"),      // overlong U+07FF
           std::string_view("\xF0\x8F\xBF\xBF"),  // overlong U+FFFF
           std::string_view("\xED\xA0\x80"),      // U+D800, a surrogate
           std::string_view("\xED\xBF\xBF"),      // U+DFFF, a surrogate
           std::string_view("\xF4\x90\x80\x80"),  // U+110000
           std::string_view("\xF5\x80\x80\x80"),  // a lead byte that never starts a character
           std::string_view("\xFF"),
           std::string_view("\x80"),          // a continuation byte alone
           std::string_view("\xE9\xB8"),      // 鸟 cut short
           std::string_view("\xE9\x41\x9F"),  // a continuation byte replaced by 'A'
       }) {
    INFO("bytes: " << bad.size());
    CHECK(utf8::decode(bad, 0).length == 0);
    CHECK(utf8::find_invalid(bad) == 0);
  }
}

TEST_CASE("utf8: find_invalid gives the offset of the first bad byte", "[utf8]") {
  // "鸟 " is four bytes; then a lone 0xFF at offset 4, then "ok".
  CHECK(utf8::find_invalid("\xE9\xB8\x9F \xFFok") == 4);
  // A character cut short at the end of the text: its first byte is where the problem starts.
  CHECK(utf8::find_invalid("ab\xF0\x9F\x8D") == 2);
  CHECK(utf8::find_invalid("") == std::string_view::npos);
}
