#include "tasks.hpp"

#include <algorithm>

#include "transformer_config.hpp"

namespace attn {

namespace {

// The painting: groups of three elements and the word that fits each group. Element g·3 + k is
// member k of group g; query word g is token kElements + g.
constexpr std::size_t kGroups = 5, kPerGroup = 3, kElements = kGroups * kPerGroup;
const char* const kElementNames[kElements] = {
    "bird",     "kite",   "butterfly",  // flying
    "mountain", "tree",   "tower",      // tall
    "flower",   "ribbon", "rainbow",    // colourful
    "person",   "dog",    "horse",      // walking
    "sun",      "moon",   "lamp",       // shining
};
const char* const kQueryNames[kGroups] = {"flying", "tall", "colourful", "walking", "shining"};

std::size_t below(Rng& rng, std::size_t n) { return static_cast<std::size_t>(rng.next_u64() % n); }

// The first k entries of a random permutation of 0 … n − 1 (Fisher–Yates, stopped early).
void choose(Rng& rng, std::size_t n, std::size_t k, std::size_t* out) {
  std::size_t pool[TransformerLimits::max_vocab];
  for (std::size_t i = 0; i < n; ++i) pool[i] = i;
  for (std::size_t i = 0; i < k; ++i) {
    std::swap(pool[i], pool[i + below(rng, n - i)]);
    out[i] = pool[i];
  }
}

Error field_error(const char* field, const std::string& message) {
  return make_error(ErrorCode::bad_argument, field, -1, -1, std::string(field) + ": " + message);
}

std::string range_text(std::size_t lo, std::size_t hi) {
  return "from " + std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace

Result<TaskInfo> task_info(const TaskConfig& c) {
  TaskInfo info;
  const std::size_t max_half = TransformerLimits::max_seq_len / 2;
  std::size_t lo = 2, hi = max_half, default_length = 5;
  switch (c.kind) {
    case TaskKind::find_match:
      info.name = "find_match";
      info.description =
          "Find the match: which element of the painting fits the query word (flying → bird).";
      lo = 2, hi = kGroups, default_length = 4;
      break;
    case TaskKind::copy:
      info.name = "copy";
      info.description = "Copy: after the bar, repeat the digits in the same order.";
      break;
    case TaskKind::reverse:
      info.name = "reverse";
      info.description = "Reverse: after the bar, write the digits backwards.";
      break;
    case TaskKind::sort:
      info.name = "sort";
      info.description = "Sort: after the bar, write the digits from smallest to largest.";
      default_length = 6;
      break;
    case TaskKind::induction:
      info.name = "induction";
      info.description =
          "Induction: symbols repeat; predict each one's successor from the first time round.";
      default_length = 8;
      lo = 3;  // two symbols shifted by one would leave nothing to predict
      info.min_layers = 2;
      break;
    default:
      return field_error("task",
                         "unknown task; it must be find_match, copy, reverse, sort or "
                         "induction.");
  }
  info.length = c.length ? c.length : default_length;
  if (info.length < lo || info.length > hi)
    return field_error("length", std::to_string(info.length) + " for " + info.name +
                                     "; it must be " + range_text(lo, hi) + ".");
  switch (c.kind) {
    case TaskKind::find_match:
      info.symbols = kElements;
      info.vocab = kElements + kGroups;
      info.seq_len = info.length + 1;
      return info;
    case TaskKind::induction:
      info.symbols = c.symbols ? c.symbols : 16;
      // Distinct symbols in the first copy and the filler, so a token's earlier occurrence is
      // unique.
      if (info.symbols < info.length + info.length / 2 ||
          info.symbols > TransformerLimits::max_vocab)
        return field_error(
            "symbols", std::to_string(info.symbols) + " for induction of length " +
                           std::to_string(info.length) + "; it must be " +
                           range_text(info.length + info.length / 2, TransformerLimits::max_vocab) +
                           ".");
      info.vocab = info.symbols;
      break;
    default:
      info.symbols = c.symbols ? c.symbols : (c.kind == TaskKind::sort ? 3 : 10);
      if (info.symbols < 2 || info.symbols > 10)
        return field_error("symbols", std::to_string(info.symbols) + " digits; it must be " +
                                          range_text(2, 10) + ".");
      info.vocab = info.symbols + 1;  // the digits and the bar
      break;
  }
  info.seq_len = 2 * info.length;
  return info;
}

std::vector<std::string> task_token_names(const TaskConfig& c) {
  const auto info = task_info(c);
  std::vector<std::string> names;
  if (!info) return names;
  if (c.kind == TaskKind::find_match) {
    names.assign(kElementNames, kElementNames + kElements);
    names.insert(names.end(), kQueryNames, kQueryNames + kGroups);
  } else if (c.kind == TaskKind::induction) {
    for (std::size_t i = 0; i < info->symbols; ++i)  // A … Z, then a … z, then 0 … 11
      names.push_back(i < 26   ? std::string(1, static_cast<char>('A' + i))
                      : i < 52 ? std::string(1, static_cast<char>('a' + (i - 26)))
                               : std::to_string(i - 52));
  } else {
    for (std::size_t i = 0; i < info->symbols; ++i) names.push_back(std::to_string(i));
    names.emplace_back("|");
  }
  return names;
}

void generate_sequence(const TaskConfig& c, Rng& rng, int* tokens, int* targets) {
  const TaskInfo info = task_info(c).value();
  const std::size_t n = info.length;
  for (std::size_t t = 0; t < info.seq_len; ++t) targets[t] = -1;
  std::size_t picked[TransformerLimits::max_vocab];
  switch (c.kind) {
    case TaskKind::find_match: {
      choose(rng, kGroups, n, picked);  // the painting's groups, in the order they are shown
      for (std::size_t i = 0; i < n; ++i)
        tokens[i] = static_cast<int>(picked[i] * kPerGroup + below(rng, kPerGroup));
      const std::size_t asked = below(rng, n);
      tokens[n] = static_cast<int>(kElements + picked[asked]);
      targets[n] = tokens[asked];
      return;
    }
    case TaskKind::induction: {
      // The repeat starts `shift` places late, after symbols seen nowhere else: with a fixed
      // offset, a head could find "the token after my earlier copy" by position alone and no
      // induction circuit would need to form.
      const std::size_t shift = below(rng, n / 2 + 1);
      choose(rng, info.symbols, n + shift, picked);
      for (std::size_t i = 0; i < n; ++i) tokens[i] = static_cast<int>(picked[i]);
      for (std::size_t i = 0; i < shift; ++i) tokens[n + i] = static_cast<int>(picked[n + i]);
      for (std::size_t i = 0; i + shift < n; ++i) tokens[n + shift + i] = tokens[i];
      for (std::size_t i = 0; i + 1 + shift < n; ++i) targets[n + shift + i] = tokens[i + 1];
      return;
    }
    default: {
      int digits[TransformerLimits::max_seq_len / 2];
      for (std::size_t i = 0; i < n; ++i) digits[i] = static_cast<int>(below(rng, info.symbols));
      int answer[TransformerLimits::max_seq_len / 2];
      for (std::size_t i = 0; i < n; ++i)
        answer[i] = c.kind == TaskKind::reverse ? digits[n - 1 - i] : digits[i];
      if (c.kind == TaskKind::sort) std::sort(answer, answer + n);
      for (std::size_t i = 0; i < n; ++i) tokens[i] = digits[i];
      tokens[n] = static_cast<int>(info.symbols);  // the bar
      for (std::size_t i = 0; i + 1 < n; ++i) tokens[n + 1 + i] = answer[i];
      for (std::size_t i = 0; i < n; ++i) targets[n + i] = answer[i];
      return;
    }
  }
}

double pattern_weight(const TaskConfig& c, const int* tokens, const int* targets, std::size_t t,
                      const float* weights) {
  const TaskInfo info = task_info(c).value();
  const std::size_t n = info.length;
  switch (c.kind) {
    case TaskKind::copy:
      return weights[t - n];
    case TaskKind::reverse:
      return weights[2 * n - 1 - t];
    case TaskKind::induction: {
      std::size_t j = 0;  // the earlier copy of the token at t: unique, the symbols are distinct
      while (tokens[j] != tokens[t]) ++j;
      return weights[j + 1];
    }
    default: {
      // find_match: the one element equal to the answer; sort: every digit equal to it.
      double sum = 0;
      for (std::size_t j = 0; j < n; ++j)
        if (tokens[j] == targets[t]) sum += weights[j];
      return sum;
    }
  }
}

double previous_token_weight(std::size_t t, const float* weights) {
  return t ? weights[t - 1] : 0.0;
}

}  // namespace attn
