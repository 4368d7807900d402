// The buffers and the error that both modules share (boundary.hpp says what crosses and how).
#include "boundary.hpp"

#include <emscripten/em_macros.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include <utility>
#include <vector>

namespace attn::wasm {
namespace {

// Both buffers live as long as the module and only grow, so a warm module allocates nothing to
// cross the boundary, and the input address api/ caches stays valid until it asks for more, or
// until attn_release() gives them back.
std::vector<double> g_in;
std::vector<double> g_out;

// What attn_error() says of a call that returned 0 without a reason: a defect of the module, named
// as one rather than reported as whatever failed before it.
Error no_error() {
  return make_error(ErrorCode::bad_argument, "", -1, -1,
                    "The module refused this call without saying why.");
}

Error g_error =
    no_error();  // set by fail(), cleared by begin_call() and by attn_error() once it is read

}  // namespace

Reader input() { return Reader(g_in.data()); }

std::size_t input_size() { return g_in.size(); }

Writer output() { return Writer(g_out); }

void begin_call() { g_error = no_error(); }

Address fail(Error e) {
  g_error = std::move(e);
  return 0;
}

void write_heap(Writer& w) {
  const struct mallinfo info = mallinfo();
  w.number(static_cast<double>(emscripten_get_heap_size()));
  w.number(static_cast<double>(info.uordblks));  // the bytes in allocated blocks
}

}  // namespace attn::wasm

extern "C" {

EMSCRIPTEN_KEEPALIVE attn::wasm::Address attn_input(std::size_t count) {
  using attn::wasm::g_in;
  if (g_in.size() < count) g_in.resize(count);
  return reinterpret_cast<attn::wasm::Address>(g_in.data());
}

// Written into the output buffer like any result, so that JS reads an error as it reads the rest.
EMSCRIPTEN_KEEPALIVE attn::wasm::Address attn_error() {
  using attn::wasm::g_error;
  attn::wasm::Writer w = attn::wasm::output();
  w.text(to_string(g_error.code));
  w.text(g_error.message);
  w.text(g_error.input);
  w.number(static_cast<double>(g_error.row));
  w.number(static_cast<double>(g_error.col));
  attn::wasm::begin_call();  // read once: a later call cannot be answered with it
  return w.finish();
}

// Called by api/ once the result of a call that moved more than a few MiB is copied out (the
// page's calls move less, and keep their buffers warm): one large call does not keep its
// megabytes for the life of the module.
EMSCRIPTEN_KEEPALIVE void attn_release() {
  attn::wasm::release_own_buffers();
  std::vector<double>().swap(attn::wasm::g_in);
  std::vector<double>().swap(attn::wasm::g_out);
}

}  // extern "C"
