#!/usr/bin/env bash
# Builds everything into build/ and dist/:
#   build/native    the core, its Catch2 tests (and the fixtures for the JS parity tests)
#   build/sanitize  the same, with AddressSanitizer and UndefinedBehaviorSanitizer
#   build/wasm      the same core and tests as wasm, and dist/attention-engine.js
# Usage: scripts/build.sh [native|sanitize|wasm|all]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
jobs=$(nproc 2>/dev/null || echo 2)

build_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
}

build_sanitize() {
  # clang: its UBSan runtime comes with libclang-rt-14-dev; -O1 keeps the stacks readable.
  CXX=clang++ cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DATTN_SANITIZE=ON >/dev/null
  cmake --build build/sanitize -j "$jobs"
}

build_wasm() {
  # emcc runs its JS optimiser with node and needs Debian's acorn (TOOLCHAIN.md).
  export NODE_PATH=/usr/share/nodejs
  # emcmake's default test emulator is `node --experimental-wasm-threads`, which node 20 rejects.
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
  cmake --build build/wasm -j "$jobs"
}

case "$what" in
  native) build_native ;;
  sanitize) build_sanitize ;;
  wasm) build_wasm ;;
  all) build_native; build_sanitize; build_wasm ;;
  *) echo "usage: $0 [native|sanitize|wasm|all]" >&2; exit 2 ;;
esac
