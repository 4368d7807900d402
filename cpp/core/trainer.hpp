// A trainer: one tiny transformer (transformer.hpp), one task (tasks.hpp), AdamW
// (optimizer.hpp), all from one seed, so the same config gives the same run step for step on
// every platform.
//
// Data: the held-out sequences are drawn once at creation from their own stream of the seed, and
// a training draw equal to one of them is drawn again (up to 64 times), so held-out accuracy is
// measured on sequences the model never trained on. Only a held-out set that covers nearly every
// sequence a task has (a tiny task with a large set) could let one through.
//
// Memory: create() allocates every buffer; step() allocates nothing, and evaluate() and probe()
// only what they return.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "attention.hpp"
#include "optimizer.hpp"
#include "tasks.hpp"
#include "transformer.hpp"

namespace attn {

struct TrainerLimits {
  static constexpr std::size_t max_batch = 64;
  static constexpr std::size_t max_held_out = 1024;
};

struct TrainerConfig {
  TransformerConfig model;  // vocab and seq_len 0 take the task's
  TaskConfig task;
  OptimizerConfig optimizer;
  std::size_t batch = 32;      // sequences per step
  std::size_t held_out = 256;  // sequences evaluate() measures on
  std::uint64_t seed = 1;
};

// Scores are means over the held-out sequences of attention weights (0 … 1).
struct Evaluation {
  double loss = 0;               // mean cross-entropy per target position, in nats
  double accuracy = 0;           // fraction of target positions whose most likely token is right
  double sequence_accuracy = 0;  // fraction of sequences with every target right
  // Per head (layers, heads): the weight the task's pattern gets, averaged over target positions
  // (for induction: layer 0 is scored on the previous-token pattern over positions 1 … seq_len − 1,
  // later layers on prefix matching).
  std::vector<double> head_scores;
  double score = 0;  // the best head's: induction's prefix-matching score is the best of layers ≥ 1
  double previous_token_score = 0;  // induction: the best head of layer 0; otherwise 0
};

// One head's attention on one sequence of n tokens, as the forward pass computed it.
struct HeadProbe {
  Matrix queries;  // (n, d_head)
  Matrix keys;     // (n, d_head)
  Matrix values;   // (n, d_head)
  Matrix scores;   // (n, n) q_i · k_j, unscaled and unmasked (the explainer's first step)
  Matrix weights;  // (n, n) causal softmax of scores / √d_head; 0 above the diagonal
  Matrix output;   // (n, d_head) weights · values; 0 if the head is ablated
};

struct LayerProbe {
  Matrix input;                  // (n, d_model) the residual stream entering the layer
  std::vector<HeadProbe> heads;  // (heads)
  Matrix output;                 // (n, d_model) the stream after the layer
};

struct Probe {
  std::vector<LayerProbe> layers;
  Matrix probs;                // (n, vocab) next-token probabilities at each position
  std::vector<int> predicted;  // (n) the most likely next token at each position
};

class Trainer {
 public:
  Trainer() = default;

  // Errors name the field: those of task_info(), check_transformer_config() (with the task's
  // vocab and seq_len filled in), check_optimizer_config(); "vocab" or "seqLen" smaller than the
  // task needs; "layers" below the task's minimum; "batch", "heldOut" out of range.
  static Result<Trainer> create(const TrainerConfig& config);

  // One AdamW step on a fresh batch. Returns the batch's loss before the update. A loss or a
  // gradient that is not finite (a learning rate too high for the model, or loaded weights whose
  // products overflow float32) leaves the weights as they were, so the model on screen stays the
  // last sound one, and diverged() says what happened.
  double step();
  std::size_t steps() const { return optimizer_.steps(); }  // updates applied
  // Why the last step() did not update the weights (not_finite, input "loss"), or nullopt.
  const std::optional<Error>& diverged() const { return diverged_; }

  // Loss, accuracy and head scores on the held-out sequences, with the current ablation.
  Evaluation evaluate();

  // Every layer's and head's steps on `tokens` (1 … seq_len tokens, each below vocab), with the
  // current ablation. Errors: empty_input or too_large (input "tokens"), a token out of range
  // (bad_argument, input "tokens", col = its index).
  Result<Probe> probe(const std::vector<int>& tokens);

  // Zeroes (or restores) one head's output in every later forward pass; errors name "layer" or
  // "head" when out of range.
  std::optional<Error> set_ablated(std::size_t layer, std::size_t head, bool ablated);

  // Replaces every parameter (a loaded model's); the optimizer's moments start again from zero.
  // Errors (input "weights"): another count than the model has (shape_mismatch), a NaN or ±∞
  // (not_finite, col = its index).
  std::optional<Error> set_parameters(const std::vector<float>& params);

  const TrainerConfig& config() const { return config_; }  // vocab and seq_len filled in
  const TaskInfo& task() const { return task_; }
  const Transformer<float>& model() const { return model_; }
  const std::vector<int>& held_out_tokens() const { return held_tokens_; }    // (held_out, len)
  const std::vector<int>& held_out_targets() const { return held_targets_; }  // (held_out, len)

 private:
  TrainerConfig config_;
  TaskInfo task_;
  Transformer<float> model_;
  AdamW optimizer_;
  Rng data_rng_{0};
  std::vector<int> batch_tokens_, batch_targets_;  // (batch, seq_len)
  std::vector<int> held_tokens_, held_targets_;    // (held_out, seq_len)
  std::vector<std::uint64_t> held_hashes_;         // sorted
  std::optional<Error> diverged_;
};

// The explainer's steps for one probed head: attention() of its queries, keys and values with the
// causal mask and √d_head scaling, in double. Its weights and output are the probe's to 1e-5.
Result<AttentionSteps> head_steps(const HeadProbe& head);

}  // namespace attn
