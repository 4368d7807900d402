// A GPT-2-family model's file, read into the decoder (decoder.hpp): token and learned position
// embeddings, pre-LayerNorm blocks of causal multi-head attention and a GELU MLP, a final
// LayerNorm, and the unembedding (tied to the token embedding unless the file has its own
// lm_head). The weights keep the GPT-2 names and layout of Hugging Face's files, with or without
// the "transformer." prefix:
//   wte.weight (vocab, C)   wpe.weight (ctx, C)   ln_f.weight, ln_f.bias (C)   [lm_head.weight
//   (vocab, C)] h.N.ln_1.weight/bias (C)      h.N.attn.c_attn.weight (C, 3C), .bias (3C)   [Conv1D:
//   x · W + b] h.N.attn.c_proj.weight (C, C), .bias (C)      h.N.ln_2.weight/bias (C)
//   h.N.mlp.c_fc.weight (C, 4C), .bias (4C)       h.N.mlp.c_proj.weight (4C, C), .bias (C)
// c_attn's output columns are Q, then K, then V; head h owns columns h·d … (h+1)·d − 1 of each
// (d = C / heads). Attention: softmax(Q_h K_hᵀ / √d) over the keys at or before each query.
// LayerNorm: (x − mean) / √(var + 1e-5) · weight + bias, var the mean square (not n − 1).
// GELU: GPT-2's tanh form, 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
//
// The head count is not in the shapes: it is `heads` when given, else the metadata's "n_head",
// else C / 64 (GPT-2's head size). load_gpt2() checks every tensor's presence, shape and values
// before it keeps one, and names the tensor and the shape it expected (input "model").
#pragma once

#include <cstddef>

#include "common.hpp"
#include "decoder.hpp"
#include "safetensors.hpp"

namespace attn {

// `read` false checks every tensor's presence and shape but reads none (a header read alone, by
// read_safetensors_header): the config it gives is the one a full load would.
Result<Decoder> load_gpt2(const SafeTensors& file, std::size_t heads = 0, bool read = true);

}  // namespace attn
