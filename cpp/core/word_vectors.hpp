// Learned word vectors as a packed file, and the two questions the page asks of them: which words
// lie nearest a word, and how similar two words are.
//
// The file ("APV1"), every integer little-endian:
//   byte  0  "APV1"
//         4  u32 n         the number of words, 1 … Limits::max_words
//         8  u32 d         dims, 1 … Limits::max_dim
//        12  u32 learned   ≤ n: the first `learned` words got their vector from text; the rest
//                          borrowed it (from their translations)
//        16  f32 scale     finite, > 0: each stored value q means q × scale
//        20  u32 textBytes
//        24  the n words, UTF-8, joined by '\n' (no line break after the last)
//            then n × d int8, row-major: word i's vector is bytes [i·d, (i+1)·d) of them
//   and the file ends exactly there.
// Eight bits a value keep a 42,000-word, 32-dimension file near 1.5 MB, small enough to fetch with
// the page; cosine similarity, all the page computes from them, hardly moves when every value
// rounds to one of 255 steps of one scale.
//
// read_word_vectors() checks all of it and names where it fails: Error::input "vectors", col =
// the byte offset (counted from 0, as the layout above counts), row = the word's index where the
// problem is one word's (else -1), and a message that gives both ("vectors: byte 31, word 3:
// …", the word counted from 1). A wrong magic is "not a word-vector file"; a file that ends early
// or goes on after the last vector, a word count of 0, a dims of 0, learned > n, a scale that is
// not finite or not above 0, a text with another count of words than n, an empty word, a word
// with whitespace, a control character or invalid UTF-8 (the tokenizer could never find it), and
// a word that repeats an earlier one are ErrorCode::parse_error. An empty file is empty_input;
// more than Limits::max_vector_file_bytes bytes, more words than Limits::max_words or more dims
// than Limits::max_dim are too_large. Feature names are "d1" … "dd": learned dimensions mean
// nothing one by one, so the lexicon gives a word it does not have the zero vector
// (Lexicon::Unknown::zero), not a made-up one.
//
// nearest_words() and word_similarity() find words as Lexicon::find does ("Apple" finds "apple")
// and measure cosine similarity, a·b / (|a|·|b|), in double. A word the lexicon does not have is
// bad_argument naming it (input "word", or "a" and "b"); a word whose vector is all zeros has no
// direction to compare, and is zero_vector. Every lexicon works, the built-in ones too.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "lexicon.hpp"

namespace attn {

struct WordVectors {
  Lexicon lexicon;
  std::size_t learned = 0;  // words()[0 … learned) were learned; the rest borrowed their vector
};

Result<WordVectors> read_word_vectors(std::string_view bytes);

// A word near another: its spelling as the lexicon holds it (a view, valid while the lexicon is
// unchanged, as Lexicon::find's pointer is), and the cosine of the two.
struct WordNeighbour {
  std::string_view word;
  double cosine = 0;
};

// The k words with the largest cosine similarity to `word`, largest first; `word` itself (the
// entry find() finds) is never among them, a word with a vector of zeros neither; of equal
// cosines, the word earlier in words() comes first. Fewer when the lexicon has fewer other words;
// k = 0 is an empty list, k above Limits::max_neighbours is bad_argument ("k"). One pass over the
// lexicon, keeping the best k as it goes: about a millisecond for 42,000 words of 32 dims, in
// the engine under node.
Result<std::vector<WordNeighbour>> nearest_words(const Lexicon& lexicon, std::string_view word,
                                                 std::size_t k);

// The cosine similarity of two words: 1 for the same direction, 0 for none in common, −1 for
// opposite ones.
Result<double> word_similarity(const Lexicon& lexicon, std::string_view a, std::string_view b);

}  // namespace attn
