// Learns word vectors from a text corpus and writes them in word2vec's text format:
//   train_vectors CORPUS OUTPUT [--min-count N] [--dictionary FILE] [--dims N] [--window N]
//                 [--negatives N] [--epochs N] [--learning-rate X] [--min-learning-rate X]
//                 [--subsample T] [--code-switch P] [--seed N]
// CORPUS: one sentence per line, tokens separated by spaces. FILE: lines "word<TAB>translation".
// The work is train_vectors() in cpp/core/skipgram_text.hpp; this file only reads the flags.
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>

#include "skipgram_text.hpp"

namespace {

bool parse_number(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(text.c_str(), &end);
  return errno == 0 && end == text.c_str() + text.size();
}

int usage() {
  std::cerr << "usage: train_vectors CORPUS OUTPUT [--min-count N] [--dictionary FILE] [--dims N]"
               " [--window N] [--negatives N] [--epochs N] [--learning-rate X]"
               " [--min-learning-rate X] [--subsample T] [--code-switch P] [--seed N]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  attn::TrainVectorsOptions options;
  attn::SkipGramConfig& c = options.config;
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      (positional++ == 0 ? options.corpus_path : options.output_path) = arg;
      continue;
    }
    if (i + 1 >= argc) return usage();
    const std::string value = argv[++i];
    if (arg == "--dictionary") {
      options.dictionary_path = value;
      continue;
    }
    double x = 0;
    if (!parse_number(value, x)) {
      std::cerr << arg << ": " << value << " is not a number\n";
      return 2;
    }
    // Integers out of int's range become a value the core refuses by name.
    const int n = x >= -1e9 && x <= 1e9 ? static_cast<int>(x) : std::numeric_limits<int>::min();
    if (arg == "--min-count")
      options.min_count = x >= 0 ? static_cast<std::uint64_t>(x) : 0;
    else if (arg == "--dims")
      c.dims = n;
    else if (arg == "--window")
      c.window = n;
    else if (arg == "--negatives")
      c.negatives = n;
    else if (arg == "--epochs")
      c.epochs = n;
    else if (arg == "--learning-rate")
      c.learning_rate = x;
    else if (arg == "--min-learning-rate")
      c.min_learning_rate = x;
    else if (arg == "--subsample")
      c.subsample = x;
    else if (arg == "--code-switch")
      c.code_switch = x;
    else if (arg == "--seed")
      c.seed = static_cast<std::uint64_t>(x);
    else
      return usage();
  }
  if (positional != 2) return usage();
  auto report = attn::train_vectors(options, &std::cerr);
  if (!report) {
    std::cerr << report.error().message << "\n";
    return 1;
  }
  return 0;
}
