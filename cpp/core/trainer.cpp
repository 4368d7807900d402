#include "trainer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn {

namespace {

std::uint64_t hash_sequence(const int* tokens, std::size_t len) {
  return fnv1a64(reinterpret_cast<const char*>(tokens), len * sizeof(int));
}

Error range_error(const char* field, std::size_t value, std::size_t lo, std::size_t hi) {
  return make_error(value < lo ? ErrorCode::bad_argument : ErrorCode::too_large, field, -1, -1,
                    std::string(field) + ": " + std::to_string(value) + "; it must be from " +
                        std::to_string(lo) + " to " + std::to_string(hi) + ".");
}

std::size_t argmax(const float* row, std::size_t n) {
  std::size_t best = 0;
  for (std::size_t t = 1; t < n; ++t)
    if (row[t] > row[best]) best = t;
  return best;
}

}  // namespace

Result<Trainer> Trainer::create(const TrainerConfig& config) {
  auto info = task_info(config.task);
  if (!info) return info.error();
  TrainerConfig c = config;
  if (c.model.vocab == 0) c.model.vocab = info->vocab;
  if (c.model.seq_len == 0) c.model.seq_len = info->seq_len;
  if (auto e = check_transformer_config(c.model)) return *e;
  if (c.model.vocab < info->vocab)
    return make_error(ErrorCode::bad_dimension, "vocab", -1, -1,
                      "vocab: " + std::to_string(c.model.vocab) + " tokens, but " + info->name +
                          " uses " + std::to_string(info->vocab) + ".");
  if (c.model.seq_len < info->seq_len)
    return make_error(ErrorCode::bad_dimension, "seqLen", -1, -1,
                      "seqLen: " + std::to_string(c.model.seq_len) + " positions, but " +
                          info->name + " sequences have " + std::to_string(info->seq_len) + ".");
  if (c.model.layers < info->min_layers)
    return make_error(ErrorCode::bad_dimension, "layers", -1, -1,
                      "layers: " + std::string(info->name) + " needs at least " +
                          std::to_string(info->min_layers) +
                          " layers (one finds the previous token, the next matches on it).");
  if (auto e = check_optimizer_config(c.optimizer)) return *e;
  if (c.batch < 1 || c.batch > TrainerLimits::max_batch)
    return range_error("batch", c.batch, 1, TrainerLimits::max_batch);
  if (c.held_out < 1 || c.held_out > TrainerLimits::max_held_out)
    return range_error("heldOut", c.held_out, 1, TrainerLimits::max_held_out);

  Trainer t;
  t.config_ = c;
  t.task_ = *info;
  t.model_ = make_transformer<float>(c.model, c.batch);
  // Three streams of one seed: changing how many numbers one of them draws (a longer held-out
  // set, say) leaves the others as they were.
  Rng root(c.seed);
  Rng init_rng(root.next_u64());
  t.data_rng_ = Rng(root.next_u64());
  Rng held_rng(root.next_u64());
  init_parameters(t.model_, init_rng);
  t.optimizer_ = AdamW(c.optimizer, parameter_layout(c.model), t.model_.params.size());

  const std::size_t len = info->seq_len;
  t.batch_tokens_.assign(c.batch * len, 0);
  t.batch_targets_.assign(c.batch * len, -1);
  t.held_tokens_.assign(c.held_out * len, 0);
  t.held_targets_.assign(c.held_out * len, -1);
  t.held_hashes_.resize(c.held_out);
  for (std::size_t s = 0; s < c.held_out; ++s) {
    generate_sequence(c.task, held_rng, &t.held_tokens_[s * len], &t.held_targets_[s * len]);
    t.held_hashes_[s] = hash_sequence(&t.held_tokens_[s * len], len);
  }
  std::sort(t.held_hashes_.begin(), t.held_hashes_.end());
  return t;
}

double Trainer::step() {
  const std::size_t len = task_.seq_len;
  for (std::size_t s = 0; s < config_.batch; ++s) {
    int* tokens = &batch_tokens_[s * len];
    for (int tries = 0; tries < 64; ++tries) {
      generate_sequence(config_.task, data_rng_, tokens, &batch_targets_[s * len]);
      if (!std::binary_search(held_hashes_.begin(), held_hashes_.end(), hash_sequence(tokens, len)))
        break;
    }
  }
  const double loss =
      forward(model_, batch_tokens_.data(), batch_targets_.data(), config_.batch, len);
  diverged_.reset();
  if (!std::isfinite(loss)) {
    diverged_ =
        make_error(ErrorCode::not_finite, "loss", -1, -1,
                   "The loss is " + number_text(loss) + " after " + std::to_string(steps()) +
                       " steps: the model's numbers overflowed. Lower the learning "
                       "rate and start again.");
    return loss;
  }
  backward(model_);
  const double norm = optimizer_.step(model_.params.data(), model_.grads.data());
  if (!std::isfinite(norm))
    diverged_ = make_error(ErrorCode::not_finite, "loss", -1, -1,
                           "The gradient overflowed after " + std::to_string(steps()) +
                               " steps. Lower the learning rate and start again.");
  return loss;
}

Evaluation Trainer::evaluate() {
  const TransformerConfig& mc = config_.model;
  const std::size_t len = task_.seq_len, heads = mc.heads, layers = mc.layers;
  const bool induction = config_.task.kind == TaskKind::induction;
  Evaluation ev;
  ev.head_scores.assign(layers * heads, 0.0);
  double loss = 0, pattern_count = 0, previous_count = 0;
  std::size_t right = 0, targets = 0, sequences_right = 0;
  for (std::size_t first = 0; first < config_.held_out; first += config_.batch) {
    const std::size_t batch = std::min(config_.batch, config_.held_out - first);
    const int* tokens = &held_tokens_[first * len];
    const int* want = &held_targets_[first * len];
    loss += forward(model_, tokens, want, batch, len) * static_cast<double>(model_.target_count);
    for (std::size_t b = 0; b < batch; ++b) {
      bool all = true;
      for (std::size_t i = 0; i < len; ++i) {
        const std::size_t r = b * len + i;
        if (i > 0 && induction) {
          for (std::size_t h = 0; h < heads; ++h)
            ev.head_scores[h] += previous_token_weight(i, weight_row(model_, 0, b, h, i));
          ++previous_count;
        }
        if (want[r] < 0) continue;
        ++targets;
        const bool ok = static_cast<int>(argmax(&model_.probs[r * mc.vocab], mc.vocab)) == want[r];
        right += ok;
        all = all && ok;
        for (std::size_t l = induction ? 1 : 0; l < layers; ++l)
          for (std::size_t h = 0; h < heads; ++h)
            ev.head_scores[l * heads + h] += pattern_weight(
                config_.task, tokens + b * len, want + b * len, i, weight_row(model_, l, b, h, i));
        ++pattern_count;
      }
      sequences_right += all;
    }
  }
  if (targets == 0) return ev;  // no held-out sequence asks anything: nothing to score
  for (std::size_t l = 0; l < layers; ++l)
    for (std::size_t h = 0; h < heads; ++h) {
      double& s = ev.head_scores[l * heads + h];
      s /= (induction && l == 0) ? previous_count : pattern_count;
      if (induction && l == 0)
        ev.previous_token_score = std::max(ev.previous_token_score, s);
      else
        ev.score = std::max(ev.score, s);
    }
  ev.loss = loss / static_cast<double>(targets);
  ev.accuracy = static_cast<double>(right) / static_cast<double>(targets);
  ev.sequence_accuracy =
      static_cast<double>(sequences_right) / static_cast<double>(config_.held_out);
  return ev;
}

Result<Probe> Trainer::probe(const std::vector<int>& tokens) {
  const TransformerConfig& mc = config_.model;
  const std::size_t n = tokens.size(), d = mc.d_model, heads = mc.heads, dh = d / heads;
  if (n == 0)
    return make_error(ErrorCode::empty_input, "tokens", -1, -1,
                      "tokens: there are none; give the model at least one.");
  if (n > mc.seq_len)
    return make_error(ErrorCode::too_large, "tokens", -1, -1,
                      "tokens: " + std::to_string(n) + " of them, but the model reads at most " +
                          std::to_string(mc.seq_len) + ".");
  for (std::size_t i = 0; i < n; ++i)
    if (tokens[i] < 0 || static_cast<std::size_t>(tokens[i]) >= mc.vocab)
      return make_error(ErrorCode::bad_argument, "tokens", -1, static_cast<long>(i),
                        "tokens: token " + std::to_string(i + 1) + " is " +
                            std::to_string(tokens[i]) + "; it must be from 0 to " +
                            std::to_string(mc.vocab - 1) + ".");
  forward(model_, tokens.data(), nullptr, 1, n);

  auto copy = [](const float* src, std::size_t rows, std::size_t cols, std::size_t stride) {
    Matrix out = Matrix::from_shape({rows, cols});
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) out(i, j) = src[i * stride + j];
    return out;
  };
  Probe probe;
  for (std::size_t l = 0; l < mc.layers; ++l) {
    const LayerActivations<float>& a = model_.layers[l];
    LayerProbe lp;
    lp.input = copy(a.x.data(), n, d, d);
    const float* after = l + 1 < mc.layers ? model_.layers[l + 1].x.data() : model_.x_final.data();
    lp.output = copy(after, n, d, d);
    for (std::size_t h = 0; h < heads; ++h) {
      HeadProbe hp;
      hp.queries = copy(a.q.data() + h * dh, n, dh, d);
      hp.keys = copy(a.k.data() + h * dh, n, dh, d);
      hp.values = copy(a.v.data() + h * dh, n, dh, d);
      hp.output = copy(a.z.data() + h * dh, n, dh, d);
      hp.weights = copy(weight_row(model_, l, 0, h, 0), n, n, n);
      hp.scores = Matrix::from_shape({n, n});
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          double s = 0;
          for (std::size_t t = 0; t < dh; ++t) s += hp.queries(i, t) * hp.keys(j, t);
          hp.scores(i, j) = s;
        }
      lp.heads.push_back(std::move(hp));
    }
    probe.layers.push_back(std::move(lp));
  }
  probe.probs = copy(model_.probs.data(), n, mc.vocab, mc.vocab);
  for (std::size_t i = 0; i < n; ++i)
    probe.predicted.push_back(static_cast<int>(argmax(&model_.probs[i * mc.vocab], mc.vocab)));
  return probe;
}

std::optional<Error> Trainer::set_ablated(std::size_t layer, std::size_t head, bool ablated) {
  const TransformerConfig& mc = config_.model;
  if (layer >= mc.layers) return range_error("layer", layer, 0, mc.layers - 1);
  if (head >= mc.heads) return range_error("head", head, 0, mc.heads - 1);
  model_.ablated[layer * mc.heads + head] = ablated ? 1 : 0;
  return std::nullopt;
}

std::optional<Error> Trainer::set_parameters(const std::vector<float>& params) {
  if (params.size() != model_.params.size())
    return make_error(ErrorCode::shape_mismatch, "weights", -1, -1,
                      "weights: " + std::to_string(params.size()) +
                          " numbers, but this model has " + std::to_string(model_.params.size()) +
                          ".");
  for (std::size_t i = 0; i < params.size(); ++i)
    if (!std::isfinite(params[i]))
      return make_error(ErrorCode::not_finite, "weights", -1, static_cast<long>(i),
                        "weights: number " + std::to_string(i + 1) + " is " +
                            number_text(params[i]) + "; every weight must be a finite number.");
  model_.params = params;
  optimizer_ = AdamW(config_.optimizer, parameter_layout(config_.model), params.size());
  return std::nullopt;
}

Result<AttentionSteps> head_steps(const HeadProbe& head) {
  AttentionConfig config;
  config.mask = MaskKind::causal;
  return attention(head.queries, head.keys, head.values, config);
}

}  // namespace attn
