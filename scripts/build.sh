#!/usr/bin/env bash
# Builds everything into build/ and dist/:
#   build/native    the core, its Catch2 tests (and the fixtures for the JS parity tests), and
#                   tools/train_vectors (word vectors from a text corpus)
#   build/sanitize  the same, with AddressSanitizer and UndefinedBehaviorSanitizer, and beside
#                   them libFuzzer targets for the parsers, the tokenizer and attention (clang)
#   build/wasm      the same core and tests as wasm, dist/attention-engine.js,
#                   dist/attention-trainer.js and dist/attention-model.js (each with its .d.ts)
#   dist/           the page: index.html, app.js, app.css (web/, type-checked, bundled by esbuild)
# Usage: scripts/build.sh [native|sanitize|wasm|web|site|all]   (default: all; fuzz = sanitize)
#   site            what `npm start` serves: the engine alone (not the wasm tests) and the page
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
  # $1: one target (the engine alone, for `npm start`), or every target (the engine and the
  # Catch2 suite compiled to wasm).
  # emcc runs its JS optimiser with node and needs Debian's acorn (docs/toolchain.md, "Running emcc").
  export NODE_PATH=/usr/share/nodejs
  # emcmake's default test emulator is `node --experimental-wasm-threads`, which node 20 rejects.
  # Closure shrinks the engine's glue; Debian's closure-compiler is too old, npm's works.
  if [ -x node_modules/.bin/google-closure-compiler ]; then
    export EM_CLOSURE_COMPILER="$PWD/node_modules/.bin/google-closure-compiler"
  fi
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" >/dev/null
  cmake --build build/wasm -j "$jobs" ${1:+--target "$1"}
  mkdir -p dist
  cp build/wasm/cpp/wasm/attention-engine.js cpp/wasm/attention-engine.d.ts dist/
  # The trainer, when it was built (`site` builds the engine alone).
  if [ -z "${1:-}" ] || [ "$1" = attention_trainer ]; then
    cp build/wasm/cpp/wasm/attention-trainer.js cpp/wasm/attention-trainer.d.ts dist/
  fi
  if [ -z "${1:-}" ] || [ "$1" = attention_model ]; then
    cp build/wasm/cpp/wasm/attention-model.js cpp/wasm/attention-model.d.ts dist/
  fi
}

build_web() {
  # Type-check (tsc, strict) and bundle (esbuild) the page into dist/.
  node_modules/.bin/tsc -p web/tsconfig.json
  node web/build.mjs
}

case "$what" in
  native) build_native ;;
  sanitize | fuzz) build_sanitize ;;
  wasm) build_wasm ;;
  web) build_web ;;
  site) build_wasm attention_engine; build_web ;;
  all) build_native; build_sanitize; build_wasm; build_web ;;
  *) echo "usage: $0 [native|sanitize|wasm|web|site|all]" >&2; exit 2 ;;
esac
