// The trainer module's bindings: plain wasm exports on trainer handles, and the conversions they
// need. No math: every number comes from the core's Trainer (trainer.hpp, model_io.hpp).
//
// Numbers cross the boundary the engine's way, through the buffers both modules share
// (boundary.hpp, stream.hpp): the API (api/trainer.js) writes a call's numbers into the input
// buffer with api/matrices.js, and a binding writes its result into the output buffer,
// [length, fields…], text among them (Writer::text), which the API copies out with one slice
// before the next call. A binding that fails returns 0, and attn_error() then says why.
#include <emscripten/em_macros.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "enum_names.hpp"
#include "model_io.hpp"
#include "sizes.hpp"
#include "trainer.hpp"

namespace attn::wasm {
namespace {

std::vector<std::uint8_t> g_bytes;  // a saved model on its way in, or out
// Handles, never reused: a disposed trainer's id stays dead, so a stale handle in JS cannot
// reach a later trainer.
std::map<int, std::unique_ptr<Trainer>> g_trainers;
int g_next_id = 1;

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

// The config as it crosses the boundary: both directions list the fields in this one order,
// which api/trainer-config.js's CONFIG_FIELDS repeats. Enums travel as their index (attn_names()).
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

}  // namespace

// A saved model is read as soon as it is copied in, and one made by save() is copied out before
// the next call: neither is kept once a large call is over.
void release_own_buffers() { g_bytes = std::vector<std::uint8_t>(); }

}  // namespace attn::wasm

using namespace attn;
using namespace attn::wasm;

extern "C" {

// Room for a saved model of `size` bytes: its byte address, or 0 (and attn_error()) when no saved
// model has that size, so that a buffer too large to be one is never copied into the heap.
// `size` comes as a double, checked before it is a size_t (sizes.hpp): as a 32-bit size_t, 4 GiB +
// 100 bytes would pass as 100.
EMSCRIPTEN_KEEPALIVE Address attn_bytes(double size) {
  begin_call();
  const std::size_t n = size_of_number(size).value_or(max_saved_model_bytes() + 1);
  if (auto e = check_saved_size(n)) return fail(*e);
  g_bytes.resize(n);
  return reinterpret_cast<Address>(g_bytes.data());
}

// The enums' option strings (enum_names.hpp): "task find_match copy …", "mlp none relu gelu". The
// tasks' names are the core's own (task_info).
EMSCRIPTEN_KEEPALIVE Address attn_names() {
  begin_call();
  constexpr TaskKind kTasks[] = {TaskKind::find_match, TaskKind::copy, TaskKind::reverse,
                                 TaskKind::sort, TaskKind::induction};
  Name tasks[std::size(kTasks)];
  for (std::size_t k = 0; k < std::size(kTasks); ++k) {
    TaskConfig t;
    t.kind = kTasks[k];
    tasks[k] = named(t.kind, task_info(t)->name);
  }
  constexpr Name kMlp[] = {named(Mlp::none, "none"), named(Mlp::relu, "relu"),
                           named(Mlp::gelu, "gelu")};
  const EnumNames enums[] = {names_of("task", tasks), names_of("mlp", kMlp)};
  Writer w = output();
  w.text(enum_lines(enums));
  return w.finish();
}

// The default config, in the config's order: what the API fills in for a field not given.
EMSCRIPTEN_KEEPALIVE Address attn_defaults() {
  begin_call();
  Writer w = output();
  write_config(w, TrainerConfig{});
  return w.finish();
}

// A trainer from the config in the input buffer: its id, or 0.
EMSCRIPTEN_KEEPALIVE int attn_create() {
  begin_call();
  Reader in = input();
  auto t = Trainer::create(read_config(in));
  if (!t) return static_cast<int>(fail(t.error()));
  return keep(std::move(t).value());
}

// The saved model in the byte buffer (`size` bytes) as a trainer: in place of trainer `id`, with
// its optimizer, batch, held-out count and seed; or, for id 0, a new trainer with those of the
// config in the input buffer. Its id, or 0.
EMSCRIPTEN_KEEPALIVE int attn_load(int id, double size) {
  begin_call();
  TrainerConfig base;
  if (id != 0) {
    const Trainer* t = find(id);
    if (!t) return 0;
    base = t->config();
  } else {
    Reader in = input();
    base = read_config(in);
  }
  auto saved =
      load_model(g_bytes.data(), std::min(size_of_number(size).value_or(0), g_bytes.size()));
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
  begin_call();
  const Trainer* t = find(id);
  if (!t) return 0;
  std::string text = std::string(t->task().name) + "\n" + t->task().description;
  for (const std::string& s : task_token_names(t->config().task)) text += "\n" + s;
  TrainerConfig c = t->config();
  c.task.length = t->task().length;  // the task's defaults, as in effect
  c.task.symbols = t->task().symbols;
  Writer w = output();
  write_config(w, c);
  w.number(static_cast<double>(t->model().params.size()));
  w.number(static_cast<double>(t->steps()));
  w.text(text);
  return w.finish();
}

// `count` steps: [steps, diverged, mean loss, losses…]. It stops at a step that diverged (its loss
// is the last one written, and attn_error() says what happened), since the steps after it would
// start from the same weights and most likely diverge too. The mean is over the applied steps
// (NaN if none was applied), so no caller averages the losses itself.
EMSCRIPTEN_KEEPALIVE Address attn_train(int id, std::size_t count) {
  begin_call();
  Trainer* t = find(id);
  if (!t) return 0;
  Writer w = output();
  w.reserve(3 + count);
  double* head =
      w.take(3);  // steps, diverged and the mean, filled in below; reserved, so it stays put
  head[1] = 0;
  double sum = 0;
  std::size_t applied = 0;
  for (std::size_t s = 0; s < count; ++s) {
    const double loss = t->step();
    w.number(loss);
    if (t->diverged()) {
      fail(*t->diverged());  // for attn_error()
      head[1] = 1;
      break;
    }
    sum += loss;
    ++applied;
  }
  head[0] = static_cast<double>(t->steps());
  head[2] =
      applied > 0 ? sum / static_cast<double>(applied) : std::numeric_limits<double>::quiet_NaN();
  return w.finish();
}

// [loss, accuracy, sequenceAccuracy, score, previousTokenScore, headScores (layers·heads)…].
EMSCRIPTEN_KEEPALIVE Address attn_evaluate(int id) {
  begin_call();
  Trainer* t = find(id);
  if (!t) return 0;
  const Evaluation e = t->evaluate();
  Writer w = output();
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
  begin_call();
  Trainer* t = find(id);
  if (!t) return 0;
  if (n > input_size())  // more tokens than were written: never read past the buffer
    return fail(make_error(ErrorCode::bad_argument, "tokens", -1, -1,
                           "tokens: " + std::to_string(n) + " announced, " +
                               std::to_string(input_size()) + " written."));
  Reader in = input();
  std::vector<int> tokens(n);
  for (int& token : tokens) token = static_cast<int>(in.number());
  auto p = t->probe(tokens);
  if (!p) return fail(p.error());
  Writer w = output();
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
  begin_call();
  Trainer* t = find(id);
  if (!t) return 0;
  if (auto e = t->set_ablated(layer, head, ablated != 0)) return static_cast<int>(fail(*e));
  return 1;
}

// The model as bytes, in the byte buffer: [address, size].
EMSCRIPTEN_KEEPALIVE Address attn_save(int id) {
  begin_call();
  const Trainer* t = find(id);
  if (!t) return 0;
  g_bytes = save_model(*t);
  Writer w = output();
  w.number(static_cast<double>(reinterpret_cast<Address>(g_bytes.data())));
  w.number(static_cast<double>(g_bytes.size()));
  return w.finish();
}

// [heap size, bytes allocated, live trainers]: what the memory tests compare.
EMSCRIPTEN_KEEPALIVE Address attn_memory() {
  begin_call();
  Writer w = output();
  write_heap(w);
  w.number(static_cast<double>(g_trainers.size()));
  return w.finish();
}

}  // extern "C"
