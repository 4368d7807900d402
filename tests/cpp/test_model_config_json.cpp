// config.json as Hugging Face writes it for GPT-2 and as other GPT-2-family configs name the same
// fields (cpp/core/lm/model_config_json.hpp): the sizes read, those the file's tensors contradict
// named, and settings this core would compute differently refused by field and byte.
#include <string>
#include <vector>

#include "lm/model_config_json.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

std::string refused(const std::string& text) { return read_model_config(text).error().message; }

}  // namespace

TEST_CASE("config.json: GPT-2's own names and the generic ones give the same sizes", "[config]") {
  const Result<ModelConfigJson> gpt2 = read_model_config(
      R"({"model_type": "gpt2", "activation_function": "gelu_new", "layer_norm_epsilon": 1e-05,)"
      R"( "n_head": 12, "n_layer": 12, "n_embd": 768, "n_positions": 1024, "vocab_size": 50257})");
  REQUIRE(gpt2.ok());
  CHECK(gpt2->heads == 12);
  CHECK(gpt2->layers == 12);
  CHECK(gpt2->width == 768);
  CHECK(gpt2->context == 1024);
  CHECK(gpt2->vocab == 50257);
  const Result<ModelConfigJson> generic = read_model_config(
      R"({"num_attention_heads": 4, "num_hidden_layers": 2, "hidden_size": 64, "n_ctx": 128})");
  REQUIRE(generic.ok());
  CHECK(generic->heads == 4);
  CHECK(generic->layers == 2);
  CHECK(generic->width == 64);
  CHECK(generic->context == 128);
  CHECK(generic->vocab == 0);  // not said: not checked
}

TEST_CASE("config.json: sizes the tensors contradict, and other computations, are refused",
          "[config]") {
  DecoderConfig found;
  found.vocab = 100;
  found.context = 16;
  found.width = 32;
  found.layers = 2;
  found.heads = 4;
  ModelConfigJson said;
  said.width = 32;
  said.vocab = 100;
  CHECK(check_model_config(said, found).ok());
  said.context = 1024;
  CHECK(
      check_model_config(said, found).error().message ==
      "config.json says n_positions 1024, but the model file has 16 positions in wpe: they do not "
      "belong together.");
  said.context = 0;
  said.mlp = 4 * 32;  // GPT-2's MLP is 4 × its width
  CHECK(check_model_config(said, found).ok());
  said.mlp = 100;
  CHECK(check_model_config(said, found).error().message ==
        "config.json says n_inner 100, but the model file has 128 as its MLP's width (4 × its "
        "width): they do not belong together.");
  said.mlp = 0;
  said.tied = 0;  // the file has no lm_head.weight: found.tied
  CHECK(check_model_config(said, found).error().message ==
        "config.json says tie_word_embeddings false, but the model file has no lm_head.weight of "
        "its own: they do not belong together.");
  CHECK(read_model_config(R"({"n_inner": null, "tie_word_embeddings": true})")->tied == 1);
  CHECK(read_model_config(R"({"intermediate_size": 3072})")->mlp == 3072);
  CHECK(refused(R"({"tie_word_embeddings": "yes"})") ==
        "config.json: byte 24: its tie_word_embeddings is not true or false.");
  CHECK(refused(R"({"scale_attn_by_inverse_layer_idx": true})") ==
        "config.json: byte 36: its attention is scaled by each layer's number as well "
        "(scale_attn_by_inverse_layer_idx), which this page does not do.");
  CHECK(refused(R"({"scale_attn_weights": false})") ==
        "config.json: byte 23: its attention is not scaled by 1/√d (scale_attn_weights), as this "
        "page's is.");
  CHECK(refused(R"({"n_head": 2.5})") ==
        "config.json: byte 11: its n_head is not a positive whole number.");
  CHECK(refused(R"({"n_head": 0})") ==
        "config.json: byte 11: its n_head is not a positive whole number.");
  CHECK(refused("[1]") == "config.json: byte 0: it is not a JSON object.");
  CHECK(refused(R"({"model_type": 7})") ==
        "config.json: byte 15: its model_type is not a name; this page runs the GPT-2 family "
        "(\"gpt2\") and the Llama family (\"llama\", \"qwen2\", \"qwen3\", \"mistral\").");
  CHECK(read_model_config(R"({"activation_function": "gelu_pytorch_tanh"})").ok());
}

TEST_CASE("config.json: a Llama-family model's heads, norms and rotary positions", "[config]") {
  // Qwen3-0.6B's config.json, its fields as Hugging Face writes them.
  const Result<ModelConfigJson> qwen3 = read_model_config(
      R"({"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_act": "silu",)"
      R"( "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 28,)"
      R"( "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128,)"
      R"( "max_position_embeddings": 40960, "rms_norm_eps": 1e-06, "rope_theta": 1000000,)"
      R"( "rope_scaling": null, "sliding_window": null, "use_sliding_window": false,)"
      R"( "tie_word_embeddings": true, "vocab_size": 151936})");
  REQUIRE(qwen3.ok());
  const DecoderConfig c = qwen3->llama();
  CHECK(c.family == Family::llama);
  CHECK(std::vector<std::size_t>{c.heads, c.kv_heads, c.head_dim, c.context} ==
        std::vector<std::size_t>{16, 8, 128, 40960});
  CHECK(c.norm_eps == 1e-6);
  CHECK(c.rope_theta == 1e6);
  CHECK(c.rope_scaling.factor == 0);
  CHECK(qwen3->mlp == 3072);
  // Llama 3.2's scaling, and Hugging Face's defaults where a field is not said.
  const Result<ModelConfigJson> llama = read_model_config(
      R"({"model_type": "llama", "max_position_embeddings": 131072, "rope_scaling":)"
      R"( {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,)"
      R"( "original_max_position_embeddings": 8192, "rope_type": "llama3"}})");
  REQUIRE(llama.ok());
  CHECK(llama->rope_scaling.factor == 32);
  CHECK(llama->rope_scaling.high_freq_factor == 4);
  CHECK(llama->rope_scaling.original_context == 8192);
  CHECK(llama->rope_theta == 10000);
  CHECK(llama->norm_eps == 1e-6);
  // Mistral's sliding window of 4096: no more tokens than it are read, so each sees every one.
  const Result<ModelConfigJson> mistral = read_model_config(
      R"({"model_type": "mistral", "max_position_embeddings": 32768, "sliding_window": 4096})");
  REQUIRE(mistral.ok());
  CHECK(mistral->llama().context == 4096);
  // Qwen's window counts only when use_sliding_window is on.
  CHECK(read_model_config(R"({"model_type": "qwen2", "max_position_embeddings": 32768,)"
                          R"( "sliding_window": 4096, "use_sliding_window": false})")
            ->llama()
            .context == 32768);
}

TEST_CASE("config.json: a Llama-family setting computed otherwise is refused", "[config]") {
  CHECK(refused(R"({"model_type": "llama", "hidden_act": "gelu"})") ==
        "config.json: byte 38: its hidden_act is \"gelu\"; this page's Llama-family MLP gates "
        "with SiLU (\"silu\").");
  CHECK(refused(R"({"model_type": "qwen2", "rope_scaling": {"type": "yarn", "factor": 4}})") ==
        "config.json: byte 40: its rope_scaling is of type \"yarn\"; this page turns positions "
        "unscaled or as Llama 3 scales them (\"llama3\").");
  CHECK(refused(R"({"model_type": "llama", "rope_scaling": {"rope_type": "llama3"}})") ==
        "config.json: byte 40: its rope_scaling has no factor.");
  CHECK(refused(R"({"model_type": "llama", "partial_rotary_factor": 0.5})") ==
        "config.json: byte 49: it turns only part of each head by its position "
        "(partial_rotary_factor), which this page does not do.");
  CHECK(refused(R"({"model_type": "llama", "rope_theta": -1})") ==
        "config.json: byte 38: its rope_theta is not a positive number.");
}
