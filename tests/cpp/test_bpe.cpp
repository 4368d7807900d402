// GPT-2's byte-level BPE (cpp/core/lm/bpe.hpp) on a vocabulary small enough to follow by hand. The
// whole of GPT-2's is checked against gpt-3-encoder in tests/js/bpe.test.mjs.
#include <string>
#include <vector>

#include "lm/bpe.hpp"
#include "lm/bpe_train.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

std::vector<std::string> pieces(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view p : pretokenize(text)) out.emplace_back(p);
  return out;
}

}  // namespace

TEST_CASE("bpe: text splits as GPT-2's expression splits it", "[bpe]") {
  CHECK(pieces("Hello world, don't") ==
        std::vector<std::string>{"Hello", " world", ",", " don", "'t"});
  // Runs of spaces give their last space to the word after them; a last run stays whole.
  CHECK(pieces("a   b  ") == std::vector<std::string>{"a", "  ", " b", "  "});
  CHECK(pieces("x\n\ny") == std::vector<std::string>{"x", "\n", "\n", "y"});
  // Letters, numbers and the rest are runs of their own, a space before each.
  CHECK(pieces("abc123 45!? 中文") == std::vector<std::string>{"abc", "123", " 45", "!?", " 中文"});
  CHECK(pieces(" 'quote") == std::vector<std::string>{" '", "quote"});
  CHECK(pretoken_class(U'é') == PretokenClass::letter);
  CHECK(pretoken_class(U'½') == PretokenClass::number);
  CHECK(pretoken_class(U'\u3000') == PretokenClass::space);
  CHECK(pretoken_class(U'\u0301') == PretokenClass::other);  // a combining mark is neither
}

TEST_CASE("bpe: merges in their order, and every byte as a character of its own", "[bpe]") {
  // Ġ is how GPT-2 writes the byte of a space (0x20 → U+0120).
  const std::string vocab = R"({"a": 0, "b": 1, "Ġ": 2, "ab": 3, "Ġab": 4, "c": 5, "bc": 6})";
  const std::string merges = "#version: 0.2\na b\nĠ ab\nb c\n";
  const Result<BytePairEncoder> bpe = load_bpe(vocab, merges);
  REQUIRE(bpe.ok());
  // "ab ab": "ab", then " ab" ("Ġ" + "ab" after the first merge).
  CHECK(bpe->encode("ab ab").value() == std::vector<int>{3, 4});
  // "abc": a+b comes before b+c in the list, so "ab", "c", never "a", "bc".
  CHECK(bpe->encode("abc").value() == std::vector<int>{3, 5});
  CHECK(bpe->decode({3, 4, 5}) == "ab abc");
  const Result<std::vector<int>> missing = bpe->encode("d");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == "vocab: it has no token \"d\", which its merges make.");
}

TEST_CASE("bpe: files that do not fit are refused with the line or byte", "[bpe]") {
  const auto fails = [](const std::string& vocab, const std::string& merges) {
    const Result<BytePairEncoder> bpe = load_bpe(vocab, merges);
    REQUIRE_FALSE(bpe.ok());
    return bpe.error().message;
  };
  CHECK(fails(R"({"a": 0, "b": 0})", "") == "vocab: byte 14: \"b\" and \"a\" share the id 0.");
  CHECK(fails(R"({"a": 0, "b": 7})", "") ==
        "vocab: byte 14: the id of \"b\" is not a whole number below 2, the vocabulary's size.");
  CHECK(fails(R"({"a": 0, "b": 1})", "#version: 0.2\na b\n") ==
        "merges: line 2 makes \"ab\", which the vocabulary lacks.");
  CHECK(fails(R"({"a": 0, "b": 1, "ab": 2})", "a b\nab\n") ==
        "merges: line 2 is not two tokens with one space between them.");
  CHECK(fails("[]", "") == "vocab: byte 0: it is not a JSON object of tokens and their ids.");
}

TEST_CASE("bpe: an added token in the text stands for itself, the text around it split as before",
          "[bpe]") {
  // The 256 bytes (id = the byte) and <|endoftext|> (256), no merges.
  const BpeFiles files = bpe_files({}, {"<|endoftext|>"});
  Result<BytePairEncoder> bpe = load_bpe(files.vocab_json, files.merges_txt);
  REQUIRE(bpe.ok());
  // "a" 97, " " 32 (a piece of its own before the token), <|endoftext|> 256, " b" 32 98.
  CHECK(bpe->encode("a <|endoftext|> b").value() == std::vector<int>{97, 32, 256, 32, 98});
  CHECK(bpe->encode("<|endoftext|><|endoftext|>").value() == std::vector<int>{256, 256});
  // Not quite the token: its characters, one byte each.
  CHECK(bpe->encode("<|endoftext|").value().size() == 12);
  CHECK(bpe->decode(bpe->encode("x<|endoftext|>y").value()) == "x<|endoftext|>y");
}
