// Text: tokens, embeddings, matrices typed as text, and the word-vector files (lexicons).
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "lexicon.hpp"
#include "parse.hpp"
#include "tokenizer.hpp"

namespace attn::wasm {
namespace {

// Word-vector files the page loaded (parseEmbeddings), by id. Ids 0 and below name the built-in
// lexicons (BuiltinLexicon); loaded ones count up from 1 and an id is never reused, so a freed id
// stays invalid.
std::map<int, Lexicon> g_lexicons;
int g_next_lexicon = 1;

const Lexicon* find_lexicon(int id) {
  if (id == -static_cast<int>(BuiltinLexicon::builtin)) return &builtin_lexicon();
  if (id == -static_cast<int>(BuiltinLexicon::fruit)) return &fruit_lexicon();
  const auto it = g_lexicons.find(id);
  return it == g_lexicons.end() ? nullptr : &it->second;
}

Error unknown_lexicon(int id) {
  return make_error(ErrorCode::bad_argument, "lexicon", -1, -1,
                    "No word-vector file with id " + std::to_string(id) +
                        " is loaded (it was freed, or never loaded).");
}

// Token offsets in UTF-16 code units, as JS strings count them (the core counts them too), so
// that text.slice(offset, offset + length) is the token.
void write_tokens(Writer& w, const std::vector<Token>& tokens) {
  w.number(static_cast<double>(tokens.size()));
  for (const Token& t : tokens) {
    w.number(static_cast<double>(t.utf16_offset));
    w.number(static_cast<double>(t.utf16_length));
  }
}

// Lists of strings cross as one string, joined by newlines: no word, feature name or example
// sentence contains one (words and features are split at whitespace when parsed).
std::string joined(const std::vector<std::string>& list) {
  std::string s;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i > 0) s += '\n';
    s += list[i];
  }
  return s;
}

}  // namespace

Address tokenize_text(const std::string& text, int lexicon) {
  const Lexicon* lex = find_lexicon(lexicon);
  if (!lex) return fail(unknown_lexicon(lexicon));
  auto tokens = tokenize(text, *lex);
  if (!tokens) return fail(tokens.error());
  Writer w = output();
  write_tokens(w, *tokens);
  return w.finish();
}

Address embed_text(const std::string& text, int lexicon) {
  const Lexicon* lex = find_lexicon(lexicon);
  if (!lex) return fail(unknown_lexicon(lexicon));
  auto e = embed(text, *lex);
  if (!e) return fail(e.error());
  Writer w = output();
  write_tokens(w, e->tokens);
  w.matrix(e->vectors);
  w.values(e->unknown);
  return w.finish();
}

Address parse_matrix_text(const std::string& text, const std::string& input_name) {
  auto m = parse_matrix(text, input_name);
  if (!m) return fail(m.error());
  Writer w = output();
  w.matrix(*m);
  return w.finish();
}

// The id of the loaded lexicon, or 0 on error (see lastError()).
int parse_embeddings_text(const std::string& text) {
  auto lex = parse_embeddings(text);
  if (!lex) {
    fail(lex.error());
    return 0;
  }
  const int id = g_next_lexicon++;
  g_lexicons.emplace(id, std::move(lex).value());
  return id;
}

bool free_lexicon(int id) { return g_lexicons.erase(id) > 0; }

std::string lexicon_features(int id) {
  const Lexicon* lex = find_lexicon(id);
  return lex ? joined(lex->features()) : std::string();
}

std::string lexicon_words(int id) {
  const Lexicon* lex = find_lexicon(id);
  return lex ? joined(lex->words()) : std::string();
}

// The vectors of every word, in the order of lexiconWords(): (size, dims).
Address lexicon_vectors(int id) {
  const Lexicon* lex = find_lexicon(id);
  if (!lex) return fail(unknown_lexicon(id));
  Writer w = output();
  w.number(static_cast<double>(lex->size()));
  w.number(static_cast<double>(lex->dims()));
  for (const std::string& word : lex->words()) w.values(*lex->find(word));
  return w.finish();
}

std::string examples(const std::string& lang) { return joined(example_sentences(lang)); }

}  // namespace attn::wasm
