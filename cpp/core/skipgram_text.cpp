#include "skipgram_text.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <istream>
#include <ostream>
#include <unordered_map>

namespace attn {

namespace {

// Calls f on each space-separated token of `line`; a trailing '\r' (a file saved on Windows)
// is not part of the last word.
template <class F>
void for_each_token(const std::string& line, F f) {
  std::size_t end = line.size();
  if (end > 0 && line[end - 1] == '\r') --end;
  std::size_t start = 0;
  while (start < end) {
    std::size_t stop = line.find(' ', start);
    if (stop == std::string::npos || stop > end) stop = end;
    if (stop > start) f(line.substr(start, stop - start));
    start = stop + 1;
  }
}

Error file_error(const char* input, const std::string& path, const char* what) {
  return make_error(ErrorCode::bad_argument, input, -1, -1,
                    std::string(input) + ": cannot " + what + " " + path + ".");
}

}  // namespace

Result<TextCorpus> read_text_corpus(std::istream& in, std::uint64_t min_count) {
  if (min_count == 0)
    return make_error(ErrorCode::bad_argument, "minCount", -1, -1,
                      "minCount: 0; it must be at least 1.");
  // The whole text is held once, so the second pass (to ids) does not read the file again.
  std::vector<std::string> lines;
  std::unordered_map<std::string, std::uint64_t> counts;
  for (std::string line; std::getline(in, line);) {
    for_each_token(line, [&](std::string word) { ++counts[std::move(word)]; });
    lines.push_back(std::move(line));
  }
  TextCorpus text;
  for (const auto& [word, count] : counts)
    if (count >= min_count) text.words.push_back(word);
  if (text.words.empty())
    return make_error(ErrorCode::empty_input, "corpus", -1, -1,
                      "corpus: no word occurs " + std::to_string(min_count) +
                          " times or more; lower the minimum count or give more text.");
  std::sort(text.words.begin(), text.words.end(), [&](const std::string& a, const std::string& b) {
    const std::uint64_t ca = counts.at(a), cb = counts.at(b);
    return ca != cb ? ca > cb : a < b;
  });
  std::unordered_map<std::string, std::int32_t> ids;
  for (std::size_t i = 0; i < text.words.size(); ++i) {
    ids.emplace(text.words[i], static_cast<std::int32_t>(i));
    text.corpus.counts.push_back(counts.at(text.words[i]));
  }
  for (const std::string& line : lines) {
    bool any = false;
    for_each_token(line, [&](const std::string& word) {
      auto it = ids.find(word);
      if (it == ids.end()) {
        ++text.dropped;
        return;
      }
      text.corpus.tokens.push_back(it->second);
      any = true;
    });
    if (any) text.corpus.tokens.push_back(SkipGramCorpus::separator);
  }
  return text;
}

Result<DictionaryStats> read_dictionary(std::istream& in, TextCorpus& text) {
  std::unordered_map<std::string, std::int32_t> ids;
  for (std::size_t i = 0; i < text.words.size(); ++i)
    ids.emplace(text.words[i], static_cast<std::int32_t>(i));
  auto& tr = text.corpus.translations;
  tr.assign(text.words.size(), {});
  DictionaryStats stats;
  long row = 0;
  for (std::string line; std::getline(in, line); ++row) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::size_t tab = line.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == line.size())
      return make_error(
          ErrorCode::parse_error, "dictionary", row, -1,
          "dictionary: line " + std::to_string(row + 1) + " is not \"word<TAB>translation\".");
    auto a = ids.find(line.substr(0, tab)), b = ids.find(line.substr(tab + 1));
    if (a == ids.end() || b == ids.end()) {
      ++stats.skipped;
      continue;
    }
    auto add = [&](std::int32_t from, std::int32_t to) {
      auto& list = tr[static_cast<std::size_t>(from)];
      if (from != to && std::find(list.begin(), list.end(), to) == list.end()) list.push_back(to);
    };
    add(a->second, b->second);
    add(b->second, a->second);
    ++stats.pairs;
  }
  return stats;
}

void write_vectors(std::ostream& out, const std::vector<std::string>& words,
                   const SkipGramVectors& v) {
  out << v.vocab << ' ' << v.dims << '\n';
  char number[32];
  std::string line;
  for (std::size_t w = 0; w < v.vocab; ++w) {
    line = words[w];
    const float* row = v.row(w);
    for (std::size_t j = 0; j < v.dims; ++j) {
      std::snprintf(number, sizeof number, " %.6g", static_cast<double>(row[j]));
      line += number;
    }
    line += '\n';
    out << line;
  }
}

Result<TrainVectorsReport> train_vectors(const TrainVectorsOptions& options, std::ostream* log) {
  // A bad option is refused before a large corpus is read for nothing.
  if (auto e = check_skipgram_config(options.config)) return *e;
  std::ifstream corpus_file(options.corpus_path, std::ios::binary);
  if (!corpus_file) return file_error("corpus", options.corpus_path, "open");
  auto text = read_text_corpus(corpus_file, options.min_count);
  if (!text) return text.error();
  TrainVectorsReport report;
  if (!options.dictionary_path.empty()) {
    std::ifstream dictionary_file(options.dictionary_path, std::ios::binary);
    if (!dictionary_file) return file_error("dictionary", options.dictionary_path, "open");
    auto stats = read_dictionary(dictionary_file, text.value());
    if (!stats) return stats.error();
    report.dictionary = *stats;
  }
  report.words = text->words.size();
  for (auto t : text->corpus.tokens) report.tokens += t >= 0;
  if (log)
    *log << report.words << " words, " << report.tokens << " tokens (" << text->dropped
         << " below the minimum count), " << report.dictionary.pairs << " dictionary pairs ("
         << report.dictionary.skipped << " outside the vocabulary)\n";

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto vectors = train_skipgram(text->corpus, options.config, [&](std::size_t epoch, double loss) {
    if (log) *log << "epoch " << epoch + 1 << ": loss " << loss << ", " << elapsed() << " s\n";
  });
  if (!vectors) return vectors.error();
  report.seconds = elapsed();
  report.epoch_loss = vectors->epoch_loss;
  report.words_per_second = report.seconds > 0 ? static_cast<double>(report.tokens) *
                                                     options.config.epochs / report.seconds
                                               : 0;
  if (log) *log << report.words_per_second << " words per second\n";

  std::ofstream out(options.output_path, std::ios::binary);
  if (!out) return file_error("output", options.output_path, "write");
  write_vectors(out, text->words, *vectors);
  out.flush();
  if (!out) return file_error("output", options.output_path, "write");
  return report;
}

}  // namespace attn
