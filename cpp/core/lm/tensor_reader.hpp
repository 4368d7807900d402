// The tensors of one safetensors file read by name for a model's loader (gpt2.cpp, llama.cpp):
// each checked for presence, shape and finite values before it is kept, and a failure named by
// the tensor and the shape the model needed (input "model").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common.hpp"
#include "decoder.hpp"
#include "safetensors.hpp"

namespace attn {

std::string shape_text(const std::vector<std::size_t>& shape);  // "[2, 3]"
Error model_error(const std::string& message);                  // "model: " + message

class TensorReader {
 public:
  // `family` names the model in a missing tensor's message ("a GPT-2 model needs"). `read`
  // false: only presence and shape are checked (a header read alone), nothing is filled.
  TensorReader(const SafeTensors& file, std::string prefix, std::string family, bool read)
      : file_(file), prefix_(std::move(prefix)), family_(std::move(family)), read_(read) {}

  bool has(const std::string& name) const { return file_.find(prefix_ + name) != nullptr; }

  // Fills `out`; false (and error()) when missing, of another shape or not finite.
  bool take(const std::string& name, const std::vector<std::size_t>& shape,
            std::vector<float>& out);
  // As take(), but a tensor the file does not have leaves `out` empty and is no error.
  bool take_if_any(const std::string& name, const std::vector<std::size_t>& shape,
                   std::vector<float>& out) {
    return !has(name) || take(name, shape, out);
  }
  // A (rows, cols) matrix stored input by output (GPT-2's Conv1D), kept packed.
  bool take(const std::string& name, std::size_t rows, std::size_t cols, PackedMatrix& out);
  // PyTorch Linear weights (out_k, in) packed side by side as one (in, Σ out_k) matrix, and their
  // biases, when the first has one, side by side into `bias` (all must have one then).
  bool take_linear(const std::vector<std::string>& names, const std::vector<std::size_t>& outs,
                   std::size_t in, PackedMatrix& out, std::vector<float>* bias = nullptr);
  const Error& error() const { return error_; }

 private:
  const SafeTensors& file_;
  std::string prefix_, family_;
  bool read_;
  Error error_;
  bool fail(const std::string& m) {
    error_ = model_error(m);
    return false;
  }
};

}  // namespace attn
