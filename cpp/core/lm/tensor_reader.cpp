#include "tensor_reader.hpp"

#include <cmath>

namespace attn {

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Error model_error(const std::string& message) {
  return make_error(ErrorCode::bad_argument, "model", -1, -1, "model: " + message);
}

bool TensorReader::take(const std::string& name, const std::vector<std::size_t>& shape,
                        std::vector<float>& out) {
  const TensorEntry* t = file_.find(prefix_ + name);
  if (!t)
    return fail("it has no tensor \"" + prefix_ + name + "\" " + shape_text(shape) + ", which " +
                family_ + " needs.");
  if (t->shape != shape)
    return fail("tensor \"" + t->name + "\" has shape " + shape_text(t->shape) +
                "; this model needs " + shape_text(shape) + ".");
  if (!read_) return true;
  out = tensor_floats(file_, *t);
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!std::isfinite(out[i]))
      return fail("tensor \"" + t->name +
                  "\" holds a value that is not a finite number, at index " + std::to_string(i) +
                  ".");
  return true;
}

// The float32 copy goes once it is packed.
bool TensorReader::take(const std::string& name, std::size_t rows, std::size_t cols,
                        PackedMatrix& out) {
  std::vector<float> w;
  if (!take(name, {rows, cols}, w)) return false;
  if (read_) out = PackedMatrix::pack(w, rows, cols);
  return true;
}

bool TensorReader::take_linear(const std::vector<std::string>& names,
                               const std::vector<std::size_t>& outs, std::size_t in,
                               PackedMatrix& out, std::vector<float>* bias) {
  std::vector<std::vector<float>> ws(names.size());
  std::vector<const std::vector<float>*> parts;
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (!take(names[k] + ".weight", {outs[k], in}, ws[k])) return false;
    parts.push_back(&ws[k]);
  }
  if (read_) out = PackedMatrix::pack_linear(parts, in);
  if (!bias || !has(names[0] + ".bias")) return true;
  bias->clear();
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::vector<float> b;
    if (!take(names[k] + ".bias", {outs[k]}, b)) return false;
    bias->insert(bias->end(), b.begin(), b.end());
  }
  return true;
}

}  // namespace attn
