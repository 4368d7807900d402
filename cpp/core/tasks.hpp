// Toy tasks the trainer learns, each generated from the core's Rng so a seed gives the same data
// on every platform, and each with the attention pattern that solves it, so a head can be scored
// on whether that pattern formed.
//
// A sequence is `seq_len` tokens and as many targets: targets[t] is the token the model should
// predict after reading tokens[0..t], or −1 where nothing is asked (the prompt).
//
// find_match  The painting: `length` elements (person, mountain, …), one from each of `length`
//             different groups, then a query word (flying, tall, …) naming one of those groups;
//             the answer is the element of that group that is in the painting. Each group has
//             three elements, so the query's own token does not give the answer: the query has to
//             look for it. seq_len = length + 1; target at the query.
//             Pattern: the query's weight on the answer's position.
// copy        `length` digits, a separator, then the digits again. seq_len = 2·length; targets
//             from the separator on. Pattern: position t on position t − length (a diagonal).
// reverse     The same with the digits reversed. Pattern: position t on 2·length − 1 − t (the
//             anti-diagonal).
// sort        The same with the digits sorted (minGPT's task: by default six digits from 0–2).
//             Pattern: position t's total weight on the digits equal to its answer.
// induction   `length` distinct random symbols, then `shift` (0 … length / 2, random) symbols
//             seen nowhere else, then the first symbols again, as many as fit. In the repeat each
//             symbol's successor is predictable only by finding where the symbol was before and
//             reading what followed it (… A B … A → B). seq_len = 2·length; a target at every
//             repeated symbol but the last. Patterns: layer 0's previous-token head (position t
//             on t − 1, over all t ≥ 1), and later layers' prefix-matching head (position t on
//             the position after the earlier copy of its own token).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "rng.hpp"

namespace attn {

enum class TaskKind { find_match, copy, reverse, sort, induction };

struct TaskConfig {
  TaskKind kind = TaskKind::find_match;
  std::size_t length = 0;   // elements / digits / symbols per sequence; 0 = the task's default
  std::size_t symbols = 0;  // the alphabet: digits 0 … symbols − 1 (copy, reverse: 10; sort: 3),
                            // induction's symbols (16); 0 = that default; find_match has its own
};

struct TaskInfo {
  std::size_t vocab = 0;       // tokens 0 … vocab − 1
  std::size_t seq_len = 0;     // tokens per sequence
  std::size_t length = 0;      // the length in effect (defaults applied)
  std::size_t symbols = 0;     // the alphabet in effect
  std::size_t min_layers = 1;  // induction needs two
  const char* name = "";       // "find_match", "copy", …: stable, for the JS boundary
  std::string description;     // one line for the reader
};

// The task's shape with defaults applied, or an error naming the field ("task", "length",
// "symbols") that is out of range. Allocates nothing unless it fails, since the generators call it
// for every sequence.
Result<TaskInfo> task_info(const TaskConfig& config);

// The words the tokens stand for, for the page: "person", …, "flying", …; "0" … "9", "|"; "A" ….
std::vector<std::string> task_token_names(const TaskConfig& config);

// One sequence: seq_len tokens and targets. `config` must have passed task_info().
void generate_sequence(const TaskConfig& config, Rng& rng, int* tokens, int* targets);

// How much of a head's attention row follows the task's pattern: the weight position t (a target
// position of the sequence `tokens`, `targets`) puts where the pattern says (for induction, the
// prefix-matching one). `weights` is row t of the head's weights (t + 1 entries or more).
double pattern_weight(const TaskConfig& config, const int* tokens, const int* targets,
                      std::size_t t, const float* weights);

// The previous-token pattern on its own: position t's weight on t − 1 (t ≥ 1), for any task.
double previous_token_weight(std::size_t t, const float* weights);

}  // namespace attn
