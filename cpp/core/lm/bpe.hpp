// GPT-2's byte-level byte-pair encoding, which the GPT-2 family's checkpoints come with as a
// vocabulary (vocab.json: token → id) and a list of merges (merges.txt, best first).
//
// 0. Added tokens are found in the text first, each standing for itself (the longest where several
//    start at one place): tokenizer.json's "added_tokens", or in a vocab.json the <|…|> tokens
//    (GPT-2's <|endoftext|>), as Hugging Face's tokenizers match them. The text between them
//    goes through steps 1 to 3.
// 1. The text is split as GPT-2's regular expression splits it,
//      's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//    (letters, numbers and White_Space from the Unicode Character Database 15.0:
//    pretoken_tables.cpp), so a word keeps the space before it.
// 2. Each piece's UTF-8 bytes are written as printable characters, one per byte (GPT-2's
//    bytes_to_unicode: the bytes ! … ~, ¡ … ¬ and ® … ÿ stand for themselves, the other 68 for
//    U+0100 onwards), so no byte is lost and every piece is text.
// 3. Starting from single characters, the adjacent pair whose merge comes first in the list is
//    joined, everywhere in the piece, until no pair of it is listed; each part is then a token.
//
// load_bpe() checks both files (input "vocab" or "merges", the line or byte named): a vocabulary
// that is not a JSON object of whole-number ids, an id used twice, a merge line that is not two
// tokens, and a merge whose result the vocabulary lacks. load_tokenizer_json() reads the same
// vocabulary and merges from Hugging Face's single tokenizer.json (bpe_tokenizer_json.cpp). A token
// missing from the vocabulary at encode time cannot happen with a consistent pair of files;
// encode() refuses it by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common.hpp"

namespace attn {

struct Json;

enum class PretokenClass : std::uint8_t { other, letter, number, space };
PretokenClass pretoken_class(char32_t c);

// The pieces of step 1, as views of `text` (valid UTF-8).
std::vector<std::string_view> pretokenize(std::string_view text);

// Step 2: each byte of `bytes` as the character GPT-2 writes it as, one string per byte.
std::vector<std::string> byte_symbols(std::string_view bytes);

class BytePairEncoder {
 public:
  std::size_t size() const { return tokens_.size(); }  // the vocabulary's
  // The ids of `text`'s tokens. Errors: text that is not UTF-8, or a token the vocabulary lacks.
  Result<std::vector<int>> encode(std::string_view text) const;
  // The token `id` as the text it stands for (its bytes; a token may hold part of a character).
  std::string token_bytes(int id) const;
  // Every id's bytes joined: the text again.
  std::string decode(const std::vector<int>& ids) const;

 private:
  friend Result<BytePairEncoder> load_bpe(std::string_view vocab_json, std::string_view merges_txt);

  // Hugging Face's tokenizer.json for GPT-2's tokenizer: a "BPE" model whose "vocab" and "merges"
  // (each "left right", or [left, right] as newer files write them) are those of the two files
  // above, "added_tokens" joined to the vocabulary by id, a "ByteLevel" pre-tokenizer and no
  // normalizer. Anything else (another model, a pre-tokenizer that adds a space, a normalizer) is
  // refused by name, since its tokens would not be the ones the model was trained on (input
  // "tokenizer", the byte named).
  Result<BytePairEncoder> load_tokenizer_json(std::string_view tokenizer_json);
  friend Result<BytePairEncoder> load_tokenizer_json(std::string_view tokenizer_json);
  // Each returns "" when it kept the token or merge, else why not (the caller says where).
  std::string add_token(const std::string& token, const Json& id);
  std::string add_merge(std::string_view left, std::string_view right);
  std::unordered_map<std::string, int> ids_;            // token (as bytes_to_unicode text) → id
  std::vector<std::string> tokens_;                     // id → token text
  std::unordered_map<std::string, std::size_t> ranks_;  // "left right" → the merge's place
  std::vector<std::pair<std::string, int>> added_;      // step 0's tokens: text, id; longest first
  void add_added(std::string text, int id);
  std::vector<std::string> piece_tokens(const std::string& symbols) const;
  // Steps 1 to 3 on text between added tokens, appended to `out`.
  std::optional<Error> encode_between(std::string_view text, std::vector<int>& out) const;
};

Result<BytePairEncoder> load_bpe(std::string_view vocab_json, std::string_view merges_txt);

// Hugging Face's tokenizer.json for GPT-2's tokenizer: a "BPE" model whose "vocab" and "merges"
// (each "left right", or [left, right] as newer files write them) are those of the two files
// above, "added_tokens" joined to the vocabulary by id, a "ByteLevel" pre-tokenizer and no
// normalizer. Anything else (another model, a pre-tokenizer that adds a space, a normalizer) is
// refused by name, since its tokens would not be the ones the model was trained on (input
// "tokenizer", the byte named).
Result<BytePairEncoder> load_tokenizer_json(std::string_view tokenizer_json);

}  // namespace attn
