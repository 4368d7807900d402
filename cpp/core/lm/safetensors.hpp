// Model files in the safetensors format, as the GPT-2 family is shared: 8 bytes of header length
// (u64, little-endian), that many bytes of a JSON object, then the tensors' bytes:
//   { "wte": { "dtype": "F32", "shape": [50257, 768], "data_offsets": [0, 154389504] }, …,
//     "__metadata__": { "n_head": "12", … } }
// data_offsets count from the start of the data, which the tensors cover exactly, end to end.
//
// read_safetensors() checks the whole layout before any tensor is read, and names where it fails
// (ErrorCode::parse_error, input "model", col = the byte in the file, counted from 0; the message
// names the tensor too): a file shorter than its header says, a header that is not UTF-8 or not a
// JSON object, an entry without a dtype, shape or data_offsets, a dtype other than F32, F16, BF16
// or I8 (named), a size that does not match shape × the dtype's width, offsets outside the data,
// overlapping or leaving a gap, an I8 tensor without its scales, and metadata that is not
// strings. It copies no tensor.
// tensor_floats() gives one tensor as float32, widening F16 and BF16 exactly.
//
// 8-bit weights: an I8 tensor "w" of shape (r, …) comes with a float tensor "w.scale" of shape
// (r): each value of row i is its integer times scale[i], one float32 product, so any reader that
// multiplies the same way gets the same floats. The page's own model ships so, at a quarter of
// its float32 size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common.hpp"

namespace attn {

enum class DType { f32, f16, bf16, i8 };
const char* to_string(DType dtype);  // "F32", "F16", "BF16", "I8"

struct TensorEntry {
  std::string name;
  DType dtype = DType::f32;
  std::vector<std::size_t> shape;
  std::size_t begin = 0, end = 0;  // in the file, bytes [begin, end)
  std::size_t count() const;       // the product of shape (1 for a scalar)
};

struct SafeTensors {
  std::string_view bytes;  // the whole file; tensors are read from it (the caller keeps it alive)
  std::vector<TensorEntry> tensors;                           // in the order of their offsets
  std::vector<std::pair<std::string, std::string>> metadata;  // "__metadata__", in order

  const TensorEntry* find(std::string_view name) const;
  const std::string* meta(std::string_view key) const;
};

// The largest header read: larger ones are refused before parsing (too_large).
constexpr std::size_t kMaxSafetensorsHeader = 100u << 20;

Result<SafeTensors> read_safetensors(std::string_view bytes);

// How many of a file's first bytes hold its length and header (8 + the length the first 8 give):
// what a reader gathers before read_safetensors_header. 8 when fewer than 8 are given, or when
// the length alone is refused (more than kMaxSafetensorsHeader: read_safetensors_header says why).
std::size_t safetensors_head_size(std::string_view first);

// The same checks from the file's first bytes alone (at least its length and header) and its
// whole size: what a reader knows of a large file before it reads the tensors, which are not
// readable from the result (bytes holds only `head`).
Result<SafeTensors> read_safetensors_header(std::string_view head, std::size_t file_size);

std::vector<float> tensor_floats(const SafeTensors& file, const TensorEntry& tensor);

// A safetensors file of float32 tensors, in the order given (a writer for tests and tools).
std::string write_safetensors(
    const std::vector<
        std::pair<std::string, std::pair<std::vector<std::size_t>, std::vector<float>>>>& tensors,
    const std::vector<std::pair<std::string, std::string>>& metadata = {});

}  // namespace attn
