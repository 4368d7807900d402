// libFuzzer targets for everything that reads a reader's text or file: the matrix parser, the
// word-vector parsers (the text one and the packed one, with its nearest words), the tokenizer
// (with embed), and model files (safetensors, then a GPT-2 model from them, run on two tokens; a
// whole checkpoint with its config and tokenizer, planned, opened and run on text). One
// source, one target per FUZZ_TARGET_* macro, so the invariants checked for what a reader gives
// live in one place.
//
// Invariants: no crash, no sanitizer report, and results that are either an error with a message
// or values the page can show (finite numbers, shapes within the limits, tokens inside the text
// that start and end at grapheme cluster boundaries, with UTF-16 spans that match their bytes).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "lm/bpe.hpp"
#include "lm/gpt2.hpp"
#include "lm/language_model.hpp"
#include "lm/model_config_json.hpp"
#include "parse.hpp"
#include "tokenizer.hpp"
#include "unicode.hpp"
#include "utf8.hpp"
#include "word_vectors.hpp"

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

// A packed file: its words and vectors as the text parser's, and the nearest words of its first
// and last words, at most k of them, nearest first, with cosines within [−1, 1].
[[maybe_unused]] void fuzz_vectors(std::string_view bytes) {
  auto r = attn::read_word_vectors(bytes);
  if (!r.ok()) return check_error(r.error());
  const attn::Lexicon& lexicon = r->lexicon;
  check(lexicon.size() >= 1 && r->learned <= lexicon.size());
  check(lexicon.dims() >= 1 && lexicon.dims() <= attn::Limits::max_dim);
  for (std::size_t i = 0; i < lexicon.size(); ++i) {
    check(lexicon.vector_at(i).size() == lexicon.dims());
    for (double x : lexicon.vector_at(i)) check(std::isfinite(x));
  }
  for (const std::string& word : {lexicon.words().front(), lexicon.words().back()}) {
    auto near = attn::nearest_words(lexicon, word, 5);
    if (!near.ok()) {
      check(near.error().code == attn::ErrorCode::zero_vector);
      continue;
    }
    check(near->size() <= 5 && near->size() < lexicon.size());
    double previous = 1;
    for (const auto& n : near.value()) {
      check(n.word != word && n.cosine >= -1 && n.cosine <= previous);
      previous = n.cosine;
    }
  }
}

// Whether a grapheme cluster starts at each byte of valid UTF-8 text; the end of the text too.
std::vector<bool> cluster_starts(std::string_view text) {
  std::vector<bool> starts(text.size() + 1, false);
  attn::unicode::GraphemeBreaker breaker;
  for (std::size_t pos = 0; pos < text.size();) {
    const attn::utf8::CodePoint cp = attn::utf8::decode(text, pos);
    starts[pos] = breaker.starts_cluster(attn::unicode::properties(cp.value).grapheme_break);
    pos += cp.length;
  }
  starts[text.size()] = true;
  return starts;
}

[[maybe_unused]] void fuzz_tokenizer(std::string_view text) {
  const bool valid = attn::utf8::find_invalid(text) == std::string_view::npos;
  const std::vector<bool> starts = valid ? cluster_starts(text) : std::vector<bool>();
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
      check(starts[t.offset] && starts[t.offset + t.length]);  // no cluster is cut
      check(t.utf16_offset == attn::utf8::count_utf16_units(text.substr(0, t.offset)));
      check(t.utf16_length == attn::utf8::count_utf16_units(t.text));
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

// A model file: its tensors lie inside the file with the bytes their shape needs; a GPT-2 model
// read from it has every tensor its shapes promise, and runs on its first tokens without a crash.
[[maybe_unused]] void fuzz_safetensors(std::string_view bytes) {
  auto r = attn::read_safetensors(bytes);
  if (!r.ok()) return check_error(r.error());
  for (const auto& t : r->tensors) {
    check(t.begin <= t.end && t.end <= bytes.size());
    check(t.end - t.begin == t.count() * (t.dtype == attn::DType::f32 ? 4 : 2));
  }
  auto m = attn::load_gpt2(*r);
  if (!m.ok()) return check_error(m.error());
  const attn::DecoderConfig& c = m->config;
  check(m->wte.size() == c.vocab * c.width && m->blocks.size() == c.layers &&
        c.width % c.heads == 0);
  attn::KvCache cache(*m);
  auto out = cache.append(std::vector<int>(std::min<std::size_t>(2, c.context), 0), true);
  if (!out.ok()) return check_error(out.error());
  check(out->logits.size() == std::min<std::size_t>(2, c.context) * c.vocab &&
        out->layers.size() == c.layers);
}

// The files beside a reader's checkpoint: a tokenizer.json that loads encodes text back to itself
// (when every byte has its token), and a config.json that reads says sizes a model could have.
[[maybe_unused]] void fuzz_checkpoint_files(std::string_view text) {
  auto bpe = attn::load_tokenizer_json(text);
  if (!bpe.ok()) {
    check_error(bpe.error());
  } else {
    for (std::string_view s : {"Hello world, don't", " 中文 123", "\n\n  x"}) {
      auto ids = bpe->encode(s);
      if (!ids.ok()) {
        check_error(ids.error());
        continue;
      }
      for (int id : ids.value()) check(id >= 0 && static_cast<std::size_t>(id) < bpe->size());
      check(bpe->decode(ids.value()) == s);
    }
  }
  auto config = attn::read_model_config(text);
  if (!config.ok()) return check_error(config.error());
  check(config->heads <= 1000000000 && config->width <= 1000000000);
}

// A reader's checkpoint as the Real model view gets it: the model file, a config.json and a
// tokenizer.json beside it, cut from one input at its first two "\n---\n" marks. What opens from
// the whole file was planned from its header alone, with the same config; an opened model reads a
// text within its window, with finite bits and probabilities that sum to at most 1.
[[maybe_unused]] void fuzz_language_model(std::string_view input) {
  constexpr std::string_view mark = "\n---\n";
  std::string_view parts[3];
  for (std::size_t i = 0; i < 2; ++i) {
    const std::size_t at = input.find(mark);
    parts[i] = input.substr(0, at);
    input = at == std::string_view::npos ? std::string_view() : input.substr(at + mark.size());
  }
  parts[2] = input;
  const attn::ModelFiles files{parts[0], parts[2], {}, {}, parts[1]};
  auto plan = attn::LanguageModel::plan(files, parts[0].size());
  auto lm = attn::LanguageModel::open(files);
  if (!plan.ok()) check_error(plan.error());
  if (!lm.ok()) return check_error(lm.error());
  check(plan.ok());  // a file that opens was not refused from its header
  const attn::DecoderConfig &c = lm->config(), &p = plan->config;
  check(c.vocab == p.vocab && c.context == p.context && c.width == p.width &&
        c.layers == p.layers && c.heads == p.heads && c.tied == p.tied);
  check(lm->window() >= 2 && lm->window() <= c.context);
  for (std::string_view text : {"Hello, world", "床前明月光 🙂"}) {
    auto run = lm.value().run(text);
    if (!run.ok()) {
      check_error(run.error());
      continue;
    }
    check(run->tokens.size() <= lm->window() && run->tokens.size() >= 1);
    for (const attn::LmToken& t : run->tokens) check(std::isfinite(t.bits) && t.bits >= 0);
    double total = 0;
    for (const attn::Prediction& x : lm->predict(5)) {
      check(std::isfinite(x.probability) && x.probability >= 0);
      total += x.probability;
    }
    check(total <= 1 + 1e-6);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
#if defined(FUZZ_TARGET_MATRIX)
  fuzz_matrix(text);
#elif defined(FUZZ_TARGET_EMBEDDINGS)
  fuzz_embeddings(text);
#elif defined(FUZZ_TARGET_VECTORS)
  fuzz_vectors(text);
#elif defined(FUZZ_TARGET_TOKENIZER)
  fuzz_tokenizer(text);
#elif defined(FUZZ_TARGET_SAFETENSORS)
  fuzz_safetensors(text);
#elif defined(FUZZ_TARGET_CHECKPOINT_FILES)
  fuzz_checkpoint_files(text);
#elif defined(FUZZ_TARGET_LANGUAGE_MODEL)
  fuzz_language_model(text);
#else
#error "define one FUZZ_TARGET_*"
#endif
  return 0;
}
