// Word vectors: a lexicon maps words to vectors over named, interpretable features.
//
// builtin_lexicon(): over 200 English and Chinese words on 8 features
//   animal, plant, food, technology, person, place, can_fly, size
// each in [−1, 1] (size: −1 tiny … 1 huge), hand-set so that similar words point the same way.
// It covers every word of the painting and fruit examples (person 人, mountain 山, flower 花,
// bird 鸟, ribbon 绸带, flying 飞行, apple 苹果, orange 橘子, iPhone) and example sentences.
// A Chinese word has the vector of its English counterpart (鸟 == bird), and a few emoji have
// the vector of the word they picture (🍎 == apple). No word is the zero vector, so cosine
// similarity is defined for every pair.
//
// fruit_lexicon(): the three vectors of the fruit example over colour, fruit, tech:
//   apple (1, 2, 1), orange (2, 2, 0), iPhone (0, 2, 3)  (and 苹果, 橘子).
//
// Lookups are exact, then case-insensitive for ASCII letters ("The" finds "the").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"

namespace attn {

class Lexicon {
 public:
  Lexicon() = default;
  explicit Lexicon(std::vector<std::string> features) : features_(std::move(features)) {}

  const std::vector<std::string>& features() const { return features_; }
  std::size_t dims() const { return features_.size(); }
  std::size_t size() const { return words_.size(); }
  const std::vector<std::string>& words() const { return words_; }  // in insertion order

  // Adds a word, or replaces the vector of a word already there (it keeps its place in words()).
  // Returns false and changes nothing when the word is empty, the vector does not have dims()
  // entries or holds NaN/±Inf: the core never throws, and a bad vector must not get in.
  bool add(std::string word, std::vector<double> vector);
  // The vector of `word`, or nullptr. An exact match first; otherwise the word whose spelling
  // equals `word` with ASCII letters lowercased ("The" finds "the", "IPHONE" finds "iPhone"; of
  // several such words, the first added).
  const std::vector<double>* find(std::string_view word) const;
  // The place in words() of the word find() finds, or npos: what a caller that walks the whole
  // lexicon (nearest_words in word_vectors.hpp) needs to know which entry is the word itself.
  std::size_t index_of(std::string_view word) const;
  // The vector of words()[i], for i < size(): the whole lexicon in order, with no lookups.
  const std::vector<double>& vector_at(std::size_t i) const { return vectors_[i]; }
  // The longest word in the lexicon, in bytes (the tokenizer's longest-match window).
  std::size_t longest_word_bytes() const { return longest_; }

  // What embed() gives a word the lexicon does not have. A hand-set lexicon's words are points
  // on named features, and a made-up point (unknown_vector) is one more a reader can read and
  // edit. Learned dimensions have no names: a made-up point among them would be read as a
  // meaning the text never gave, so a learned lexicon gives the zero vector, which is alike to
  // nothing (its dot product with every word is 0).
  enum class Unknown { made_up, zero };
  Unknown unknown_words() const { return unknown_; }
  void set_unknown_words(Unknown how) { unknown_ = how; }

 private:
  std::vector<std::string> features_;
  std::vector<std::string> words_;
  std::vector<std::vector<double>> vectors_;  // (size) in the order of words_
  // Where each word is, found by its bytes (exact_) and by its bytes with ASCII letters
  // lowercased (folded_, which keeps the first word of a spelling): open-addressing tables of
  // place + 1 (0 is empty), a power of two in size and at most half full. std::unordered_map
  // brought libc++'s hash table and its primes, 3 KB of the engine's wasm, for this one use;
  // these are a few hundred bytes, and allocate nothing per word.
  std::vector<std::uint32_t> exact_, folded_;
  std::size_t longest_ = 0;
  Unknown unknown_ = Unknown::made_up;

  std::size_t slot(const std::vector<std::uint32_t>& table, std::string_view word, bool fold) const;
  void place(std::size_t i);  // puts words_[i] in both tables
};

const Lexicon& builtin_lexicon();
const Lexicon& fruit_lexicon();

// Example sentences that use only words of builtin_lexicon(); lang is "en" or "zh". Any other
// lang gives an empty list.
const std::vector<std::string>& example_sentences(std::string_view lang);

// A deterministic vector for a word the lexicon does not know: `dims` values in [−1, 1], rounded
// to two decimals, from Rng(fnv1a64(word bytes)). The same on every platform:
//   Rng rng(fnv1a64(word)); for each of dims: x = rng.uniform(-1, 1); round(x * 100) / 100
// (-0 is written as 0).
std::vector<double> unknown_vector(std::string_view word, std::size_t dims);

}  // namespace attn
