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
    screens_p = sub.add_parser("screens", help="boot a box behind the real tablet and save its "
                                               "screens, in every language")
    screens_p.add_argument("outdir", help="directory for box-*.png")
    screens_p.add_argument("--lang", action="append", choices=sorted(WORDS),
                           help="only this language (repeatable); default: en, sv, da")
    a = ap.parse_args(argv)
    why = missing()
    if why:
        print("hardware.emu:", why, file=sys.stderr)
        return 2
    if a.cmd == "screens":
        return screens(pathlib.Path(a.outdir), tuple(a.lang or WORDS))
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


# what the box says in each language (firmware/lang.py): the screens wait for these
WORDS = {
    "en": {"turn": "YOUR TURN", "east": "TURN: EAST", "sending": "SENDING", "stop": "STOP ",
           "prompt": "STOP?", "td": "WAIT FOR TD"},
    "sv": {"turn": "DIN TUR", "east": "TUR: \u00d6ST", "sending": "SKICKAS", "stop": "STOPP ",
           "prompt": "STOPP?", "td": "V\u00c4NTA P\u00c5 TL"},
    "da": {"turn": "DIN TUR", "east": "TUR: \u00d8ST", "sending": "SENDES", "stop": "STOP ",
           "prompt": "STOP?", "td": "VENT P\u00c5 TL"},
}


def screens(out: pathlib.Path, langs: tuple[str, ...] = ("en", "sv", "da")) -> int:
    """The screens a player sees, from the box's own display memory on the emulated chip, with the
    real tablet (controller, laws engine, LinkMaster) on the other end, in each language the
    tablet can set (box-NAME.png in English, box-NAME-sv.png, box-NAME-da.png). North's box is
    emulated; East, South and West call through the controller as their boxes would."""
    out.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        _screens(out, lang)
    for f in sorted(out.glob("box-*.png")):
        print("saved", f)
    return 0


def _screens(out: pathlib.Path, lang: str) -> None:
    from hardware.emu.rig import EmuRig

    w = WORDS[lang]
    suffix = "" if lang == "en" else "-" + lang
    heart = "\u2665"
    with tempfile.TemporaryDirectory(prefix="box_screens_") as tmp:
        r = EmuRig(pathlib.Path(tmp), "N")
        try:
            e = r.emu
            assert r.master is not None
            r.master.set_lang(lang)

            def shot(pred, name: str) -> None:
                e.wait_still("N", pred, 120).png(out / f"box-{name}{suffix}.png")

            def other(seat: str, call: str, stop: bool = False) -> None:
                with r.lock:
                    r.ctl.box_event(seat, "call", call=call, stop=stop)

            shot(lambda s: s.status == w["turn"] and s.lines[2] != "", "your-turn")
            e.press("N", "1 H")
            shot(lambda s: s.call_line == f"1{heart} OK?", "selected")
            with r.paused():  # the tablet has not acknowledged yet
                e.press("N", "OK")
                shot(lambda s: w["sending"] in s.call_line, "sending")
            shot(lambda s: s.status == w["east"] and "1H" in s.auction, "made")
            other("E", "2S", stop=True)  # a jump, with the STOP card
            other("S", "P")
            other("W", "3D", stop=True)
            # North next: the stop wait runs on its box (dbf-2017: 10 s), the last calls below
            shot(lambda s: s.status.startswith(w["stop"]) and "3D!" in s.auction, "stop")
            e.wait_screen("N", lambda s: s.status == w["turn"], 180)
            e.press("N", "4 H")  # a jump: the regulation wants STOP first
            shot(lambda s: w["prompt"] in s.call_line, "stop-prompt")
            e.press("N", "CLR P OK")
            r.wait_calls(["1H", "2S", "P", "3D", "P"], 120)
            other("E", "1C")  # insufficient: the table waits for the director
            shot(lambda s: s.status == w["td"], "director")
        finally:
            r.close()


if __name__ == "__main__":
    sys.exit(main())
