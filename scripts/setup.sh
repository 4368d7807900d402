#!/usr/bin/env bash
# Installs what the build and the tests need, if it is missing. Safe to run again.
# As root on Debian 12 it installs Debian packages with apt-get; otherwise it prints exactly what
# to install and stops. Then it installs the npm packages (package-lock.json) if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: what we need -> a file that proves it is installed (a glob pattern).
declare -A need=(
  [cmake]=/usr/bin/cmake
  [g++]=/usr/bin/g++
  [clang]=/usr/bin/clang++
  [clang-format]=/usr/bin/clang-format
  # clang's ASan, UBSan and libFuzzer runtimes, which the sanitize and fuzz builds link: only a
  # Recommends of clang, so `apt-get install --no-install-recommends clang` leaves them out.
  [libclang-rt-14-dev]='/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.a'
  [emscripten]=/usr/bin/em++
  [xtensor-dev]=/usr/include/xtensor/xtensor.hpp
  [xtl-dev]=/usr/include/xtl/xtl_config.hpp
  [catch2]=/usr/include/catch2/catch.hpp
  # The Unicode Character Database: the core's grapheme cluster test reads GraphemeBreakTest.txt,
  # and scripts/unicode-tables.py generates the core's tables from it.
  [unicode-data]=/usr/share/unicode/auxiliary/GraphemeBreakTest.txt
  [chromium]=/usr/bin/chromium
  # The same Chromium as its headless shell, which the browser tests drive (tests/e2e/page-helpers.mjs).
  [chromium-headless-shell]=/usr/lib/chromium/chromium-headless-shell
  [fonts-dejavu-core]=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  # A math font, so the formula's brackets stretch and √ covers d_k in every language (the page
  # names it after the math fonts readers' systems have).
  [fonts-dejavu-extra]=/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf
  [fonts-noto-cjk]=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
  # The page exports a matrix as NumPy code; the export test runs that code with Debian's python3.
  [python3-numpy]=/usr/lib/python3/dist-packages/numpy/__init__.py
  # PyTorch, which trains the page's language model (scripts/model/train.py): the tests check the
  # core's forward against PyTorch's on the shipped model and on random checkpoints.
  [python3-torch]=/usr/lib/python3/dist-packages/torch/__init__.py
)
missing=()
for pkg in "${!need[@]}"; do
  compgen -G "${need[$pkg]}" >/dev/null || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages. Install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

# npm packages: install when node_modules is missing or older than the lock file. A node_modules
# that is a link to another checkout's packages (a git worktree sharing them) is left alone:
# `npm ci` would empty the folder it points to and install here instead.
if [ -L node_modules ]; then
  echo "setup: node_modules links to $(readlink node_modules); install npm packages there"
elif [ -f package-lock.json ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; }; then
  echo "setup: installing npm packages"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  touch node_modules
fi
