// The boundary both wasm modules cross the same way (the engine: bindings.cpp and convert_*.cpp;
// the trainer: trainer_bindings.cpp): one input buffer that api/matrices.js writes into, one output
// buffer that results are written to (stream.hpp), and the last error, read as a value by
// api/matrices.js (lastError) after a call returned 0.
//
// Its exports are plain wasm exports, so that the same JS calls them in both modules whether the
// module uses Embind or not:
//   attn_input(count)  the byte address of room for `count` doubles of input
//   attn_error()       the last error: [code, message, input (text, Writer::text), row, col]
//   attn_release()     gives back the buffers after a call that moved megabytes
#pragma once

#include <cstddef>
#include <cstdint>

#include "common.hpp"
#include "stream.hpp"

namespace attn::wasm {

using Address = std::uintptr_t;

Reader input();            // reads the input buffer from its start
std::size_t input_size();  // doubles the input buffer holds: no Reader may read past them
Writer output();           // starts a result in the output buffer
Address fail(Error e);     // keeps e for attn_error() and returns 0
// Forgets the last error. Every export that can fail calls it first, so that what attn_error()
// says after a call returned 0 is that call's own, never an earlier call's.
void begin_call();

// The heap's size and the bytes malloc has handed out, as two numbers: what each module's
// memoryStats() starts with (emmalloc, the build's -sMALLOC, implements mallinfo()).
void write_heap(Writer& w);

// Each module's own buffers, given back by attn_release() before the shared ones. Defined once per
// module (convert_common.cpp, trainer_bindings.cpp).
void release_own_buffers();

}  // namespace attn::wasm
