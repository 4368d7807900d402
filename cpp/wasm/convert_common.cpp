// The engine's limits, the names of its enums, its memory, and its own buffers given back.
#include <malloc.h>

#include <algorithm>
#include <initializer_list>
#include <string>

#include "convert.hpp"
#include "enum_names.hpp"
#include "fast_attention.hpp"
#include "multihead.hpp"

namespace attn::wasm {
namespace {

// The engine's enums, as constant tables, so that the engine builds none (enum_names.hpp).
constexpr Name kSimilarity[] = {named(Similarity::dot, "dot"), named(Similarity::cosine, "cosine")};
constexpr Name kScaling[] = {named(Scaling::sqrt_dk, "sqrt"), named(Scaling::none, "none"),
                             named(Scaling::temperature, "temperature")};
// A custom mask has no option string (it is passed as a matrix): "custom" names its index.
constexpr Name kMask[] = {named(MaskKind::none, "none"), named(MaskKind::causal, "causal"),
                          named(MaskKind::custom, "custom")};
constexpr Name kFastMask[] = {named(FastMask::none, "none"), named(FastMask::causal, "causal"),
                              named(FastMask::custom, "custom")};
constexpr Name kNormalization[] = {named(Normalization::softmax, "softmax"),
                                   named(Normalization::sum, "sum")};
constexpr Name kProjection[] = {named(Projection::identity, "identity"),
                                named(Projection::random, "random"),
                                named(Projection::given, "given")};
constexpr Name kProjectionKind[] = {
    named(ProjectionKind::queries, "q"), named(ProjectionKind::keys, "k"),
    named(ProjectionKind::values, "v"), named(ProjectionKind::output, "final")};
constexpr Name kProblem[] = {named(RowProblem::none, "none"),
                             named(RowProblem::fully_masked, "fully_masked"),
                             named(RowProblem::zero_sum, "zero_sum"),
                             named(RowProblem::negative_weights, "negative_weights")};
constexpr Name kLexicon[] = {named(BuiltinLexicon::builtin, "builtin"),
                             named(BuiltinLexicon::fruit, "fruit")};

constexpr EnumNames kEnums[] = {names_of("similarity", kSimilarity),
                                names_of("scale", kScaling),
                                names_of("mask", kMask),
                                names_of("fastMask", kFastMask),
                                names_of("normalization", kNormalization),
                                names_of("projection", kProjection),
                                names_of("projectionKind", kProjectionKind),
                                names_of("problem", kProblem),
                                names_of("lexicon", kLexicon)};

}  // namespace

// The most bytes malloc had handed out when a call ended (before its buffers were given back):
// what a call needed, which the cost view measures even though a large call keeps nothing.
namespace {
std::size_t g_peak = 0;

void note_peak() {
  const struct mallinfo info = mallinfo();
  g_peak = std::max(g_peak, static_cast<std::size_t>(info.uordblks));
}
}  // namespace

// The engine's buffers beyond the shared ones, given back by attn_release() (boundary.hpp).
void release_own_buffers() {
  note_peak();
  release_step_buffers();
  release_fast_buffers();
}

// Read once when the engine loads (api/engine.js).
std::string enum_names() { return enum_lines(kEnums); }

Address limits() {
  Writer w = output();
  w.values(std::initializer_list<double>{Limits::max_tokens, Limits::max_dim, Limits::max_cells,
                                         Limits::max_heads, Limits::max_text_bytes,
                                         Limits::max_embedding_bytes, Limits::max_words,
                                         Limits::max_vector_file_bytes, Limits::max_neighbours});
  return w.finish();
}

// The core's own size check, so that api/ can refuse a matrix too large to copy into the heap
// with the same message the core would give.
Address check_matrix_size(std::size_t rows, std::size_t cols, const std::string& input_name) {
  if (auto e = check_size(rows, cols, input_name)) return fail(*e);
  Writer w = output();
  w.number(0);
  return w.finish();
}

// The heap's size, the bytes malloc has handed out (for leak tests) and the most it had out when
// a call ended.
Address memory_stats() {
  note_peak();
  Writer w = output();
  write_heap(w);
  w.number(static_cast<double>(g_peak));
  return w.finish();
}

}  // namespace attn::wasm
