// Skip-gram with negative sampling: the update is the loss's gradient, topics separate, a small
// dictionary ties two languages that never share a sentence, runs repeat bit for bit, and
// subsampling keeps what its formula says. Corpora are a few thousand tokens, since this suite
// also runs under the sanitizers and as wasm.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "rng.hpp"
#include "skipgram.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

double softplus(double z) { return std::log1p(std::exp(z)); }

// The loss of one pair written out in double: −log σ(in·out[t]) − Σ log σ(−in·out[n]).
double pair_loss(const std::vector<double>& in, const std::vector<double>& out, std::size_t dims,
                 int target, const std::vector<int>& negatives) {
  auto dot = [&](int row) {
    double s = 0;
    for (std::size_t j = 0; j < dims; ++j) s += in[j] * out[row * dims + j];
    return s;
  };
  double loss = softplus(-dot(target));
  for (int n : negatives) loss += softplus(dot(n));
  return loss;
}

// Sentences of `length` words drawn uniformly from [first, first + size), one topic each.
void add_topic(SkipGramCorpus& c, Rng& rng, std::int32_t first, std::int32_t size,
               std::size_t sentences, std::size_t length) {
  for (std::size_t s = 0; s < sentences; ++s) {
    for (std::size_t i = 0; i < length; ++i) {
      const auto w = first + static_cast<std::int32_t>(rng.next_u64() % size);
      c.tokens.push_back(w);
      ++c.counts[static_cast<std::size_t>(w)];
    }
    c.tokens.push_back(SkipGramCorpus::separator);
  }
}

SkipGramVectors train(const SkipGramCorpus& c, const SkipGramConfig& config) {
  auto r = train_skipgram(c, config);
  INFO((r ? std::string() : r.error().message));
  REQUIRE(r.ok());
  return std::move(r).value();
}

SkipGramConfig small_config() {
  SkipGramConfig c;
  c.dims = 10;
  c.window = 2;
  c.negatives = 3;
  c.epochs = 10;
  c.learning_rate = 0.05;
  c.subsample = 0;
  return c;
}

}  // namespace

TEST_CASE("skipgram: one update is the central difference of its loss", "[skipgram]") {
  const std::size_t dims = 4, vocab = 5;
  Rng rng(7);
  std::vector<float> in(dims), out(vocab * dims), scratch(dims);
  for (float& v : in) v = static_cast<float>(rng.uniform(-1, 1));
  for (float& v : out) v = static_cast<float>(rng.uniform(-1, 1));
  const int target = 1;
  const std::vector<int> negatives = {2, 3, 4};
  const std::vector<std::int32_t> negs(negatives.begin(), negatives.end());
  const std::vector<double> in0(in.begin(), in.end()), out0(out.begin(), out.end());

  // lr = 1: each parameter moves by exactly minus its gradient.
  const double loss = sgns_update(in.data(), out.data(), dims, target, negs.data(), negs.size(),
                                  1.0f, scratch.data());
  REQUIRE(loss == Approx(pair_loss(in0, out0, dims, target, negatives)).epsilon(1e-6));

  const double h = 1e-5;
  auto check = [&](std::vector<double> params, bool is_in, std::size_t offset,
                   const std::vector<float>& after) {
    std::vector<double> numeric(dims), analytic(dims);
    double scale = 0;
    for (std::size_t j = 0; j < dims; ++j) {
      auto at = [&](double delta) {
        std::vector<double> a = in0, b = out0;
        (is_in ? a : b)[offset + j] += delta;
        return pair_loss(a, b, dims, target, negatives);
      };
      numeric[j] = (at(h) - at(-h)) / (2 * h);
      analytic[j] = params[offset + j] - after[offset + j];
      scale = std::max(scale, std::abs(numeric[j]));
    }
    REQUIRE(scale > 1e-3);  // the check would be empty on a flat loss
    for (std::size_t j = 0; j < dims; ++j) {
      INFO((is_in ? "input" : "output") << " offset " << offset << " dim " << j << ": update "
                                        << analytic[j] << " finite difference " << numeric[j]);
      REQUIRE(std::abs(analytic[j] - numeric[j]) <= 1e-4 * scale);
    }
  };
  check(in0, true, 0, in);
  for (int row : {target, 2, 3, 4}) check(out0, false, row * dims, out);
  // Word 0 is in no pair: its output vector must not move.
  for (std::size_t j = 0; j < dims; ++j) REQUIRE(out[j] == static_cast<float>(out0[j]));
}

TEST_CASE("skipgram: two topics that never meet separate", "[skipgram]") {
  SkipGramCorpus c;
  c.counts.assign(10, 0);
  Rng rng(3);
  for (int round = 0; round < 60; ++round) {
    add_topic(c, rng, 0, 5, 1, 6);  // a1 … a5
    add_topic(c, rng, 5, 5, 1, 6);  // b1 … b5
  }
  const SkipGramVectors v = train(c, small_config());
  REQUIRE(v.epoch_loss.size() == 10);
  REQUIRE(v.epoch_loss.back() < 0.8 * v.epoch_loss.front());
  double worst_within = 1, best_across = -1;
  for (std::size_t a = 0; a < 10; ++a)
    for (std::size_t b = a + 1; b < 10; ++b) {
      const double cos = cosine(v.row(a), v.row(b), v.dims);
      if ((a < 5) == (b < 5))
        worst_within = std::min(worst_within, cos);
      else
        best_across = std::max(best_across, cos);
    }
  INFO("smallest within-topic cosine " << worst_within << ", largest across " << best_across);
  REQUIRE(worst_within > best_across);
}

TEST_CASE("skipgram: code-switching ties two languages through a small dictionary", "[skipgram]") {
  // Two languages of 16 words (English 0 … 15, "Chinese" 16 … 31); word i of one translates
  // word i of the other. Each language's sentences are runs of 6 consecutive words around a ring
  // (i, i + 1, … mod 16), so every word has its own neighbours; the two never share a sentence.
  // The dictionary lists the even words.
  //
  // A held-out word is no nearer its translation here: in so small a world the negatives see
  // that English 3 never occurs beside Chinese 2 or 4, and push them apart. What the dictionary
  // does at this size is make each listed word and its translation mutual nearest neighbours
  // across the languages, which without code-switching happens only by chance (1 in 16).
  SkipGramCorpus c;
  c.counts.assign(32, 0);
  Rng rng(5);
  for (int s = 0; s < 320; ++s) {
    const std::int32_t first = static_cast<std::int32_t>(rng.next_u64() % 16) + (s % 2) * 16;
    for (std::int32_t j = 0; j < 6; ++j) {
      const std::int32_t w = (first + j) % 16 + (s % 2) * 16;
      c.tokens.push_back(w);
      ++c.counts[static_cast<std::size_t>(w)];
    }
    c.tokens.push_back(SkipGramCorpus::separator);
  }
  c.translations.assign(32, {});
  for (std::int32_t w = 0; w < 16; w += 2) {
    c.translations[w] = {w + 16};
    c.translations[w + 16] = {w};
  }
  // How many listed words have their translation as nearest word of the other language, both
  // ways.
  auto mutual = [&](double p) {
    SkipGramConfig config = small_config();
    config.code_switch = p;
    const SkipGramVectors v = train(c, config);
    auto nearest_across = [&](std::size_t w) {
      const std::size_t other = w < 16 ? 16 : 0;
      std::size_t best = other;
      for (std::size_t z = other; z < other + 16; ++z)
        if (cosine(v.row(w), v.row(z), v.dims) > cosine(v.row(w), v.row(best), v.dims)) best = z;
      return best;
    };
    int count = 0;
    for (std::size_t e = 0; e < 16; e += 2)
      count += nearest_across(e) == e + 16 && nearest_across(e + 16) == e;
    return count;
  };
  const int off = mutual(0.0), on = mutual(0.5);
  INFO("mutual nearest translations of 8: p = 0 " << off << ", p = 0.5 " << on);
  REQUIRE(on == 8);
  REQUIRE(off <= 2);
}

TEST_CASE("skipgram: the same seed repeats bit for bit, another seed does not", "[skipgram]") {
  SkipGramCorpus c;
  c.counts.assign(10, 0);
  Rng rng(3);
  add_topic(c, rng, 0, 10, 40, 6);
  c.translations.assign(10, {});
  c.translations[0] = {1};
  SkipGramConfig config = small_config();
  config.epochs = 2;
  config.subsample = 0.05;
  const SkipGramVectors a = train(c, config), b = train(c, config);
  config.seed = 2;
  const SkipGramVectors other = train(c, config);
  REQUIRE(a.vectors.size() == 100);
  REQUIRE(std::memcmp(a.vectors.data(), b.vectors.data(), 100 * sizeof(float)) == 0);
  REQUIRE(a.epoch_loss == b.epoch_loss);
  REQUIRE(a.kept == b.kept);
  REQUIRE(std::memcmp(a.vectors.data(), other.vectors.data(), 100 * sizeof(float)) != 0);
}

TEST_CASE("skipgram: subsampling keeps a frequent word far less often than a rare one",
          "[skipgram]") {
  // Word 0 makes up 2000 of 2200 tokens; words 1 … 20 occur 10 times each.
  SkipGramCorpus c;
  c.counts.assign(21, 0);
  for (int i = 0; i < 200; ++i) {
    for (int k = 0; k < 10; ++k) c.tokens.push_back(0);
    c.tokens.push_back(1 + i % 20);
    c.tokens.push_back(SkipGramCorpus::separator);
  }
  c.counts[0] = 2000;
  for (int w = 1; w <= 20; ++w) c.counts[w] = 10;
  SkipGramConfig config = small_config();
  config.epochs = 1;
  config.subsample = 1e-3;
  // f = 2000/2200: (√(f/t) + 1)·t/f = 0.0343; f = 10/2200: 0.689.
  const std::vector<double> keep = keep_probabilities(c.counts, config.subsample);
  REQUIRE(keep[0] == Approx(0.0343).epsilon(0.01));
  REQUIRE(keep[1] == Approx(0.689).epsilon(0.01));
  const SkipGramVectors v = train(c, config);
  std::uint64_t rare = 0;
  for (int w = 1; w <= 20; ++w) rare += v.kept[w];
  const double frequent_rate = v.kept[0] / 2000.0, rare_rate = rare / 200.0;
  INFO("kept " << v.kept[0] << " of 2000 frequent, " << rare << " of 200 rare");
  // Within about four standard deviations of the binomial counts.
  REQUIRE(std::abs(frequent_rate - keep[0]) < 4 * std::sqrt(keep[0] * (1 - keep[0]) / 2000));
  REQUIRE(std::abs(rare_rate - keep[1]) < 4 * std::sqrt(keep[1] * (1 - keep[1]) / 200));
  REQUIRE(rare_rate > 10 * frequent_rate);
  config.subsample = 0;
  const SkipGramVectors all = train(c, config);
  REQUIRE(all.kept[0] == 2000);
}

TEST_CASE("skipgram: bad input is an error naming its field", "[skipgram]") {
  SkipGramCorpus good;
  good.tokens = {0, 1, 2, SkipGramCorpus::separator, 2, 1};
  good.counts = {1, 2, 2};
  auto fails = [](const SkipGramCorpus& c, const SkipGramConfig& config, const char* field) {
    auto r = train_skipgram(c, config);
    REQUIRE_FALSE(r.ok());
    INFO(r.error().message);
    REQUIRE(r.error().input == field);
    REQUIRE(r.error().message.rfind(std::string(field) + ": ", 0) == 0);
    return r.error();
  };
  SkipGramConfig config = small_config();
  REQUIRE(train_skipgram(good, config).ok());
  config.dims = 0;
  fails(good, config, "dims");
  config = small_config();
  config.window = -1;
  fails(good, config, "window");
  config = small_config();
  config.learning_rate = std::nan("");
  fails(good, config, "learningRate");
  config = small_config();
  config.code_switch = 1.5;
  fails(good, config, "codeSwitch");
  config = small_config();

  SkipGramCorpus c = good;
  c.tokens = {};
  REQUIRE(fails(c, config, "corpus").code == ErrorCode::empty_input);
  c.tokens = {SkipGramCorpus::separator, SkipGramCorpus::separator};
  fails(c, config, "corpus");
  c.tokens = {0, 1, 3};
  REQUIRE(fails(c, config, "corpus").col == 2);
  c = good;
  c.counts = {};
  fails(c, config, "counts");
  c.counts = {0, 0, 0};
  fails(c, config, "counts");
  c = good;
  c.translations = {{1}, {}};
  fails(c, config, "translations");
  c.translations = {{1}, {}, {-4}};
  REQUIRE(fails(c, config, "translations").row == 2);
}

TEST_CASE("skipgram: nearest words by cosine, ties by id, never the word itself", "[skipgram]") {
  SkipGramVectors v;
  v.vocab = 5;
  v.dims = 2;
  v.vectors = {1, 0, /**/ 0, 1, /**/ 2, 0, /**/ 1, 1, /**/ 3, 0};
  auto n = nearest_words(v, 0, 3);
  REQUIRE(n.ok());
  REQUIRE(n->size() == 3);
  REQUIRE((*n)[0].word == 2);  // cosine 1, tied with word 4: the smaller id first
  REQUIRE((*n)[1].word == 4);
  REQUIRE((*n)[2].word == 3);
  REQUIRE((*n)[2].cosine == Approx(std::sqrt(0.5)));
  REQUIRE(nearest_words(v, 0, 10)->size() == 4);
  REQUIRE(nearest_words(v, 5, 1).error().input == "word");
  REQUIRE(nearest_words(v, -1, 1).error().input == "word");
  const float zero[2] = {0, 0};
  REQUIRE(cosine(zero, v.row(0), 2) == 0);
}
