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

}  // namespace

Result<ModelConfigJson> read_model_config(std::string_view config_json) {
  Result<Json> parsed = parse_json(config_json, "config");
  if (!parsed) return parsed.error();
  const Json& root = *parsed;
  if (root.kind != Json::Kind::object) return config_error(0, "it is not a JSON object.");
  if (const Json* type = first(root, {"model_type"}))
    if (type->kind != Json::Kind::string || type->text != "gpt2")
      return config_error(type->offset,
                          "its model_type is " +
                              (type->kind == Json::Kind::string ? "\"" + type->text + "\""
                                                                : std::string("not a name")) +
                              "; this page runs the GPT-2 family (\"gpt2\").");
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
  ModelConfigJson out;
  const struct {
    std::size_t* into;
    std::initializer_list<const char*> names;
  } sizes[] = {{&out.heads, {"n_head", "num_attention_heads"}},
               {&out.layers, {"n_layer", "num_hidden_layers"}},
               {&out.width, {"n_embd", "hidden_size"}},
               {&out.context, {"n_positions", "n_ctx", "max_position_embeddings"}},
               {&out.vocab, {"vocab_size"}},
               {&out.mlp, {"n_inner", "intermediate_size"}}};
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

Result<bool> check_model_config(const ModelConfigJson& said, const Gpt2Config& found) {
  const struct {
    const char* name;
    std::size_t said, found;
    const char* what;
  } sizes[] = {{"n_layer", said.layers, found.layers, "blocks"},
               {"n_embd", said.width, found.width, "as its width"},
               {"n_positions", said.context, found.context, "positions in wpe"},
               {"vocab_size", said.vocab, found.vocab, "tokens in wte"},
               {"n_inner", said.mlp, 4 * found.width, "as its MLP's width (4 × its width)"}};
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
