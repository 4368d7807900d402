// Tests for tokenizer.hpp: splitting text into tokens, and tokens into vectors.
#include <string>
#include <vector>

#include "lexicon.hpp"
#include "test_utils.hpp"
#include "tokenizer.hpp"

using namespace attn;
using Words = std::vector<std::string>;

namespace {

// The token texts of `text` under the built-in lexicon (or `lexicon`); fails the test on error.
Words words(std::string_view text, const Lexicon& lexicon = builtin_lexicon()) {
  const Result<std::vector<Token>> tokens = tokenize(text, lexicon);
  INFO("text: " << text);
  if (!tokens.ok()) FAIL("tokenize failed: " << tokens.error().message);
  Words out;
  for (const Token& token : *tokens) out.push_back(token.text);
  return out;
}

// Offsets and lengths in bytes, flattened: {offset0, length0, offset1, length1, …}.
std::vector<std::size_t> spans(std::string_view text, const Lexicon& lexicon = builtin_lexicon()) {
  const Result<std::vector<Token>> tokens = tokenize(text, lexicon);
  REQUIRE(tokens.ok());
  std::vector<std::size_t> out;
  for (const Token& token : *tokens) {
    out.push_back(token.offset);
    out.push_back(token.length);
  }
  return out;
}

}  // namespace

TEST_CASE("tokenize: English splits at spaces with byte offsets", "[tokenizer]") {
  CHECK(words("the cat sat on the mat") == Words{"the", "cat", "sat", "on", "the", "mat"});
  // "the cat sat on the mat": t=0, c=4, s=8, o=12, t=15, m=19.
  CHECK(spans("the cat sat on the mat") ==
        std::vector<std::size_t>{0, 3, 4, 3, 8, 3, 12, 2, 15, 3, 19, 3});
  CHECK(words("the bird flies over the mountain") ==
        Words{"the", "bird", "flies", "over", "the", "mountain"});
  CHECK(words("  I like\tapples\nand oranges  ") == Words{"I", "like", "apples", "and", "oranges"});
}

TEST_CASE("tokenize: Chinese is segmented by longest match against the lexicon", "[tokenizer]") {
  CHECK(words("我喜欢苹果") == Words{"我", "喜欢", "苹果"});
  // Each Han character is 3 bytes: 我 at 0, 喜欢 at 3 (6 bytes), 苹果 at 9 (6 bytes).
  CHECK(spans("我喜欢苹果") == std::vector<std::size_t>{0, 3, 3, 6, 9, 6});
  CHECK(words("小鸟飞过高山") == Words{"小鸟", "飞过", "高山"});  // not 小 / 鸟 / 飞 / 过 / 高 / 山
  CHECK(words("鸟在天空中飞行") == Words{"鸟", "在", "天空", "中", "飞行"});
  CHECK(words("人在山下看花") == Words{"人", "在", "山", "下", "看", "花"});
  CHECK(words("画里有人、山、花、鸟和绸带") ==
        Words{"画", "里", "有", "人", "山", "花", "鸟", "和", "绸带"});
  CHECK(words("苹果和橘子都是水果") == Words{"苹果", "和", "橘子", "都", "是", "水果"});
  CHECK(words("猫坐在垫子上") == Words{"猫", "坐", "在", "垫子", "上"});
  CHECK(words("女孩和小狗在公园里玩") == Words{"女孩", "和", "小狗", "在", "公园", "里", "玩"});
}

TEST_CASE("tokenize: unknown CJK falls back to single characters", "[tokenizer]") {
  Lexicon lexicon({"x"});
  lexicon.add("人工", {1});
  lexicon.add("人工智能", {2});
  CHECK(words("人工智能很好", lexicon) == Words{"人工智能", "很", "好"});  // longest wins
  CHECK(words("人工很好", lexicon) == Words{"人工", "很", "好"});
  CHECK(words("龘靐", lexicon) == Words{"龘", "靐"});
  // Kana and extension A are written without spaces too: single characters when the lexicon is
  // empty.
  const Lexicon empty({"x"});
  CHECK(words("ありがとう", empty) == Words{"あ", "り", "が", "と", "う"});
  CHECK(words("㐀", empty) == Words{"㐀"});
}

TEST_CASE("tokenize: mixed scripts split where the script changes", "[tokenizer]") {
  CHECK(words("我爱iPhone和🍎") == Words{"我", "爱", "iPhone", "和", "🍎"});
  // 我 0 (3 bytes), 爱 3 (3), iPhone 6 (6), 和 12 (3), 🍎 15 (4).
  CHECK(spans("我爱iPhone和🍎") == std::vector<std::size_t>{0, 3, 3, 3, 6, 6, 12, 3, 15, 4});
  CHECK(words("iPhone手机") == Words{"iPhone", "手机"});
}

TEST_CASE("tokenize: punctuation separates words and is dropped", "[tokenizer]") {
  CHECK(words("Hello, world! (Really?) \"yes\"; ok.") ==
        Words{"Hello", "world", "Really", "yes", "ok"});
  CHECK(words("don't e-mail don’t 3.14 x-") == Words{"don't", "e-mail", "don’t", "3.14", "x"});
  CHECK(words("“quoted” ‘single’ — dash… end") == Words{"quoted", "single", "dash", "end"});
  CHECK(words("'tis -1 .5") == Words{"tis", "1", "5"});  // joiners only between two letters
  CHECK(words("你好，世界！《书》（花）：鸟；“人”。") ==
        Words{"你", "好", "世界", "书", "花", "鸟", "人"});
  CHECK(words("花、鸟") == Words{"花", "鸟"});
  CHECK(words("ｉＰｈｏｎｅ１２") == Words{"ｉＰｈｏｎｅ１２"});  // fullwidth letters form one word
}

TEST_CASE("tokenize: emoji stay whole with ZWJ sequences and skin tones", "[tokenizer]") {
  const std::string technologist = "👩\u200D💻";  // woman + ZWJ + laptop: 4 + 3 + 4 bytes
  CHECK(words(technologist) == Words{technologist});
  CHECK(spans(technologist) == std::vector<std::size_t>{0, 11});
  const std::string thumbs = "👍🏽";  // thumbs up + medium skin tone: 8 bytes
  CHECK(words(thumbs) == Words{thumbs});
  const std::string heart = "❤️";  // U+2764 + VS16: 6 bytes
  CHECK(spans(heart) == std::vector<std::size_t>{0, 6});
  const std::string family = "👨\u200D👩\u200D👧";
  CHECK(words(family) == Words{family});
  CHECK(words("🇨🇳🇫🇷") == Words{"🇨🇳", "🇫🇷"});  // flags pair up
  CHECK(words(technologist + "👍a🍎b") == Words{technologist, "👍", "a", "🍎", "b"});
  CHECK(words("€5") == Words{"€", "5"});
  // Keycaps and emoji-style punctuation: "1️⃣" = 1 + VS16 + U+20E3, "#️⃣",
  // "‼️" = U+203C + VS16.
  CHECK(words("1️⃣ #️⃣ ‼️ !") == Words{"1️⃣", "#️⃣", "‼️"});
}

TEST_CASE("tokenize: combining marks stay on their letter", "[tokenizer]") {
  const std::string cafe = "cafe\u0301";  // e + combining acute: 6 bytes
  CHECK(words(cafe + " naïve") == Words{cafe, "naïve"});
  CHECK(words(cafe + "-au-lait") == Words{cafe + "-au-lait"});
  CHECK(words("Ωμέγα Привет") == Words{"Ωμέγα", "Привет"});
}

TEST_CASE("tokenize: a word in a script written with spaces stays whole", "[tokenizer]") {
  // नमस्ते = न म स ् त े: six code points, four clusters (स् and ते carry their marks), one word.
  CHECK(words("नमस्ते दुनिया") == Words{"नमस्ते", "दुनिया"});
  CHECK(spans("नमस्ते") == std::vector<std::size_t>{0, 18});  // 6 × 3 bytes
  const Lexicon empty({"x"});
  CHECK(words("안녕하세요 세계", empty) == Words{"안녕하세요", "세계"});
  CHECK(words("안녕", empty) == Words{"안녕"});
  // Jamo typed one by one (ᄒ ᅡ ᆫ) form the syllable cluster 한 and a word.
  CHECK(words("\u1112\u1161\u11AB\u1100\u1173\u11AF", empty) ==
        Words{"\u1112\u1161\u11AB\u1100\u1173\u11AF"});
  CHECK(words("مرحبا بالعالم", empty) == Words{"مرحبا", "بالعالم"});
  CHECK(words("שלום עולם", empty) == Words{"שלום", "עולם"});
  CHECK(words("Ελληνικά русский", empty) == Words{"Ελληνικά", "русский"});
}

TEST_CASE("tokenize: Thai falls back to grapheme clusters without a lexicon", "[tokenizer]") {
  // สวัสดี = ส ว ั ส ด ี: the marks ั and ี stay on the consonant before them.
  const Lexicon empty({"x"});
  CHECK(words("สวัสดี", empty) == Words{"ส", "วั", "ส", "ดี"});
  CHECK(spans("สวัสดี", empty) == std::vector<std::size_t>{0, 3, 3, 6, 9, 3, 12, 6});
  Lexicon thai({"x"});
  thai.add("สวัสดี", {1});
  CHECK(words("สวัสดีครับ", thai) == Words{"สวัสดี", "ค", "รั", "บ"});  // longest match, then clusters
  CHECK(words("ນີ້ លេខ", empty) == Words{"ນີ້", "លេ", "ខ"});          // Lao, Khmer
}

TEST_CASE("tokenize: joiners and marks never start a token of their own", "[tokenizer]") {
  CHECK(words("a\u200Db") == Words{"a\u200Db"});  // the joiner belongs to the a (GB9)
  CHECK(words("a\u200Cb") == Words{"a\u200Cb"});
  CHECK(words("میخواهم می\u200Cخواهم") == Words{"میخواهم", "می\u200Cخواهم"});  // Persian
  CHECK(words("a\u200Bb") == Words{"a", "b"});  // the zero-width space is a space
  // A mark at the start of the text, or after a line break, has no letter to go on: dropped.
  CHECK(words("\u0301abc\n\u0301d") == Words{"abc", "d"});
}

TEST_CASE("tokenize: keycaps and emoji are one token per cluster", "[tokenizer]") {
  // 1️⃣ = 1 + VS16 + U+20E3 (7 bytes); two keycaps are two tokens, not one number.
  CHECK(words("1️⃣2️⃣") == Words{"1️⃣", "2️⃣"});
  CHECK(spans("1️⃣2️⃣") == std::vector<std::size_t>{0, 7, 7, 7});
  CHECK(
      words(
          "👩🏽\u200D🚀x🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F") ==
      Words{"👩🏽\u200D🚀", "x",
            "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"});
  CHECK(words("🇨🇳🇫") == Words{"🇨🇳", "🇫"});  // a lone half of a flag after a pair
}

TEST_CASE("tokenize: tokens carry UTF-16 offsets as JS counts them", "[tokenizer]") {
  // 🍎 (0, 2 units) space, apple (3, 5), space, 👩‍💻 = 2 + 1 + 2 units (9, 5), space, x
  // (15, 1).
  const Result<std::vector<Token>> tokens = tokenize("🍎 apple 👩\u200D💻 x", builtin_lexicon());
  REQUIRE(tokens.ok());
  std::vector<std::size_t> utf16;
  for (const Token& token : *tokens) {
    utf16.push_back(token.utf16_offset);
    utf16.push_back(token.utf16_length);
  }
  CHECK(utf16 == std::vector<std::size_t>{0, 2, 3, 5, 9, 5, 15, 1});
  CHECK(spans("🍎 apple 👩\u200D💻 x") == std::vector<std::size_t>{0, 4, 5, 5, 11, 11, 23, 1});
}

TEST_CASE("tokenize: empty or punctuation-only text gives no tokens", "[tokenizer]") {
  for (const char* text :
       {"", "   ", "\n\t", "!!! ... ???", "，。！？、；：“”‘’（）《》…", "\u3000\u00A0\u200B"}) {
    INFO("text: " << text);
    const Result<std::vector<Token>> tokens = tokenize(text, builtin_lexicon());
    REQUIRE(tokens.ok());
    CHECK(tokens->empty());
  }
}

TEST_CASE("tokenize: invalid UTF-8 names the byte offset", "[tokenizer]") {
  const Result<std::vector<Token>> bad = tokenize("ab\xff", builtin_lexicon());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::parse_error);
  CHECK(bad.error().input == "text");
  CHECK(bad.error().col == 2);
  CHECK(bad.error().message ==
        "text: character 3 (byte 0xFF) is not valid UTF-8; paste or type the text again as UTF-8.");

  // A cut-off character, an overlong "/", a surrogate, a lone continuation byte.
  for (const std::string& text : {std::string("我\xE5\x96"), std::string("a\xC0\xAF"),
                                  std::string("a\xED\xA0\x80"), std::string("\x80")}) {
    const Result<std::vector<Token>> result = tokenize(text, builtin_lexicon());
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == ErrorCode::parse_error);
  }
  // Positions count UTF-16 code units, as JS does: 我 is one (3 bytes), 🍎 two (4 bytes).
  CHECK(tokenize("我\xE5\x96", builtin_lexicon()).error().col == 1);
  CHECK(tokenize("🍎 \xFF", builtin_lexicon()).error().col == 3);
  CHECK(tokenize("\x80", builtin_lexicon()).error().col == 0);
}

TEST_CASE("tokenize: text above the limits is too large", "[tokenizer]") {
  const std::string huge(Limits::max_text_bytes + 1, 'a');
  const Result<std::vector<Token>> big = tokenize(huge, builtin_lexicon());
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().code == ErrorCode::too_large);

  std::string many;
  for (std::size_t i = 0; i < Limits::max_tokens; ++i) many += "a ";
  CHECK(tokenize(many, builtin_lexicon()).value().size() == Limits::max_tokens);
  many += "b";  // token number 1025, at byte 2 × 1024 = 2048
  const Result<std::vector<Token>> too_many = tokenize(many, builtin_lexicon());
  REQUIRE_FALSE(too_many.ok());
  CHECK(too_many.error().code == ErrorCode::too_large);
  CHECK(too_many.error().col == 2048);

  // Its column counts UTF-16 units: 1,024 × "🍎 " is 3,072 of them (5,120 bytes).
  std::string many_apples;
  for (std::size_t i = 0; i < Limits::max_tokens; ++i) many_apples += "🍎 ";
  CHECK(tokenize(many_apples + "b", builtin_lexicon()).error().col == 3072);

  std::string many_han;
  for (std::size_t i = 0; i <= Limits::max_tokens; ++i) many_han += "龘";
  CHECK(tokenize(many_han, builtin_lexicon()).error().code == ErrorCode::too_large);
}

TEST_CASE("embed: vectors come from the lexicon and unknown words are flagged", "[tokenizer]") {
  const Result<Embedding> fruit = embed("apple orange iPhone", fruit_lexicon());
  REQUIRE(fruit.ok());
  CHECK(fruit->features == std::vector<std::string>{"colour", "fruit", "tech"});
  test::require_close(fruit->vectors, test::mat({{1, 2, 1}, {2, 2, 0}, {0, 2, 3}}));  // (3, 3)
  CHECK(fruit->unknown == std::vector<bool>{false, false, false});

  const Result<Embedding> mixed = embed("The bird zebra", builtin_lexicon());
  REQUIRE(mixed.ok());
  REQUIRE(mixed->vectors.shape()[0] == 3);
  REQUIRE(mixed->vectors.shape()[1] == 8);
  CHECK(mixed->unknown == std::vector<bool>{false, false, true});
  const std::vector<double>& bird = *builtin_lexicon().find("bird");
  const std::vector<double> zebra = unknown_vector("zebra", 8);
  for (std::size_t j = 0; j < 8; ++j) {
    CHECK(mixed->vectors(0, j) == 0.1);  // "The" finds the function word "the"
    CHECK(mixed->vectors(1, j) == bird[j]);
    CHECK(mixed->vectors(2, j) == zebra[j]);
  }
  CHECK(mixed->tokens[2].text == "zebra");
  CHECK(mixed->tokens[2].offset == 9);
}

TEST_CASE("embed: text with no words asks the reader to type some", "[tokenizer]") {
  for (const char* text : {"", "  ", "，。！"}) {
    const Result<Embedding> result = embed(text, builtin_lexicon());
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == ErrorCode::empty_input);
    CHECK(result.error().input == "text");
    CHECK(result.error().message.rfind("Type some words", 0) == 0);
  }
  // Errors of tokenize() come through unchanged.
  CHECK(embed("\xff", builtin_lexicon()).error().code == ErrorCode::parse_error);
}
