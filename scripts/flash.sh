#!/usr/bin/env bash
# Deploy the box firmware to a real board with mpremote:  bash scripts/flash.sh PORT [SEAT]
# (the Makefile's `make flash PORT=/dev/ttyACM0 SEAT=N [ROMFS=1]` calls this). The board must
# already run MicroPython (drag the RP2040 .uf2 onto it once). Compiles what the board runs
# (scripts/box_image.py: .mpy, smaller and faster to import than .py, with the modules' integer
# constants folded in), copies it, the pin map and the seat config, then resets the board so
# /main.py starts.
#
# BUS=1: the box speaks RS-485 multidrop (only when polled); without it, point-to-point. The
# config is rewritten on every flash, so a re-flash never keeps an old seat or mode by accident:
# without SEAT the box reads its seat from the jumpers (hardware/wiring.md).
# FLASH_STAGE=DIR stages into DIR instead of build/flash (the emulator, hardware/emu, builds the
# board's LittleFS image from exactly this tree).
#
# DISPLAY_BUS=i2c: the display module is wired for I2C (GP4/GP5) instead of the reference box's
# 4-wire SPI; written to /config.json as "display" (hardware/display.md).
#
# ROMFS=1: the modules go into the board's ROMFS partition as one image instead (`mpremote romfs
# deploy`; the MicroPython build must have a ROMFS partition, MICROPY_HW_ROMFS_BYTES). Their
# bytecode then runs in place from flash and costs no heap (see `make bench`); module files left
# on the filesystem by an earlier flash are removed, because / comes before /rom on sys.path.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:?usage: flash.sh PORT [SEAT]}"
seat="${2:-}"
romfs="${ROMFS:-}"
bus="${BUS:-}"
mpremote=.venv/bin/mpremote
[ -x "$mpremote" ] || mpremote=mpremote
python=.venv/bin/python
[ -x "$python" ] || python=python3
if [ -n "$seat" ] && [[ ! "$seat" =~ ^[NESWnesw]$ ]]; then
  echo "flash.sh: SEAT must be one of N E S W (got '$seat')" >&2; exit 2
fi
stage="${FLASH_STAGE:-build/flash}"
rm -rf "$stage"
if [ -n "$romfs" ]; then
  mkdir -p "$stage"
  "$python" scripts/box_image.py romfs build/box.romfs
else
  "$python" scripts/box_image.py stage "$stage" > /dev/null
fi
cp firmware/main.py "$stage/main.py"
cp hardware/pinmap.json "$stage/pinmap.json"
if [ -n "$bus" ] && [ "$bus" != 0 ]; then bus_json=true; else bus_json=false; fi
# DISPLAY_BUS: how the display module is wired, spi (the reference box) or i2c
display_bus="${DISPLAY_BUS:-spi}"
if [ "$display_bus" != spi ] && [ "$display_bus" != i2c ]; then
  echo "flash.sh: DISPLAY_BUS must be spi or i2c (got '$display_bus')" >&2; exit 2
fi
if [ -n "$seat" ]; then
  printf '{"seat": "%s", "bus": %s, "display": "%s"}\n' "$(echo "$seat" | tr a-z A-Z)" "$bus_json" "$display_bus" > "$stage/config.json"
else
  printf '{"bus": %s, "display": "%s"}\n' "$bus_json" "$display_bus" > "$stage/config.json"
fi
if [ -n "$romfs" ]; then
  # One mpremote session: the image into ROMFS partition 0, old module files off the filesystem,
  # then main, pin map and config as files, and a reset (which mounts the new /rom).
  args=(connect "$port" romfs deploy build/box.romfs + exec "import os
for d in ('protocol', ''):
    try:
        names = os.listdir('/' + d)
    except OSError:
        continue
    for n in names:
        if n.endswith('.mpy'):
            os.remove('/' + d + '/' + n if d else '/' + n)
try:
    os.rmdir('/protocol')
except OSError:
    pass")
else
  # One mpremote session: make /protocol if missing, copy every file to the same path, reset.
  args=(connect "$port" exec "import os
try:
    os.mkdir('protocol')
except OSError:
    pass")
fi
n=0
while IFS= read -r f; do
  args+=(+ fs cp "$stage/$f" ":$f")
  n=$((n + 1))
done < <(cd "$stage" && find . -type f | sed 's|^\./||' | sort)
args+=(+ reset)
echo "flash.sh: ${romfs:+ROMFS image build/box.romfs and }copying $n files to $port"
if [ -n "${FLASH_DRY_RUN:-}" ]; then   # print the mpremote command instead (tests, checking)
  printf '%q ' "$mpremote" "${args[@]}"; echo; exit 0
fi
"$mpremote" "${args[@]}"
echo "flash.sh: done; the box restarts as seat ${seat:-from its jumpers}, bus $bus_json, display $display_bus"
