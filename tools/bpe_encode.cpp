// Encodes text with a GPT-2 tokenizer's vocab.json and merges.txt (cpp/core/lm/bpe.hpp) and prints
// the ids as a JSON array, for the tests that check the core against another implementation
// (tests/js/bpe.test.mjs):  bpe_encode VOCAB.json MERGES.txt [--many] < TEXT
// --many: the input is a JSON array of texts, and the output an array of their ids, in order.
// --u16: the ids as little-endian 16-bit numbers (for the language model's training text); each
// piece is encoded once and remembered, which makes a corpus of many megabytes take seconds.
// Exit status 3: some ids do not decode to their text again.
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "json.hpp"
#include "lm/bpe.hpp"

namespace {

bool slurp(const char* path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

int encode_u16(const attn::BytePairEncoder& bpe, const std::string& text) {
  if (bpe.size() > 65536) return std::cerr << "bpe_encode: --u16 needs at most 65536 tokens\n", 1;
  std::unordered_map<std::string_view, std::vector<int>> known;
  std::string out;
  for (std::string_view piece : attn::pretokenize(text)) {
    auto it = known.find(piece);
    if (it == known.end()) {
      attn::Result<std::vector<int>> ids = bpe.encode(piece);
      if (!ids) return std::cerr << ids.error().message << "\n", 1;
      it = known.emplace(piece, std::move(*ids)).first;
    }
    for (int id : it->second)
      out += static_cast<char>(id & 0xFF), out += static_cast<char>(id >> 8);
  }
  std::cout.write(out.data(), static_cast<std::streamsize>(out.size()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string vocab, merges;
  const std::string flag = argc == 4 ? argv[3] : "";
  const bool many = flag == "--many", u16 = flag == "--u16";
  if ((argc != 3 && !many && !u16) || !slurp(argv[1], vocab) || !slurp(argv[2], merges)) {
    std::cerr << "usage: bpe_encode VOCAB.json MERGES.txt [--many|--u16] < TEXT\n";
    return 2;
  }
  const std::string input((std::istreambuf_iterator<char>(std::cin)),
                          std::istreambuf_iterator<char>());
  const attn::Result<attn::BytePairEncoder> bpe = attn::load_bpe(vocab, merges);
  if (!bpe) return std::cerr << bpe.error().message << "\n", 1;
  if (u16) return encode_u16(*bpe, input);
  std::vector<std::string> texts{input};
  if (many) {
    const attn::Result<attn::Json> list = attn::parse_json(input, "input");
    if (!list || list->kind != attn::Json::Kind::array)
      return std::cerr << "bpe_encode: --many needs a JSON array of texts\n", 1;
    texts.clear();
    for (const attn::Json& item : list->items) texts.push_back(item.text);
  }
  int status = 0;
  std::cout << (many ? "[" : "");
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const attn::Result<std::vector<int>> ids = bpe->encode(texts[k]);
    if (!ids) return std::cerr << ids.error().message << "\n", 1;
    std::cout << (k ? "," : "") << '[';
    for (std::size_t i = 0; i < ids->size(); ++i) std::cout << (i ? "," : "") << (*ids)[i];
    std::cout << ']';
    if (bpe->decode(*ids) != texts[k]) status = 3;
  }
  std::cout << (many ? "]" : "") << "\n";
  return status;
}
