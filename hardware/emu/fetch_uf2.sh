#!/usr/bin/env bash
# `make uf2`: the two binaries the box's chip needs, each kept only if it is what it should be,
# checked by its content (hardware/emu/check_assets.py: the UF2's blocks, RP2040 family, boot
# loader CRC and MicroPython v1.27.0 for the Pico in its binary info and banner; the boot ROM's
# magic, version B1, routine tables and git revision), so MicroPython's download and a build
# from the v1.27.0 tag are both taken and anything else is not:
# - the stock MicroPython UF2 (RPI_PICO, v1.27.0), for the emulated boxes (hardware/emu) and for
#   flashing a real Pico, from MicroPython's download page;
# - the RP2040 boot ROM, revision B1 (16 KiB), which the emulated chip runs from its mask ROM.
#   Raspberry Pi publishes it as source only (raspberrypi/pico-bootrom, BSD-3-Clause); the
#   rp2040js emulator's demo carries the built ROM as a Uint32Array literal (demo/bootrom.ts,
#   "revision: B1 (00a4a191...)"), fetched at a pinned commit and packed little-endian by
#   bootrom_from_ts.py. A mirror of the plain 16 KiB binary is taken as it is.
# Nothing is fetched when a directory the emulator searches ($BOX_RP2040_ASSETS, build/rp2040/, the
# user's cache ~/.cache/bidding-box/rp2040/; hardware/emu/harness.py) already holds both.
# Otherwise build/rp2040/ gets both: a file found in another of those directories is copied, the
# rest downloaded; what it gets is also kept in the user's cache, for the machine's other
# checkouts. A failed or refused download leaves nothing behind.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
DEST=build/rp2040
UF2=micropython-v1.27.0-RPI_PICO.uf2
UF2_URL=${UF2_URL:-https://micropython.org/resources/firmware/RPI_PICO-20251209-v1.27.0.uf2}  # (a mirror may be named)
ROM=rp2040-bootrom-b1.bin
ROM_URL=${BOOTROM_URL:-https://raw.githubusercontent.com/wokwi/rp2040js/8f032378586948687ed54e2309931aa3d543ba79/demo/bootrom.ts}
CHECK=hardware/emu/check_assets.py

# checked KIND FILE: FILE is the UF2 / boot ROM it should be (the reason on stdout when not)
checked() { [ -f "$2" ] && $PY "$CHECK" "$1" "$2" 2>&1 >/dev/null; }
ok() { [ -f "$2" ] && $PY "$CHECK" "$1" "$2" >/dev/null 2>&1; }

CACHE=""
if [ -n "${XDG_CACHE_HOME:-}" ] || [ -n "${HOME:-}" ]; then
  CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/bidding-box/rp2040"
fi
dirs=()
for dir in "${BOX_RP2040_ASSETS:-}" "$DEST" "$CACHE"; do
  [ -n "$dir" ] && dirs+=("$dir")
done
for dir in "${dirs[@]}"; do
  if ok uf2 "$dir/$UF2" && ok bootrom "$dir/$ROM"; then
    echo "uf2: $dir/$UF2"
    echo "bootrom: $dir/$ROM"
    exit 0
  fi
done

mkdir -p "$DEST"
work=$(mktemp -d "$DEST/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

# provide TAG NAME URL [CONVERT]: a checked copy of NAME in $DEST, from a searched directory or
# from URL (CONVERT: a command turning the download into NAME, tried when the download itself
# does not pass the check). TAG is also the check's kind (uf2, bootrom).
provide() {
  local tag=$1 name=$2 url=$3 convert=${4:-} dir why
  if ok "$tag" "$DEST/$name"; then
    echo "$tag: $DEST/$name"
    return 0
  fi
  for dir in "${dirs[@]}"; do
    if [ -f "$dir/$name" ] && ! ok "$tag" "$dir/$name"; then
      echo "$tag: ignored $dir/$name: $(checked "$tag" "$dir/$name")" >&2
    elif [ -f "$dir/$name" ]; then
      cp "$dir/$name" "$work/$name"
      mv "$work/$name" "$DEST/$name"
      echo "$tag: $DEST/$name (copied from $dir, checked)"
      return 0
    fi
  done
  echo "$tag: fetching $url"
  if ! curl -fsSL --retry 2 -o "$work/download" "$url"; then
    echo "$tag: could not download $url (no network?): put $name in $DEST/ or set BOX_RP2040_ASSETS" >&2
    return 1
  fi
  if ! ok "$tag" "$work/download" && [ -n "$convert" ]; then
    if ! $convert "$work/download" "$work/converted" 2>"$work/why"; then
      echo "$tag: refused: the download is neither the file itself nor convertible: $(cat "$work/why")" >&2
      rm -f "$work/download" "$work/converted"
      return 1
    fi
    mv "$work/converted" "$work/download"
  fi
  if ! ok "$tag" "$work/download"; then
    echo "$tag: refused: $(checked "$tag" "$work/download")" >&2
    rm -f "$work/download"
    return 1
  fi
  mv "$work/download" "$DEST/$name"
  echo "$tag: $DEST/$name ($($PY "$CHECK" "$tag" "$DEST/$name"))"
}

status=0
provide uf2 "$UF2" "$UF2_URL" || status=1
provide bootrom "$ROM" "$ROM_URL" "$PY hardware/emu/bootrom_from_ts.py" || status=1
if [ $status = 0 ] && [ -n "$CACHE" ] && ! { ok uf2 "$CACHE/$UF2" && ok bootrom "$CACHE/$ROM"; }; then
  mkdir -p "$CACHE" && cp "$DEST/$UF2" "$DEST/$ROM" "$CACHE/" && echo "kept in $CACHE for this machine's other checkouts" \
    || echo "could not keep a copy in $CACHE (not needed)" >&2
fi
exit $status
