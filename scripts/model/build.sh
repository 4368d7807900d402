#!/usr/bin/env bash
# Rebuilds the page's language model, data/model/model.safetensors, from the pinned sources:
#   1. fetches and checks them (scripts/vectors/fetch.sh, shared with the word vectors);
#   2. writes the English and Chinese text, with a held-out part (corpus.mjs);
#   3. learns the tokenizer: 1,200 merges from the English text and the 2,400 characters seen
#      most often in the Chinese text (tools/bpe_train), and encodes the text with it;
#   4. trains the model with PyTorch (train.py) and packs it as 8-bit weights (pack.py);
#   5. writes the lesson "What real heads do" from it (lesson.mjs), with the core in wasm.
# Then node scripts/model/measure.mjs prints the tables of docs/language-model.md.
# Needs the native tools (bash scripts/build.sh native), the network and python3-torch; uses
# OpenBLAS when it is installed (apt-get install libopenblas0-pthread), ten times faster at
# PyTorch's matrix products than Debian's reference BLAS. The same sources give the same file.
#   bash scripts/model/build.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
[ -x build/native/tools/bpe_train ] || bash scripts/build.sh native
bash scripts/vectors/fetch.sh
node scripts/model/corpus.mjs
out=build/model
mkdir -p "$out/tokenizer"
build/native/tools/bpe_train 1200 2400 "$out/corpus/en.train.txt" "$out/corpus/zh.train.txt" "$out/tokenizer"
for part in en.train en.valid zh.train zh.valid; do
  build/native/tools/bpe_encode "$out/tokenizer/vocab.json" "$out/tokenizer/merges.txt" --u16 \
    <"$out/corpus/$part.txt" >"$out/$part.u16"
done
/usr/bin/python3 scripts/model/train.py
/usr/bin/python3 scripts/model/pack.py
sha256sum data/model/model.safetensors
[ -f dist/attention-model.js ] || bash scripts/build.sh wasm
node scripts/model/lesson.mjs
echo "build.sh: $(( $(date +%s) - start )) s"
