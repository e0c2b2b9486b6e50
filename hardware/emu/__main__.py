"""python -m hardware.emu boot --seat N [--bus] [--screenshot FILE.png] [--seconds S]

Boots one box on an emulated RP2040 as `make flash` would leave it (stock MicroPython v1.27.0
RPI_PICO, the boot ROM, the firmware's LittleFS image), prints what the box reports at boot
(the chip's sys.implementation._machine and the heap in use) and saves its screen as a PNG."""
import argparse
import pathlib
import sys
import tempfile

from hardware.emu.harness import EmuTable, missing
from shared_rules.types import SEATS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hardware.emu")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("boot", help="boot one box and save its screen")
    b.add_argument("--seat", default="N", choices=list(SEATS))
    b.add_argument("--bus", action="store_true", help="flash it for the RS-485 bus (BUS=1)")
    b.add_argument("--screenshot", help="PNG file for the box's screen")
    b.add_argument("--timeout", type=float, default=60.0, help="seconds of the chip's time to wait for boot")
    screens_p = sub.add_parser("screens", help="boot a box behind the real tablet and save its screens")
    screens_p.add_argument("outdir", help="directory for box-*.png")
    a = ap.parse_args(argv)
    why = missing()
    if why:
        print("hardware.emu:", why, file=sys.stderr)
        return 2
    if a.cmd == "screens":
        return screens(pathlib.Path(a.outdir))
    with tempfile.TemporaryDirectory(prefix="box_emu_") as tmp, \
            EmuTable(pathlib.Path(tmp), a.seat, bus=a.bus) as t:
        m = t.wait_console(a.seat, r"box boot seat (\S) bus (\d) on (.+) heap (\d+) native (\d)", a.timeout)
        print("machine:", m.group(3))
        print("heap in use after boot:", m.group(4), "bytes")
        print("seat:", m.group(1), "bus:", m.group(2), "native code:", "yes" if m.group(5) == "1" else "no")
        sc = t.wait_still(a.seat, lambda s: bool(s.lines[0]), a.timeout)
        print("screen:")
        for line in sc.lines:
            print("  |" + line)
        if a.screenshot:
            sc.png(a.screenshot)
            print("saved", a.screenshot)
    return 0


def screens(out: pathlib.Path) -> int:
    """The screens a player sees, from the box's own display memory on the emulated chip, with the
    real tablet (controller, laws engine, LinkMaster) on the other end. North's box is emulated;
    East, South and West call through the controller as their boxes would."""
    from hardware.emu.rig import EmuRig

    out.mkdir(parents=True, exist_ok=True)
    heart = "\u2665"
    with tempfile.TemporaryDirectory(prefix="box_screens_") as tmp:
        r = EmuRig(pathlib.Path(tmp), "N")
        try:
            e = r.emu

            def shot(pred, name: str) -> None:
                e.wait_still("N", pred, 120).png(out / name)

            def other(seat: str, call: str, stop: bool = False) -> None:
                with r.lock:
                    r.ctl.box_event(seat, "call", call=call, stop=stop)

            shot(lambda s: "YOUR TURN" in s.status, "box-your-turn.png")
            e.press("N", "1 H")
            shot(lambda s: f"1{heart} OK?" in s.call_line, "box-selected.png")
            with r.paused():  # the tablet has not acknowledged yet
                e.press("N", "OK")
                shot(lambda s: "sending" in s.call_line, "box-sending.png")
            shot(lambda s: "E to call" in s.status and "1H" in s.auction, "box-made.png")
            other("E", "2S", stop=True)  # a jump, with the STOP card
            other("S", "P")
            other("W", "3D", stop=True)
            # North next: the stop wait runs on its box (dbf-2017: 10 s), the latest round below
            shot(lambda s: s.status.startswith("STOP") and "3D!" in s.auction, "box-stop.png")
            e.wait_screen("N", lambda s: s.status == "YOUR TURN", 180)
            e.press("N", "4 H")  # a jump: the regulation wants STOP first
            shot(lambda s: "STOP?" in s.call_line, "box-stop-prompt.png")
            e.press("N", "CLR P OK")
            r.wait_calls(["1H", "2S", "P", "3D", "P"], 120)
            other("E", "1C")  # insufficient: the table waits for the director
            shot(lambda s: "DIRECTOR" in s.status, "box-director.png")
        finally:
            r.close()
    for f in sorted(out.glob("box-*.png")):
        print("saved", f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
