// Tests for word_vectors.hpp: the packed word-vector file, nearest words and word similarity, on
// files written byte by byte here with numbers small enough to check by hand.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "test_utils.hpp"
#include "tokenizer.hpp"
#include "word_vectors.hpp"

using namespace attn;
using attn::test::approx;

namespace {

// A file as the build script writes it: the header, the words as given, then the stored values
// (each from −128 to 127, written as its two's complement byte). `n` is what the header says,
// whatever the text holds.
std::string packed(const std::string& text, std::uint32_t n, std::uint32_t d, std::uint32_t learned,
                   float scale, const std::vector<int>& values) {
  std::string out = "APV1";
  const auto u32 = [&](std::uint32_t x) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((x >> (8 * i)) & 0xFF);
  };
  std::uint32_t scale_bits;
  std::memcpy(&scale_bits, &scale, 4);
  for (std::uint32_t x : {n, d, learned, scale_bits, static_cast<std::uint32_t>(text.size())})
    u32(x);
  out += text;
  for (int q : values) out += static_cast<char>(q & 0xFF);
  return out;
}

// Four words of three dims, scale 0.5: cat (1, 0, 1), dog (1, 1, 0), apple (0, −1, 2), and 猫,
// which borrowed cat's vector (learned = 3). The words start at bytes 24, 28, 32 and 38; the
// values at byte 41; the file ends at byte 53.
const std::string kText = "cat\ndog\napple\n猫";
const std::vector<int> kValues = {2, 0, 2, /**/ 2, 2, 0, /**/ 0, -2, 4, /**/ 2, 0, 2};

std::string sample() { return packed(kText, 4, 3, 3, 0.5f, kValues); }

Lexicon sample_lexicon() {
  Result<WordVectors> r = read_word_vectors(sample());
  REQUIRE(r.ok());
  return r->lexicon;
}

Error fails(const std::string& bytes) {
  const Result<WordVectors> r = read_word_vectors(bytes);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().input == "vectors");
  return r.error();
}

// The same error fields for each: code, word (row) and byte (col), and the whole message.
void check_error(const Error& e, ErrorCode code, long word, long byte, const std::string& message) {
  CHECK(e.code == code);
  CHECK(e.row == word);
  CHECK(e.col == byte);
  CHECK(e.message == message);
}

const double kSqrt10 = std::sqrt(10.0);

}  // namespace

TEST_CASE("word vectors: a file of four words reads as their vectors times the scale",
          "[word_vectors]") {
  const Result<WordVectors> r = read_word_vectors(sample());
  REQUIRE(r.ok());
  const Lexicon& lexicon = r->lexicon;
  CHECK(r->learned == 3);
  CHECK(lexicon.words() == std::vector<std::string>{"cat", "dog", "apple", "猫"});
  CHECK(lexicon.features() == std::vector<std::string>{"d1", "d2", "d3"});
  CHECK(*lexicon.find("cat") == std::vector<double>{1, 0, 1});
  CHECK(*lexicon.find("dog") == std::vector<double>{1, 1, 0});
  CHECK(*lexicon.find("apple") == std::vector<double>{0, -1, 2});
  CHECK(*lexicon.find("猫") == std::vector<double>{1, 0, 1});
  CHECK(*lexicon.find("Apple") == std::vector<double>{0, -1, 2});
}

TEST_CASE("word vectors: stored values are signed bytes from -128 to 127", "[word_vectors]") {
  const Result<WordVectors> r = read_word_vectors(packed("x", 1, 4, 1, 0.25f, {-128, 127, -1, 0}));
  REQUIRE(r.ok());
  CHECK(*r->lexicon.find("x") == std::vector<double>{-32, 31.75, -0.25, 0});
  CHECK(r->learned == 1);
}

TEST_CASE("word vectors: embed reads a sentence over the loaded words", "[word_vectors]") {
  const Lexicon lexicon = sample_lexicon();
  const Result<Embedding> e = embed("cat 猫 Apple", lexicon);
  REQUIRE(e.ok());
  REQUIRE(e->tokens.size() == 3);
  CHECK(e->tokens[1].text == "猫");
  test::require_close(e->vectors, test::mat({{1, 0, 1}, {1, 0, 1}, {0, -1, 2}}));
  CHECK(e->unknown == std::vector<bool>{false, false, false});
  CHECK(embed("pear, cat", lexicon)->unknown == std::vector<bool>{true, false});
}

TEST_CASE("word vectors: a word the file does not have gets zeros, not a made-up vector",
          "[word_vectors]") {
  // Learned dimensions have no names: a made-up point among them would read as a meaning.
  const Lexicon lexicon = sample_lexicon();
  CHECK(lexicon.unknown_words() == Lexicon::Unknown::zero);
  const Result<Embedding> e = embed("pear cat", lexicon);
  REQUIRE(e.ok());
  CHECK(e->unknown == std::vector<bool>{true, false});
  test::require_close(e->vectors, test::mat({{0, 0, 0}, {1, 0, 1}}));
  // The built-in lexicon keeps its made-up, editable vectors for the same word.
  const Result<Embedding> b = embed("zorp", builtin_lexicon());
  REQUIRE(b.ok());
  CHECK(b->unknown == std::vector<bool>{true});
  const std::vector<double> made_up = unknown_vector("zorp", builtin_lexicon().dims());
  for (std::size_t j = 0; j < made_up.size(); ++j) CHECK(b->vectors(0, j) == made_up[j]);
}

TEST_CASE("word vectors: a file that is not one, or is empty or too large", "[word_vectors]") {
  check_error(fails("cat 1 2 3\n"), ErrorCode::parse_error, -1, 0,
              "vectors: byte 0: not a word-vector file (it does not start with \"APV1\").");
  std::string other = sample();
  other[3] = '2';
  CHECK(fails(other).col == 0);
  check_error(fails(""), ErrorCode::empty_input, -1, -1, "vectors: the file is empty.");
  check_error(fails(std::string(Limits::max_vector_file_bytes + 1, 'A')), ErrorCode::too_large, -1,
              -1, "vectors: the file is 16777217 bytes, above the limit of 16777216 bytes.");
}

TEST_CASE("word vectors: a file cut short names the byte where it ends", "[word_vectors]") {
  const std::string whole = sample();
  check_error(fails(whole.substr(0, 3)), ErrorCode::parse_error, -1, 3,
              "vectors: byte 3: the file ends inside its header, which takes 24 bytes.");
  check_error(fails(whole.substr(0, 23)), ErrorCode::parse_error, -1, 23,
              "vectors: byte 23: the file ends inside its header, which takes 24 bytes.");
  check_error(fails(whole.substr(0, 30)), ErrorCode::parse_error, -1, 30,
              "vectors: byte 30: the file ends inside its words, which end at byte 41.");
  check_error(fails(whole.substr(0, 41)), ErrorCode::parse_error, 0, 41,
              "vectors: byte 41, word 1: the file ends inside this word's vector, before byte 53.");
  check_error(fails(whole.substr(0, 52)), ErrorCode::parse_error, 3, 52,
              "vectors: byte 52, word 4: the file ends inside this word's vector, before byte 53.");
  check_error(fails(whole + "\x01\x02"), ErrorCode::parse_error, -1, 53,
              "vectors: byte 53: the file goes on after its last vector, which ends here.");
  CHECK(fails(whole + "x").message ==
        "vectors: byte 53: the file goes on after its last vector, which ends here.");
}

TEST_CASE("word vectors: header fields out of range name their byte", "[word_vectors]") {
  check_error(fails(packed("", 0, 3, 0, 0.5f, {})), ErrorCode::parse_error, -1, 4,
              "vectors: byte 4: the file holds 0 words; it needs at least one.");
  check_error(fails(packed("", Limits::max_words + 1, 3, 0, 0.5f, {})), ErrorCode::too_large, -1, 4,
              "vectors: byte 4: 200001 words, above the limit of 200000.");
  check_error(fails(packed(kText, 4, 0, 3, 0.5f, {})), ErrorCode::parse_error, -1, 8,
              "vectors: byte 8: the words have 0 dims; they need at least one.");
  check_error(fails(packed(kText, 4, Limits::max_dim + 1, 3, 0.5f, {})), ErrorCode::too_large, -1,
              8, "vectors: byte 8: 1025 dims, above the limit of 1024.");
  check_error(fails(packed(kText, 4, 3, 5, 0.5f, kValues)), ErrorCode::parse_error, -1, 12,
              "vectors: byte 12: 5 words learned, but the file holds 4.");
  const float inf = std::numeric_limits<float>::infinity();
  for (float scale : {0.0f, -0.5f, inf, std::numeric_limits<float>::quiet_NaN()}) {
    INFO("scale " << scale);
    const Error e = fails(packed(kText, 4, 3, 3, scale, kValues));
    CHECK(e.code == ErrorCode::parse_error);
    CHECK(e.col == 16);
  }
  CHECK(fails(packed(kText, 4, 3, 3, -inf, kValues)).message ==
        "vectors: byte 16: the scale is -Infinity; it must be a finite number above 0.");
  CHECK(read_word_vectors(packed(kText, 4, 3, 0, 0.5f, kValues)).ok());  // none learned
}

TEST_CASE("word vectors: another count of words than the header gives", "[word_vectors]") {
  // Three words and four vectors: the text ends at byte 37.
  check_error(fails(packed("cat\ndog\napple", 4, 3, 3, 0.5f, kValues)), ErrorCode::parse_error, -1,
              37, "vectors: byte 37: the text holds 3 words, not the 4 of byte 4.");
  check_error(fails(packed(kText + "\npear", 4, 3, 3, 0.5f, kValues)), ErrorCode::parse_error, 4,
              42, "vectors: byte 42, word 5: the text holds more than the 4 words of byte 4.");
}

TEST_CASE("word vectors: an empty word, or one the tokenizer could never find", "[word_vectors]") {
  const std::vector<int> three = {2, 0, 2, 2, 2, 0, 0, -2, 4};
  const std::string empty_message =
      ": the word is empty (a line break at either end, or two in a row).";
  check_error(fails(packed("cat\n\ndog", 3, 3, 3, 0.5f, three)), ErrorCode::parse_error, 1, 28,
              "vectors: byte 28, word 2" + empty_message);
  check_error(fails(packed("cat\ndog\n", 2, 3, 2, 0.5f, {2, 0, 2, 2, 2, 0})),
              ErrorCode::parse_error, 2, 32, "vectors: byte 32, word 3" + empty_message);
  check_error(fails(packed("", 1, 3, 1, 0.5f, {1, 2, 3})), ErrorCode::parse_error, 0, 24,
              "vectors: byte 24, word 1" + empty_message);

  check_error(fails(packed("cat\nhot dog\napple", 3, 3, 3, 0.5f, three)), ErrorCode::parse_error, 1,
              31,
              "vectors: byte 31, word 2: \"hot dog\" holds whitespace or a control character, "
              "which no word can.");
  // A tab, a control character, the ideographic space a Chinese input method types, the
  // no-break space.
  for (const char* word : {"a\tb", "a\x01", "猫\u3000狗", "a\u00A0b"}) {
    INFO("word " << word);
    const Error e = fails(packed(std::string("cat\n") + word, 2, 1, 2, 1, {1, 2}));
    CHECK(e.row == 1);
    CHECK(e.message.find("whitespace or a control character") != std::string::npos);
  }
  check_error(fails(packed("cat\ncaf\xC3", 2, 1, 2, 1, {1, 2})), ErrorCode::parse_error, 1, 31,
              "vectors: byte 31, word 2: the word is not valid UTF-8 here.");
  // A three-byte character cut by the line break after it: invalid where it starts.
  CHECK(fails(packed("\xE7\x8C\ndog", 2, 1, 2, 1, {1, 2})).col == 24);
}

TEST_CASE("word vectors: a word that repeats an earlier one names both", "[word_vectors]") {
  check_error(fails(packed("cat\ndog\ncat", 3, 1, 3, 1, {1, 2, 3})), ErrorCode::parse_error, 2, 32,
              "vectors: byte 32, word 3: \"cat\" repeats word 1.");
  // Words that differ only in case are two words; a lookup finds the exact one first.
  const Result<WordVectors> r = read_word_vectors(packed("Apple\napple", 2, 1, 2, 1, {1, 2}));
  REQUIRE(r.ok());
  CHECK(*r->lexicon.find("apple") == std::vector<double>{2});
  CHECK(*r->lexicon.find("APPLE") == std::vector<double>{1});
}

TEST_CASE("nearest words: by cosine, the word itself left out", "[word_vectors]") {
  const Lexicon lexicon = sample_lexicon();
  // cat (1, 0, 1): 猫 the same vector, cosine 1; apple 2 / (√2·√5) = 2/√10; dog 1 / (√2·√2).
  const auto near = nearest_words(lexicon, "cat", 3);
  REQUIRE(near.ok());
  REQUIRE(near->size() == 3);
  CHECK((*near)[0].word == "猫");
  CHECK((*near)[0].cosine == approx(1));
  CHECK((*near)[1].word == "apple");
  CHECK((*near)[1].cosine == approx(2 / kSqrt10));
  CHECK((*near)[2].word == "dog");
  CHECK((*near)[2].cosine == approx(0.5));
  CHECK(nearest_words(lexicon, "cat", 1)->size() == 1);
  CHECK(nearest_words(lexicon, "cat", 0)->empty());
}

TEST_CASE("nearest words: ties go to the word earlier in the file", "[word_vectors]") {
  const Lexicon lexicon = sample_lexicon();
  // dog (1, 1, 0): cat and 猫 both 0.5, cat first; apple −1/√10.
  const auto dog = nearest_words(lexicon, "dog", 3).value();
  REQUIRE(dog.size() == 3);
  CHECK(dog[0].word == "cat");
  CHECK(dog[1].word == "猫");
  CHECK(dog[1].cosine == dog[0].cosine);
  CHECK(dog[2].cosine == approx(-1 / kSqrt10));
  // One place for two tied words: the earlier one takes it.
  const auto one = nearest_words(lexicon, "dog", 1).value();
  REQUIRE(one.size() == 1);
  CHECK(one[0].word == "cat");
}

TEST_CASE("nearest words: a lookup ignores ASCII case and k may pass the lexicon's size",
          "[word_vectors]") {
  const Lexicon lexicon = sample_lexicon();
  // "Apple" finds apple, which is left out; cat and 猫 tie at 2/√10.
  const auto apple = nearest_words(lexicon, "Apple", Limits::max_neighbours).value();
  REQUIRE(apple.size() == 3);
  CHECK(apple[0].word == "cat");
  CHECK(apple[1].word == "猫");
  CHECK(apple[0].cosine == approx(2 / kSqrt10));
  CHECK(apple[2].word == "dog");
  CHECK(apple[2].cosine == approx(-1 / kSqrt10));
  // The cosines are word_similarity's, to the last bit.
  for (const auto& n : apple) CHECK(n.cosine == word_similarity(lexicon, "apple", n.word).value());
}

TEST_CASE("nearest words: an unknown word, a vector of zeros and too many asked",
          "[word_vectors]") {
  const Lexicon lexicon = sample_lexicon();
  const Error unknown = nearest_words(lexicon, "pear", 3).error();
  CHECK(unknown.code == ErrorCode::bad_argument);
  CHECK(unknown.input == "word");
  CHECK(unknown.message == "word: \"pear\" is not in the word vectors.");
  const Error many = nearest_words(lexicon, "cat", Limits::max_neighbours + 1).error();
  CHECK(many.input == "k");
  CHECK(many.message == "k: 51 neighbours asked; at most 50 can be.");

  // A word with no direction has no neighbours, and is nobody's.
  const Lexicon zeros =
      read_word_vectors(packed("cat\nnone\ndog", 3, 2, 3, 1, {1, 0, 0, 0, 1, 1})).value().lexicon;
  const Error zero = nearest_words(zeros, "none", 2).error();
  CHECK(zero.code == ErrorCode::zero_vector);
  CHECK(zero.message == "word: \"none\" has a vector of zeros, with no direction to compare.");
  const auto cat = nearest_words(zeros, "cat", 5).value();
  REQUIRE(cat.size() == 1);
  CHECK(cat[0].word == "dog");
  CHECK(cat[0].cosine == approx(std::sqrt(0.5)));
}

TEST_CASE("word similarity: the cosine of two words, either way round", "[word_vectors]") {
  const Lexicon lexicon = sample_lexicon();
  CHECK(word_similarity(lexicon, "cat", "apple").value() == approx(2 / kSqrt10));
  CHECK(word_similarity(lexicon, "apple", "cat").value() ==
        word_similarity(lexicon, "cat", "apple").value());
  CHECK(word_similarity(lexicon, "dog", "APPLE").value() == approx(-1 / kSqrt10));
  CHECK(word_similarity(lexicon, "CAT", "猫").value() == 1);
  CHECK(word_similarity(lexicon, "dog", "dog").value() == 1);

  const Error a = word_similarity(lexicon, "pear", "cat").error();
  CHECK(a.input == "a");
  CHECK(a.message == "a: \"pear\" is not in the word vectors.");
  const Error b = word_similarity(lexicon, "cat", "狗").error();
  CHECK(b.input == "b");
  CHECK(b.message == "b: \"狗\" is not in the word vectors.");
}

TEST_CASE("word similarity: any lexicon, the built-in one too", "[word_vectors]") {
  // bird and 鸟 share a vector; flower (size −0.7) and tree (0.7) differ only in size.
  CHECK(word_similarity(builtin_lexicon(), "bird", "鸟").value() == 1);
  CHECK(word_similarity(builtin_lexicon(), "flower", "tree").value() ==
        approx((1 - 0.49) / (1 + 0.49)));
  // 鸟 and 小鸟 follow bird in the table, with its vector; birds, the same too, comes after them.
  const auto bird = nearest_words(builtin_lexicon(), "bird", 3).value();
  REQUIRE(bird.size() == 3);
  CHECK(bird[0].word == "鸟");
  CHECK(bird[1].word == "小鸟");
  CHECK(bird[2].word == "birds");
  CHECK(bird[2].cosine == 1);
}
