// The option strings of the core's enums, as both modules hand them to JS once when they load
// (convert_common.cpp, enum_names; trainer_bindings.cpp, attn_names), read by api/checks.js
// (parseNames): one line per enum, "key name name …", the names in enumerator order, so that JS
// never spells an enum's order.
#pragma once

#include <cstddef>
#include <string>

namespace attn::wasm {

// Each option string with its enumerator, so that reordering an enum cannot shift them.
struct Name {
  int value;
  const char* name;
};

template <class Enum>
constexpr Name named(Enum value, const char* name) {
  return {static_cast<int>(value), name};
}

struct EnumNames {
  const char* key;
  const Name* names;
  int count;  // the enumerators are 0 … count − 1
};

template <int N>
constexpr EnumNames names_of(const char* key, const Name (&names)[N]) {
  return {key, names, N};
}

template <std::size_t N>
std::string enum_lines(const EnumNames (&enums)[N]) {
  std::string s;
  for (const EnumNames& e : enums) {
    s += e.key;
    for (int value = 0; value < e.count; ++value) {
      for (int k = 0; k < e.count; ++k) {
        if (e.names[k].value == value) (s += ' ') += e.names[k].name;
      }
    }
    s += '\n';
  }
  return s;
}

}  // namespace attn::wasm
