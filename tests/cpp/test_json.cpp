// The JSON reader of model headers (cpp/core/json.hpp): values as written, and every refusal
// named by its byte.
#include <string>

#include "json.hpp"
#include "test_utils.hpp"

using namespace attn;

TEST_CASE("json: objects, arrays, strings with escapes, numbers as written", "[json]") {
  const Result<Json> j = parse_json(
      R"( {"a": [1, -2.5e1, true, null], "b\u00e9\ud83c\udf4e": "x\ny", "c": {}} )", "h");
  REQUIRE(j.ok());
  REQUIRE(j->keys.size() == 3);
  const Json& a = *j->find("a");
  CHECK(a.items.size() == 4);
  CHECK(a.items[0].is_count());
  CHECK(a.items[1].number == -25);
  CHECK_FALSE(a.items[1].is_count());
  CHECK(a.items[2].boolean);
  CHECK(j->keys[1].first == "bé🍎");
  CHECK(j->keys[1].second.text == "x\ny");
  CHECK(a.offset == 7);
}

TEST_CASE("json: what it refuses names the byte", "[json]") {
  const auto fails = [](const std::string& text) {
    const Result<Json> j = parse_json(text, "h");
    REQUIRE_FALSE(j.ok());
    return j.error().message;
  };
  CHECK(fails(R"({"a": 1, "a": 2})") == "h: byte 9: the key \"a\" appears twice.");
  CHECK(fails("[01]") == "h: byte 1: a number may not start with 0.");
  CHECK(fails("[1.]") == "h: byte 1: a number needs digits after its '.'.");
  CHECK(fails("{} x") == "h: byte 3: unexpected text after the end of the JSON value.");
  CHECK(fails(R"(["\udc00"])") == "h: byte 2: a lone low surrogate.");
  CHECK(fails("[\"a\tb\"]") == "h: byte 3: a control character inside a string.");
  CHECK(fails(std::string(70, '[')) == "h: byte 65: nested deeper than 64 levels.");
  CHECK(fails(R"({"a" 1})") == "h: byte 5: expected ':' after a key.");
  // A Latin-1 é (0xE9) where UTF-8 needs two bytes, and a cut-off three-byte character.
  CHECK(fails("{\"caf\xE9\": 1}") == "h: byte 5: this is not UTF-8 text, as JSON must be.");
  CHECK(fails("[\"\xE4\xB8\"]") == "h: byte 2: this is not UTF-8 text, as JSON must be.");
}

TEST_CASE("json: a string quoted reads back as itself", "[json]") {
  const std::string text = "a \"quote\", a \\ backslash,\na line and a \x01 control, 中文";
  const std::string quoted = json_quote(text);
  CHECK(quoted == "\"a \\\"quote\\\", a \\\\ backslash,\\na line and a \\u0001 control, 中文\"");
  const Result<Json> back = parse_json(quoted, "test");
  REQUIRE(back);
  CHECK(back->text == text);
}
