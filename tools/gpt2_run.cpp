// Runs a GPT-2- or Llama-family safetensors file on a list of token ids and prints what the core
// computed, as JSON, for the parity tests (tests/js/gpt2-parity.test.mjs, llama-parity.test.mjs)
// and for looking at a model:
//   gpt2_run MODEL.safetensors --tokens 5,17,3 [--heads N] [--config config.json] [--split K]
// A Llama-family model needs its config.json; its config then also gives kv_heads, head_dim,
// mlp and cache_row, the numbers a KV cache row holds (its key/value heads').
// prints {"config": {…}, "logits": [[…] per token], "weights": [[heads × rows × keys] per layer]}.
// --split K runs the first K tokens, then the rest against the KV cache they left; the output is
// then the two appends' rows joined (and each layer's weights padded with zeros to every key).
// Errors are the core's message on stderr, and exit status 1.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "lm/gpt2.hpp"
#include "lm/llama.hpp"
#include "lm/model_config_json.hpp"

namespace {

int usage() {
  std::cerr << "usage: gpt2_run MODEL.safetensors --tokens 5,17,3 [--heads N] [--config FILE] "
               "[--split K]\n";
  return 2;
}

void print_floats(std::ostream& o, const float* p, std::size_t n) {
  o << '[';
  for (std::size_t i = 0; i < n; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(p[i]));
    o << (i ? "," : "") << buf;
  }
  o << ']';
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "gpt2_run: cannot read " << path << "\n";
    return false;
  }
  out.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string path = argv[1];
  std::vector<int> tokens;
  std::size_t heads = 0, split = 0;
  std::string config_path;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string arg = argv[i], value = argv[i + 1];
    if (arg == "--tokens") {
      std::stringstream s(value);
      std::string item;
      while (std::getline(s, item, ',')) tokens.push_back(std::atoi(item.c_str()));
    } else if (arg == "--heads") {
      heads = std::strtoul(value.c_str(), nullptr, 10);
    } else if (arg == "--config") {
      config_path = value;
    } else if (arg == "--split") {
      split = std::strtoul(value.c_str(), nullptr, 10);
    } else {
      return usage();
    }
  }
  std::string bytes, config_json;
  if (!read_file(path, bytes) || (!config_path.empty() && !read_file(config_path, config_json)))
    return 1;
  attn::ModelConfigJson said;
  if (!config_path.empty()) {
    attn::Result<attn::ModelConfigJson> config = attn::read_model_config(config_json);
    if (!config) return std::cerr << config.error().message << "\n", 1;
    said = *config;
  }
  const attn::Result<attn::SafeTensors> file = attn::read_safetensors(bytes);
  if (!file) return std::cerr << file.error().message << "\n", 1;
  const attn::Result<attn::Decoder> model =
      said.family == attn::Family::llama ? attn::load_llama(*file, said.llama())
                                         : attn::load_gpt2(*file, heads ? heads : said.heads);
  if (!model) return std::cerr << model.error().message << "\n", 1;
  const attn::DecoderConfig& c = model->config;
  attn::KvCache cache(*model);
  std::vector<attn::DecoderSteps> parts;
  const std::vector<std::vector<int>> runs =
      split > 0 && split < tokens.size()
          ? std::vector<std::vector<int>>{{tokens.begin(),
                                           tokens.begin() + static_cast<long>(split)},
                                          {tokens.begin() + static_cast<long>(split), tokens.end()}}
          : std::vector<std::vector<int>>{tokens};
  for (const auto& run : runs) {
    attn::Result<attn::DecoderSteps> r = cache.append(run, true);
    if (!r) return std::cerr << r.error().message << "\n", 1;
    parts.push_back(std::move(r).value());
  }
  const std::size_t t = cache.size();
  std::ostream& o = std::cout;
  o << "{\"config\":{\"vocab\":" << c.vocab << ",\"context\":" << c.context
    << ",\"width\":" << c.width << ",\"layers\":" << c.layers << ",\"heads\":" << c.heads
    << ",\"tied\":" << (c.tied ? "true" : "false");
  if (c.family == attn::Family::llama)
    o << ",\"kv_heads\":" << c.kv_head_count() << ",\"head_dim\":" << c.head_size()
      << ",\"mlp\":" << c.mlp_width() << ",\"cache_row\":" << cache.keys(0).size() / t;
  o << "},\"logits\":[";
  bool first = true;
  for (const auto& p : parts)
    for (std::size_t i = 0; i < p.logits.size() / c.vocab; ++i) {
      o << (first ? "" : ",");
      first = false;
      print_floats(o, p.logits.data() + i * c.vocab, c.vocab);
    }
  o << "],\"weights\":[";
  for (std::size_t l = 0; l < c.layers; ++l) {
    o << (l ? "," : "") << '[';
    for (std::size_t h = 0; h < c.heads; ++h) {
      o << (h ? "," : "") << '[';
      bool row_first = true;
      for (const auto& p : parts) {
        const std::size_t n = p.logits.size() / c.vocab, seen = p.first + n;
        for (std::size_t i = 0; i < n; ++i) {
          std::vector<float> row(t, 0.0f);
          for (std::size_t j = 0; j < seen; ++j)
            row[j] = p.layers[l].weights[(h * n + i) * seen + j];
          o << (row_first ? "" : ",");
          row_first = false;
          print_floats(o, row.data(), t);
        }
      }
      o << ']';
    }
    o << ']';
  }
  o << "]}\n";
  return 0;
}
