// Tests for unicode.hpp: code point properties and grapheme clusters, against the Unicode
// Consortium's own conformance file.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_utils.hpp"
#include "unicode.hpp"

using namespace attn::unicode;

TEST_CASE("unicode: properties come from the 15.0 tables", "[unicode]") {
  CHECK(properties(U'a').word == WordClass::letter);
  CHECK(properties(U'7').word == WordClass::letter);
  CHECK(properties(U',').word == WordClass::punctuation);
  CHECK(properties(U'+').word == WordClass::punctuation);  // an ASCII symbol is dropped like ","
  CHECK(properties(U' ').word == WordClass::space);
  CHECK(properties(0x200B).word == WordClass::space);   // zero-width space (Cf)
  CHECK(properties(0x20AC).word == WordClass::symbol);  // €
  CHECK(properties(0x0301).word == WordClass::letter);  // a combining mark belongs to its word
  CHECK(properties(0x0E31).grapheme_break == GraphemeBreak::extend);  // Thai mai han-akat
  CHECK(properties(0x0903).grapheme_break == GraphemeBreak::spacing_mark);
  CHECK(properties(0x0600).grapheme_break == GraphemeBreak::prepend);
  CHECK(properties(0x200D).grapheme_break == GraphemeBreak::zwj);
  CHECK(properties(0x1F1E8).grapheme_break == GraphemeBreak::regional_indicator);
  CHECK(properties(0x1F600).grapheme_break == GraphemeBreak::extended_pictographic);
  CHECK(properties(0x1100).grapheme_break == GraphemeBreak::l);
  // Hangul syllables: 가 U+AC00 = 0 × 28 + 0 is LV, 각 U+AC01 is LVT, 개 U+AC1C = 1 × 28 is LV,
  // 힣 U+D7A3 (the last) is LVT; U+D7A4 after it is not a syllable.
  CHECK(properties(0xAC00).grapheme_break == GraphemeBreak::lv);
  CHECK(properties(0xAC01).grapheme_break == GraphemeBreak::lvt);
  CHECK(properties(0xAC1C).grapheme_break == GraphemeBreak::lv);
  CHECK(properties(0xD7A3).grapheme_break == GraphemeBreak::lvt);
  CHECK(properties(0xD7A4).grapheme_break == GraphemeBreak::other);
  CHECK(properties(0x10FFFF).word == WordClass::symbol);
  CHECK(properties(0).grapheme_break == GraphemeBreak::control);
}

// Each line of GraphemeBreakTest.txt is a sequence like "÷ 0020 × 0308 ÷ 0600 ÷": code points in
// hex, with ÷ where a cluster boundary is and × where none is. The breaker must put a boundary
// before exactly the code points that follow a ÷ (the first always does; the end of text is one).
TEST_CASE("unicode: grapheme clusters pass GraphemeBreakTest.txt in full", "[unicode]") {
  std::ifstream file(ATTN_GRAPHEME_BREAK_TEST);
  INFO("reading " << ATTN_GRAPHEME_BREAK_TEST);
  REQUIRE(file.good());
  std::size_t checked = 0;
  std::vector<std::string> failures;
  for (std::string line; std::getline(file, line);) {
    const std::string sequence = line.substr(0, line.find('#'));
    if (sequence.find_first_not_of(" \t") == std::string::npos) continue;
    std::istringstream fields(sequence);
    std::vector<bool> expected, actual;  // (code points) whether a cluster starts at each
    bool boundary = false;
    GraphemeBreaker breaker;
    for (std::string field; fields >> field;) {
      if (field == "\xC3\xB7") {  // ÷
        boundary = true;
      } else if (field == "\xC3\x97") {  // ×
        boundary = false;
      } else {
        const char32_t c = static_cast<char32_t>(std::stoul(field, nullptr, 16));
        expected.push_back(boundary);
        actual.push_back(breaker.starts_cluster(properties(c).grapheme_break));
      }
    }
    ++checked;
    if (actual != expected || !boundary) failures.push_back(sequence);
  }
  WARN("GraphemeBreakTest.txt: " << checked << " lines checked, " << failures.size() << " failed");
  CHECK(failures == std::vector<std::string>{});
  REQUIRE(checked == 602);  // every test line of Unicode 15.0's file
}
