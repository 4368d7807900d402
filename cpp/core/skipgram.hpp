// Word vectors learned from text: skip-gram with negative sampling (Mikolov et al. 2013, the
// method of word2vec), single-threaded and deterministic from a seed, in float32.
//
// The idea: a word is known by the company it keeps. Every word has two vectors, an input
// vector (the one we keep) and an output vector. For each word in the text and each neighbour
// within a few words of it, the pair (centre, context) is trained: the context word's input
// vector and the centre word's output vector are nudged so that their dot product, read through
// the sigmoid σ, says "yes, these occur together"; and for a few words drawn at random from the
// vocabulary (the negatives) it says "no". The loss of one pair is
//   −log σ(in[context] · out[centre]) − Σ_neg log σ(−in[context] · out[neg])
// and its gradient moves both vectors. Words that share neighbours are pushed towards the same
// output vectors, so their input vectors end up pointing the same way. (Which of the two words
// gives its input vector is word2vec's choice; the pairs come in both orders, so it is the same
// model, and it is the order that makes code-switching below train the vectors we keep.)
//
// The details are word2vec's:
//   - window: for each centre word a window w is drawn from 1 … window, and the words up to w
//     positions away in the same sentence are its contexts, so near words count more often;
//   - subsampling: a word that makes up a fraction f of the text is kept with probability
//     (√(f/t) + 1)·t/f (capped at 1) each time it occurs, so "the" and 的 stop drowning the rest;
//   - negatives are drawn from the unigram distribution raised to 0.75 (a table of
//     min(SkipGramLimits::table_size, 1024 × vocab) slots, each word getting slots in that
//     proportion), which draws rare words a little more often than their counts would;
//   - the learning rate falls linearly from learning_rate to min_learning_rate over the run.
//
// Bilingual by code-switching: English and Chinese texts never share a sentence, so on their
// own the two languages would learn two unrelated spaces (and if their texts come from
// different sources, even their topics differ). A small dictionary of translation pairs ties
// them. Whenever the context word of a pair has translations, with probability code_switch the
// pair is trained with one of those translations in its place: "the sky is full of birds" then
// also teaches 鸟 that it occurs next to "sky", and a Chinese sentence teaches "bird" that it
// occurs next to 天空. Each word of a pair learns from the other's contexts, so the two end up
// near each other, and the space they share is one space for both languages. A word the
// dictionary does not list is tied only through its neighbours, a weaker pull: in a tiny corpus
// the negatives, which see that it never occurs beside the other language's words, outweigh it
// (tests/cpp/test_skipgram.cpp), so the dictionary should cover the frequent words.
//
// Memory: 2 × vocab × dims floats (the input and output vectors), the negative table (at most
// table_size int32s, 4 MB), a few numbers per word and one buffer as long as the longest sentence;
// the corpus is read in place, never copied, and nothing is allocated per token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "common.hpp"

namespace attn {

struct SkipGramLimits {
  static constexpr std::size_t table_size = 1u << 20;  // most slots of the negatives' table
  static constexpr int max_dims = 1000;
  static constexpr int max_window = 50;
  static constexpr int max_negatives = 50;
  static constexpr int max_epochs = 1000;
  static constexpr std::size_t max_vocab = 4u << 20;
  static constexpr std::size_t max_cells = 1u << 28;  // vocab × dims: 1 GB per matrix of floats
};

struct SkipGramConfig {
  int dims = 100;                   // length of each vector
  int window = 5;                   // the largest window; each centre word draws 1 … window
  int negatives = 5;                // negative words per pair
  int epochs = 5;                   // passes over the corpus
  double learning_rate = 0.025;     // at the start
  double min_learning_rate = 1e-4;  // the floor the linear decay stops at
  double subsample = 1e-3;          // t; 0 keeps every word
  double code_switch = 0.5;         // p, the chance a context word with translations is swapped
  std::uint64_t seed = 1;
};

// The text as word ids. Sentences are separated by `separator` (any negative id): windows never
// cross it. counts[i] is how often word i occurs (the subsampling and the negative table use
// them, so they need not match the tokens exactly, but every word of tokens must have one).
// translations is empty (monolingual) or has one list per word: the ids of its translations.
struct SkipGramCorpus {
  static constexpr std::int32_t separator = -1;
  std::vector<std::int32_t> tokens;
  std::vector<std::uint64_t> counts;
  std::vector<std::vector<std::int32_t>> translations;
};

struct SkipGramVectors {
  std::size_t vocab = 0, dims = 0;
  std::vector<float> vectors;       // (vocab, dims) row-major: the input vectors
  std::vector<double> epoch_loss;   // mean loss per pair, one per epoch
  std::vector<std::uint64_t> kept;  // per word: occurrences subsampling kept, all epochs
  std::uint64_t pairs = 0;          // pairs trained, all epochs
  const float* row(std::size_t word) const { return vectors.data() + word * dims; }
};

// Called after each epoch with its index (from 0) and mean loss, e.g. to print progress.
using EpochCallback = std::function<void(std::size_t epoch, double loss)>;

// The first field out of range, named as the JS API names it ("dims", "window", "negatives",
// "epochs", "learningRate", "minLearningRate", "subsample", "codeSwitch"); nullopt if all fit.
std::optional<Error> check_skipgram_config(const SkipGramConfig& config);

// Trains from config.seed. Errors name the field: the config's, "counts" (empty, too many words,
// all zero), "corpus" (no word, an id at or above the vocabulary, col = its index),
// "translations" (not one list per word, an id out of range: row = the word), and too_large
// when vocab × dims passes SkipGramLimits::max_cells.
Result<SkipGramVectors> train_skipgram(const SkipGramCorpus& corpus, const SkipGramConfig& config,
                                       const EpochCallback& on_epoch = nullptr);

// One pair's update, the inner step of train_skipgram(): `in` is the context word's input vector
// (dims floats), `out` the output vectors (rows of dims floats); `target` is the centre word
// (label 1) and `negatives` are labelled 0 (one equal to target is skipped, as in word2vec).
// Each output row moves by lr × its gradient of the loss, `in` by lr × its own, computed at the
// values before the update (a negative drawn twice sees its first move, as in word2vec);
// `scratch` holds dims floats. Returns the loss before the update.
double sgns_update(float* in, float* out, std::size_t dims, std::int32_t target,
                   const std::int32_t* negatives, std::size_t count, float lr, float* scratch);

// The chance subsampling keeps one occurrence of each word: (√(f/t) + 1)·t/f capped at 1, with
// f = count / total; 1 for every word when t is 0 (and for a word that never occurs).
std::vector<double> keep_probabilities(const std::vector<std::uint64_t>& counts, double t);

// Cosine similarity of two vectors of `dims` floats, summed in double; 0 if either is all zero.
double cosine(const float* a, const float* b, std::size_t dims);

struct Neighbour {
  std::int32_t word = 0;
  double cosine = 0;
};

// The k words nearest `word` by cosine (not `word` itself), nearest first, ties by smaller id;
// fewer when the vocabulary is smaller. Errors: `word` out of range (bad_argument, "word").
Result<std::vector<Neighbour>> nearest_words(const SkipGramVectors& vectors, std::int32_t word,
                                             std::size_t k);

}  // namespace attn
