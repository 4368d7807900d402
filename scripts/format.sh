#!/usr/bin/env bash
# One formatter per language: clang-format (Debian's, .clang-format) for the C++ of cpp/, tests/
# and tools/, prettier (npm, .prettierrc.json) for the TypeScript of web/src and the engine's JS API.
#   scripts/format.sh          rewrites the files in place
#   scripts/format.sh --check  changes nothing; lists what is not formatted and fails (npm test)
set -euo pipefail
cd "$(dirname "$0")/.."
check=${1:-}
mapfile -t cpp < <(git ls-files 'cpp/*.cpp' 'cpp/*.hpp' 'tests/*.cpp' 'tests/*.hpp' 'tools/*.cpp')
mapfile -t web < <(git ls-files 'web/src/*.ts' 'cpp/wasm/*.js')
status=0
if [ "$check" = --check ]; then
  for f in "${cpp[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || { echo "not formatted: $f"; status=1; }
  done
  node_modules/.bin/prettier --check --log-level warn "${web[@]}" || status=1
  [ $status -eq 0 ] && echo "format: ${#cpp[@]} C++ and ${#web[@]} TypeScript/JavaScript files are formatted"
  exit $status
fi
clang-format -i "${cpp[@]}"
node_modules/.bin/prettier --write --log-level warn "${web[@]}"
