#include "model_config_json.hpp"

#include <cmath>
#include <string>

#include "json.hpp"

namespace attn {

namespace {

Error config_error(std::size_t byte, const std::string& message) {
  return make_error(ErrorCode::parse_error, "config", -1, static_cast<long>(byte),
                    "config.json: byte " + std::to_string(byte) + ": " + message);
}

// The first of `names` the config has: its value, or nullptr.
const Json* first(const Json& root, std::initializer_list<const char*> names) {
  for (const char* name : names)
    if (const Json* v = root.find(name); v && v->kind != Json::Kind::null) return v;
  return nullptr;
}

// GPT-2's settings that this core computes one way only.
Result<bool> check_gpt2_settings(const Json& root) {
  if (const Json* act = first(root, {"activation_function"})) {
    const bool tanh_gelu =
        act->kind == Json::Kind::string &&
        (act->text == "gelu_new" || act->text == "gelu_pytorch_tanh" || act->text == "gelu_fast");
    if (!tanh_gelu)
      return config_error(act->offset, "its activation_function is \"" + act->text +
                                           "\"; this page computes GPT-2's tanh GELU "
                                           "(\"gelu_new\").");
  }
  if (const Json* eps = first(root, {"layer_norm_epsilon", "layer_norm_eps"}))
    if (eps->kind != Json::Kind::number || std::fabs(eps->number - 1e-5) > 1e-12)
      return config_error(eps->offset, "its layer_norm_epsilon is " + eps->text +
                                           "; this page's LayerNorm adds GPT-2's 1e-5.");
  if (const Json* s = first(root, {"scale_attn_weights"});
      s && !(s->kind == Json::Kind::boolean && s->boolean))
    return config_error(s->offset,
                        "its attention is not scaled by 1/√d (scale_attn_weights), "
                        "as this page's is.");
  if (const Json* s = first(root, {"scale_attn_by_inverse_layer_idx"});
      s && !(s->kind == Json::Kind::boolean && !s->boolean))
    return config_error(s->offset,
                        "its attention is scaled by each layer's number as well "
                        "(scale_attn_by_inverse_layer_idx), which this page does not do.");
  return true;
}

bool is_llama_family(const std::string& type) {
  return type == "llama" || type == "qwen2" || type == "qwen3" || type == "mistral";
}

// A positive number at `v`, or an error naming `name`.
Result<double> positive(const Json& v, const char* name) {
  if (v.kind != Json::Kind::number || !(v.number > 0))
    return config_error(v.offset, std::string("its ") + name + " is not a positive number.");
  return v.number;
}

// Llama 3's rope_scaling: its four numbers, each required.
Result<bool> read_llama3_scaling(const Json& scaling, RopeScaling& out) {
  const struct {
    const char* name;
    double* into;
  } numbers[] = {{"factor", &out.factor},
                 {"low_freq_factor", &out.low_freq_factor},
                 {"high_freq_factor", &out.high_freq_factor}};
  for (const auto& n : numbers) {
    const Json* v = scaling.find(n.name);
    if (!v)
      return config_error(scaling.offset, std::string("its rope_scaling has no ") + n.name + ".");
    Result<double> x = positive(*v, n.name);
    if (!x) return x.error();
    *n.into = *x;
  }
  const Json* context = scaling.find("original_max_position_embeddings");
  if (!context || !context->is_count() || context->number < 1 || context->number > 1e9)
    return config_error(context ? context->offset : scaling.offset,
                        "its rope_scaling's original_max_position_embeddings is not a positive "
                        "whole number.");
  out.original_context = static_cast<std::size_t>(context->number);
  if (!(out.high_freq_factor > out.low_freq_factor))
    return config_error(scaling.offset,
                        "its rope_scaling's high_freq_factor is not above its low_freq_factor.");
  return true;
}

// The Llama family's settings: SiLU, RMSNorm's ε, RoPE's θ and scaling, a sliding window.
Result<bool> read_llama_settings(const Json& root, ModelConfigJson& out) {
  if (const Json* act = first(root, {"hidden_act", "hidden_activation"}))
    if (act->kind != Json::Kind::string || act->text != "silu")
      return config_error(act->offset,
                          "its hidden_act is " +
                              (act->kind == Json::Kind::string ? "\"" + act->text + "\""
                                                               : std::string("not a name")) +
                              "; this page's Llama-family MLP gates with SiLU "
                              "(\"silu\").");
  if (const Json* eps = first(root, {"rms_norm_eps"})) {
    Result<double> x = positive(*eps, "rms_norm_eps");
    if (!x) return x.error();
    out.norm_eps = *x;
  }
  if (const Json* theta = first(root, {"rope_theta"})) {
    Result<double> x = positive(*theta, "rope_theta");
    if (!x) return x.error();
    out.rope_theta = *x;
  }
  if (const Json* part = first(root, {"partial_rotary_factor"}))
    if (part->kind != Json::Kind::number || part->number != 1)
      return config_error(part->offset,
                          "it turns only part of each head by its position "
                          "(partial_rotary_factor), which this page does not do.");
  if (const Json* scaling = first(root, {"rope_scaling"})) {
    const Json* type =
        scaling->kind == Json::Kind::object ? first(*scaling, {"rope_type", "type"}) : nullptr;
    const std::string name = type && type->kind == Json::Kind::string ? type->text : "?";
    if (name == "llama3") {
      if (Result<bool> ok = read_llama3_scaling(*scaling, out.rope_scaling); !ok) return ok;
    } else if (name != "default") {
      return config_error(scaling->offset,
                          "its rope_scaling is of type \"" + name +
                              "\"; this page turns positions unscaled or as Llama 3 scales them "
                              "(\"llama3\").");
    }
  }
  const Json* sliding = first(root, {"use_sliding_window"});
  const bool slides = sliding ? sliding->kind == Json::Kind::boolean && sliding->boolean
                              : first(root, {"model_type"})->text == "mistral";
  if (const Json* window = first(root, {"sliding_window"}); window && slides) {
    if (!window->is_count() || window->number < 1 || window->number > 1e9)
      return config_error(window->offset, "its sliding_window is not a positive whole number.");
    out.sliding_window = static_cast<std::size_t>(window->number);
  }
  return true;
}

}  // namespace

Result<ModelConfigJson> read_model_config(std::string_view config_json) {
  Result<Json> parsed = parse_json(config_json, "config");
  if (!parsed) return parsed.error();
  const Json& root = *parsed;
  if (root.kind != Json::Kind::object) return config_error(0, "it is not a JSON object.");
  ModelConfigJson out;
  if (const Json* type = first(root, {"model_type"})) {
    const bool name = type->kind == Json::Kind::string;
    if (name && is_llama_family(type->text))
      out.family = Family::llama;
    else if (!name || type->text != "gpt2")
      return config_error(type->offset,
                          "its model_type is " +
                              (name ? "\"" + type->text + "\"" : std::string("not a name")) +
                              "; this page runs the GPT-2 family (\"gpt2\") and the Llama "
                              "family (\"llama\", \"qwen2\", \"qwen3\", \"mistral\").");
  }
  if (out.family == Family::llama) {
    if (Result<bool> ok = read_llama_settings(root, out); !ok) return ok.error();
  } else if (Result<bool> ok = check_gpt2_settings(root); !ok) {
    return ok.error();
  }
  const struct {
    std::size_t* into;
    std::initializer_list<const char*> names;
  } sizes[] = {{&out.heads, {"n_head", "num_attention_heads"}},
               {&out.layers, {"n_layer", "num_hidden_layers"}},
               {&out.width, {"n_embd", "hidden_size"}},
               {&out.context, {"n_positions", "n_ctx", "max_position_embeddings"}},
               {&out.vocab, {"vocab_size"}},
               {&out.mlp, {"n_inner", "intermediate_size"}},
               {&out.kv_heads, {"num_key_value_heads"}},
               {&out.head_dim, {"head_dim"}}};
  for (const auto& size : sizes)
    if (const Json* v = first(root, size.names)) {
      if (!v->is_count() || v->number < 1 || v->number > 1e9)
        return config_error(v->offset, "its " + std::string(*size.names.begin()) +
                                           " is not a positive whole number.");
      *size.into = static_cast<std::size_t>(v->number);
    }
  if (const Json* tie = first(root, {"tie_word_embeddings"})) {
    if (tie->kind != Json::Kind::boolean)
      return config_error(tie->offset, "its tie_word_embeddings is not true or false.");
    out.tied = tie->boolean ? 1 : 0;
  }
  return out;
}

DecoderConfig ModelConfigJson::llama() const {
  DecoderConfig c;
  c.family = Family::llama;
  c.heads = heads;
  c.kv_heads = kv_heads;
  c.head_dim = head_dim;
  c.context = sliding_window && sliding_window < context ? sliding_window : context;
  c.norm_eps = norm_eps;
  c.rope_theta = rope_theta;
  c.rope_scaling = rope_scaling;
  return c;
}

Result<bool> check_model_config(const ModelConfigJson& said, const DecoderConfig& found) {
  const bool gpt2 = found.family == Family::gpt2;
  const struct {
    const char* name;
    std::size_t said, found;
    const char* what;
  } sizes[] = {{gpt2 ? "n_layer" : "num_hidden_layers", said.layers, found.layers, "blocks"},
               {gpt2 ? "n_embd" : "hidden_size", said.width, found.width, "as its width"},
               // A Llama-family file has no positions of its own: its context is the config's.
               {"n_positions", gpt2 ? said.context : 0, found.context, "positions in wpe"},
               {"vocab_size", said.vocab, found.vocab, "tokens in its embedding"},
               {gpt2 ? "n_inner" : "intermediate_size", said.mlp, found.mlp_width(),
                gpt2 ? "as its MLP's width (4 × its width)" : "as its MLP's width"}};
  if (said.tied == 0 && found.tied)
    return make_error(ErrorCode::shape_mismatch, "config", -1, -1,
                      "config.json says tie_word_embeddings false, but the model file has no "
                      "lm_head.weight of its own: they do not belong together.");
  for (const auto& s : sizes)
    if (s.said && s.said != s.found)
      return make_error(ErrorCode::shape_mismatch, "config", -1, -1,
                        "config.json says " + std::string(s.name) + " " + std::to_string(s.said) +
                            ", but the model file has " + std::to_string(s.found) + " " + s.what +
                            ": they do not belong together.");
  return true;
}

}  // namespace attn
