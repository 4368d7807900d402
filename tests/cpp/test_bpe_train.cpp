// Learning BPE merges (cpp/core/lm/bpe_train.hpp) on texts small enough to count by hand, and the
// files it writes read back by load_bpe() (cpp/core/lm/bpe.hpp).
#include <string>
#include <vector>

#include "lm/bpe.hpp"
#include "lm/bpe_train.hpp"
#include "test_utils.hpp"

using namespace attn;

TEST_CASE("bpe training: the most frequent pair is merged first", "[bpe]") {
  // Pieces: "low" ×2, " low" ×1, " lower" ×1, " newest" ×3, " widest" ×2 (Ġ is the space).
  // Pairs: "e s" and "s t" are in newest and widest, 5 each, more than any other; "e s" comes
  // first as text. Then "es t" (5). Then "l o", "o w" and "w e" have 4 each (low, low ×2,
  // lower; newest ×3 and lower), and "l o" comes first as text; then "lo w" (4) before "w e".
  const std::string text = "low low low lower newest newest newest widest widest";
  const std::vector<Merge> merges = learn_merges(text, 4);
  REQUIRE(merges.size() == 4);
  CHECK(merges[0] == Merge{"e", "s"});
  CHECK(merges[1] == Merge{"es", "t"});
  CHECK(merges[2] == Merge{"l", "o"});
  CHECK(merges[3] == Merge{"lo", "w"});
}

TEST_CASE("bpe training: a character made whole, its bytes when it is not", "[bpe]") {
  std::vector<Merge> merges = learn_merges("the cat the hat", 3);
  add_character_merges(merges, {"中", "丫"});  // E4 B8 AD and E4 B8 AB share their first two bytes
  const BpeFiles files = bpe_files(merges, {"<|endoftext|>"});
  const Result<BytePairEncoder> bpe = load_bpe(files.vocab_json, files.merges_txt);
  REQUIRE(bpe);
  // 256 bytes, the learned merges, 中's two merges and 丫's one (its prefix is shared), the
  // special.
  CHECK(bpe->size() == 256 + 3 + 3 + 1);
  const Result<std::vector<int>> zhong = bpe->encode("中");
  REQUIRE(zhong);
  CHECK(zhong->size() == 1);
  CHECK(bpe->token_bytes((*zhong)[0]) == "中");
  // 丰 (E4 B8 B0) was not chosen: the shared prefix and then its last byte.
  const Result<std::vector<int>> feng = bpe->encode("丰");
  REQUIRE(feng);
  CHECK(feng->size() == 2);
  CHECK(bpe->decode(*feng) == "丰");
  const Result<std::vector<int>> both = bpe->encode("the 中丫丰 hat");
  REQUIRE(both);
  CHECK(bpe->decode(*both) == "the 中丫丰 hat");
}

TEST_CASE("bpe training: the same text gives the same files", "[bpe]") {
  const std::string text = "a rose is a rose is a rose, and \"quoted\" \\ too";
  const BpeFiles a = bpe_files(learn_merges(text, 30), {});
  const BpeFiles b = bpe_files(learn_merges(text, 30), {});
  CHECK(a.merges_txt == b.merges_txt);
  CHECK(a.vocab_json == b.vocab_json);
  // The quote and the backslash are escaped, so the vocabulary reads back.
  const Result<BytePairEncoder> bpe = load_bpe(a.vocab_json, a.merges_txt);
  REQUIRE(bpe);
  const Result<std::vector<int>> ids = bpe->encode(text);
  REQUIRE(ids);
  CHECK(bpe->decode(*ids) == text);
  CHECK(ids->size() < text.size() / 2);  // " rose" and " is" are single tokens by now
}
