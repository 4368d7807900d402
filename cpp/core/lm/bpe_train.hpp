// Learning a byte-level BPE tokenizer (cpp/core/lm/bpe.hpp reads what it writes): the merges
// GPT-2's algorithm finds in a text, and merges that make chosen characters whole tokens.
//
// learn_merges() splits the text into pieces as encode() will, counts each piece, and then, as
// many times as asked, joins the adjacent pair of tokens seen most often across all pieces (ties
// go to the pair whose two tokens come first as text, so the same text gives the same merges).
// Because a merge never crosses a piece, a learned token never spans two words.
//
// character_merges() makes each given character one token by joining its UTF-8 bytes left to
// right: 中 (E4 B8 AD) takes "E4 B8" and then "E4B8 AD". A character left out still encodes, as
// its bytes or as a joined prefix and its last byte: the fallback no text can fail.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn {

// A merge: the two tokens joined, each written as encode() writes tokens (GPT-2's byte characters).
using Merge = std::pair<std::string, std::string>;

std::vector<Merge> learn_merges(std::string_view text, std::size_t count);

// The merges that make each of `characters` (UTF-8, one character each) a token, leaving out
// those `merges` already holds; appended after them.
void add_character_merges(std::vector<Merge>& merges, const std::vector<std::string>& characters);

struct BpeFiles {
  std::string vocab_json;  // the 256 bytes in byte order, each merge's result in order, `specials`
  std::string merges_txt;  // "#version: 0.2" and a merge a line
};
BpeFiles bpe_files(const std::vector<Merge>& merges, const std::vector<std::string>& specials);

}  // namespace attn
