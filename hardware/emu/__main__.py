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
    sc = sub.add_parser("screens", help="boot a box behind the real tablet and save its screens")
    sc.add_argument("outdir", help="directory for box-*.png")
    a = ap.parse_args(argv)
    why = missing()
    if why:
        print("hardware.emu:", why, file=sys.stderr)
        return 2
    if a.cmd == "screens":
        return screens(pathlib.Path(a.outdir))
    with tempfile.TemporaryDirectory(prefix="box_emu_") as tmp, \
            EmuTable(pathlib.Path(tmp), a.seat, bus=a.bus) as t:
        m = t.wait_console(a.seat, r"box boot seat (\S) bus (\d) on (.+) heap (\d+)", a.timeout)
        print("machine:", m.group(3))
        print("heap in use after boot:", m.group(4), "bytes")
        print("seat:", m.group(1), "bus:", m.group(2))
        # the first picture takes the I2C bus a few tens of ms of chip time: the screen that
        # stays, not one caught mid-push
        last: list = [None]

        def settled(s) -> bool:
            same = s.ram == last[0]
            last[0] = s.ram
            return same and bool(s.lines[0])

        sc = t.wait_screen(a.seat, settled, a.timeout)
        print("screen:")
        for line in sc.lines:
            print("  |" + line)
        if a.screenshot:
            sc.png(a.screenshot)
            print("saved", a.screenshot)
    return 0


def screens(out: pathlib.Path) -> int:
    """The screens a player sees, from the box's own display memory on the emulated chip, with the
    real tablet (controller, laws engine, LinkMaster) on the other end."""
    from hardware.emu.rig import EmuRig

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="box_screens_") as tmp:
        r = EmuRig(pathlib.Path(tmp), "N")
        try:
            e = r.emu
            e.wait_screen("N", lambda s: "YOUR TURN" in s.lines[1], 120).png(out / "box-your-turn.png")
            e.press("N", "1 NT")
            e.wait_screen("N", lambda s: "1NT OK?" in s.lines[2], 60).png(out / "box-selected.png")
            with r.paused():  # the tablet has not acknowledged yet
                e.press("N", "OK")
                e.wait_screen("N", lambda s: "sending" in s.lines[2], 60).png(out / "box-sending.png")
            e.wait_screen("N", lambda s: "E to call" in s.lines[1], 60).png(out / "box-made.png")
        finally:
            r.close()
    for f in sorted(out.glob("box-*.png")):
        print("saved", f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
