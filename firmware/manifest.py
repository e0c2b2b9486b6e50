# ruff: noqa: F821  (include/package/module are provided by MicroPython's manifest runner)
# Freeze manifest for a custom MicroPython rp2 image with the box firmware built in:
#   cd micropython/ports/rp2 && make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repo/firmware/manifest.py
# Frozen bytecode runs from flash, so the code (about 48 KB of heap when the .mpy files are
# imported from the filesystem on the 64-bit unix port, see `make bench`) costs no RAM and the
# heap holds only the box's buffers and state. /pinmap.json and /config.json stay files.
include("$(PORT_DIR)/boards/manifest.py")
package("protocol", base_path="..")
for name in ("app", "calls", "entry", "hal_rp2", "keypad", "keys", "render", "ssd1306", "store",
             "view"):
    module(name + ".py")
module("main.py")
