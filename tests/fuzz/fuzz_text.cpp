// libFuzzer targets for everything that reads a reader's text: the matrix parser, the word-vector
// parser and the tokenizer (with embed). One source, one target per FUZZ_TARGET_* macro, so the
// invariants checked for text live in one place.
//
// Invariants: no crash, no sanitizer report, and results that are either an error with a message
// or values the page can show (finite numbers, shapes within the limits, tokens inside the text).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "parse.hpp"
#include "tokenizer.hpp"

namespace {

void check(bool ok) {
  if (!ok) std::abort();  // libFuzzer saves the input as a crash
}

void check_error(const attn::Error& e) { check(!e.message.empty()); }

void check_finite(const attn::Matrix& m) {
  for (double x : m) check(std::isfinite(x));
}

[[maybe_unused]] void fuzz_matrix(std::string_view text) {
  auto r = attn::parse_matrix(text, "matrix");
  if (!r.ok()) return check_error(r.error());
  check(r->shape()[0] >= 1 && r->shape()[1] >= 1);
  check(r->shape()[0] <= attn::Limits::max_tokens && r->shape()[1] <= attn::Limits::max_dim);
  check_finite(r.value());
}

[[maybe_unused]] void fuzz_embeddings(std::string_view text) {
  auto r = attn::parse_embeddings(text);
  if (!r.ok()) return check_error(r.error());
  check(r->dims() >= 1 && r->dims() <= attn::Limits::max_dim);
  for (const auto& word : r->words()) {
    const auto* v = r->find(word);
    check(v && v->size() == r->dims());
    for (double x : *v) check(std::isfinite(x));
  }
}

[[maybe_unused]] void fuzz_tokenizer(std::string_view text) {
  for (const attn::Lexicon* lexicon : {&attn::builtin_lexicon(), &attn::fruit_lexicon()}) {
    auto tokens = attn::tokenize(text, *lexicon);
    if (!tokens.ok()) {
      check_error(tokens.error());
      continue;
    }
    std::size_t end = 0;
    for (const auto& t : tokens.value()) {
      check(!t.text.empty() && t.offset >= end && t.offset + t.length <= text.size());
      check(text.substr(t.offset, t.length) == t.text);
      end = t.offset + t.length;
    }
    auto e = attn::embed(text, *lexicon);
    if (!e.ok()) {
      check_error(e.error());
      continue;
    }
    check(e->vectors.shape()[0] == e->tokens.size() && e->unknown.size() == e->tokens.size());
    check(e->vectors.shape()[1] == lexicon->dims());
    check_finite(e->vectors);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
#if defined(FUZZ_TARGET_MATRIX)
  fuzz_matrix(text);
#elif defined(FUZZ_TARGET_EMBEDDINGS)
  fuzz_embeddings(text);
#elif defined(FUZZ_TARGET_TOKENIZER)
  fuzz_tokenizer(text);
#else
#error "define one FUZZ_TARGET_*"
#endif
  return 0;
}
