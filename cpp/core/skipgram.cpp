#include "skipgram.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "rng.hpp"

namespace attn {

namespace {

// log(1 + e^z) without overflow for large z or loss of precision for very negative z: the loss
// of a pair is softplus(−x) for the positive word and softplus(x) for each negative.
double softplus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

Error field_error(const char* field, const std::string& why) {
  return make_error(ErrorCode::bad_argument, field, -1, -1, std::string(field) + ": " + why);
}

std::optional<Error> check_int(const char* field, int value, int lo, int hi) {
  if (value >= lo && value <= hi) return std::nullopt;
  return field_error(field, std::to_string(value) + "; it must be from " + std::to_string(lo) +
                                " to " + std::to_string(hi) + ".");
}

std::optional<Error> check_real(const char* field, double value, double lo, double hi,
                                bool lo_open) {
  if (std::isfinite(value) && (lo_open ? value > lo : value >= lo) && value <= hi)
    return std::nullopt;
  return field_error(field, number_text(value) + "; it must be " +
                                (lo_open ? "above " : "at least ") + number_text(lo) +
                                " and at most " + number_text(hi) + ".");
}

// word2vec's table: slot s holds the word whose share of Σ count^0.75 covers s / size, so a
// uniform slot draws a word with probability ∝ count^0.75 (to within one slot).
std::vector<std::int32_t> negative_table(const std::vector<std::uint64_t>& counts) {
  std::vector<double> cumulative(counts.size());
  double sum = 0;
  for (std::size_t w = 0; w < counts.size(); ++w)
    cumulative[w] = sum += std::pow(static_cast<double>(counts[w]), 0.75);
  // 1024 slots per word resolve its share to 0.1 %; a small vocabulary needs no 4 MB table.
  std::vector<std::int32_t> table(std::min(SkipGramLimits::table_size, 1024 * counts.size()));
  std::size_t w = 0;
  for (std::size_t s = 0; s < table.size(); ++s) {
    const double at = (static_cast<double>(s) + 0.5) / static_cast<double>(table.size()) * sum;
    while (w + 1 < counts.size() && cumulative[w] <= at) ++w;
    table[s] = static_cast<std::int32_t>(w);
  }
  return table;
}

// A uniform integer in [0, n): the top bits of one draw, so the result does not depend on the
// platform (the modulo bias is below 2^-32 for any n the limits allow).
std::size_t below(Rng& rng, std::size_t n) {
  return static_cast<std::size_t>((rng.next_u64() >> 11) % n);
}

std::optional<Error> check_corpus(const SkipGramCorpus& corpus, const SkipGramConfig& config) {
  const std::size_t vocab = corpus.counts.size();
  if (vocab == 0)
    return make_error(ErrorCode::empty_input, "counts", -1, -1,
                      "counts: the vocabulary is empty; give one count per word.");
  if (vocab > SkipGramLimits::max_vocab)
    return make_error(ErrorCode::too_large, "counts", -1, -1,
                      "counts: " + std::to_string(vocab) + " words; at most " +
                          std::to_string(SkipGramLimits::max_vocab) + " are allowed.");
  if (vocab * static_cast<std::size_t>(config.dims) > SkipGramLimits::max_cells)
    return make_error(ErrorCode::too_large, "dims", -1, -1,
                      "dims: " + std::to_string(vocab) + " words × " + std::to_string(config.dims) +
                          " dims passes " + std::to_string(SkipGramLimits::max_cells) +
                          " numbers; use fewer.");
  if (std::all_of(corpus.counts.begin(), corpus.counts.end(), [](auto c) { return c == 0; }))
    return make_error(ErrorCode::bad_argument, "counts", -1, -1,
                      "counts: every word has count 0; negatives cannot be drawn.");
  bool any_word = false;
  for (std::size_t i = 0; i < corpus.tokens.size(); ++i) {
    const std::int32_t t = corpus.tokens[i];
    if (t < 0) continue;
    any_word = true;
    if (static_cast<std::size_t>(t) >= vocab)
      return make_error(ErrorCode::bad_argument, "corpus", -1, static_cast<long>(i),
                        "corpus: token " + std::to_string(i + 1) + " is word " + std::to_string(t) +
                            ", but the vocabulary has " + std::to_string(vocab) + " words.");
  }
  if (!any_word)
    return make_error(ErrorCode::empty_input, "corpus", -1, -1,
                      "corpus: there are no words to learn from.");
  const auto& tr = corpus.translations;
  if (!tr.empty() && tr.size() != vocab)
    return make_error(ErrorCode::shape_mismatch, "translations", -1, -1,
                      "translations: " + std::to_string(tr.size()) +
                          " lists; give none or one per word (" + std::to_string(vocab) + ").");
  for (std::size_t w = 0; w < tr.size(); ++w)
    for (std::size_t j = 0; j < tr[w].size(); ++j)
      if (tr[w][j] < 0 || static_cast<std::size_t>(tr[w][j]) >= vocab)
        return make_error(ErrorCode::bad_argument, "translations", static_cast<long>(w),
                          static_cast<long>(j),
                          "translations: word " + std::to_string(w) + " lists word " +
                              std::to_string(tr[w][j]) + ", outside the vocabulary.");
  return std::nullopt;
}

}  // namespace

std::optional<Error> check_skipgram_config(const SkipGramConfig& c) {
  if (auto e = check_int("dims", c.dims, 1, SkipGramLimits::max_dims)) return e;
  if (auto e = check_int("window", c.window, 1, SkipGramLimits::max_window)) return e;
  if (auto e = check_int("negatives", c.negatives, 1, SkipGramLimits::max_negatives)) return e;
  if (auto e = check_int("epochs", c.epochs, 1, SkipGramLimits::max_epochs)) return e;
  if (auto e = check_real("learningRate", c.learning_rate, 0, 1, true)) return e;
  if (auto e = check_real("minLearningRate", c.min_learning_rate, 0, c.learning_rate, false))
    return e;
  if (auto e = check_real("subsample", c.subsample, 0, 1, false)) return e;
  if (auto e = check_real("codeSwitch", c.code_switch, 0, 1, false)) return e;
  return std::nullopt;
}

double sgns_update(float* in, float* out, std::size_t dims, std::int32_t target,
                   const std::int32_t* negatives, std::size_t count, float lr, float* scratch) {
  std::fill(scratch, scratch + dims, 0.0f);
  double loss = 0;
  // dL/d(in·o) is σ(x) − label; stepping against it moves `in` by g·o and o by g·in. The input
  // vector's move is gathered in scratch and applied last, so every output row sees `in` as it
  // was.
  auto train = [&](std::int32_t word, double label) {
    float* o = out + static_cast<std::size_t>(word) * dims;
    float dot = 0;
    for (std::size_t j = 0; j < dims; ++j) dot += in[j] * o[j];
    const double x = dot;
    loss += label > 0 ? softplus(-x) : softplus(x);
    const float g = lr * static_cast<float>(label - 1 / (1 + std::exp(-x)));
    for (std::size_t j = 0; j < dims; ++j) {
      scratch[j] += g * o[j];
      o[j] += g * in[j];
    }
  };
  train(target, 1);
  for (std::size_t k = 0; k < count; ++k)
    if (negatives[k] != target) train(negatives[k], 0);
  for (std::size_t j = 0; j < dims; ++j) in[j] += scratch[j];
  return loss;
}

std::vector<double> keep_probabilities(const std::vector<std::uint64_t>& counts, double t) {
  double total = 0;
  for (auto c : counts) total += static_cast<double>(c);
  std::vector<double> keep(counts.size(), 1.0);
  if (!(t > 0)) return keep;
  for (std::size_t w = 0; w < counts.size(); ++w) {
    if (counts[w] == 0) continue;
    const double f = static_cast<double>(counts[w]) / total;
    keep[w] = std::min(1.0, (std::sqrt(f / t) + 1) * t / f);
  }
  return keep;
}

Result<SkipGramVectors> train_skipgram(const SkipGramCorpus& corpus, const SkipGramConfig& config,
                                       const EpochCallback& on_epoch) {
  if (auto e = check_skipgram_config(config)) return *e;
  if (auto e = check_corpus(corpus, config)) return *e;
  const std::size_t vocab = corpus.counts.size(), dims = static_cast<std::size_t>(config.dims);
  const std::size_t window = static_cast<std::size_t>(config.window);
  const std::size_t negatives = static_cast<std::size_t>(config.negatives);

  SkipGramVectors result;
  result.vocab = vocab;
  result.dims = dims;
  result.vectors.resize(vocab * dims);
  result.kept.assign(vocab, 0);
  std::vector<float> out(vocab * dims, 0.0f);  // output vectors start at zero, as in word2vec
  Rng rng(config.seed);
  // Input vectors start small and random (uniform in ±0.5/dims, word2vec's), so that words
  // differ from the first step; all-zero input and output vectors would get no gradient at all.
  for (float& v : result.vectors)
    v = static_cast<float>((rng.uniform() - 0.5) / static_cast<double>(dims));

  const std::vector<double> keep = keep_probabilities(corpus.counts, config.subsample);
  const std::vector<std::int32_t> table = negative_table(corpus.counts);
  const bool switching = !corpus.translations.empty() && config.code_switch > 0;
  std::size_t words = 0;
  for (auto t : corpus.tokens) words += t >= 0;
  const double total = static_cast<double>(words) * config.epochs;
  std::vector<std::int32_t> sentence, drawn(negatives);
  std::vector<float> scratch(dims);
  std::size_t seen = 0;  // words read so far (kept or not), for the learning rate's decay

  const std::vector<std::int32_t>& tokens = corpus.tokens;
  for (int epoch = 0; epoch < config.epochs; ++epoch) {
    double loss = 0;
    std::uint64_t pairs = 0;
    for (std::size_t i = 0; i < tokens.size();) {
      // The next sentence, subsampled before its windows are drawn (as word2vec does), so a
      // discarded "the" brings the words on either side of it closer.
      sentence.clear();
      const std::size_t start_seen = seen;
      for (; i < tokens.size() && tokens[i] >= 0; ++i) {
        const std::int32_t w = tokens[i];
        ++seen;
        if (keep[w] < 1 && rng.uniform() >= keep[w]) continue;
        sentence.push_back(w);
        ++result.kept[w];
      }
      ++i;  // the separator
      const double step = sentence.empty() ? 0
                                           : static_cast<double>(seen - start_seen) /
                                                 static_cast<double>(sentence.size());
      for (std::size_t p = 0; p < sentence.size(); ++p) {
        const double progress = (static_cast<double>(start_seen) + step * p) / total;
        const float lr = static_cast<float>(
            std::max(config.min_learning_rate, config.learning_rate * (1 - progress)));
        const std::size_t w = window - below(rng, window);
        const std::size_t lo = p >= w ? p - w : 0, hi = std::min(sentence.size() - 1, p + w);
        for (std::size_t q = lo; q <= hi; ++q) {
          if (q == p) continue;
          std::int32_t context = sentence[q];
          if (switching) {
            const auto& options = corpus.translations[static_cast<std::size_t>(context)];
            if (!options.empty() && rng.uniform() < config.code_switch)
              context = options[below(rng, options.size())];
          }
          for (auto& d : drawn) d = table[below(rng, table.size())];
          loss += sgns_update(result.vectors.data() + static_cast<std::size_t>(context) * dims,
                              out.data(), dims, sentence[p], drawn.data(), negatives, lr,
                              scratch.data());
          ++pairs;
        }
      }
    }
    const double mean = pairs ? loss / static_cast<double>(pairs) : 0;
    if (!std::isfinite(mean))
      return make_error(ErrorCode::not_finite, "learningRate", -1, -1,
                        "learningRate: the loss overflowed in epoch " + std::to_string(epoch + 1) +
                            "; use a smaller learning rate.");
    result.epoch_loss.push_back(mean);
    result.pairs += pairs;
    if (on_epoch) on_epoch(static_cast<std::size_t>(epoch), mean);
  }
  return result;
}

double cosine(const float* a, const float* b, std::size_t dims) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t j = 0; j < dims; ++j) {
    ab += static_cast<double>(a[j]) * b[j];
    aa += static_cast<double>(a[j]) * a[j];
    bb += static_cast<double>(b[j]) * b[j];
  }
  return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0;
}

Result<std::vector<Neighbour>> nearest_words(const SkipGramVectors& v, std::int32_t word,
                                             std::size_t k) {
  if (word < 0 || static_cast<std::size_t>(word) >= v.vocab)
    return make_error(ErrorCode::bad_argument, "word", -1, -1,
                      "word: " + std::to_string(word) + " is outside the vocabulary of " +
                          std::to_string(v.vocab) + " words.");
  std::vector<Neighbour> all;
  all.reserve(v.vocab - 1);
  for (std::size_t w = 0; w < v.vocab; ++w)
    if (w != static_cast<std::size_t>(word))
      all.push_back({static_cast<std::int32_t>(w), cosine(v.row(word), v.row(w), v.dims)});
  k = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k), all.end(),
                    [](const Neighbour& a, const Neighbour& b) {
                      return a.cosine != b.cosine ? a.cosine > b.cosine : a.word < b.word;
                    });
  all.resize(k);
  return all;
}

}  // namespace attn
