#include "bpe_train.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>

#include "bpe.hpp"
#include "json.hpp"

namespace attn {

namespace {

using Pair = std::uint64_t;  // two symbol ids, the left one in the high half
Pair pair_of(std::uint32_t a, std::uint32_t b) { return (static_cast<Pair>(a) << 32) | b; }

struct Word {
  std::vector<std::uint32_t> symbols;
  long count = 0;
};

void count_pairs(const Word& w, long sign, std::unordered_map<Pair, long>& pairs) {
  for (std::size_t i = 0; i + 1 < w.symbols.size(); ++i)
    pairs[pair_of(w.symbols[i], w.symbols[i + 1])] += sign * w.count;
}

}  // namespace

std::vector<Merge> learn_merges(std::string_view text, std::size_t count) {
  std::map<std::string_view, long> piece_counts;  // ordered, so symbol ids do not depend on hashing
  for (std::string_view piece : pretokenize(text)) ++piece_counts[piece];

  std::vector<std::string> names;  // symbol id → token text
  std::unordered_map<std::string, std::uint32_t> ids;
  const auto id_of = [&](const std::string& name) {
    const auto [it, fresh] = ids.emplace(name, static_cast<std::uint32_t>(names.size()));
    if (fresh) names.push_back(name);
    return it->second;
  };
  std::vector<Word> words;
  std::unordered_map<Pair, long> pairs;
  for (const auto& [piece, n] : piece_counts) {
    Word w;
    for (const std::string& symbol : byte_symbols(piece)) w.symbols.push_back(id_of(symbol));
    w.count = n;
    count_pairs(w, +1, pairs);
    words.push_back(std::move(w));
  }

  std::vector<Merge> merges;
  while (merges.size() < count) {
    Pair best = 0;
    long best_count = 0;
    for (const auto& [p, n] : pairs) {
      if (n < best_count || n <= 0) continue;
      const auto key = [&](Pair q) {
        return std::make_pair(names[q >> 32], names[q & 0xFFFFFFFFu]);
      };
      if (n > best_count || key(p) < key(best)) best = p, best_count = n;
    }
    if (best_count == 0) break;  // every piece is one token
    const std::uint32_t a = best >> 32, b = best & 0xFFFFFFFFu;
    merges.emplace_back(names[a], names[b]);
    const std::uint32_t joined = id_of(names[a] + names[b]);
    for (Word& w : words) {
      const auto& s = w.symbols;
      bool has = false;
      for (std::size_t i = 0; i + 1 < s.size() && !has; ++i) has = s[i] == a && s[i + 1] == b;
      if (!has) continue;
      count_pairs(w, -1, pairs);
      std::vector<std::uint32_t> next;
      for (std::size_t i = 0; i < s.size(); ++i) {
        if (i + 1 < s.size() && s[i] == a && s[i + 1] == b)
          next.push_back(joined), ++i;
        else
          next.push_back(s[i]);
      }
      w.symbols = std::move(next);
      count_pairs(w, +1, pairs);
    }
    pairs.erase(best);
  }
  return merges;
}

void add_character_merges(std::vector<Merge>& merges, const std::vector<std::string>& characters) {
  std::set<std::string> made;
  for (const Merge& m : merges) made.insert(m.first + m.second);
  for (const std::string& c : characters) {
    const std::vector<std::string> bytes = byte_symbols(c);
    std::string prefix = bytes.empty() ? std::string() : bytes[0];
    for (std::size_t i = 1; i < bytes.size(); ++i) {
      if (made.insert(prefix + bytes[i]).second) merges.emplace_back(prefix, bytes[i]);
      prefix += bytes[i];
    }
  }
}

BpeFiles bpe_files(const std::vector<Merge>& merges, const std::vector<std::string>& specials) {
  std::vector<std::string> tokens;
  std::set<std::string> seen;
  const auto add = [&](const std::string& t) {
    if (seen.insert(t).second) tokens.push_back(t);  // two merges may make the same token
  };
  for (int b = 0; b < 256; ++b) add(byte_symbols(std::string(1, static_cast<char>(b)))[0]);
  for (const Merge& m : merges) add(m.first + m.second);
  for (const std::string& t : specials) add(t);
  BpeFiles out;
  out.vocab_json = "{";
  for (std::size_t i = 0; i < tokens.size(); ++i)
    out.vocab_json += (i ? ",\n" : "\n") + json_quote(tokens[i]) + ": " + std::to_string(i);
  out.vocab_json += "\n}\n";
  out.merges_txt = "#version: 0.2\n";
  for (const Merge& m : merges) out.merges_txt += m.first + " " + m.second + "\n";
  return out;
}

}  // namespace attn
