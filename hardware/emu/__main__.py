"""python -m hardware.emu boot --seat N [--bus] [--screenshot FILE.png] [--seconds S]

Boots one box on an emulated RP2040 as `make flash` would leave it (stock MicroPython v1.27.0
RPI_PICO, the boot ROM, the firmware's LittleFS image), prints what the box reports at boot
(the chip's sys.implementation._machine and the heap in use) and saves its screen as a PNG."""
import argparse
import pathlib
import sys
import tempfile

from hardware.emu.harness import EmuTable, missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hardware.emu")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("boot", help="boot one box and save its screen")
    b.add_argument("--seat", default="N", choices=list("NESW"))
    b.add_argument("--bus", action="store_true", help="flash it for the RS-485 bus (BUS=1)")
    b.add_argument("--screenshot", help="PNG file for the box's screen")
    b.add_argument("--timeout", type=float, default=60.0, help="wall seconds to wait for boot")
    a = ap.parse_args(argv)
    why = missing()
    if why:
        print("hardware.emu:", why, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="box_emu_") as tmp, \
            EmuTable(pathlib.Path(tmp), a.seat, bus=a.bus) as t:
        m = t.wait_console(a.seat, r"box boot seat (\S) bus (\d) on (.+) heap (\d+)", a.timeout)
        print("machine:", m.group(3))
        print("heap in use after boot:", m.group(4), "bytes")
        print("seat:", m.group(1), "bus:", m.group(2))
        sc = t.wait_screen(a.seat, lambda s: bool(s.lines[0]), a.timeout)
        print("screen:")
        for line in sc.lines:
            print("  |" + line)
        if a.screenshot:
            sc.png(a.screenshot)
            print("saved", a.screenshot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
