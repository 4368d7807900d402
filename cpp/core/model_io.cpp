#include "model_io.hpp"

#include <cmath>
#include <cstring>
#include <string>

namespace attn {

namespace {

constexpr char kMagic[4] = {'A', 'P', 'T', 'M'};
constexpr std::size_t kHeaderBytes = 52, kChecksumBytes = 4;

// The largest weight a saved model may hold, in size. Training here never comes near it: weights
// start within ±√(3/dModel), AdamW moves each by about the learning rate (at most 1) per step
// against weight decay, and cross-entropy stops pulling once float32 rounds a probability to 1,
// which logits a few tens apart already do. A weight of a million is a file written or damaged
// by hand. No bound that trained weights respect can keep every forward pass finite (each of
// four layers can multiply the residual stream by dModel²·B² through W_V·W_O, and an MLP more),
// so the trainer's API also refuses results that are not finite; this bound keeps absurd models
// out at the door, with the tensor and the byte named, rather than as NaN later.
constexpr float kMaxSavedWeight = 1e6f;

std::uint32_t fnv1a32(const std::uint8_t* data, std::size_t size) {
  std::uint32_t h = 0x811C9DC5u;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x01000193u;
  }
  return h;
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
}

std::uint32_t get_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

Error at(std::size_t byte, const std::string& what) {
  return make_error(ErrorCode::parse_error, "model", -1, static_cast<long>(byte),
                    "Saved model, byte " + std::to_string(byte) + ": " + what);
}

// Which header field a config error names, by its byte offset.
std::size_t field_offset(const std::string& field) {
  const char* const names[] = {"vocab",     "seqLen", "dModel", "layers",  "heads",  "mlp",
                               "layerNorm", "task",   "length", "symbols", "weights"};
  for (std::size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (field == names[i]) return 8 + 4 * i;
  return 8;
}

}  // namespace

std::vector<std::uint8_t> save_model(const Trainer& trainer) {
  const TrainerConfig& c = trainer.config();
  const TaskInfo& task = trainer.task();
  const std::vector<float>& params = trainer.model().params;
  std::vector<std::uint8_t> out(kMagic, kMagic + 4);
  out.reserve(kHeaderBytes + 4 * params.size() + kChecksumBytes);
  put_u32(out, kModelFormatVersion);
  for (std::size_t x :
       {c.model.vocab, c.model.seq_len, c.model.d_model, c.model.layers, c.model.heads,
        static_cast<std::size_t>(c.model.mlp), static_cast<std::size_t>(c.model.layer_norm ? 1 : 0),
        static_cast<std::size_t>(c.task.kind), task.length, task.symbols, params.size()})
    put_u32(out, static_cast<std::uint32_t>(x));
  for (float w : params) {
    std::uint32_t bits;
    std::memcpy(&bits, &w, 4);
    put_u32(out, bits);
  }
  put_u32(out, fnv1a32(out.data(), out.size()));
  return out;
}

std::size_t max_saved_model_bytes() {
  using L = TransformerLimits;
  TransformerConfig largest;
  largest.vocab = L::max_vocab, largest.seq_len = L::max_seq_len;
  largest.d_model = L::max_d_model, largest.layers = L::max_layers;
  largest.mlp = Mlp::gelu, largest.layer_norm = true;
  const std::vector<TensorInfo> layout = parameter_layout(largest);
  return kHeaderBytes + 4 * (layout.back().offset + layout.back().size()) + kChecksumBytes;
}

std::optional<Error> check_saved_size(std::size_t size) {
  if (size < kHeaderBytes + kChecksumBytes)
    return at(size, "the data ends after " + std::to_string(size) + " bytes; a saved model has " +
                        "at least " + std::to_string(kHeaderBytes + kChecksumBytes) + ".");
  const std::size_t largest = max_saved_model_bytes();
  if (size > largest)
    return at(largest, "the data has " + std::to_string(size) +
                           " bytes; the largest model this build makes has " +
                           std::to_string(largest) + ".");
  return std::nullopt;
}

Result<SavedModel> load_model(const std::uint8_t* data, std::size_t size) {
  if (auto e = check_saved_size(size)) return *e;
  if (std::memcmp(data, kMagic, 4) != 0)
    return at(0, "this is not a saved model (it does not start with \"APTM\").");
  const std::uint32_t version = get_u32(data + 4);
  if (version != kModelFormatVersion)
    return at(4, "format version " + std::to_string(version) + "; this build reads version " +
                     std::to_string(kModelFormatVersion) + ".");
  std::uint32_t field[11];
  for (std::size_t i = 0; i < 11; ++i) field[i] = get_u32(data + 8 + 4 * i);
  SavedModel saved;
  TransformerConfig& m = saved.model;
  m.vocab = field[0], m.seq_len = field[1], m.d_model = field[2], m.layers = field[3];
  m.heads = field[4];
  if (field[5] > 2) return at(28, "mlp is " + std::to_string(field[5]) + "; it must be 0, 1 or 2.");
  m.mlp = static_cast<Mlp>(field[5]);
  if (field[6] > 1)
    return at(32, "layerNorm is " + std::to_string(field[6]) + "; it must be 0 or 1.");
  m.layer_norm = field[6] == 1;
  if (field[7] > 4)
    return at(36, "task is " + std::to_string(field[7]) + "; it must be from 0 to 4.");
  saved.task.kind = static_cast<TaskKind>(field[7]);
  saved.task.length = field[8], saved.task.symbols = field[9];
  if (auto e = check_transformer_config(m)) return at(field_offset(e->input), e->message);
  auto task = task_info(saved.task);
  if (!task) return at(field_offset(task.error().input), task.error().message);
  if (task->vocab > m.vocab || task->seq_len > m.seq_len || task->min_layers > m.layers)
    return at(8, std::string("the model (vocab ") + std::to_string(m.vocab) + ", seqLen " +
                     std::to_string(m.seq_len) + ", " + std::to_string(m.layers) +
                     " layers) cannot run its task " + task->name + ".");

  const std::vector<TensorInfo> layout = parameter_layout(m);
  const std::size_t count = layout.back().offset + layout.back().size();
  if (field[10] != count)
    return at(48, std::to_string(field[10]) + " weights, but this config has " +
                      std::to_string(count) + ".");
  const std::size_t expected = kHeaderBytes + 4 * count + kChecksumBytes;
  if (size != expected)
    return at(std::min(size, expected), "the data has " + std::to_string(size) +
                                            " bytes; this model takes exactly " +
                                            std::to_string(expected) + ".");
  const std::uint32_t checksum = get_u32(data + size - kChecksumBytes);
  if (checksum != fnv1a32(data, size - kChecksumBytes))
    return at(size - kChecksumBytes,
              "the checksum does not match the bytes before it; the model was changed or "
              "damaged after it was saved.");
  saved.params.resize(count);
  for (const TensorInfo& t : layout)
    for (std::size_t i = 0; i < t.size(); ++i) {
      const std::size_t byte = kHeaderBytes + 4 * (t.offset + i);
      const std::uint32_t bits = get_u32(data + byte);
      float w;
      std::memcpy(&w, &bits, 4);
      const std::string which = "entry " + std::to_string(i + 1) + " of " + to_string(t.kind) +
                                (t.layer >= 0 ? " in layer " + std::to_string(t.layer + 1) : "") +
                                " is " + number_text(w);
      if (!std::isfinite(w)) return at(byte, which + "; every weight must be a finite number.");
      if (std::fabs(w) > kMaxSavedWeight)
        return at(byte, which + "; a weight's size must be at most 1000000.");
      saved.params[t.offset + i] = w;
    }
  return saved;
}

Result<Trainer> trainer_from_saved(const SavedModel& saved, const TrainerConfig& base) {
  TrainerConfig c = base;
  c.model = saved.model;
  c.task = saved.task;
  auto trainer = Trainer::create(c);
  if (!trainer) return trainer.error();
  if (auto e = trainer.value().set_parameters(saved.params)) return *e;
  return std::move(trainer).value();
}

}  // namespace attn
