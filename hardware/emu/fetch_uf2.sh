#!/usr/bin/env bash
# `make uf2`: the stock MicroPython UF2 the box runs on (RPI_PICO, v1.27.0), for the emulated
# boxes (hardware/emu) and for flashing a real Pico. Nothing is fetched when a copy is already in
# $BOX_RP2040_ASSETS, build/rp2040/ or ../shared/rp2040/ (where the tests find it, with no
# network). Otherwise it is downloaded from MicroPython's download page into build/rp2040/ and
# kept only if its sha256 is the pinned one.
set -euo pipefail
cd "$(dirname "$0")/../.."
NAME=micropython-v1.27.0-RPI_PICO.uf2
URL=${UF2_URL:-https://micropython.org/resources/firmware/RPI_PICO-20251209-v1.27.0.uf2}  # (a mirror may be named)
SHA256=0ee9cece99e77658387b53b2aa89c575f4e080eb710cd64b94f2f3b22b10b564

for dir in "${BOX_RP2040_ASSETS:-}" build/rp2040 ../shared/rp2040 ../../shared/rp2040; do
  if [ -n "$dir" ] && [ -f "$dir/$NAME" ]; then
    echo "uf2: $dir/$NAME"
    exit 0
  fi
done
mkdir -p build/rp2040
tmp=$(mktemp build/rp2040/.uf2.XXXXXX)
trap 'rm -f "$tmp"' EXIT
echo "uf2: fetching $URL"
if ! curl -fsSL --retry 2 -o "$tmp" "$URL"; then
  echo "uf2: could not download $URL (no network?): put $NAME in build/rp2040/ or set BOX_RP2040_ASSETS" >&2
  exit 1
fi
got=$(sha256sum "$tmp" | cut -d' ' -f1)
if [ "$got" != "$SHA256" ]; then
  echo "uf2: refused: sha256 of the download is $got, pinned is $SHA256" >&2
  exit 1
fi
mv "$tmp" "build/rp2040/$NAME"
echo "uf2: build/rp2040/$NAME (sha256 checked)"
