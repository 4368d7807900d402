#include "unicode.hpp"

#include <algorithm>
#include <vector>

namespace attn::unicode {

namespace {

// The table as (first code point << 8 | value) words, sorted: expanded from its compact form once.
const std::vector<std::uint32_t>& ranges() {
  static const std::vector<std::uint32_t> expanded = [] {
    std::vector<std::uint32_t> out(tables::kRangeCount);  // (ranges)
    std::uint32_t first = 0;
    const std::uint8_t* byte = tables::kFirstDeltas;
    for (std::size_t k = 0; k < out.size(); ++k) {
      std::uint32_t delta = 0;
      for (unsigned shift = 0;; shift += 7) {
        delta |= static_cast<std::uint32_t>(*byte & 0x7F) << shift;
        if ((*byte++ & 0x80) == 0) break;
      }
      first += delta;
      out[k] = first << 8 | tables::kValues[k];
    }
    return out;
  }();
  return expanded;
}

}  // namespace

Properties properties(char32_t c) {
  const std::vector<std::uint32_t>& table = ranges();
  // The last range that starts at or before c: every code point is in one, the first starts at 0.
  const std::uint32_t key = static_cast<std::uint32_t>(c) << 8 | 0xFF;
  const std::uint32_t range = *(std::upper_bound(table.begin(), table.end(), key) - 1);
  Properties p{static_cast<GraphemeBreak>(range >> 2 & 0x3F), static_cast<WordClass>(range & 3)};
  // Hangul syllables are listed as one LV range: every 28th, from U+AC00, has no final consonant.
  if (p.grapheme_break == GraphemeBreak::lv && (c - 0xAC00) % 28 != 0) {
    p.grapheme_break = GraphemeBreak::lvt;
  }
  return p;
}

bool GraphemeBreaker::starts_cluster(GraphemeBreak next) {
  using B = GraphemeBreak;
  const bool starts = !started_ || !continues(next);  // GB1: a cluster starts the text
  pictographic_zwj_ = pictographic_ && next == B::zwj;
  pictographic_ = next == B::extended_pictographic || (pictographic_ && next == B::extend);
  odd_regional_ = next == B::regional_indicator && !odd_regional_;
  previous_ = next;
  started_ = true;
  return starts;
}

// The rules GB3–GB13 in their order: the first that applies decides. None applies: GB999, a
// boundary.
bool GraphemeBreaker::continues(GraphemeBreak next) const {
  using B = GraphemeBreak;
  const B prev = previous_;
  const auto is_control = [](B b) { return b == B::cr || b == B::lf || b == B::control; };
  if (prev == B::cr && next == B::lf) return true;         // GB3
  if (is_control(prev) || is_control(next)) return false;  // GB4, GB5
  if (prev == B::l && (next == B::l || next == B::v || next == B::lv || next == B::lvt)) {
    return true;  // GB6
  }
  if ((prev == B::lv || prev == B::v) && (next == B::v || next == B::t)) return true;  // GB7
  if ((prev == B::lvt || prev == B::t) && next == B::t) return true;                   // GB8
  if (next == B::extend || next == B::zwj) return true;                                // GB9
  if (next == B::spacing_mark) return true;                                            // GB9a
  if (prev == B::prepend) return true;                                                 // GB9b
  if (pictographic_zwj_ && next == B::extended_pictographic) return true;              // GB11
  return odd_regional_ && next == B::regional_indicator;                               // GB12, GB13
}

}  // namespace attn::unicode
