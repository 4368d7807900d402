// The engine's Embind bindings: a table of names (at the bottom) and the small functions it
// names, each of which converts its inputs, calls the core and writes the result out. No math.
//
// The raw functions bound here are private to the artifact: api.js, appended to the Emscripten
// glue, wraps them into the public createAttentionEngine() API (validation, camelCase objects,
// results copied into JS-owned typed arrays). Matrices come in through the input buffer and
// results go out through the output buffer (stream.hpp); a bound function returns the byte
// address of its result, or 0 when the core returned an error, which lastError() then gives.
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attention.hpp"
#include "fast_attention.hpp"
#include "lexicon.hpp"
#include "multihead.hpp"
#include "parse.hpp"
#include "projection.hpp"
#include "stream.hpp"
#include "tokenizer.hpp"

namespace attn::wasm {
namespace {

// Both buffers live as long as the module and only grow, so a warm engine allocates nothing to
// cross the boundary, and the input address api.js caches stays valid until it asks for more.
std::vector<double> g_in;
std::vector<double> g_out;
Error g_error;

// Word-vector files the page loaded (parseEmbeddings), by id. 0 and -1 name the built-in
// lexicons; loaded ones count up from 1 and an id is never reused, so a freed id stays invalid.
std::map<int, Lexicon> g_lexicons;
int g_next_lexicon = 1;
constexpr int kBuiltin = 0, kFruit = -1;

using Address = std::uintptr_t;

Address fail(Error e) {
  g_error = std::move(e);
  return 0;
}

Reader input() { return Reader(g_in.data()); }

// The address of an input buffer that holds at least `count` doubles.
Address input_buffer(std::size_t count) {
  if (g_in.size() < count) g_in.resize(count);
  return reinterpret_cast<Address>(g_in.data());
}

emscripten::val last_error() {
  emscripten::val e = emscripten::val::object();
  e.set("code", std::string(to_string(g_error.code)));
  e.set("message", g_error.message);
  e.set("input", g_error.input);
  e.set("row", static_cast<double>(g_error.row));
  e.set("col", static_cast<double>(g_error.col));
  return e;
}

// --- attention ---------------------------------------------------------------------------------

// The enums arrive as their index; api.js maps the option strings and rejects unknown ones.
// A custom mask follows the matrices in the input buffer.
AttentionConfig attention_config(int similarity, int scaling, double temperature, int mask,
                                 int normalization, Reader& in) {
  AttentionConfig c;
  c.similarity = static_cast<Similarity>(similarity);
  c.scaling = static_cast<Scaling>(scaling);
  c.temperature = temperature;
  c.mask = static_cast<MaskKind>(mask);
  if (c.mask == MaskKind::custom) c.custom_mask = in.mask();
  c.normalization = static_cast<Normalization>(normalization);
  return c;
}

// Each row's stats as 7 doubles, into p (7n).
void put_row_stats(double* p, const RowStats* rows, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i, p += 7) {
    const RowStats& r = rows[i];
    p[0] = r.max, p[1] = r.exp_sum, p[2] = r.score_sum, p[3] = r.weight_sum, p[4] = r.entropy;
    p[5] = static_cast<double>(r.visible);
    p[6] = static_cast<double>(r.problem);
  }
}

// The steps of one head of multiHead(), in the order api.js reads them (readSteps).
void write_steps(Writer& w, const AttentionSteps& s) {
  w.matrix(s.queries);
  w.matrix(s.keys);
  w.matrix(s.values);
  w.vector(s.query_norms);
  w.vector(s.key_norms);
  w.number(s.divisor);
  w.matrix(s.scores);
  w.matrix(s.scaled);
  w.matrix(s.masked);
  w.matrix(s.exps);
  w.matrix(s.weights);
  w.matrix(s.output);
  w.mask(s.visible);
  w.number(static_cast<double>(s.rows.size()));
  put_row_stats(w.take(7 * s.rows.size()), s.rows.data(), s.rows.size());
}

Result<AttentionSteps> run_attention(int similarity, int scaling, double temperature, int mask,
                                     int normalization) {
  Reader in = input();
  Matrix queries = in.matrix(), keys = in.matrix(), values = in.matrix();
  const AttentionConfig config =
      attention_config(similarity, scaling, temperature, mask, normalization, in);
  return attention(queries, keys, values, config);
}

// The explainer's hot path, called on every change the reader makes. Q, K and V are read where
// api.js wrote them and the core writes each step straight into the result, so that a warm
// engine allocates nothing (but a custom mask's copy in the config): an 8×4 call took 13 µs
// through the public API when it built an AttentionSteps and copied it out. The row stats and
// the mask go through buffers of their own, which only grow.
//
// The result (api.js, readAttention): [n, m, d_k, d_v, divisor, the row stats (7n), then the
// arrays' data alone, row-major: queries, keys, values, query norms, key norms, scores, scaled,
// masked, exps, weights, output, and the mask's bytes packed eight to a double]. api.js copies
// only the arrays out of the heap: V8 charges for an ArrayBuffer by its size.
std::vector<RowStats> g_rows;       // (n)
std::unique_ptr<bool[]> g_visible;  // (n, m)
std::size_t g_visible_size = 0;

Address attention_steps(int similarity, int scaling, double temperature, int mask,
                        int normalization) {
  Reader in = input();
  const MatrixView q = in.view(), k = in.view(), v = in.view();
  const AttentionConfig config =
      attention_config(similarity, scaling, temperature, mask, normalization, in);
  if (auto e = check_attention(q, k, v, config)) return fail(*e);
  const std::size_t n = q.rows, m = k.rows, d_k = q.cols, d_v = v.cols;
  if (g_visible_size < n * m) {
    g_visible.reset(new bool[n * m]);
    g_visible_size = n * m;
  }
  if (g_rows.size() < n) g_rows.resize(n);

  Writer w(g_out);
  const std::size_t mask_doubles = Writer::mask_doubles(n * m);
  // One take() for all of it, so that the buffer cannot move under the pointers below.
  double* p = w.take(5 + 7 * n + (n + m) * d_k + m * d_v + n + m + 5 * n * m + n * d_v +
                     mask_doubles);
  p[0] = static_cast<double>(n), p[1] = static_cast<double>(m);
  p[2] = static_cast<double>(d_k), p[3] = static_cast<double>(d_v);
  double* divisor = p + 4;
  double* row_stats = p + 5;
  p = row_stats + 7 * n;
  const auto next = [&p](std::size_t count) { return std::exchange(p, p + count); };
  std::copy(q.data, q.data + n * d_k, next(n * d_k));
  std::copy(k.data, k.data + m * d_k, next(m * d_k));
  std::copy(v.data, v.data + m * d_v, next(m * d_v));
  StepBuffers b;
  b.query_norms = next(n);
  b.key_norms = next(m);
  b.scores = next(n * m);
  b.scaled = next(n * m);
  b.masked = next(n * m);
  b.exps = next(n * m);
  b.weights = next(n * m);
  b.output = next(n * d_v);
  double* visible = next(mask_doubles);
  b.visible = g_visible.get();
  b.rows = g_rows.data();
  if (auto e = attention_into(q, k, v, config, b)) return fail(*e);
  *divisor = b.divisor;
  visible[mask_doubles - 1] = 0;  // the padding after the last byte
  std::memcpy(visible, b.visible, n * m);
  put_row_stats(row_stats, b.rows, n);
  return w.finish();
}

Address explain_cell_of(int similarity, int scaling, double temperature, int mask,
                        int normalization, std::size_t i, std::size_t j) {
  auto steps = run_attention(similarity, scaling, temperature, mask, normalization);
  if (!steps) return fail(steps.error());
  auto c = explain_cell(*steps, i, j);
  if (!c) return fail(c.error());
  Writer w(g_out);
  w.values(std::initializer_list<double>{
      static_cast<double>(c->row), static_cast<double>(c->col), c->dot, c->query_norm,
      c->key_norm, c->score, c->divisor, c->scaled, c->visible ? 1.0 : 0.0, c->row_max,
      c->exp_value, c->exp_sum, c->score_sum, c->weight, static_cast<double>(c->terms.size())});
  w.values(c->query);
  w.values(c->key);
  w.values(c->terms);
  return w.finish();
}

Address explain_output_of(int similarity, int scaling, double temperature, int mask,
                          int normalization, std::size_t i, std::size_t t) {
  auto steps = run_attention(similarity, scaling, temperature, mask, normalization);
  if (!steps) return fail(steps.error());
  auto o = explain_output(*steps, i, t);
  if (!o) return fail(o.error());
  Writer w(g_out);
  w.values(std::initializer_list<double>{static_cast<double>(o->row), static_cast<double>(o->col),
                                         o->output, static_cast<double>(o->terms.size())});
  w.values(o->weights);
  w.values(o->values);
  w.values(o->terms);
  return w.finish();
}

// The comparison view: right − left of two matrices, left first in the input buffer.
Address difference_of() {
  Reader in = input();
  const Matrix left = in.matrix(), right = in.matrix();
  auto d = difference(left, right);
  if (!d) return fail(d.error());
  Writer w(g_out);
  w.matrix(*d);
  return w.finish();
}

// --- multi-head --------------------------------------------------------------------------------

// Input buffer: x, then the custom mask if any, then for `given` projections a count and that
// many matrices for each of W_Q, W_K, W_V, and W_O.
Result<MultiHeadSteps> run_multi_head(int heads, int d_k, int d_v, int projection, double seed,
                                      int similarity, int scaling, double temperature, int mask,
                                      int normalization) {
  Reader in = input();
  const Matrix x = in.matrix();
  MultiHeadConfig c;
  c.heads = static_cast<std::size_t>(heads);
  c.d_k = static_cast<std::size_t>(d_k);
  c.d_v = static_cast<std::size_t>(d_v);
  c.projection = static_cast<Projection>(projection);
  c.seed = static_cast<std::uint64_t>(seed);  // api.js checks: an integer in [0, 2⁵³]
  c.attention = attention_config(similarity, scaling, temperature, mask, normalization, in);
  if (c.projection == Projection::given) {
    for (std::vector<Matrix>* list : {&c.w_q, &c.w_k, &c.w_v}) {
      list->resize(static_cast<std::size_t>(in.number()));
      for (Matrix& w : *list) w = in.matrix();
    }
    c.w_o = in.matrix();
  }
  return multi_head(x, c);
}

Address multi_head_steps(int heads, int d_k, int d_v, int projection, double seed,
                         int similarity, int scaling, double temperature, int mask,
                         int normalization) {
  auto r = run_multi_head(heads, d_k, d_v, projection, seed, similarity, scaling, temperature,
                          mask, normalization);
  if (!r) return fail(r.error());
  Writer w(g_out);
  w.matrix(r->x);
  w.number(static_cast<double>(r->heads.size()));
  for (const HeadSteps& h : r->heads) {
    w.matrix(h.w_q);
    w.matrix(h.w_k);
    w.matrix(h.w_v);
    write_steps(w, h.steps);
  }
  w.matrix(r->concat);
  w.matrix(r->w_o);
  w.matrix(r->output);
  w.values(r->column_head);  // H·d_v each: the columns of concat
  w.values(r->column_in_head);
  return w.finish();
}

// The inputs of multiHead(), then which entry: kind is a ProjectionKind.
Address explain_projection_of(int heads, int d_k, int d_v, int projection, double seed,
                              int similarity, int scaling, double temperature, int mask,
                              int normalization, int kind, int head, std::size_t i,
                              std::size_t j) {
  auto r = run_multi_head(heads, d_k, d_v, projection, seed, similarity, scaling, temperature,
                          mask, normalization);
  if (!r) return fail(r.error());
  auto p = explain_projection(*r, static_cast<ProjectionKind>(kind), static_cast<std::size_t>(head),
                              i, j);
  if (!p) return fail(p.error());
  Writer w(g_out);
  w.values(std::initializer_list<double>{static_cast<double>(p->row), static_cast<double>(p->col),
                                         p->value, static_cast<double>(p->terms.size())});
  w.values(p->left);
  w.values(p->right);
  w.values(p->terms);
  return w.finish();
}

// Input buffer: x, then the count of d_k values and the values. The result: the count of rows,
// then d_k, scaled, unscaled for each.
Address entropy_by_dk_of(int heads, int head, double seed, int similarity, int mask) {
  Reader in = input();
  const Matrix x = in.matrix();
  EntropySweep sweep;
  sweep.heads = static_cast<std::size_t>(heads);
  sweep.head = static_cast<std::size_t>(head);
  sweep.d_ks.resize(static_cast<std::size_t>(in.number()));
  for (std::size_t& d_k : sweep.d_ks) d_k = static_cast<std::size_t>(in.number());
  sweep.seed = static_cast<std::uint64_t>(seed);  // api.js checks: an integer in [0, 2⁵³]
  sweep.similarity = static_cast<Similarity>(similarity);
  sweep.mask = static_cast<MaskKind>(mask);
  auto rows = entropy_by_dk(x, sweep);
  if (!rows) return fail(rows.error());
  Writer w(g_out);
  w.number(static_cast<double>(rows->size()));
  for (const EntropyRow& r : *rows) {
    w.values(std::initializer_list<double>{static_cast<double>(r.d_k), r.scaled, r.unscaled});
  }
  return w.finish();
}

// --- the 2-D picture ---------------------------------------------------------------------------

Address project_2d_of() {
  Reader in = input();
  const Matrix values = in.matrix(), outputs = in.matrix();
  auto p = project_2d(values, outputs);
  if (!p) return fail(p.error());
  Writer w(g_out);
  w.vector(p->mean);
  w.matrix(p->axes);
  w.vector(p->variance);
  w.number(p->total_variance);
  w.matrix(p->values_2d);
  w.matrix(p->outputs_2d);
  w.number(p->shown);
  return w.finish();
}

// --- words -------------------------------------------------------------------------------------

const Lexicon* find_lexicon(int id) {
  if (id == kBuiltin) return &builtin_lexicon();
  if (id == kFruit) return &fruit_lexicon();
  const auto it = g_lexicons.find(id);
  return it == g_lexicons.end() ? nullptr : &it->second;
}

Error unknown_lexicon(int id) {
  return make_error(ErrorCode::bad_argument, "lexicon", -1, -1,
                    "No word-vector file with id " + std::to_string(id) +
                        " is loaded (it was freed, or never loaded).");
}

// Token offsets in UTF-16 code units, as JS strings count them, so that
// text.slice(offset, offset + length) is the token. The core counts UTF-8 bytes: a byte that is
// not a continuation byte starts a code point, and four-byte ones are surrogate pairs in UTF-16.
void write_tokens(Writer& w, std::string_view text, const std::vector<Token>& tokens) {
  std::size_t byte = 0, unit = 0;
  const auto advance_to = [&](std::size_t target) {
    if (target < byte) byte = unit = 0;
    for (; byte < target && byte < text.size(); ++byte) {
      const auto b = static_cast<unsigned char>(text[byte]);
      if ((b & 0xC0) != 0x80) unit += b >= 0xF0 ? 2 : 1;
    }
    return unit;
  };
  w.number(static_cast<double>(tokens.size()));
  for (const Token& t : tokens) {
    const std::size_t start = advance_to(t.offset);
    const std::size_t end = advance_to(t.offset + t.length);
    w.number(static_cast<double>(start));
    w.number(static_cast<double>(end - start));
  }
}

Address tokenize_text(const std::string& text, int lexicon) {
  const Lexicon* lex = find_lexicon(lexicon);
  if (!lex) return fail(unknown_lexicon(lexicon));
  auto tokens = tokenize(text, *lex);
  if (!tokens) return fail(tokens.error());
  Writer w(g_out);
  write_tokens(w, text, *tokens);
  return w.finish();
}

Address embed_text(const std::string& text, int lexicon) {
  const Lexicon* lex = find_lexicon(lexicon);
  if (!lex) return fail(unknown_lexicon(lexicon));
  auto e = embed(text, *lex);
  if (!e) return fail(e.error());
  Writer w(g_out);
  write_tokens(w, text, e->tokens);
  w.matrix(e->vectors);
  w.values(e->unknown);
  return w.finish();
}

Address parse_matrix_text(const std::string& text, const std::string& input_name) {
  auto m = parse_matrix(text, input_name);
  if (!m) return fail(m.error());
  Writer w(g_out);
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
  Writer w(g_out);
  w.number(static_cast<double>(lex->size()));
  w.number(static_cast<double>(lex->dims()));
  for (const std::string& word : lex->words()) w.values(*lex->find(word));
  return w.finish();
}

std::string examples(const std::string& lang) { return joined(example_sentences(lang)); }

// --- the fast float32 path ---------------------------------------------------------------------

// Float buffers of their own, kept between calls: q, k, v (then the custom mask's bytes) in,
// the output (then the weights) out. api.js copies Float32Arrays straight into them.
std::vector<float> g_fast_in;
std::vector<float> g_fast_out;
FastWorkspace g_fast_workspace;

Address fast_input(std::size_t floats) {
  if (g_fast_in.size() < floats) g_fast_in.resize(floats);
  return reinterpret_cast<Address>(g_fast_in.data());
}

// The output's address (n·d_v floats, then n·m weights when materialising), or 0 on error.
Address fast_run(std::size_t n, std::size_t m, std::size_t d, std::size_t d_v, int scaling,
                 double temperature, int mask, bool materialize) {
  const auto scale_kind = static_cast<Scaling>(scaling);
  if (auto e = check_temperature(scale_kind, temperature)) return fail(*e);
  FastProblem p;
  p.n = n, p.m = m, p.d = d, p.d_v = d_v;
  p.q = g_fast_in.data();
  p.k = p.q + n * d;
  p.v = p.k + m * d;
  p.scale = static_cast<float>(1 / scale_divisor(scale_kind, d, temperature));
  p.mask = static_cast<FastMask>(mask);
  p.custom = reinterpret_cast<const std::uint8_t*>(p.v + m * d_v);
  if (auto e = check_fast_problem(p)) return fail(*e);
  g_fast_out.resize(n * d_v + (materialize ? n * m : 0));
  float* out = g_fast_out.data();
  if (auto e = fast_attention(p, out, materialize ? out + n * d_v : nullptr, g_fast_workspace)) {
    return fail(*e);
  }
  return reinterpret_cast<Address>(out);
}

// --- limits and diagnostics --------------------------------------------------------------------

Address limits() {
  Writer w(g_out);
  w.values(std::initializer_list<double>{
      Limits::max_tokens, Limits::max_dim, Limits::max_cells, Limits::max_heads,
      Limits::max_text_bytes, Limits::max_embedding_bytes, Limits::max_words});
  return w.finish();
}

// The core's own size check, so that api.js can refuse a matrix too large to copy into the
// heap with the same message the core would give.
Address check_matrix_size(std::size_t rows, std::size_t cols, const std::string& input_name) {
  if (auto e = check_size(rows, cols, input_name)) return fail(*e);
  Writer w(g_out);
  w.number(0);
  return w.finish();
}

// The heap's size and the bytes malloc has handed out (dlmalloc's mallinfo), for leak tests.
Address memory_stats() {
  const struct mallinfo info = mallinfo();
  Writer w(g_out);
  w.number(static_cast<double>(emscripten_get_heap_size()));
  w.number(static_cast<double>(info.uordblks));
  return w.finish();
}

}  // namespace
}  // namespace attn::wasm

// attention() is called on every change the reader makes, so it is a plain wasm export
// (Module._attn_attention) rather than an Embind function: Embind's invoker without eval
// (-sDYNAMIC_EXECUTION=0) builds an argument array and a closure on every call.
extern "C" EMSCRIPTEN_KEEPALIVE std::uintptr_t attn_attention(int similarity, int scaling,
                                                               double temperature, int mask,
                                                               int normalization) {
  return attn::wasm::attention_steps(similarity, scaling, temperature, mask, normalization);
}

EMSCRIPTEN_BINDINGS(attention_engine) {
  using namespace attn::wasm;
  using emscripten::function;
  function("inputBuffer", &input_buffer);
  function("lastError", &last_error);
  function("explainCell", &explain_cell_of);
  function("explainOutput", &explain_output_of);
  function("difference", &difference_of);
  function("multiHead", &multi_head_steps);
  function("explainProjection", &explain_projection_of);
  function("entropyByDk", &entropy_by_dk_of);
  function("project2d", &project_2d_of);
  function("tokenize", &tokenize_text);
  function("embed", &embed_text);
  function("parseMatrix", &parse_matrix_text);
  function("parseEmbeddings", &parse_embeddings_text);
  function("freeLexicon", &free_lexicon);
  function("lexiconFeatures", &lexicon_features);
  function("lexiconWords", &lexicon_words);
  function("lexiconVectors", &lexicon_vectors);
  function("exampleSentences", &examples);
  function("limits", &limits);
  function("checkSize", &check_matrix_size);
  function("memoryStats", &memory_stats);
  function("fastInput", &fast_input);
  function("fastRun", &fast_run);
}
