// Text in and out for skip-gram (skipgram.hpp): what tools/train_vectors.cpp does, as functions a
// test can call.
//
// Corpus: one sentence per line, tokens separated by spaces (already segmented: Chinese words
// split by a segmenter before they get here). Words seen fewer than min_count times are dropped
// from the text, as word2vec does, so they neither get a vector nor take a window slot.
// Vocabulary order: descending count, then byte order, so the same text always gives the same
// ids and the same output file.
//
// Dictionary: lines "word<TAB>translation"; a pair counts in both directions, and pairs with a
// word outside the vocabulary are skipped (and counted), since a dictionary is usually larger
// than a corpus.
//
// Vectors: the word2vec text format, first line "count dims", then "word v1 v2 …", each number
// with 6 significant digits (printf's %g).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "common.hpp"
#include "skipgram.hpp"

namespace attn {

struct TextCorpus {
  std::vector<std::string> words;  // the vocabulary, in the order above
  SkipGramCorpus corpus;           // tokens, counts (and translations) over `words`
  std::uint64_t dropped = 0;       // tokens of words below min_count
};

// Errors: min_count 0 (bad_argument, "minCount"); no word reaching min_count (empty_input,
// "corpus").
Result<TextCorpus> read_text_corpus(std::istream& in, std::uint64_t min_count);

struct DictionaryStats {
  std::size_t pairs = 0;    // pairs with both words in the vocabulary
  std::size_t skipped = 0;  // pairs with a word outside it
};

// Fills corpus.corpus.translations. Errors: a line without a tab, or with an empty side
// (parse_error, "dictionary", row = the line).
Result<DictionaryStats> read_dictionary(std::istream& in, TextCorpus& corpus);

void write_vectors(std::ostream& out, const std::vector<std::string>& words,
                   const SkipGramVectors& vectors);

struct TrainVectorsOptions {
  std::string corpus_path, dictionary_path, output_path;  // dictionary_path may be empty
  std::uint64_t min_count = 5;
  SkipGramConfig config;
};

struct TrainVectorsReport {
  std::size_t words = 0;   // the vocabulary
  std::size_t tokens = 0;  // words of the text kept by min_count
  DictionaryStats dictionary;
  std::vector<double> epoch_loss;
  double seconds = 0;           // training alone, without reading and writing
  double words_per_second = 0;  // tokens × epochs / seconds
};

// Reads the files, trains, writes the vectors; prints each epoch's loss and time to `log` when it
// is given. Errors: those above, and a file that cannot be opened or written (bad_argument,
// input "corpus", "dictionary" or "output").
Result<TrainVectorsReport> train_vectors(const TrainVectorsOptions& options, std::ostream* log);

}  // namespace attn
