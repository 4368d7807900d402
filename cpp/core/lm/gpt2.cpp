#include "gpt2.hpp"

#include <string>
#include <utility>

#include "tensor_reader.hpp"

namespace attn {

namespace {

// ", and it looks like a Llama-family model", from a tensor name only that family uses, or "".
std::string family(const SafeTensors& file) {
  static const std::pair<const char*, const char*> kMarks[] = {
      {"self_attn.q_proj", "a Llama-family model (Llama, Mistral, Qwen …)"},
      {"gpt_neox.", "a GPT-NeoX-family model (Pythia …)"},
      {"attention.self.query", "a BERT-family model"},
      {"self_attention.query_key_value", "a BLOOM- or Falcon-family model"},
      {"attn.attention.q_proj", "a GPT-Neo model"},
      {"encoder.block.", "a T5-family model"}};
  for (const auto& [mark, name] : kMarks)
    for (const TensorEntry& t : file.tensors)
      if (t.name.find(mark) != std::string::npos) return std::string(", and it looks like ") + name;
  return {};
}

}  // namespace

Result<Decoder> load_gpt2(const SafeTensors& file, std::size_t heads, bool read) {
  const std::string prefix = file.find("wte.weight")               ? ""
                             : file.find("transformer.wte.weight") ? "transformer."
                                                                   : "?";
  if (prefix == "?") {
    std::string seen;
    for (std::size_t i = 0; i < file.tensors.size() && i < 4; ++i)
      seen += (i ? ", " : "") + file.tensors[i].name;
    // The parts a GPT-2 model has, named as they are missing (with or without "transformer.").
    std::string missing = "no token embedding \"wte.weight\"";
    const auto has = [&](const std::string& n) {
      return file.find(n) || file.find("transformer." + n);
    };
    if (!has("wpe.weight")) missing += ", no position embedding \"wpe.weight\"";
    if (!has("h.0.ln_1.weight")) missing += ", no blocks \"h.0.…\"";
    if (!has("ln_f.weight")) missing += ", no final LayerNorm \"ln_f\"";
    return model_error("this is not a GPT-2 model: it has " + missing + family(file) +
                       " (its tensors begin " + (seen.empty() ? "with none" : seen) + ").");
  }
  const TensorEntry& wte = *file.find(prefix + "wte.weight");
  const TensorEntry* wpe = file.find(prefix + "wpe.weight");
  if (wte.shape.size() != 2 || wte.shape[0] == 0 || wte.shape[1] == 0)
    return model_error("tensor \"" + wte.name + "\" has shape " + shape_text(wte.shape) +
                       "; a token embedding is [vocabulary, width].");
  if (!wpe || wpe->shape.size() != 2 || wpe->shape[0] == 0)
    return model_error("it has no position embedding \"" + prefix + "wpe.weight\" [context, " +
                       std::to_string(wte.shape[1]) + "], which a GPT-2 model needs.");
  Decoder m;
  DecoderConfig& c = m.config;
  c.vocab = wte.shape[0];
  c.width = wte.shape[1];
  c.context = wpe->shape[0];
  TensorReader w(file, prefix, "a GPT-2 model", read);
  while (w.has("h." + std::to_string(c.layers) + ".ln_1.weight")) ++c.layers;
  if (c.layers == 0)
    return model_error("it has no blocks (\"" + prefix +
                       "h.0.ln_1.weight\" and the rest): it is not a GPT-2 model.");
  if (heads == 0 && file.meta("n_head")) {
    const std::string& s = *file.meta("n_head");
    heads = s.find_first_not_of("0123456789") == std::string::npos && !s.empty() && s.size() < 6
                ? std::stoul(s)
                : 0;
    if (heads == 0)
      return model_error("its metadata n_head, \"" + s + "\", is not a count of heads.");
  }
  if (heads == 0) heads = c.width % 64 == 0 ? c.width / 64 : 0;
  if (heads == 0 || c.width % heads != 0)
    return model_error("its width, " + std::to_string(c.width) + ", does not divide into " +
                       (heads ? std::to_string(heads) : "heads of 64") +
                       " heads: give the head count.");
  c.heads = heads;
  const std::size_t C = c.width;
  if (!w.take("wte.weight", {c.vocab, C}, m.wte) || !w.take("wpe.weight", {c.context, C}, m.wpe))
    return w.error();
  m.blocks.resize(c.layers);
  for (std::size_t l = 0; l < c.layers; ++l) {
    const std::string h = "h." + std::to_string(l) + ".";
    DecoderBlock& b = m.blocks[l];
    const bool ok =
        w.take(h + "ln_1.weight", {C}, b.norm1_w) && w.take(h + "ln_1.bias", {C}, b.norm1_b) &&
        w.take(h + "attn.c_attn.weight", C, 3 * C, b.qkv_w) &&
        w.take(h + "attn.c_attn.bias", {3 * C}, b.qkv_b) &&
        w.take(h + "attn.c_proj.weight", C, C, b.proj_w) &&
        w.take(h + "attn.c_proj.bias", {C}, b.proj_b) &&
        w.take(h + "ln_2.weight", {C}, b.norm2_w) && w.take(h + "ln_2.bias", {C}, b.norm2_b) &&
        w.take(h + "mlp.c_fc.weight", C, 4 * C, b.fc_w) &&
        w.take(h + "mlp.c_fc.bias", {4 * C}, b.fc_b) &&
        w.take(h + "mlp.c_proj.weight", 4 * C, C, b.out_w) &&
        w.take(h + "mlp.c_proj.bias", {C}, b.out_b);
    if (!ok) return w.error();
  }
  if (!w.take("ln_f.weight", {C}, m.norm_w) || !w.take("ln_f.bias", {C}, m.norm_b))
    return w.error();
  if (file.find("lm_head.weight")) {
    TensorReader top(file, "", "a GPT-2 model", read);
    if (!top.take("lm_head.weight", {c.vocab, C}, m.lm_head)) return top.error();
    c.tied = false;
  }
  return m;
}

}  // namespace attn
