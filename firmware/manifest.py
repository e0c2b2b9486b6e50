# ruff: noqa: F821  (include/package/module are provided by MicroPython's manifest runner)
# Freeze manifest for a custom MicroPython rp2 image with the box firmware built in:
#   cd micropython/ports/rp2 && make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
# Frozen bytecode runs from flash, so the code's bytecode costs no heap (like a ROMFS image,
# `make flash ROMFS=1`, which needs no custom build of the code: see firmware/README.md, Memory).
# /pinmap.json and /config.json stay files.
include("$(PORT_DIR)/boards/manifest.py")
package("protocol", base_path="..")
for name in ("app", "calls", "entry", "font16", "hal_rp2", "keypad", "keys", "render", "ssd1306",
             "store", "view"):
    module(name + ".py")
module("main.py")
