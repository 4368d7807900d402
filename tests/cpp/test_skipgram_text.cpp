// The word-vector tool's work (tools/train_vectors.cpp calls train_vectors()): a corpus and a
// dictionary written here, the vocabulary's order, the output format, and the same file twice.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "skipgram_text.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("skipgram text: vocabulary by count then bytes, rare words dropped", "[skipgram]") {
  // b ×3, a ×3, 鸟 ×2, c ×1 (dropped at min count 2); the blank line is no sentence.
  std::istringstream text("b a 鸟\n\na  b c\r\nb 鸟 a\n");
  auto corpus = read_text_corpus(text, 2);
  REQUIRE(corpus.ok());
  REQUIRE(corpus->words == std::vector<std::string>{"a", "b", "鸟"});
  REQUIRE(corpus->corpus.counts == std::vector<std::uint64_t>{3, 3, 2});
  REQUIRE(corpus->dropped == 1);
  const std::int32_t sep = SkipGramCorpus::separator;
  REQUIRE(corpus->corpus.tokens ==
          std::vector<std::int32_t>{1, 0, 2, sep, 0, 1, sep, 1, 2, 0, sep});

  std::istringstream dictionary("a\t鸟\nb\tunknown\n");
  auto stats = read_dictionary(dictionary, corpus.value());
  REQUIRE(stats.ok());
  REQUIRE(stats->pairs == 1);
  REQUIRE(stats->skipped == 1);
  REQUIRE(corpus->corpus.translations == std::vector<std::vector<std::int32_t>>{{2}, {}, {0}});
  std::istringstream bad("a\t鸟\nno tab here\n");
  REQUIRE(read_dictionary(bad, corpus.value()).error().row == 1);

  std::istringstream none("a b\n");
  REQUIRE(read_text_corpus(none, 2).error().input == "corpus");
  REQUIRE(read_text_corpus(none, 0).error().input == "minCount");
}

TEST_CASE("skipgram text: files in, the word2vec text format out, the same twice", "[skipgram]") {
  const std::string corpus = "train_vectors_test_corpus.txt";
  const std::string dictionary = "train_vectors_test_dictionary.txt";
  const std::string output = "train_vectors_test_vectors.txt";
  std::string text;
  for (int i = 0; i < 30; ++i) text += "the bird flies in the sky\n鸟 在 天空 飞\n";
  write_file(corpus, text);
  write_file(dictionary, "bird\t鸟\nsky\t天空\nflies\t飞\n");

  TrainVectorsOptions options;
  options.corpus_path = corpus;
  options.dictionary_path = dictionary;
  options.output_path = output;
  options.min_count = 1;
  options.config.dims = 3;
  options.config.epochs = 2;
  std::ostringstream log;
  auto report = train_vectors(options, &log);
  INFO((report ? log.str() : report.error().message));
  REQUIRE(report.ok());
  REQUIRE(report->words == 9);
  REQUIRE(report->tokens == 300);
  REQUIRE(report->dictionary.pairs == 3);
  REQUIRE(report->epoch_loss.size() == 2);
  REQUIRE(log.str().find("epoch 2: loss ") != std::string::npos);

  const std::string vectors = read_file(output);
  std::istringstream lines(vectors);
  std::string line;
  std::getline(lines, line);
  REQUIRE(line == "9 3");
  // "the" occurs 60 times, every other word 30: then byte order (ASCII before UTF-8).
  std::vector<std::string> words;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string word;
    fields >> word;
    words.push_back(word);
    double x = 0;
    int numbers = 0;
    while (fields >> x) ++numbers;
    REQUIRE(numbers == 3);
  }
  REQUIRE(words ==
          std::vector<std::string>{"the", "bird", "flies", "in", "sky", "在", "天空", "飞", "鸟"});
  REQUIRE(train_vectors(options, nullptr).ok());
  REQUIRE(read_file(output) == vectors);

  options.corpus_path = "train_vectors_test_missing.txt";
  REQUIRE(train_vectors(options, nullptr).error().input == "corpus");
  options.corpus_path = corpus;
  options.config.window = -1;
  REQUIRE(train_vectors(options, nullptr).error().input == "window");
  for (const std::string& path : {corpus, dictionary, output}) std::remove(path.c_str());
}
