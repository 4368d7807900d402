#include "llama.hpp"

#include <string>

#include "tensor_reader.hpp"

namespace attn {

namespace {

std::string count(std::size_t n) { return std::to_string(n); }

}  // namespace

bool is_llama(const SafeTensors& file) {
  return file.find("model.layers.0.self_attn.q_proj.weight") ||
         file.find("layers.0.self_attn.q_proj.weight");
}

Result<Decoder> load_llama(const SafeTensors& file, const DecoderConfig& said, bool read) {
  const std::string prefix = file.find("model.embed_tokens.weight") ? "model."
                             : file.find("embed_tokens.weight")     ? ""
                                                                    : "?";
  if (prefix == "?")
    return model_error(
        "it has no token embedding \"model.embed_tokens.weight\", which a Llama-family model "
        "needs.");
  const TensorEntry& embedding = *file.find(prefix + "embed_tokens.weight");
  if (embedding.shape.size() != 2 || embedding.shape[0] == 0 || embedding.shape[1] == 0)
    return model_error("tensor \"" + embedding.name + "\" has shape " +
                       shape_text(embedding.shape) + "; a token embedding is [vocabulary, width].");
  Decoder m;
  DecoderConfig& c = m.config;
  c = said;
  c.family = Family::llama;
  c.vocab = embedding.shape[0];
  c.width = embedding.shape[1];
  c.layers = 0;
  TensorReader w(file, prefix, "a Llama-family model", read);
  while (w.has("layers." + count(c.layers) + ".input_layernorm.weight")) ++c.layers;
  if (c.layers == 0)
    return model_error("it has no layers (\"" + prefix +
                       "layers.0.input_layernorm.weight\" and the rest): it is not a Llama-family "
                       "model.");
  const std::size_t C = c.width, H = c.heads, G = c.kv_head_count();
  if (H == 0)
    return model_error(
        "its head count is not in its tensors: give its config.json (num_attention_heads).");
  if (H % G != 0)
    return model_error("its " + count(H) + " query heads do not divide into groups of its " +
                       count(G) + " key/value heads (num_key_value_heads).");
  if (c.head_dim == 0 && C % H != 0)
    return model_error("its width, " + count(C) + ", does not divide into its " + count(H) +
                       " heads, and its config.json gives no head_dim.");
  const std::size_t d = c.head_size();
  if (d % 2 != 0)
    return model_error("its heads are " + count(d) +
                       " numbers each: rotary positions turn pairs of them, so a head's size "
                       "must be even.");
  c.kv_heads = G;
  c.head_dim = d;
  if (c.context == 0)
    return model_error(
        "its context is not in its tensors: give its config.json (max_position_embeddings).");
  if (c.rope_theta <= 0) return model_error("its rope_theta must be a positive number.");
  const TensorEntry* gate = file.find(prefix + "layers.0.mlp.gate_proj.weight");
  if (!gate || gate->shape.size() != 2 || gate->shape[1] != C || gate->shape[0] == 0)
    return model_error("it has no tensor \"" + prefix + "layers.0.mlp.gate_proj.weight\" [width " +
                       "of its MLP, " + count(C) + "], which a Llama-family model needs.");
  c.mlp = gate->shape[0];
  const std::size_t I = c.mlp;
  c.qk_norm = w.has("layers.0.self_attn.q_norm.weight");
  if (!w.take("embed_tokens.weight", {c.vocab, C}, m.wte)) return w.error();
  m.blocks.resize(c.layers);
  for (std::size_t l = 0; l < c.layers; ++l) {
    const std::string p = "layers." + count(l) + ".";
    DecoderBlock& b = m.blocks[l];
    const std::string attn = p + "self_attn.", mlp = p + "mlp.";
    bool ok = w.take(p + "input_layernorm.weight", {C}, b.norm1_w) &&
              w.take_linear({attn + "q_proj", attn + "k_proj", attn + "v_proj"},
                            {H * d, G * d, G * d}, C, b.qkv_w, &b.qkv_b) &&
              w.take_linear({attn + "o_proj"}, {C}, H * d, b.proj_w, &b.proj_b) &&
              w.take(p + "post_attention_layernorm.weight", {C}, b.norm2_w) &&
              w.take_linear({mlp + "gate_proj", mlp + "up_proj"}, {I, I}, C, b.fc_w, &b.fc_b) &&
              w.take_linear({mlp + "down_proj"}, {C}, I, b.out_w, &b.out_b);
    if (ok && c.qk_norm)
      ok = w.take(attn + "q_norm.weight", {d}, b.q_norm) &&
           w.take(attn + "k_norm.weight", {d}, b.k_norm);
    if (!ok) return w.error();
  }
  if (!w.take("norm.weight", {C}, m.norm_w)) return w.error();
  c.tied = !file.find("lm_head.weight");
  if (!c.tied) {
    TensorReader top(file, "", "a Llama-family model", read);
    if (!top.take("lm_head.weight", {c.vocab, C}, m.lm_head)) return top.error();
  }
  return m;
}

}  // namespace attn
