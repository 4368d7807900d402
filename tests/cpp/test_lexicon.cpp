// Tests for lexicon.hpp: the built-in words, the fruit example, lookups and unknown words.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "lexicon.hpp"
#include "rng.hpp"
#include "test_utils.hpp"
#include "tokenizer.hpp"

using namespace attn;

namespace {

// Indices of the built-in features, in their documented order.
enum Feature { animal, plant, food, technology, person, place, can_fly, size };

const std::vector<double>& builtin(const char* word) {
  const std::vector<double>* vector = builtin_lexicon().find(word);
  INFO("word: " << word);
  REQUIRE(vector != nullptr);
  return *vector;
}

bool is_ascii(const std::string& word) {
  for (char c : word) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Han ideographs are 3-byte UTF-8 sequences starting 0xE3…0xE9 (U+3400…U+9FFF).
bool starts_with_han(const std::string& word) {
  const auto lead = static_cast<unsigned char>(word[0]);
  return word.size() >= 3 && lead >= 0xE3 && lead <= 0xE9;
}

}  // namespace

TEST_CASE("builtin lexicon: at least 200 words over the eight named features", "[lexicon]") {
  const Lexicon& lexicon = builtin_lexicon();
  CHECK(lexicon.features() == std::vector<std::string>{"animal", "plant", "food", "technology",
                                                       "person", "place", "can_fly", "size"});
  CHECK(lexicon.dims() == 8);
  CHECK(lexicon.size() >= 200);
  CHECK(lexicon.words().size() == lexicon.size());

  std::size_t english = 0, chinese = 0;
  for (const std::string& word : lexicon.words()) {
    english += is_ascii(word);
    chinese += starts_with_han(word);
  }
  CHECK(english >= 130);
  CHECK(chinese >= 110);
}

TEST_CASE("builtin lexicon: every value lies in the range minus one to one", "[lexicon]") {
  for (const std::string& word : builtin_lexicon().words()) {
    const std::vector<double>& vector = *builtin_lexicon().find(word);
    INFO("word: " << word);
    REQUIRE(vector.size() == 8);
    double length_squared = 0;
    for (double x : vector) {
      CHECK(x >= -1.0);
      CHECK(x <= 1.0);
      length_squared += x * x;
    }
    // Cosine similarity divides by the length: no built-in word may be the zero vector.
    CHECK(length_squared > 0);
  }
}

TEST_CASE("builtin lexicon: the painting words have the features one expects", "[lexicon]") {
  // 人 person, 山 mountain, 花 flower, 鸟 bird, 绸带 ribbon, under the condition 飞行 flying.
  const std::vector<double>& bird = builtin("bird");
  CHECK(bird == std::vector<double>{1, 0, 0, 0, 0, 0, 1, -0.5});
  CHECK(bird[can_fly] > 0);
  CHECK(builtin("mountain") == std::vector<double>{0, 0, 0, 0, 0, 1, 0, 1});
  CHECK(builtin("person")[person] == 1);
  CHECK(builtin("flower")[plant] == 1);
  CHECK(builtin("flower")[size] < 0);
  CHECK(builtin("ribbon")[animal] == 0);
  CHECK(builtin("flying")[can_fly] == 1);
  CHECK(builtin("fly") == builtin("flying"));
  CHECK(builtin("flies") == builtin("flying"));
  CHECK(builtin("penguin")[can_fly] < 0);  // a bird that does not fly
  CHECK(builtin("ant")[size] == -1);

  // A Chinese word carries the vector of its English counterpart.
  CHECK(builtin("人") == builtin("person"));
  CHECK(builtin("山") == builtin("mountain"));
  CHECK(builtin("花") == builtin("flower"));
  CHECK(builtin("鸟") == builtin("bird"));
  CHECK(builtin("绸带") == builtin("ribbon"));
  CHECK(builtin("飞行") == builtin("flying"));

  // Under "flying", the bird scores highest of the five elements (dot products by hand:
  // bird 1×1 = 1, ribbon 0.3×1 = 0.3, the others 0).
  const std::vector<double>& flying = builtin("飞行");
  const auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t t = 0; t < a.size(); ++t) sum += a[t] * b[t];
    return sum;
  };
  CHECK(dot(flying, builtin("鸟")) == test::approx(1.0));
  CHECK(dot(flying, builtin("绸带")) == test::approx(0.3));
  CHECK(dot(flying, builtin("人")) == test::approx(0.0));
  CHECK(dot(flying, builtin("山")) == test::approx(0.0));
  CHECK(dot(flying, builtin("花")) == test::approx(0.0));
}

TEST_CASE("builtin lexicon: the fruit words and iPhone are there", "[lexicon]") {
  CHECK(builtin("apple")[food] == 1);
  CHECK(builtin("orange")[food] == 1);
  CHECK(builtin("iPhone")[technology] == 1);
  CHECK(builtin("iPhone")[food] == 0);
  CHECK(builtin("苹果") == builtin("apple"));
  CHECK(builtin("橘子") == builtin("orange"));
  CHECK(builtin("iphone") == builtin("iPhone"));  // case-insensitive lookup
  CHECK(builtin("🍎") == builtin("apple"));
}

TEST_CASE("lexicon: lookup is exact first and then ignores ASCII case", "[lexicon]") {
  Lexicon lexicon({"x"});
  REQUIRE(lexicon.add("apple", {1}));
  REQUIRE(lexicon.add("Apple", {2}));
  REQUIRE(lexicon.add("iPhone", {3}));
  REQUIRE(lexicon.add("é", {4}));

  CHECK(*lexicon.find("apple") == std::vector<double>{1});
  CHECK(*lexicon.find("Apple") == std::vector<double>{2});  // exact match wins
  CHECK(*lexicon.find("APPLE") == std::vector<double>{1});  // first word of that spelling
  CHECK(*lexicon.find("IPHONE") == std::vector<double>{3});
  CHECK(*lexicon.find("iphone") == std::vector<double>{3});
  CHECK(lexicon.find("É") == nullptr);  // only ASCII letters are folded
  CHECK(lexicon.find("pear") == nullptr);
  CHECK(lexicon.find("") == nullptr);

  CHECK(builtin_lexicon().find("The") == builtin_lexicon().find("the"));
}

TEST_CASE("lexicon: index_of gives the place in words of the word find finds", "[lexicon]") {
  Lexicon lexicon({"x"});
  REQUIRE(lexicon.add("apple", {1}));
  REQUIRE(lexicon.add("Apple", {2}));
  REQUIRE(lexicon.add("iPhone", {3}));
  CHECK(lexicon.index_of("apple") == 0);
  CHECK(lexicon.index_of("Apple") == 1);
  CHECK(lexicon.index_of("APPLE") == 0);
  CHECK(lexicon.index_of("iphone") == 2);
  CHECK(lexicon.index_of("pear") == std::string_view::npos);
  for (std::size_t i = 0; i < lexicon.size(); ++i)
    CHECK(&lexicon.vector_at(i) == lexicon.find(lexicon.words()[i]));
}

TEST_CASE("lexicon: thousands of words are each found by their spelling and folded", "[lexicon]") {
  // Enough words for the index to grow many times over, with spellings that differ in case only.
  Lexicon lexicon({"x"});
  for (int i = 0; i < 5000; ++i) {
    REQUIRE(lexicon.add("w" + std::to_string(i), {double(i)}));
    if (i % 7 == 0) REQUIRE(lexicon.add("W" + std::to_string(i), {-double(i)}));
  }
  REQUIRE(lexicon.size() == 5000 + 715);
  for (int i = 0; i < 5000; ++i) {
    const std::string word = "w" + std::to_string(i);
    INFO(word);
    CHECK(*lexicon.find(word) == std::vector<double>{double(i)});
    if (i % 7 == 0)
      CHECK(*lexicon.find("W" + std::to_string(i)) == std::vector<double>{-double(i)});
    CHECK(lexicon.words()[lexicon.index_of(word)] == word);
  }
  CHECK(lexicon.find("w5000") == nullptr);
  CHECK(lexicon.find("ww1") == nullptr);
  REQUIRE(lexicon.add("w42", {7}));                           // replaced in place
  CHECK(lexicon.index_of("W43") == lexicon.index_of("w43"));  // folded
  CHECK(lexicon.index_of("W42") != lexicon.index_of("w42"));  // an exact match first
  CHECK(*lexicon.find("w42") == std::vector<double>{7});
}

TEST_CASE("lexicon: add refuses a vector of the wrong length", "[lexicon]") {
  Lexicon lexicon({"a", "b"});
  CHECK_FALSE(lexicon.add("short", {1}));
  CHECK_FALSE(lexicon.add("long", {1, 2, 3}));
  CHECK_FALSE(lexicon.add("nan", {1, std::nan("")}));
  CHECK_FALSE(lexicon.add("", {1, 2}));
  CHECK(lexicon.size() == 0);
  CHECK(lexicon.find("short") == nullptr);
  CHECK(lexicon.longest_word_bytes() == 0);

  CHECK(lexicon.add("cat", {1, 2}));
  CHECK(lexicon.add("绸带", {3, 4}));  // 6 bytes
  CHECK(lexicon.add("cat", {5, 6}));   // replaces, keeps its place
  CHECK(lexicon.words() == std::vector<std::string>{"cat", "绸带"});
  CHECK(*lexicon.find("cat") == std::vector<double>{5, 6});
  CHECK(lexicon.longest_word_bytes() == 6);
}

TEST_CASE("fruit lexicon: the seed's three vectors exactly", "[lexicon]") {
  const Lexicon& fruit = fruit_lexicon();
  CHECK(fruit.features() == std::vector<std::string>{"colour", "fruit", "tech"});
  CHECK(*fruit.find("apple") == std::vector<double>{1, 2, 1});
  CHECK(*fruit.find("orange") == std::vector<double>{2, 2, 0});
  CHECK(*fruit.find("iPhone") == std::vector<double>{0, 2, 3});
  CHECK(*fruit.find("苹果") == std::vector<double>{1, 2, 1});
  CHECK(*fruit.find("橘子") == std::vector<double>{2, 2, 0});
  CHECK(fruit.size() == 5);

  // apple·orange = 1×2 + 2×2 + 1×0 = 6, as in the article.
  const std::vector<double>& apple = *fruit.find("apple");
  const std::vector<double>& orange = *fruit.find("orange");
  CHECK(apple[0] * orange[0] + apple[1] * orange[1] + apple[2] * orange[2] == 6);
}

TEST_CASE("example sentences: every word is in the builtin lexicon", "[lexicon]") {
  for (const char* lang : {"en", "zh"}) {
    const std::vector<std::string>& sentences = example_sentences(lang);
    INFO("lang: " << lang);
    CHECK(sentences.size() >= 2);
    for (const std::string& sentence : sentences) {
      INFO("sentence: " << sentence);
      const Result<Embedding> embedding = embed(sentence, builtin_lexicon());
      REQUIRE(embedding.ok());
      CHECK(embedding->tokens.size() >= 3);
      for (std::size_t i = 0; i < embedding->tokens.size(); ++i) {
        INFO("token: " << embedding->tokens[i].text);
        CHECK_FALSE(embedding->unknown[i]);
      }
    }
  }
  CHECK(example_sentences("en")[0] == "the cat sat on the mat");
  CHECK(example_sentences("zh")[0] == "我喜欢苹果");
  CHECK(example_sentences("fr").empty());
  CHECK(example_sentences("").empty());
}

TEST_CASE("unknown vector: the documented algorithm gives the same numbers everywhere",
          "[lexicon]") {
  // The building blocks against their published reference values: FNV-1a 64 of "" and "a",
  // and the first two SplitMix64 outputs from seed 0.
  CHECK(fnv1a64("", 0) == 0xCBF29CE484222325ull);
  CHECK(fnv1a64("a", 1) == 0xAF63DC4C8601EC8Cull);
  Rng zero(0);
  CHECK(zero.next_u64() == 0xE220A8397B1DCDAFull);
  CHECK(zero.next_u64() == 0x6E789E6AA1B965F4ull);

  // "zebra" (not a built-in word), derived here step by step from the documented algorithm.
  std::uint64_t hash = 0xCBF29CE484222325ull;
  for (unsigned char byte : std::string("zebra")) hash = (hash ^ byte) * 0x100000001B3ull;
  CHECK(hash == 0xF7197331669181AFull);
  Rng rng(hash);
  const double first = -1.0 + 2.0 * (static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53);
  CHECK(first == test::approx(-0.16169147479503687));  // rounds to -0.16

  // The same numbers, computed once by an independent implementation (Python) of the same
  // algorithm; they are exact two-decimal values, so == is safe on every platform.
  CHECK(unknown_vector("zebra", 8) ==
        std::vector<double>{-0.16, 0.46, 0.68, -0.46, -1.0, -0.06, 0.98, -0.33});
  CHECK(unknown_vector("龘", 8) ==
        std::vector<double>{0.26, -0.24, 0.48, 0.21, -0.06, 0.36, 0.34, -0.28});
  CHECK(unknown_vector("zebra", 3) == std::vector<double>{-0.16, 0.46, 0.68});
  CHECK(unknown_vector("zebra", 0).empty());
  CHECK(unknown_vector("zebra", 8) == unknown_vector("zebra", 8));
  CHECK(unknown_vector("Zebra", 8) != unknown_vector("zebra", 8));  // bytes, not folded

  for (double x : unknown_vector("xyzzy", 64)) {
    CHECK(x >= -1.0);
    CHECK(x <= 1.0);
    CHECK(x * 100 == test::approx(std::round(x * 100)));  // two decimals
    CHECK_FALSE((std::signbit(x) && x == 0));             // never -0
  }
}
