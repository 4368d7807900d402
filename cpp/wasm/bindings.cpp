// The engine's Embind bindings: a table of names, and the conversions they name (convert_*.cpp,
// declared in convert.hpp). No math.
//
// The raw functions bound here are private to the artifact: api/ (bundled into the file appended
// to the Emscripten glue) wraps them into the public createAttentionEngine() API: validation,
// camelCase objects, results copied into JS-owned typed arrays. The input buffer, the last error
// and giving the buffers back are the plain exports the trainer shares (boundary.hpp).
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>

#include <cstdint>

#include "convert.hpp"

// attention() is called on every change the reader makes, so it is a plain wasm export
// (Module._attn_attention) rather than an Embind function: Embind's invoker without eval
// (-sDYNAMIC_EXECUTION=0) builds an argument array and a closure on every call.
extern "C" EMSCRIPTEN_KEEPALIVE std::uintptr_t attn_attention(int similarity, int scaling,
                                                              double temperature, int mask,
                                                              int normalization) {
  return attn::wasm::attention_steps(similarity, scaling, temperature, mask, normalization);
}

EMSCRIPTEN_BINDINGS(attention_engine) {
  using namespace attn::wasm;
  using emscripten::function;
  function("enumNames", &enum_names);
  function("explainCell", &explain_cell_of);
  function("explainOutput", &explain_output_of);
  function("traceRow", &trace_row_of);
  function("difference", &difference_of);
  function("multiHead", &multi_head_steps);
  function("explainProjection", &explain_projection_of);
  function("entropyByDk", &entropy_by_dk_of);
  function("project2d", &project_2d_of);
  function("tokenize", &tokenize_text);
  function("embed", &embed_text);
  function("parseMatrix", &parse_matrix_text);
  function("parseEmbeddings", &parse_embeddings_text);
  function("loadVectors", &load_vectors);
  function("nearestWords", &nearest_words_of);
  function("wordSimilarity", &word_similarity_of);
  function("freeLexicon", &free_lexicon);
  function("lexiconFeatures", &lexicon_features);
  function("lexiconWords", &lexicon_words);
  function("lexiconVectors", &lexicon_vectors);
  function("exampleSentences", &examples);
  function("limits", &limits);
  function("checkSize", &check_matrix_size);
  function("memoryStats", &memory_stats);
  function("fastInput", &fast_input);
  function("fastRun", &fast_run);
}
