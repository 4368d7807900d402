// The language model module's bindings: plain wasm exports on model handles, as the trainer's are
// (trainer_bindings.cpp). No math: every number comes from the core (language_model.hpp,
// head_patterns.hpp). A model file or a text comes in through the byte buffer (attn_bytes); a
// result goes out through the output buffer, [length, fields…], text among them; a binding that
// fails returns 0, and attn_error() then says why; each export begins by forgetting the last error.
//
// Every size, count and index comes in as a double and is checked (sizes.hpp) before it becomes a
// size_t: wasm32's size_t is 32 bits, and a larger JS number passed as one would wrap (4 GiB + 16
// bytes asked for would reserve 16).
#include <emscripten/em_macros.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "lm/head_patterns.hpp"
#include "lm/language_model.hpp"
#include "lm/safetensors.hpp"
#include "model_records.hpp"
#include "sizes.hpp"

namespace attn::wasm {
namespace {

// Room kept free beside a model for its runs, the survey's logits and the page's own buffers.
constexpr std::size_t kHeadroom = std::size_t{64} << 20;
constexpr std::size_t kMaxPredictions = 50;  // as api/model.js says

// What a heap of at most emscripten_get_heap_max() bytes can still give.
std::size_t heap_free() {
  const std::size_t used = static_cast<std::size_t>(mallinfo().uordblks);
  const std::size_t most = emscripten_get_heap_max();
  return most > used ? most - used : 0;
}

// A model and what its last run left: every layer's queries and each head's rows of weights (row
// i over keys 0 … i), grown a row at a time by extend. The keys and values are the model's cache
// (LanguageModel::cache), read where they are.
struct Session {
  LanguageModel lm;
  std::vector<LmToken> tokens;
  std::size_t dropped = 0;
  std::vector<std::vector<float>> q;                     // per layer: (t, H·d)
  std::vector<std::vector<std::vector<float>>> weights;  // per layer and head: rows, packed
};

std::vector<std::uint8_t> g_bytes;
// The files that come beside a model file, by kind: tokenizer.json, vocab.json, merges.txt,
// config.json (ModelFiles' order).
std::array<std::string, 4> g_beside;
std::map<int, std::unique_ptr<Session>> g_models;  // never reused ids, as the trainer's
int g_next_id = 1;

Session* find(int id) {
  const auto it = g_models.find(id);
  if (it != g_models.end()) return it->second.get();
  fail(make_error(ErrorCode::bad_argument, "model", -1, -1,
                  "This model was disposed; open it again."));
  return nullptr;
}

// The first `size` bytes of the byte buffer (never more than it holds).
std::string_view bytes(double size) {
  const std::size_t n = size_of_number(size).value_or(0);
  return {reinterpret_cast<const char*>(g_bytes.data()), std::min(n, g_bytes.size())};
}

// A count or an index from the API: a whole number from 0 to `limit`, or `limit` + 1 (which
// every caller refuses as out of range) when it is not one.
std::size_t count_of(double x, std::size_t limit) {
  return size_of_number(x, limit).value_or(limit + 1);
}

// A token as the page shows it: its text, or for a piece of a character its bytes in hex, ⟨E4⟩.
void write_token(Writer& w, const LmToken& t) {
  static const char* hex = "0123456789ABCDEF";
  std::string shown = t.text;
  if (t.partial) {
    shown.clear();
    for (unsigned char b : t.text) shown += std::string("⟨") + hex[b >> 4] + hex[b & 15] + "⟩";
  }
  w.number(t.id);
  w.number(t.partial ? 1 : 0);
  w.number(t.bits);
  w.text(shown);
}

// Adds a run's steps to the session: its new rows of Q and weights.
void keep_steps(Session& s, const LmRun& run) {
  const DecoderConfig& c = s.lm.config();
  const std::size_t n = run.tokens.size(), t = run.steps.first + n;
  s.tokens.insert(s.tokens.end(), run.tokens.begin(), run.tokens.end());
  s.q.resize(c.layers);
  s.weights.resize(c.layers, std::vector<std::vector<float>>(c.heads));
  for (std::size_t l = 0; l < c.layers; ++l) {
    const LayerSteps& steps = run.steps.layers[l];
    s.q[l].insert(s.q[l].end(), steps.q.begin(), steps.q.end());
    for (std::size_t h = 0; h < c.heads; ++h)
      for (std::size_t i = 0; i < n; ++i) {
        const float* row = steps.weights.data() + (h * n + i) * t;
        s.weights[l][h].insert(s.weights[l][h].end(), row, row + run.steps.first + i + 1);
      }
  }
}

// [dropped, tokens, (id, partial, bits, text)…, predictions, (probability, id, partial, 0, text)…]
Address write_run(Session& s, std::size_t predictions) {
  Writer w = output();
  w.number(static_cast<double>(s.dropped));
  w.number(static_cast<double>(s.tokens.size()));
  for (const LmToken& t : s.tokens) write_token(w, t);
  const std::vector<Prediction> p = s.lm.predict(predictions);
  w.number(static_cast<double>(p.size()));
  for (const Prediction& x : p) {
    w.number(x.probability);
    write_token(w, LmToken{x.id, x.text, x.partial});
  }
  return w.finish();
}

}  // namespace

void release_own_buffers() {
  g_bytes = std::vector<std::uint8_t>();
  g_beside = {};
}

ModelFiles staged(std::string_view model) {
  return {model, g_beside[0], g_beside[1], g_beside[2], g_beside[3]};
}

extern "C" {

// Room for `size` bytes of a model file or a text: its address (never 0, even for no bytes), or 0
// when the heap cannot give it.
EMSCRIPTEN_KEEPALIVE Address attn_bytes(double size) {
  begin_call();
  const std::size_t held = g_bytes.size(), free = heap_free();
  Result<std::size_t> n = checked_bytes(size, std::min<std::uint64_t>(kMaxSize, held + free),
                                        "model", "the file", "this page can still hold");
  if (!n) return fail(n.error());
  g_bytes.resize(std::max<std::size_t>(*n, 1));  // one byte at least, so that its address is not 0
  return reinterpret_cast<Address>(g_bytes.data());
}

// Room for a file that comes beside the model (`kind` as g_beside), or 0.
EMSCRIPTEN_KEEPALIVE Address attn_beside(double kind, double size) {
  begin_call();
  const std::size_t k = count_of(kind, g_beside.size() - 1);
  if (k >= g_beside.size())
    return fail(
        make_error(ErrorCode::bad_argument, "model", -1, -1,
                   "model: there is no kind " + number_text(kind) + " of file beside the model."));
  const std::size_t held = g_beside[k].size(), free = heap_free();
  Result<std::size_t> n =
      checked_bytes(size, std::min<std::uint64_t>(kMaxSize, held + free), "model",
                    "a tokenizer or config file", "this page can still hold");
  if (!n) return fail(n.error());
  g_beside[k].assign(*n, '\0');  // a string's data() is never 0, even when it is empty
  return reinterpret_cast<Address>(g_beside[k].data());
}

// The byte buffer holding a model file's first `size` bytes (its length and header), the file
// `file_size` bytes in all, and the files beside the model: its config and plan records, or 0 with
// why not.
EMSCRIPTEN_KEEPALIVE Address attn_plan(double size, double file_size) {
  begin_call();
  Result<std::size_t> whole =
      checked_bytes(file_size, std::min<std::uint64_t>(kMaxSize, emscripten_get_heap_max()),
                    "model", "the file", "this page can hold");
  if (!whole) {
    release_own_buffers();
    return fail(whole.error());
  }
  Result<ModelPlan> plan = LanguageModel::plan(staged(bytes(size)), *whole);
  release_own_buffers();
  if (!plan) return fail(plan.error());
  // The file is held whole while its weights are made from it, and then let go.
  const double need = file_size + static_cast<double>(plan->weight_bytes) + kHeadroom;
  Writer w = output();
  w.values(config_values(plan->config));
  w.values(plan_values(*plan, need, static_cast<double>(heap_free())));
  return w.finish();
}

// How many of a model file's first bytes plan() needs, from the first of them in the byte buffer
// (`size` bytes): safetensors_head_size.
EMSCRIPTEN_KEEPALIVE double attn_head_size(double size) {
  begin_call();
  const double n = static_cast<double>(safetensors_head_size(bytes(size)));
  release_own_buffers();
  return n;
}

// Every record's fields (model_records.hpp): [records, (name, "field field …")…].
EMSCRIPTEN_KEEPALIVE Address attn_layouts() {
  begin_call();
  Writer w = output();
  w.number(static_cast<double>(std::size(kRecordLayouts)));
  for (const auto& [name, fields] : kRecordLayouts) {
    w.text(name);
    w.text(fields);
  }
  return w.finish();
}

// The patterns a survey scores, in the order of its numbers: "previous first same induction".
EMSCRIPTEN_KEEPALIVE Address attn_names() {
  begin_call();
  std::string names;
  for (std::size_t p = 0; p < kHeadPatterns; ++p)
    names += (p ? " " : "") + std::string(to_string(static_cast<HeadPattern>(p)));
  Writer w = output();
  w.text(names);
  return w.finish();
}

// The model file in the byte buffer, with the files beside the model staged: its id, or 0.
EMSCRIPTEN_KEEPALIVE int attn_open(double size) {
  begin_call();
  Result<LanguageModel> lm = LanguageModel::open(staged(bytes(size)));
  release_own_buffers();
  if (!lm) return static_cast<int>(fail(lm.error()));
  const int id = g_next_id++;
  g_models.emplace(id, std::make_unique<Session>(Session{std::move(lm).value(), {}, 0, {}, {}}));
  return id;
}

EMSCRIPTEN_KEEPALIVE void attn_dispose(int id) {
  begin_call();
  g_models.erase(id);
}

// The opened model: its config and info records.
EMSCRIPTEN_KEEPALIVE Address attn_info(int id) {
  begin_call();
  const Session* s = find(id);
  if (!s) return 0;
  Writer w = output();
  w.values(config_values(s->lm.config()));
  w.values(info_values(s->lm.bos(), s->lm.window()));
  return w.finish();
}

// The text in the byte buffer (`size` bytes, UTF-8), run from an empty cache: write_run's result.
EMSCRIPTEN_KEEPALIVE Address attn_run(int id, double size, double predictions) {
  begin_call();
  Session* s = find(id);
  if (!s) {
    release_own_buffers();
    return 0;
  }
  Result<LmRun> run = s->lm.run(bytes(size));
  release_own_buffers();
  // A refused run leaves no reading behind: the cache may be empty, and head() must say so.
  *s = Session{std::move(s->lm), {}, run ? run->dropped : 0, {}, {}};
  if (!run) return fail(run.error());
  keep_steps(*s, *run);
  return write_run(*s, std::min(count_of(predictions, kMaxPredictions), kMaxPredictions));
}

// One more token against the cache (generation): write_run's result, grown by that token.
EMSCRIPTEN_KEEPALIVE Address attn_extend(int id, double token, double predictions) {
  begin_call();
  Session* s = find(id);
  if (!s) return 0;
  const std::size_t vocab = s->lm.config().vocab, t = count_of(token, vocab);
  if (t >= vocab)
    return fail(make_error(ErrorCode::bad_argument, "token", -1, -1,
                           "token: there is no token " + number_text(token) +
                               " in a vocabulary of " + std::to_string(vocab) + "."));
  Result<LmRun> run = s->lm.extend(static_cast<int>(t));
  if (!run) return fail(run.error());
  keep_steps(*s, *run);
  return write_run(*s, std::min(count_of(predictions, kMaxPredictions), kMaxPredictions));
}

// Head `head` of layer `layer` over the tokens so far: its head record (t tokens, d the head's
// size), then Q (t·d), K (t·d), V (t·d) and the weights (t·t, zero above the diagonal).
EMSCRIPTEN_KEEPALIVE Address attn_head(int id, double layer_number, double head_number) {
  begin_call();
  Session* s = find(id);
  if (!s) return 0;
  const DecoderConfig& c = s->lm.config();
  const std::size_t layer = count_of(layer_number, c.layers), head = count_of(head_number, c.heads);
  if (s->tokens.empty() || s->lm.cache().size() < s->tokens.size() || layer >= c.layers ||
      head >= c.heads)
    return fail(make_error(ErrorCode::bad_argument, "head", -1, -1,
                           "head: there is no head " + number_text(head_number) + " of layer " +
                               number_text(layer_number) + " with a run to show."));
  const std::size_t t = s->tokens.size(), d = c.head_size(), g = c.kv_head_of(head);
  Writer w = output();
  w.reserve(2 + 3 * t * d + t * t);
  w.values(head_values(t, d));
  const KvCache& cache = s->lm.cache();
  // Q's rows are the query heads', K's and V's the key/value heads': head `head` reads head g.
  const struct {
    const std::vector<float>& rows;
    std::size_t width, at;
  } parts[] = {{s->q[layer], c.q_width(), head * d},
               {cache.keys(layer), c.kv_width(), g * d},
               {cache.values(layer), c.kv_width(), g * d}};
  for (const auto& m : parts)
    for (std::size_t i = 0; i < t; ++i)
      for (std::size_t j = 0; j < d; ++j) w.number(m.rows[i * m.width + m.at + j]);
  const std::vector<float>& rows = s->weights[layer][head];
  for (std::size_t i = 0, at = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j) w.number(j <= i ? rows[at++] : 0.0);
  return w.finish();
}

// The heads measured (head_patterns.hpp): its survey record, then a head_scores record a head,
// layer by layer.
EMSCRIPTEN_KEEPALIVE Address attn_survey(int id, double length, double sequences, double seed) {
  begin_call();
  Session* s = find(id);
  if (!s) return 0;
  const std::optional<std::size_t> n = size_of_number(length), k = size_of_number(sequences);
  const std::optional<std::size_t> from = size_of_number(seed, std::uint64_t{1} << 53);
  if (!n || !k || !from)
    return fail(make_error(ErrorCode::bad_argument, "survey", -1, -1,
                           "survey: its length, sequences and seed must be whole numbers from 0."));
  Result<HeadSurvey> survey = survey_heads(s->lm.model(), s->lm.bos(), *n, *k, *from);
  if (!survey) return fail(survey.error());
  Writer w = output();
  w.values(survey_values(*survey));
  for (const PatternScores& p : survey->scores) {
    w.values(head_scores_values(p));
    w.values(p.score.data(), kHeadPatterns);
  }
  return w.finish();
}

// [heap bytes, allocated bytes, models]
EMSCRIPTEN_KEEPALIVE Address attn_memory() {
  begin_call();
  Writer w = output();
  write_heap(w);
  w.number(static_cast<double>(g_models.size()));
  return w.finish();
}

}  // extern "C"

}  // namespace attn::wasm
