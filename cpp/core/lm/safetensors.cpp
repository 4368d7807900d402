#include "safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "json.hpp"
#include "sizes.hpp"
#include "utf8.hpp"

namespace attn {

const char* to_string(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return "F32";
    case DType::f16:
      return "F16";
    case DType::bf16:
      return "BF16";
    case DType::i8:
      return "I8";
  }
  return "?";
}

std::size_t TensorEntry::count() const {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

const TensorEntry* SafeTensors::find(std::string_view name) const {
  for (const TensorEntry& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

const std::string* SafeTensors::meta(std::string_view key) const {
  for (const auto& [k, v] : metadata)
    if (k == key) return &v;
  return nullptr;
}

namespace {

std::size_t width(DType d) { return d == DType::f32 ? 4 : d == DType::i8 ? 1 : 2; }

Error fault(std::size_t byte, const std::string& what, ErrorCode code = ErrorCode::parse_error) {
  return make_error(code, "model", -1, static_cast<long>(byte),
                    "model: byte " + std::to_string(byte) + ": " + what);
}

std::uint64_t u64le(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// One entry of the header: `at` is the byte in the file where its value starts.
Result<TensorEntry> entry(const std::string& name, const Json& v, std::size_t base,
                          std::size_t data_size) {
  const std::size_t at = base + v.offset;
  const std::string who = "tensor \"" + name + "\"";
  if (v.kind != Json::Kind::object)
    return fault(at, who + " is not an object with dtype, shape and data_offsets.");
  TensorEntry t;
  t.name = name;
  const Json* dtype = v.find("dtype");
  const Json* shape = v.find("shape");
  const Json* offsets = v.find("data_offsets");
  if (!dtype || !shape || !offsets)
    return fault(at, who + " lacks " +
                         (!dtype   ? "its dtype."
                          : !shape ? "its shape."
                                   : "its data_offsets."));
  if (dtype->kind != Json::Kind::string)
    return fault(base + dtype->offset, who + ": dtype is not a string.");
  if (dtype->text == "F32")
    t.dtype = DType::f32;
  else if (dtype->text == "F16")
    t.dtype = DType::f16;
  else if (dtype->text == "BF16")
    t.dtype = DType::bf16;
  else if (dtype->text == "I8")
    t.dtype = DType::i8;
  else
    return fault(base + dtype->offset,
                 who + " is " + dtype->text + ": only F32, F16, BF16 and I8 weights can be read.");
  if (shape->kind != Json::Kind::array)
    return fault(base + shape->offset, who + ": shape is not a list of sizes.");
  // Its count of values, and that count as float32 bytes (what a reader keeps), must be sizes.
  std::size_t count = 1;
  for (const Json& d : shape->items) {
    if (!d.is_count())
      return fault(base + d.offset, who + ": a size in its shape is not a whole number.");
    const std::optional<std::size_t> n = size_of_number(d.number);
    const std::optional<std::size_t> grown = n ? multiply_sizes(count, *n) : std::nullopt;
    if (!grown || !multiply_sizes(*grown, sizeof(float)))
      return fault(base + d.offset,
                   who + " has more values than " + bytes_text(static_cast<double>(kMaxSize)) +
                       " of memory can hold.",
                   ErrorCode::too_large);
    count = *grown;
    t.shape.push_back(*n);
  }
  if (offsets->kind != Json::Kind::array || offsets->items.size() != 2 ||
      !offsets->items[0].is_count() || !offsets->items[1].is_count())
    return fault(base + offsets->offset,
                 who + ": data_offsets is not two whole numbers [begin, end].");
  const Json &first = offsets->items[0], &last = offsets->items[1];
  // Compared as written before any cast: a number above 2^32 does not fit wasm's size_t.
  if (first.number > last.number || last.number > static_cast<double>(data_size))
    return fault(base + offsets->offset, who + ": data_offsets [" + first.text + ", " + last.text +
                                             "] lie outside the " + std::to_string(data_size) +
                                             " bytes of data.");
  const auto b = static_cast<std::size_t>(first.number), e = static_cast<std::size_t>(last.number);
  if (e - b != count * width(t.dtype))
    return fault(base + offsets->offset, who + " holds " + std::to_string(e - b) +
                                             " bytes, but its shape and dtype need " +
                                             std::to_string(count * width(t.dtype)) + ".");
  t.begin = b;
  t.end = e;
  return t;
}

}  // namespace

Result<SafeTensors> read_safetensors(std::string_view bytes) {
  return read_safetensors_header(bytes, bytes.size());
}

std::size_t safetensors_head_size(std::string_view first) {
  if (first.size() < 8) return 8;
  const std::uint64_t n = u64le(first.data());
  return n > kMaxSafetensorsHeader ? 8 : 8 + static_cast<std::size_t>(n);
}

Result<SafeTensors> read_safetensors_header(std::string_view bytes, std::size_t file_size) {
  if (file_size == 0)
    return make_error(ErrorCode::empty_input, "model", -1, 0,
                      "model: the file is empty (0 bytes); a safetensors file begins with 8 bytes "
                      "that give the length of its header.");
  if (file_size < 8 || bytes.size() < 8)
    return fault(0,
                 "the file is " + std::to_string(file_size) +
                     " bytes, too short to be safetensors (8 bytes of header length come first).");
  const std::uint64_t n = u64le(bytes.data());
  if (n > kMaxSafetensorsHeader)
    return fault(
        0,
        "this is not a safetensors file, or it is damaged: its first 8 bytes should give the "
        "length of its header, but they read as " +
            std::to_string(n) + " bytes, more than any model file's header (at most " +
            bytes_text(static_cast<double>(kMaxSafetensorsHeader)) + ").",
        ErrorCode::too_large);
  if (n > file_size - 8 || n > bytes.size() - 8)
    return fault(0, "the header says it is " + std::to_string(n) +
                        " bytes, but the file has only " +
                        std::to_string(std::min<std::size_t>(file_size, bytes.size()) - 8) +
                        " after the length: it is cut short, or not safetensors.");
  const std::string_view header = bytes.substr(8, n);
  const std::size_t bad = utf8::find_invalid(header);
  if (bad != std::string_view::npos) return fault(8 + bad, "the header is not UTF-8 text.");
  Result<Json> json = parse_json(header, "model");
  if (!json) {
    Error e = json.error();
    const std::size_t at = 8 + static_cast<std::size_t>(std::max(0L, e.col));
    return fault(at,
                 "the header is not JSON (" + e.message.substr(e.message.find(": ", 7) + 2) + ")");
  }
  if (json->kind != Json::Kind::object)
    return fault(8, "the header is not a JSON object of tensors.");
  const std::size_t data_start = 8 + n, data_size = file_size - data_start;
  SafeTensors out;
  out.bytes = bytes;
  for (const auto& [name, v] : json->keys) {
    if (name == "__metadata__") {
      if (v.kind != Json::Kind::object)
        return fault(8 + v.offset, "__metadata__ is not an object of strings.");
      for (const auto& [k, s] : v.keys) {
        if (s.kind != Json::Kind::string)
          return fault(8 + s.offset, "__metadata__ \"" + k + "\" is not a string.");
        out.metadata.emplace_back(k, s.text);
      }
      continue;
    }
    Result<TensorEntry> t = entry(name, v, 8, data_size);
    if (!t) return t.error();
    out.tensors.push_back(std::move(t).value());
  }
  std::sort(out.tensors.begin(), out.tensors.end(), [](const TensorEntry& a, const TensorEntry& b) {
    return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
  });
  std::size_t covered = 0;
  for (const TensorEntry& t : out.tensors) {
    if (t.begin != covered)
      return fault(data_start + std::min(t.begin, covered),
                   "tensor \"" + t.name + "\" starts at data byte " + std::to_string(t.begin) +
                       ", but the tensors before it end at " + std::to_string(covered) +
                       (t.begin < covered ? ": they overlap." : ": there is a gap."));
    covered = t.end;
  }
  if (covered != data_size)
    return fault(data_start + covered, "the tensors end at data byte " + std::to_string(covered) +
                                           ", but the file goes on for " +
                                           std::to_string(data_size - covered) + " more bytes.");
  for (TensorEntry& t : out.tensors) {
    t.begin += data_start;
    t.end += data_start;
  }
  for (const TensorEntry& t : out.tensors) {
    if (t.dtype != DType::i8) continue;
    const TensorEntry* scale = out.find(t.name + ".scale");
    const std::vector<std::size_t> rows{t.shape.empty() ? 1 : t.shape[0]};
    if (!scale || scale->dtype == DType::i8 || scale->shape != rows)
      return fault(t.begin, "tensor \"" + t.name + "\" is I8, so it needs a float tensor \"" +
                                t.name + ".scale\" of shape [" + std::to_string(rows[0]) +
                                "], one scale a row" + (scale ? ", not this one." : "."));
  }
  return out;
}

namespace {

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
  std::uint32_t bits;
  if (exp == 0) {
    if (frac == 0) {
      bits = sign;
    } else {  // subnormal: normalise it
      int e = -1;
      std::uint32_t f = frac;
      do {
        ++e;
        f <<= 1;
      } while ((f & 0x400) == 0);
      bits = sign | ((127 - 15 - e) << 23) | ((f & 0x3FF) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000u | (frac << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (frac << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

}  // namespace

std::vector<float> tensor_floats(const SafeTensors& file, const TensorEntry& t) {
  std::vector<float> out(t.count());
  const char* p = file.bytes.data() + t.begin;
  if (out.empty()) return out;
  if (t.dtype == DType::i8) {  // read_safetensors() checked that the scales are there
    const std::vector<float> scale = tensor_floats(file, *file.find(t.name + ".scale"));
    const std::size_t row = out.size() / scale.size();
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<float>(static_cast<std::int8_t>(p[i])) * scale[i / row];
    return out;
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (t.dtype == DType::f32) {
      std::uint32_t bits = 0;
      for (int b = 3; b >= 0; --b) bits = (bits << 8) | static_cast<unsigned char>(p[4 * i + b]);
      std::memcpy(&out[i], &bits, 4);
    } else {
      const auto h = static_cast<std::uint16_t>(static_cast<unsigned char>(p[2 * i]) |
                                                (static_cast<unsigned char>(p[2 * i + 1]) << 8));
      if (t.dtype == DType::f16) {
        out[i] = half_to_float(h);
      } else {
        const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
        std::memcpy(&out[i], &bits, 4);
      }
    }
  }
  return out;
}

std::string write_safetensors(
    const std::vector<
        std::pair<std::string, std::pair<std::vector<std::size_t>, std::vector<float>>>>& tensors,
    const std::vector<std::pair<std::string, std::string>>& metadata) {
  std::string header = "{", data;
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    for (std::size_t i = 0; i < metadata.size(); ++i)
      header +=
          (i ? "," : "") + json_quote(metadata[i].first) + ":" + json_quote(metadata[i].second);
    header += "}";
  }
  for (const auto& [name, value] : tensors) {
    const auto& [shape, floats] = value;
    const std::size_t begin = data.size();
    for (float f : floats) {
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      for (int b = 0; b < 4; ++b) data += static_cast<char>((bits >> (8 * b)) & 0xFF);
    }
    std::string dims;
    for (std::size_t i = 0; i < shape.size(); ++i)
      dims += (i ? "," : "") + std::to_string(shape[i]);
    header += (header.size() > 1 ? "," : "") + json_quote(name) +
              ":{\"dtype\":\"F32\",\"shape\":[" + dims + "],\"data_offsets\":[" +
              std::to_string(begin) + "," + std::to_string(data.size()) + "]}";
  }
  header += "}";
  while (header.size() % 8) header += ' ';  // the data starts aligned, as the format's writers do
  std::string out(8, '\0');
  for (int b = 0; b < 8; ++b)
    out[b] = static_cast<char>((static_cast<std::uint64_t>(header.size()) >> (8 * b)) & 0xFF);
  return out + header + data;
}

}  // namespace attn
