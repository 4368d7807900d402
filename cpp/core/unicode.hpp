// What the tokenizer needs to know of a code point, and UAX #29 extended grapheme clusters
// (internal to the core).
//
// Grapheme clusters follow Unicode 15.0's rules GB1–GB999 exactly (UAX #29 revision 41; the
// Indic conjunct rule GB9c came only in 15.1), checked line by line against the Consortium's
// GraphemeBreakTest.txt. A cluster is what a reader sees as one character: e + combining acute,
// the Devanagari स्, the Thai วั, 👩‍💻, 🇨🇳, the keycap 1️⃣.
//
// The properties come from one generated range table (unicode_tables.cpp, written by
// scripts/unicode-tables.py from the Unicode Character Database 15.0), the same in every build,
// so a text splits the same way in every browser. It is stored delta-encoded and expanded into a
// sorted array on first use, then binary searched.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::unicode {

// Grapheme_Cluster_Break, with Extended_Pictographic (whose code points are all "Other" here) as a
// value of its own. The order is the table's (scripts/unicode-tables.py, BREAKS).
enum class GraphemeBreak : std::uint8_t {
  other,
  cr,
  lf,
  control,
  extend,
  zwj,
  regional_indicator,
  prepend,
  spacing_mark,
  l,
  v,
  t,
  lv,
  lvt,
  extended_pictographic,
};

// What a code point does between words, from its general category. The order is the table's.
enum class WordClass : std::uint8_t {
  letter,       // L*, M*, N*: letters, marks and digits of every script
  punctuation,  // P*, and the symbols of ASCII and Latin-1 and their fullwidth forms (+ = × ©)
  space,        // Z*, Cc, Cf: spaces, controls, invisible format characters
  symbol,       // everything else: € ∑ → ★, emoji, private use, unassigned
};

struct Properties {
  GraphemeBreak grapheme_break = GraphemeBreak::other;
  WordClass word = WordClass::symbol;
};

Properties properties(char32_t c);

// Finds the cluster boundaries in a stream of code points: feed the properties of each code
// point in order; the answer says whether a cluster starts at it (always true for the first).
class GraphemeBreaker {
 public:
  bool starts_cluster(GraphemeBreak next);

 private:
  bool continues(GraphemeBreak next) const;

  bool started_ = false;
  GraphemeBreak previous_ = GraphemeBreak::other;
  bool pictographic_ = false;      // the code points so far end with ExtPict Extend*
  bool pictographic_zwj_ = false;  // … with ExtPict Extend* ZWJ (GB11)
  bool odd_regional_ = false;      // they end with an odd number of regional indicators (GB12/13)
};

namespace tables {
extern const std::uint8_t kFirstDeltas[];  // varints: each range's first code point − the last's
extern const std::uint8_t kValues[];       // (kRangeCount) GraphemeBreak << 2 | WordClass
extern const std::size_t kRangeCount;
}  // namespace tables

}  // namespace attn::unicode
