// What the conversion files share, and the functions the Embind table (bindings.cpp) names.
// Each function converts its inputs, calls the core and writes the result out: no math.
//
// Matrices come in through the input buffer and results go out through the output buffer, the
// buffers both modules share (boundary.hpp, stream.hpp); a function returns the byte address of
// its result, or 0 when the core returned an error, which attn_error() then gives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "attention.hpp"
#include "boundary.hpp"
#include "common.hpp"
#include "stream.hpp"

namespace attn::wasm {

// --- convert_common.cpp: limits, enum names, memory ------------------------------------------

std::string enum_names();
Address limits();
Address check_matrix_size(std::size_t rows, std::size_t cols, const std::string& input_name);
Address memory_stats();

// --- convert_steps.cpp: attention(), its explanations, the difference ------------------------

// The enums arrive as their index (api/ maps the option strings, named by enum_names()).
// A custom mask follows the matrices in the input buffer.
AttentionConfig attention_config(int similarity, int scaling, double temperature, int mask,
                                 int normalization, Reader& in);
// One head's steps in the steps layout (stream.hpp), as multiHead() writes each head.
void write_steps(Writer& w, const AttentionSteps& s);
Address attention_steps(int similarity, int scaling, double temperature, int mask,
                        int normalization);
Address explain_cell_of(int similarity, int scaling, double temperature, int mask,
                        int normalization, std::size_t i, std::size_t j);
Address explain_output_of(int similarity, int scaling, double temperature, int mask,
                          int normalization, std::size_t i, std::size_t t);
Address trace_row_of(int similarity, int scaling, double temperature, int mask, int normalization,
                     std::size_t i);
Address difference_of();
// Gives back attention()'s buffers for the row stats and the mask (release_own_buffers).
void release_step_buffers();

// --- convert_multihead.cpp: multi-head, its sweeps, the 2-D picture --------------------------

Address multi_head_steps(int heads, int d_k, int d_v, int projection, double seed, int similarity,
                         int scaling, double temperature, int mask, int normalization);
Address explain_projection_of(int heads, int d_k, int d_v, int projection, double seed,
                              int similarity, int scaling, double temperature, int mask,
                              int normalization, int kind, int head, std::size_t i, std::size_t j);
Address entropy_by_dk_of(int heads, int head, double seed, int similarity, int mask);
Address project_2d_of();

// --- convert_text.cpp: tokens, embeddings, parsing, lexicons ---------------------------------

Address tokenize_text(const std::string& text, int lexicon);
Address embed_text(const std::string& text, int lexicon);
Address parse_matrix_text(const std::string& text, const std::string& input_name);
int parse_embeddings_text(const std::string& text);
Address load_vectors(const std::string& bytes);
Address nearest_words_of(const std::string& word, int lexicon, std::size_t k);
Address word_similarity_of(const std::string& a, const std::string& b, int lexicon);
bool free_lexicon(int id);
std::string lexicon_features(int id);
std::string lexicon_words(int id);
Address lexicon_vectors(int id);
std::string examples(const std::string& lang);
// The built-in lexicons. The id of each is minus its index (0, −1, …); loaded ones count up from 1.
enum class BuiltinLexicon { builtin, fruit };

// --- convert_fast.cpp: the fast float32 path -------------------------------------------------

Address fast_input(std::size_t floats);
void release_fast_buffers();  // its buffers and workspace, given back (release_own_buffers)
Address fast_run(std::size_t q_rows, std::size_t q_cols, std::size_t k_rows, std::size_t k_cols,
                 std::size_t v_rows, std::size_t v_cols, std::size_t mask_entries, int scaling,
                 double temperature, int mask, bool materialize);

}  // namespace attn::wasm
