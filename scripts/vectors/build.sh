#!/usr/bin/env bash
# Rebuilds the shipped word vectors, data/vectors/words.bin, from the pinned sources: downloads
# and checks them (fetch.sh), writes the corpora (extract.mjs), then learns and packs the vectors
# (build.mjs). Needs the native tools (bash scripts/build.sh native) and the network; the same
# sources give the same file, byte for byte.
#   bash scripts/vectors/build.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
[ -x build/native/tools/train_vectors ] || bash scripts/build.sh native
bash scripts/vectors/fetch.sh
node scripts/vectors/extract.mjs
node scripts/vectors/build.mjs
echo "build.sh: $(( $(date +%s) - start )) s"
