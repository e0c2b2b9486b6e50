#!/usr/bin/env bash
# Deploy the box firmware to a real board with mpremote:  bash scripts/flash.sh PORT [SEAT]
# (the Makefile's `make flash PORT=/dev/ttyACM0 SEAT=N` calls this). The board must already run
# MicroPython (drag the RP2040 .uf2 onto it once). Copies the compiled firmware and protocol
# modules (.mpy: smaller and faster to import than .py), the pin map and the seat config, then
# resets the board so /main.py starts.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:?usage: flash.sh PORT [SEAT]}"
seat="${2:-}"
mpremote=.venv/bin/mpremote
[ -x "$mpremote" ] || mpremote=mpremote
if [ -n "$seat" ] && [[ ! "$seat" =~ ^[NESWnesw]$ ]]; then
  echo "flash.sh: SEAT must be one of N E S W (got '$seat')" >&2; exit 2
fi
bash scripts/mpy-check.sh
out=build/mpy
stage=build/flash
rm -rf "$stage"; mkdir -p "$stage/protocol"
cp "$out"/protocol/*.mpy "$stage/protocol/"
for f in "$out"/firmware/*.mpy; do
  [ "$(basename "$f")" = main.mpy ] && continue   # main stays .py: MicroPython runs /main.py at boot
  [ "$(basename "$f")" = hal_unix.mpy ] && continue   # the unix backend
  [ "$(basename "$f")" = manifest.mpy ] && continue   # the freeze manifest (custom images only)
  cp "$f" "$stage/"
done
cp firmware/main.py "$stage/main.py"
cp hardware/pinmap.json "$stage/pinmap.json"
if [ -n "$seat" ]; then
  printf '{"seat": "%s"}\n' "$(echo "$seat" | tr a-z A-Z)" > "$stage/config.json"
fi
# One mpremote session: make /protocol if missing, copy every file to the same path, reset.
args=(connect "$port" exec "import os
try:
    os.mkdir('protocol')
except OSError:
    pass")
n=0
while IFS= read -r f; do
  args+=(+ fs cp "$stage/$f" ":$f")
  n=$((n + 1))
done < <(cd "$stage" && find . -type f | sed 's|^\./||' | sort)
args+=(+ reset)
echo "flash.sh: copying $n files to $port"
if [ -n "${FLASH_DRY_RUN:-}" ]; then   # print the mpremote command instead (tests, checking)
  printf '%q ' "$mpremote" "${args[@]}"; echo; exit 0
fi
"$mpremote" "${args[@]}"
echo "flash.sh: done; the box restarts as seat ${seat:-from /config.json or jumpers}"
