// Reading a model's tensors by name (cpp/core/lm/tensor_reader.hpp): PyTorch's Linear weights
// (out, in) packed side by side as one product's columns, their biases with them, and a missing,
// misshapen or non-finite tensor named.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lm/tensor_reader.hpp"
#include "products.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

using Tensors =
    std::vector<std::pair<std::string, std::pair<std::vector<std::size_t>, std::vector<float>>>>;

SafeTensors read(const std::string& bytes) {
  Result<SafeTensors> f = read_safetensors(bytes);
  REQUIRE(f.ok());
  return *f;
}

}  // namespace

TEST_CASE("tensor reader: two Linear weights are one product's columns", "[tensor_reader]") {
  // a: 2 outputs of 2 inputs, b: 1 output; x · [aᵀ | bᵀ] for x = (1, 10) is
  // (1 + 20, 3 + 40, 5 + 60) plus the biases (0.5, 0.25, 2).
  const std::string bytes = write_safetensors(Tensors{{"a.weight", {{2, 2}, {1, 2, 3, 4}}},
                                                      {"a.bias", {{2}, {0.5f, 0.25f}}},
                                                      {"b.weight", {{1, 2}, {5, 6}}},
                                                      {"b.bias", {{1}, {2}}}});
  const SafeTensors file = read(bytes);
  TensorReader r(file, "", "a test model", true);
  PackedMatrix w;
  std::vector<float> bias;
  REQUIRE(r.take_linear({"a", "b"}, {2, 1}, 2, w, &bias));
  CHECK(w.rows == 2);
  CHECK(w.cols == 3);
  CHECK(bias == std::vector<float>{0.5f, 0.25f, 2});
  std::vector<float> out = bias;
  const std::vector<float> x = {1, 10};
  ops::gemm_packed(x.data(), 2, w.strips.data(), out.data(), 3, 1, 2, 3, true);
  CHECK(out == std::vector<float>{21.5f, 43.25f, 67});
}

TEST_CASE("tensor reader: a tensor missing, misshapen or not finite is named", "[tensor_reader]") {
  const float inf = std::numeric_limits<float>::infinity();
  const std::string bytes =
      write_safetensors(Tensors{{"m.w", {{2, 2}, {1, 2, 3, 4}}}, {"m.bad", {{2}, {1, inf}}}});
  const SafeTensors file = read(bytes);
  TensorReader r(file, "m.", "a test model", true);
  std::vector<float> out;
  CHECK_FALSE(r.take("gone", {3}, out));
  CHECK(r.error().message == "model: it has no tensor \"m.gone\" [3], which a test model needs.");
  CHECK_FALSE(r.take("w", {4}, out));
  CHECK(r.error().message == "model: tensor \"m.w\" has shape [2, 2]; this model needs [4].");
  CHECK_FALSE(r.take("bad", {2}, out));
  CHECK(r.error().message ==
        "model: tensor \"m.bad\" holds a value that is not a finite number, at index 1.");
  // take_if_any: absent is no error and leaves nothing; present is read.
  CHECK(r.take_if_any("gone", {3}, out));
  CHECK(r.take_if_any("w", {2, 2}, out));
  CHECK(out == std::vector<float>{1, 2, 3, 4});
  // A header read alone checks shapes and fills nothing.
  TensorReader shapes(file, "m.", "a test model", false);
  std::vector<float> none;
  CHECK(shapes.take("w", {2, 2}, none));
  CHECK(none.empty());
}
