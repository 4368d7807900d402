#include "transformer_config.hpp"

namespace attn {

namespace {

std::optional<Error> check_range(std::size_t value, std::size_t max, const char* field,
                                 const char* what) {
  if (value >= 1 && value <= max) return std::nullopt;
  return make_error(value == 0 ? ErrorCode::bad_dimension : ErrorCode::too_large, field, -1, -1,
                    std::string(field) + ": " + std::to_string(value) + " " + what +
                        "; it must be from 1 to " + std::to_string(max) + ".");
}

}  // namespace

std::optional<Error> check_transformer_config(const TransformerConfig& c) {
  using L = TransformerLimits;
  if (auto e = check_range(c.vocab, L::max_vocab, "vocab", "tokens")) return e;
  if (auto e = check_range(c.seq_len, L::max_seq_len, "seqLen", "positions")) return e;
  if (auto e = check_range(c.d_model, L::max_d_model, "dModel", "dimensions")) return e;
  if (auto e = check_range(c.layers, L::max_layers, "layers", "layers")) return e;
  if (auto e = check_range(c.heads, L::max_heads, "heads", "heads")) return e;
  if (c.d_model % c.heads != 0)
    return make_error(ErrorCode::bad_dimension, "heads", -1, -1,
                      "heads: " + std::to_string(c.heads) +
                          " heads do not divide dModel = " + std::to_string(c.d_model) +
                          "; each head gets dModel / heads dimensions.");
  return std::nullopt;
}

std::vector<TensorInfo> parameter_layout(const TransformerConfig& c) {
  std::vector<TensorInfo> out;
  std::size_t offset = 0;
  const std::size_t d = c.d_model, hidden = 4 * d;
  auto add = [&](TensorKind kind, long layer, std::size_t rows, std::size_t cols, bool decay) {
    out.push_back(TensorInfo{kind, layer, offset, rows, cols, decay});
    offset += rows * cols;
  };
  add(TensorKind::token_embedding, -1, c.vocab, d, false);
  add(TensorKind::position_embedding, -1, c.seq_len, d, false);
  for (std::size_t l = 0; l < c.layers; ++l) {
    const long layer = static_cast<long>(l);
    if (c.layer_norm) {
      add(TensorKind::ln_attention_gain, layer, 1, d, false);
      add(TensorKind::ln_attention_bias, layer, 1, d, false);
    }
    add(TensorKind::w_q, layer, d, d, true);
    add(TensorKind::w_k, layer, d, d, true);
    add(TensorKind::w_v, layer, d, d, true);
    add(TensorKind::w_o, layer, d, d, true);
    if (c.mlp != Mlp::none) {
      if (c.layer_norm) {
        add(TensorKind::ln_mlp_gain, layer, 1, d, false);
        add(TensorKind::ln_mlp_bias, layer, 1, d, false);
      }
      add(TensorKind::mlp_in, layer, d, hidden, true);
      add(TensorKind::mlp_in_bias, layer, 1, hidden, false);
      add(TensorKind::mlp_out, layer, hidden, d, true);
      add(TensorKind::mlp_out_bias, layer, 1, d, false);
    }
  }
  if (c.layer_norm) {
    add(TensorKind::ln_final_gain, -1, 1, d, false);
    add(TensorKind::ln_final_bias, -1, 1, d, false);
  }
  add(TensorKind::unembedding, -1, d, c.vocab, true);
  return out;
}

ParameterOffsets parameter_offsets(const TransformerConfig& c) {
  ParameterOffsets o;
  const std::size_t none = ParameterOffsets::absent;
  for (auto& l : o.layer)
    l = LayerOffsets{none, none, none, none, none, none, none, none, none, none, none, none};
  std::size_t total = 0;
  for (const TensorInfo& t : parameter_layout(c)) {
    LayerOffsets* l = t.layer >= 0 ? &o.layer[t.layer] : nullptr;
    switch (t.kind) {
      case TensorKind::token_embedding:
        o.token_embedding = t.offset;
        break;
      case TensorKind::position_embedding:
        o.position_embedding = t.offset;
        break;
      case TensorKind::ln_attention_gain:
        l->ln1_gain = t.offset;
        break;
      case TensorKind::ln_attention_bias:
        l->ln1_bias = t.offset;
        break;
      case TensorKind::w_q:
        l->w_q = t.offset;
        break;
      case TensorKind::w_k:
        l->w_k = t.offset;
        break;
      case TensorKind::w_v:
        l->w_v = t.offset;
        break;
      case TensorKind::w_o:
        l->w_o = t.offset;
        break;
      case TensorKind::ln_mlp_gain:
        l->ln2_gain = t.offset;
        break;
      case TensorKind::ln_mlp_bias:
        l->ln2_bias = t.offset;
        break;
      case TensorKind::mlp_in:
        l->w_in = t.offset;
        break;
      case TensorKind::mlp_in_bias:
        l->b_in = t.offset;
        break;
      case TensorKind::mlp_out:
        l->w_out = t.offset;
        break;
      case TensorKind::mlp_out_bias:
        l->b_out = t.offset;
        break;
      case TensorKind::ln_final_gain:
        o.ln_final_gain = t.offset;
        break;
      case TensorKind::ln_final_bias:
        o.ln_final_bias = t.offset;
        break;
      case TensorKind::unembedding:
        o.unembedding = t.offset;
        break;
    }
    total = t.offset + t.size();
  }
  o.total = total;
  return o;
}

const char* to_string(TensorKind kind) {
  switch (kind) {
    case TensorKind::token_embedding:
      return "token_embedding";
    case TensorKind::position_embedding:
      return "position_embedding";
    case TensorKind::ln_attention_gain:
      return "ln_attention_gain";
    case TensorKind::ln_attention_bias:
      return "ln_attention_bias";
    case TensorKind::w_q:
      return "w_q";
    case TensorKind::w_k:
      return "w_k";
    case TensorKind::w_v:
      return "w_v";
    case TensorKind::w_o:
      return "w_o";
    case TensorKind::ln_mlp_gain:
      return "ln_mlp_gain";
    case TensorKind::ln_mlp_bias:
      return "ln_mlp_bias";
    case TensorKind::mlp_in:
      return "mlp_in";
    case TensorKind::mlp_in_bias:
      return "mlp_in_bias";
    case TensorKind::mlp_out:
      return "mlp_out";
    case TensorKind::mlp_out_bias:
      return "mlp_out_bias";
    case TensorKind::ln_final_gain:
      return "ln_final_gain";
    case TensorKind::ln_final_bias:
      return "ln_final_bias";
    case TensorKind::unembedding:
      return "unembedding";
  }
  return "unknown";
}

}  // namespace attn
