// The safetensors layout (cpp/core/lm/safetensors.hpp), with bytes written by hand: every refusal
// names its byte, F16 and BF16 widen exactly, and I8 rows are their integers times their scales.
#include <cstring>
#include <string>
#include <vector>

#include "lm/safetensors.hpp"
#include "test_utils.hpp"

using namespace attn;

namespace {

std::string with_header(const std::string& header, const std::string& data) {
  std::string out(8, '\0');
  for (int b = 0; b < 8; ++b) out[b] = static_cast<char>((header.size() >> (8 * b)) & 0xFF);
  return out + header + data;
}

std::string floats(std::initializer_list<float> xs) {
  std::string out;
  for (float f : xs) {
    char b[4];
    std::memcpy(b, &f, 4);
    out.append(b, 4);  // the test machines are little-endian, as the format is
  }
  return out;
}

}  // namespace

TEST_CASE("safetensors: a file written and read back, its metadata and tensors in order",
          "[safetensors]") {
  const std::string bytes =
      write_safetensors({{"b", {{2}, {3.5f, -1}}}, {"a", {{1, 2}, {0.25f, 8}}}}, {{"n_head", "2"}});
  const Result<SafeTensors> f = read_safetensors(bytes);
  REQUIRE(f.ok());
  REQUIRE(f->tensors.size() == 2);
  CHECK(f->tensors[0].name == "b");
  CHECK(*f->meta("n_head") == "2");
  const TensorEntry* a = f->find("a");
  REQUIRE(a);
  CHECK(a->shape == std::vector<std::size_t>{1, 2});
  CHECK(tensor_floats(*f, *a) == std::vector<float>{0.25f, 8});
  CHECK(tensor_floats(*f, *f->find("b")) == std::vector<float>{3.5f, -1});
}

TEST_CASE("safetensors: F16 and BF16 widen to float32 exactly", "[safetensors]") {
  // F16: 1, −2, the smallest subnormal 2^-24, 65504, +Inf; BF16: 1, −0.5.
  const std::string data = std::string("\x00\x3C\x00\xC0\x01\x00\xFF\x7B\x00\x7C", 10) +
                           std::string("\x80\x3F\x00\xBF", 4);
  const std::string header =
      R"({"h":{"dtype":"F16","shape":[5],"data_offsets":[0,10]},"b":{"dtype":"BF16","shape":[2],"data_offsets":[10,14]}})";
  const std::string bytes = with_header(header, data);  // the reader keeps a view of it
  const Result<SafeTensors> f = read_safetensors(bytes);
  REQUIRE(f.ok());
  const std::vector<float> h = tensor_floats(*f, *f->find("h"));
  CHECK(h[0] == 1.0f);
  CHECK(h[1] == -2.0f);
  CHECK(h[2] == std::ldexp(1.0f, -24));
  CHECK(h[3] == 65504.0f);
  CHECK(std::isinf(h[4]));
  CHECK(tensor_floats(*f, *f->find("b")) == std::vector<float>{1.0f, -0.5f});
}

TEST_CASE("safetensors: I8 weights are their integers times their row's scale", "[safetensors]") {
  // Two rows of three: (1, −2, 127) × 0.5 and (−128, 0, 3) × 0.25.
  const std::string data = std::string("\x01\xFE\x7F\x80\x00\x03", 6) + floats({0.5f, 0.25f});
  const std::string header =
      R"({"w":{"dtype":"I8","shape":[2,3],"data_offsets":[0,6]},"w.scale":{"dtype":"F32","shape":[2],"data_offsets":[6,14]}})";
  const std::string bytes = with_header(header, data);
  const Result<SafeTensors> f = read_safetensors(bytes);
  REQUIRE(f.ok());
  CHECK(tensor_floats(*f, *f->find("w")) ==
        std::vector<float>{0.5f, -1.0f, 63.5f, -32.0f, 0.0f, 0.75f});
  // Without its scales, or with one scale too few, the tensor is refused by name, at its first
  // byte (8 + the 109 bytes of header).
  const std::string alone = with_header(
      R"({"w":{"dtype":"I8","shape":[2,3],"data_offsets":[0,6]},"x":{"dtype":"F32","shape":[2],"data_offsets":[6,14]}})",
      data);
  const Result<SafeTensors> bad = read_safetensors(alone);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message ==
        "model: byte 117: tensor \"w\" is I8, so it needs a float tensor \"w.scale\" of shape [2], "
        "one scale a row.");
  const std::string short_scale = with_header(
      R"({"w":{"dtype":"I8","shape":[2,3],"data_offsets":[0,6]},"w.scale":{"dtype":"F32","shape":[1],"data_offsets":[6,10]}})",
      data.substr(0, 10));
  const Result<SafeTensors> wrong = read_safetensors(short_scale);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find("of shape [2], one scale a row, not this one.") !=
        std::string::npos);
}

TEST_CASE("safetensors: a damaged layout is refused with the byte and the tensor",
          "[safetensors]") {
  const auto fails = [](const std::string& header, const std::string& data) {
    const Result<SafeTensors> f = read_safetensors(with_header(header, data));
    REQUIRE_FALSE(f.ok());
    return f.error().message;
  };
  const std::string eight = floats({1, 2});
  CHECK(fails(R"({"w":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})", eight) ==
        "model: byte 22: tensor \"w\" is I64: only F32, F16, BF16 and I8 weights can be read.");
  CHECK(fails(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", eight) ==
        "model: byte 55: tensor \"w\" holds 8 bytes, but its shape and dtype need 12.");
  CHECK(fails(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", eight) ==
        "model: byte 62: tensor \"w\" starts at data byte 4, but the tensors before it end at 0: "
        "there is a gap.");
  CHECK(fails(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", eight) ==
        "model: byte 66: the tensors end at data byte 4, but the file goes on for 4 more bytes.");
  CHECK(fails(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,12]}})", eight) ==
        "model: byte 55: tensor \"w\": data_offsets [0, 12] lie outside the 8 bytes of data.");
  CHECK(fails(R"({"w":{"dtype":"F32","shape":[2]}})", eight) ==
        "model: byte 13: tensor \"w\" lacks its data_offsets.");
  CHECK(fails(R"({"__metadata__":{"n":2}})", "") ==
        "model: byte 29: __metadata__ \"n\" is not a string.");
  CHECK(fails(R"([1])", "") == "model: byte 8: the header is not a JSON object of tensors.");
  CHECK(fails("{\"w\":", "") ==
        "model: byte 13: the header is not JSON (the text ends where a JSON value should be.)");
  const Result<SafeTensors> short_file = read_safetensors("abc");
  REQUIRE_FALSE(short_file.ok());
  CHECK(short_file.error().message ==
        "model: byte 0: the file is 3 bytes, too short to be safetensors (8 bytes of header length "
        "come first).");
}

TEST_CASE("safetensors: the first 8 bytes say how many hold the header", "[safetensors]") {
  const std::string file =
      with_header(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", floats({1}));
  // 8 bytes of length, then the 54-byte header it gives: 62 bytes before the data.
  CHECK(safetensors_head_size(file) == 62);
  CHECK(safetensors_head_size(file.substr(0, 8)) == 62);
  CHECK(read_safetensors_header(file.substr(0, 62), file.size()).ok());
  CHECK_FALSE(read_safetensors_header(file.substr(0, 61), file.size()).ok());
  CHECK(safetensors_head_size(file.substr(0, 7)) == 8);  // the length is not all here yet
  // A length past the largest header: 8, and the header read then says why.
  std::string huge = file;
  huge[7] = 1;  // 2^56 + 54
  CHECK(safetensors_head_size(huge) == 8);
  const Result<SafeTensors> refused = read_safetensors_header(huge.substr(0, 8), huge.size());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::too_large);
}
