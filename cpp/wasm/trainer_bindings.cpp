// The trainer module's bindings: plain wasm exports on trainer handles, and the conversions they
// need. No math: every number comes from the core's Trainer (trainer.hpp, model_io.hpp).
//
// Numbers cross the boundary as runs of doubles, the engine's way (stream.hpp): the API
// (trainer-api.js) writes a call's numbers into the input buffer, and a binding writes its result
// into the output buffer, [length, fields…], which the API copies out with one slice before the
// next call. Text goes out as (byte address, byte length) pairs of UTF-8 in that result. A
// binding that fails returns 0, and attn_error() then says why.
#include <emscripten/em_macros.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model_io.hpp"
#include "stream.hpp"
#include "trainer.hpp"

namespace {

using namespace attn;
using attn::wasm::Reader;
using attn::wasm::Writer;
using Address = std::uintptr_t;

std::vector<double> g_in;           // the input buffer, grown on request (release_input)
std::vector<std::uint8_t> g_bytes;  // a saved model on its way in, or out
std::vector<double> g_out;          // the output buffer (stream.hpp's Writer)
std::string g_text;                 // the strings of the last result
Error g_error;
// Handles, never reused: a disposed trainer's id stays dead, so a stale handle in JS cannot
// reach a later trainer.
std::map<int, std::unique_ptr<Trainer>> g_trainers;
int g_next_id = 1;

Address fail(Error e) {
  g_error = std::move(e);
  return 0;
}

Trainer* find(int id) {
  const auto it = g_trainers.find(id);
  if (it != g_trainers.end()) return it->second.get();
  fail(make_error(ErrorCode::bad_argument, "trainer", -1, -1,
                  "This trainer was disposed; create a new one."));
  return nullptr;
}

int keep(Trainer t) {
  const int id = g_next_id++;
  g_trainers.emplace(id, std::make_unique<Trainer>(std::move(t)));
  return id;
}

// The input buffer given back after a call that needed it large. A config is 19 numbers and a
// probe at most seqLen ≤ 32 tokens, so anything larger was a request the API should have refused;
// if one gets here all the same, its megabytes do not stay in the heap.
void release_input() {
  constexpr std::size_t kKept = 1024;
  if (g_in.capacity() > kKept) std::vector<double>().swap(g_in);
}

// Appends s to g_text and writes where it lies, as two doubles.
void text(Writer& w, const std::string& s) {
  w.number(static_cast<double>(g_text.size()));  // an offset until finish_text() adds the base
  w.number(static_cast<double>(s.size()));
  g_text += s;
}

// The config as it crosses the boundary: both directions list the fields in this one order,
// which trainer-api.js's CONFIG_FIELDS repeats. Enums travel as their index (attn_names()).
//   task length symbols | vocab seqLen dModel layers heads mlp layerNorm |
//   learningRate beta1 beta2 epsilon weightDecay clip | batch heldOut seed
constexpr std::size_t kConfigFields = 19;

void write_config(Writer& w, const TrainerConfig& c) {
  const double values[kConfigFields] = {static_cast<double>(c.task.kind),
                                        static_cast<double>(c.task.length),
                                        static_cast<double>(c.task.symbols),
                                        static_cast<double>(c.model.vocab),
                                        static_cast<double>(c.model.seq_len),
                                        static_cast<double>(c.model.d_model),
                                        static_cast<double>(c.model.layers),
                                        static_cast<double>(c.model.heads),
                                        static_cast<double>(c.model.mlp),
                                        c.model.layer_norm ? 1.0 : 0.0,
                                        c.optimizer.learning_rate,
                                        c.optimizer.beta1,
                                        c.optimizer.beta2,
                                        c.optimizer.epsilon,
                                        c.optimizer.weight_decay,
                                        c.optimizer.clip,
                                        static_cast<double>(c.batch),
                                        static_cast<double>(c.held_out),
                                        static_cast<double>(c.seed)};
  w.values(values, kConfigFields);
}

// The API has checked that every count is a whole number from 0 to 2³² − 1, the enums are valid
// indices and the seed is a whole number below 2⁵³, so each conversion here is exact.
TrainerConfig read_config(Reader& in) {
  const auto count = [&in] { return static_cast<std::size_t>(in.number()); };
  TrainerConfig c;
  c.task.kind = static_cast<TaskKind>(static_cast<int>(in.number()));
  c.task.length = count();
  c.task.symbols = count();
  c.model.vocab = count();
  c.model.seq_len = count();
  c.model.d_model = count();
  c.model.layers = count();
  c.model.heads = count();
  c.model.mlp = static_cast<Mlp>(static_cast<int>(in.number()));
  c.model.layer_norm = in.number() != 0;
  c.optimizer.learning_rate = in.number();
  c.optimizer.beta1 = in.number();
  c.optimizer.beta2 = in.number();
  c.optimizer.epsilon = in.number();
  c.optimizer.weight_decay = in.number();
  c.optimizer.clip = in.number();
  c.batch = count();
  c.held_out = count();
  c.seed = static_cast<std::uint64_t>(in.number());
  return c;
}

// A result's text offsets become addresses once g_text has stopped growing.
Address finish_text(Writer& w, std::size_t first_pair, std::size_t pairs) {
  const Address at = w.finish();
  double* p = g_out.data() + 1;  // after the length
  for (std::size_t k = 0; k < pairs; ++k)
    p[first_pair + 2 * k] += static_cast<double>(reinterpret_cast<Address>(g_text.data()));
  return at;
}

}  // namespace

extern "C" {

// Room for `count` doubles of input; its byte address.
EMSCRIPTEN_KEEPALIVE Address attn_input(std::size_t count) {
  if (g_in.size() < count) g_in.resize(count);
  return reinterpret_cast<Address>(g_in.data());
}

// Room for a saved model of `size` bytes: its byte address, or 0 (and attn_error()) when no saved
// model has that size, so that a buffer too large to be one is never copied into the heap.
EMSCRIPTEN_KEEPALIVE Address attn_bytes(std::size_t size) {
  if (auto e = check_saved_size(size)) return fail(*e);
  g_bytes.resize(size);
  return reinterpret_cast<Address>(g_bytes.data());
}

// The last error: [row, col, code, input, message], each string an (address, length) pair.
EMSCRIPTEN_KEEPALIVE Address attn_error() {
  g_text.clear();
  Writer w(g_out);
  w.number(static_cast<double>(g_error.row));
  w.number(static_cast<double>(g_error.col));
  text(w, to_string(g_error.code));
  text(w, g_error.input);
  text(w, g_error.message);
  return finish_text(w, 2, 3);
}

// The enums' option strings in enumerator order, one line each: "task find_match copy …".
EMSCRIPTEN_KEEPALIVE Address attn_names() {
  g_text = "task";
  for (const TaskKind k : {TaskKind::find_match, TaskKind::copy, TaskKind::reverse, TaskKind::sort,
                           TaskKind::induction}) {
    TaskConfig t;
    t.kind = k;
    g_text += std::string(" ") + task_info(t)->name;
  }
  g_text += "\nmlp none relu gelu";  // Mlp's order
  Writer w(g_out);
  w.number(static_cast<double>(reinterpret_cast<Address>(g_text.data())));
  w.number(static_cast<double>(g_text.size()));
  return w.finish();
}

// The default config, in the config's order: what the API fills in for a field not given.
EMSCRIPTEN_KEEPALIVE Address attn_defaults() {
  Writer w(g_out);
  write_config(w, TrainerConfig{});
  return w.finish();
}

// A trainer from the config in the input buffer: its id, or 0.
EMSCRIPTEN_KEEPALIVE int attn_create() {
  Reader in(g_in.data());
  auto t = Trainer::create(read_config(in));
  release_input();
  if (!t) return static_cast<int>(fail(t.error()));
  return keep(std::move(t).value());
}

// The saved model in the byte buffer (`size` bytes) as a trainer: in place of trainer `id`, with
// its optimizer, batch, held-out count and seed; or, for id 0, a new trainer with those of the
// config in the input buffer. Its id, or 0.
EMSCRIPTEN_KEEPALIVE int attn_load(int id, std::size_t size) {
  TrainerConfig base;
  if (id != 0) {
    const Trainer* t = find(id);
    if (!t) return 0;
    base = t->config();
  } else {
    Reader in(g_in.data());
    base = read_config(in);
    release_input();
  }
  auto saved = load_model(g_bytes.data(), size);
  g_bytes = std::vector<std::uint8_t>();  // a model can be large: not kept after it is read
  if (!saved) return static_cast<int>(fail(saved.error()));
  auto t = trainer_from_saved(saved.value(), base);
  if (!t) return static_cast<int>(fail(t.error()));
  if (id == 0) return keep(std::move(t).value());
  *g_trainers[id] = std::move(t).value();
  return id;
}

EMSCRIPTEN_KEEPALIVE void attn_dispose(int id) { g_trainers.erase(id); }

// [config… (defaults applied), parameters, steps, text] with text =
// "name\ndescription\ntoken\ntoken…".
EMSCRIPTEN_KEEPALIVE Address attn_info(int id) {
  const Trainer* t = find(id);
  if (!t) return 0;
  g_text = std::string(t->task().name) + "\n" + t->task().description;
  for (const std::string& s : task_token_names(t->config().task)) g_text += "\n" + s;
  TrainerConfig c = t->config();
  c.task.length = t->task().length;  // the task's defaults, as in effect
  c.task.symbols = t->task().symbols;
  Writer w(g_out);
  write_config(w, c);
  w.number(static_cast<double>(t->model().params.size()));
  w.number(static_cast<double>(t->steps()));
  w.number(static_cast<double>(reinterpret_cast<Address>(g_text.data())));
  w.number(static_cast<double>(g_text.size()));
  return w.finish();
}

// `count` steps: [steps, diverged, losses…]. It stops at a step that diverged (its loss is the
// last one written, and attn_error() says what happened), since the steps after it would start
// from the same weights and most likely diverge too.
EMSCRIPTEN_KEEPALIVE Address attn_train(int id, std::size_t count) {
  Trainer* t = find(id);
  if (!t) return 0;
  Writer w(g_out);
  w.number(0);  // g_out[1]: steps, filled in below
  w.number(0);  // g_out[2]: diverged
  w.reserve(count);
  for (std::size_t s = 0; s < count; ++s) {
    w.number(t->step());
    if (t->diverged()) {
      g_error = *t->diverged();
      g_out[2] = 1;
      break;
    }
  }
  g_out[1] = static_cast<double>(t->steps());
  return w.finish();
}

// [loss, accuracy, sequenceAccuracy, score, previousTokenScore, headScores (layers·heads)…].
EMSCRIPTEN_KEEPALIVE Address attn_evaluate(int id) {
  Trainer* t = find(id);
  if (!t) return 0;
  const Evaluation e = t->evaluate();
  Writer w(g_out);
  const double values[] = {e.loss, e.accuracy, e.sequence_accuracy, e.score,
                           e.previous_token_score};
  w.values(values, 5);
  w.values(e.head_scores.data(), e.head_scores.size());
  return w.finish();
}

// The probe of the `n` tokens in the input buffer, as matrices [rows, cols, data…] in this order:
// per layer its input, per head queries, keys, values, scores, weights, output, then the layer's
// output; then probs; then the n predicted tokens.
EMSCRIPTEN_KEEPALIVE Address attn_probe(int id, std::size_t n) {
  Trainer* t = find(id);
  if (!t) return 0;
  if (n > g_in.size())  // more tokens than were written: never read past the buffer
    return fail(make_error(ErrorCode::bad_argument, "tokens", -1, -1,
                           "tokens: " + std::to_string(n) + " announced, " +
                               std::to_string(g_in.size()) + " written."));
  std::vector<int> tokens(n);
  for (std::size_t i = 0; i < n; ++i) tokens[i] = static_cast<int>(g_in[i]);
  release_input();
  auto p = t->probe(tokens);
  if (!p) return fail(p.error());
  Writer w(g_out);
  for (const LayerProbe& layer : p->layers) {
    w.matrix(layer.input);
    for (const HeadProbe& h : layer.heads)
      for (const Matrix* m : {&h.queries, &h.keys, &h.values, &h.scores, &h.weights, &h.output})
        w.matrix(*m);
    w.matrix(layer.output);
  }
  w.matrix(p->probs);
  w.values(p->predicted);
  return w.finish();
}

// 1 if done, 0 (and attn_error()) if the layer or head is out of range.
EMSCRIPTEN_KEEPALIVE int attn_ablate(int id, std::size_t layer, std::size_t head, int ablated) {
  Trainer* t = find(id);
  if (!t) return 0;
  if (auto e = t->set_ablated(layer, head, ablated != 0)) return static_cast<int>(fail(*e));
  return 1;
}

// The model as bytes, in the byte buffer: [address, size].
EMSCRIPTEN_KEEPALIVE Address attn_save(int id) {
  const Trainer* t = find(id);
  if (!t) return 0;
  g_bytes = save_model(*t);
  Writer w(g_out);
  w.number(static_cast<double>(reinterpret_cast<Address>(g_bytes.data())));
  w.number(static_cast<double>(g_bytes.size()));
  return w.finish();
}

// [heap size, bytes allocated, live trainers]: what the memory tests compare.
EMSCRIPTEN_KEEPALIVE Address attn_memory() {
  const struct mallinfo info = mallinfo();
  Writer w(g_out);
  w.number(static_cast<double>(emscripten_get_heap_size()));
  w.number(static_cast<double>(info.uordblks));
  w.number(static_cast<double>(g_trainers.size()));
  return w.finish();
}

}  // extern "C"
