// A trained model as bytes: its config, its task and its weights, so that a reader can keep a
// model and load it again (into this build or another: native and wasm read the same bytes).
//
// Layout, version 1, every number little-endian:
//   byte  0  "APTM" (Attention Playground Transformer Model)
//         4  u32 version = 1
//         8  u32 vocab        12  u32 seqLen       16  u32 dModel       20  u32 layers
//        24  u32 heads        28  u32 mlp (0 none, 1 ReLU, 2 GELU)      32  u32 layerNorm (0, 1)
//        36  u32 task (0 find_match, 1 copy, 2 reverse, 3 sort, 4 induction)
//        40  u32 length       44  u32 symbols (the task's, defaults applied)
//        48  u32 the number of weights, which the config determines (parameter_layout's total)
//        52  f32 × that number, in parameter_layout() order
//   end − 4  u32 FNV-1a (32-bit) of every byte before it
//
// Loading checks all of it and names where it fails: ErrorCode::parse_error, input "model",
// col = the byte offset of the field (row −1), and a message that says which field and why. The
// message gives that offset as the layout above does, counted from 0 as a hex dump counts, so
// that "byte 24" is the heads field. Every weight must be finite and at most kMaxSavedWeight in
// size (model_io.cpp says why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "trainer.hpp"

namespace attn {

struct SavedModel {
  TransformerConfig model;
  TaskConfig task;
  std::vector<float> params;  // parameter_layout(model) order
};

constexpr std::uint32_t kModelFormatVersion = 1;

std::vector<std::uint8_t> save_model(const Trainer& trainer);

// The size of the largest model TransformerLimits allow. No saved model is larger, so a larger
// buffer can be refused by its size alone, before it is copied anywhere.
std::size_t max_saved_model_bytes();

// The error load_model gives a buffer of `size` bytes for its size alone (fewer bytes than a
// header, or more than the largest model), or nullopt.
std::optional<Error> check_saved_size(std::size_t size);

Result<SavedModel> load_model(const std::uint8_t* data, std::size_t size);

// A trainer holding the saved model: `base` gives what the bytes do not (optimizer, batch,
// held-out count, seed); its model and task are replaced by the saved ones.
Result<Trainer> trainer_from_saved(const SavedModel& saved, const TrainerConfig& base);

}  // namespace attn
