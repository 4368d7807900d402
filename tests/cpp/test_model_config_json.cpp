// config.json as Hugging Face writes it for GPT-2 and as other GPT-2-family configs name the same
// fields (cpp/core/lm/model_config_json.hpp): the sizes read, those the file's tensors contradict
// named, and settings this core would compute differently refused by field and byte.
#include <string>

#include "lm/model_config_json.hpp"
#include "test_utils.hpp"

using namespace attn;

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
  Gpt2Config found;
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
  const auto refused = [](const std::string& text) {
    return read_model_config(text).error().message;
  };
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
        "(\"gpt2\").");
  CHECK(read_model_config(R"({"activation_function": "gelu_pytorch_tanh"})").ok());
}
