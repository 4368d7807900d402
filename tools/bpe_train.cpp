// Learns the language model's tokenizer (cpp/core/lm/bpe_train.hpp) and writes it as GPT-2's two
// files: MERGES merges learned from the English text, then the CHARACTERS characters seen most
// often in the Chinese text (ties by code point) made whole tokens, then <|endoftext|>.
//   bpe_train MERGES CHARACTERS EN.txt ZH.txt OUT_DIR   → OUT_DIR/vocab.json, OUT_DIR/merges.txt
#include "lm/bpe_train.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <string>

#include "utf8.hpp"

namespace {

bool slurp(const char* path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// The `count` characters of `text` above U+007F seen most often, excluding the space characters.
std::vector<std::string> common_characters(const std::string& text, std::size_t count) {
  std::map<char32_t, long> seen;
  for (std::size_t at = 0; at < text.size();) {
    const attn::utf8::CodePoint cp = attn::utf8::decode(text, at);
    at += std::max<std::size_t>(cp.length, 1);
    if (cp.value > 0x7F && cp.value != 0x3000 && cp.value != 0xA0) ++seen[cp.value];
  }
  std::vector<std::pair<long, char32_t>> order;
  for (const auto& [c, n] : seen) order.emplace_back(-n, c);
  std::sort(order.begin(), order.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < order.size() && i < count; ++i) {
    out.emplace_back();
    attn::utf8::append(out.back(), order[i].second);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string en, zh;
  if (argc != 6 || !slurp(argv[3], en) || !slurp(argv[4], zh)) {
    std::cerr << "usage: bpe_train MERGES CHARACTERS EN.txt ZH.txt OUT_DIR\n";
    return 2;
  }
  std::vector<attn::Merge> merges = attn::learn_merges(en, std::stoul(argv[1]));
  const std::size_t learned = merges.size();
  attn::add_character_merges(merges, common_characters(zh, std::stoul(argv[2])));
  const attn::BpeFiles files = attn::bpe_files(merges, {"<|endoftext|>"});
  const std::string dir = argv[5];
  std::ofstream(dir + "/vocab.json", std::ios::binary) << files.vocab_json;
  std::ofstream(dir + "/merges.txt", std::ios::binary) << files.merges_txt;
  std::cout << learned << " merges learned, " << merges.size() - learned
            << " for characters; written to " << dir << "\n";
}
