// The language model module's fixed-size results as records: each record's field names, one
// string, beside the function that gives its values in that order, and a static_assert that holds
// the two to the same count. attn_layouts() gives every record's names, and api/model.js reads
// each record by them (record() there): a field added here is read there by its name, never by a
// position kept by hand on both sides. A result may hold several records one after another (plan:
// config, then plan).
#pragma once

#include <array>
#include <cstddef>

#include "lm/head_patterns.hpp"
#include "lm/language_model.hpp"

namespace attn::wasm {

constexpr std::size_t field_count(const char* names) {
  std::size_t n = 1;
  for (; *names; ++names) n += *names == ' ';
  return n;
}

// The model's shape, as a header alone plans it and as an opened model has it.
constexpr char kConfigFields[] = "vocab context width layers heads tied";
inline std::array<double, 6> config_values(const DecoderConfig& c) {
  return {double(c.vocab),  double(c.context), double(c.width),
          double(c.layers), double(c.heads),   c.tied ? 1.0 : 0.0};
}
static_assert(field_count(kConfigFields) == 6);

// After the config, plan(): the model's weights as it keeps them, the memory an open takes (the
// file held while the weights are made from it) and what the heap can still give.
constexpr char kPlanFields[] = "weightBytes needBytes freeBytes";
inline std::array<double, 3> plan_values(const ModelPlan& p, double need, double free) {
  return {double(p.weight_bytes), need, free};
}
static_assert(field_count(kPlanFields) == 3);

// After the config, an opened model's: the token that starts a text, the longest run it takes.
constexpr char kInfoFields[] = "bos window";
inline std::array<double, 2> info_values(int bos, std::size_t window) {
  return {double(bos), double(window)};
}
static_assert(field_count(kInfoFields) == 2);

// head(): the sizes of the arrays that follow (Q, K, V: tokens × size; the weights: tokens²).
constexpr char kHeadFields[] = "tokens size";
inline std::array<double, 2> head_values(std::size_t tokens, std::size_t size) {
  return {double(tokens), double(size)};
}
static_assert(field_count(kHeadFields) == 2);

// survey(): what was measured, before a head_scores record a head, layer by layer.
constexpr char kSurveyFields[] =
    "layers heads length sequences lossFirst lossSecond lossBlind clearScore";
inline std::array<double, 8> survey_values(const HeadSurvey& s) {
  return {double(s.layers), double(s.heads), double(s.length), double(s.sequences),
          s.loss_first,     s.loss_second,   s.loss_blind,     kClearPattern};
}
static_assert(field_count(kSurveyFields) == 8);

// One head of a survey: its best pattern (an index into attn_names' patterns) and whether that
// score names it (kClearPattern); its score for each pattern follows, in attn_names' order.
constexpr char kHeadScoresFields[] = "best clear";
inline std::array<double, 2> head_scores_values(const PatternScores& p) {
  return {double(p.best()), p.clear() ? 1.0 : 0.0};
}
static_assert(field_count(kHeadScoresFields) == 2);

// Every record above, by the name api/model.js knows it by.
constexpr const char* kRecordLayouts[][2] = {
    {"config", kConfigFields}, {"plan", kPlanFields},     {"info", kInfoFields},
    {"head", kHeadFields},     {"survey", kSurveyFields}, {"headScores", kHeadScoresFields}};

}  // namespace attn::wasm
