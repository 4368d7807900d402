// Text: tokens, embeddings, matrices typed as text, the word-vector files (lexicons), and the
// nearest words and similarity of their words.
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "lexicon.hpp"
#include "parse.hpp"
#include "tokenizer.hpp"
#include "word_vectors.hpp"

namespace attn::wasm {
namespace {

// Word-vector files the page loaded (parseEmbeddings, loadVectors). Ids 0 and below name the
// built-in lexicons (BuiltinLexicon); loaded ones count up from 1 and an id is never reused, so a
// freed id stays invalid. The file of id i is at g_lexicons[i - 1 - g_ids_before], null once
// freed; when none is left the vector is emptied, its memory given back, and the ids it held are
// counted in g_ids_before. (A vector rather than a std::map: the tree's code was 1 KB of the
// engine, for a few files.)
std::vector<std::unique_ptr<Lexicon>> g_lexicons;
int g_ids_before = 0;
int g_live = 0;  // files loaded and not freed

const Lexicon* find_lexicon(int id) {
  if (id == -static_cast<int>(BuiltinLexicon::builtin)) return &builtin_lexicon();
  if (id == -static_cast<int>(BuiltinLexicon::fruit)) return &fruit_lexicon();
  if (id <= g_ids_before) return nullptr;
  const auto i = static_cast<std::size_t>(id - 1 - g_ids_before);
  return i < g_lexicons.size() ? g_lexicons[i].get() : nullptr;
}

// Keeps a loaded lexicon under the next id, and returns the id.
int keep(Lexicon&& lexicon) {
  g_lexicons.push_back(std::make_unique<Lexicon>(std::move(lexicon)));
  ++g_live;
  return g_ids_before + static_cast<int>(g_lexicons.size());
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
  return keep(std::move(lex).value());
}

// A packed file's bytes (Embind copies a Uint8Array's into the string): [id, learned], or 0 on
// error. It joins the files parseEmbeddings loads, so that every lexicon call takes its id.
Address load_vectors(const std::string& bytes) {
  auto vectors = read_word_vectors(bytes);
  if (!vectors) return fail(vectors.error());
  const std::size_t learned = vectors->learned;
  Writer w = output();
  w.number(keep(std::move(vectors).value().lexicon));
  w.number(static_cast<double>(learned));
  return w.finish();
}

// [count, then each neighbour's word (Writer::text) and cosine].
Address nearest_words_of(const std::string& word, int lexicon, std::size_t k) {
  const Lexicon* lex = find_lexicon(lexicon);
  if (!lex) return fail(unknown_lexicon(lexicon));
  auto near = nearest_words(*lex, word, k);
  if (!near) return fail(near.error());
  Writer w = output();
  w.number(static_cast<double>(near->size()));
  for (const WordNeighbour& n : near.value()) {
    w.text(n.word);
    w.number(n.cosine);
  }
  return w.finish();
}

Address word_similarity_of(const std::string& a, const std::string& b, int lexicon) {
  const Lexicon* lex = find_lexicon(lexicon);
  if (!lex) return fail(unknown_lexicon(lexicon));
  auto cosine = word_similarity(*lex, a, b);
  if (!cosine) return fail(cosine.error());
  Writer w = output();
  w.number(cosine.value());
  return w.finish();
}

bool free_lexicon(int id) {
  if (id < 1 || !find_lexicon(id)) return false;
  g_lexicons[static_cast<std::size_t>(id - 1 - g_ids_before)].reset();
  if (--g_live == 0) {
    g_ids_before += static_cast<int>(g_lexicons.size());
    std::vector<std::unique_ptr<Lexicon>>().swap(g_lexicons);
  }
  return true;
}

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
  for (std::size_t i = 0; i < lex->size(); ++i) w.values(lex->vector_at(i));
  return w.finish();
}

std::string examples(const std::string& lang) { return joined(example_sentences(lang)); }

}  // namespace attn::wasm
