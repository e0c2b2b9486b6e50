"""`python -m demo`: the demo table (see demo/__init__.py)."""
from __future__ import annotations

import argparse
import os
import sys

import demo
from demo.headless import headless
from demo.windowed import windowed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m demo", description=(demo.__doc__ or "").splitlines()[0])
    ap.add_argument("--headless", action="store_true", help="scripted session, printed (no display needed)")
    ap.add_argument("--profile", default="fsb-2007", help="regulation profile for the windowed demo")
    ap.add_argument("--lang", default="en", choices=("en", "sv", "da"))
    ap.add_argument("--boxes", default="unix", choices=("unix", "rp2040"),
                    help="unix: the firmware on the MicroPython unix port (fast); rp2040: the "
                         "flashed firmware on four emulated RP2040s (hardware/emu)")
    ap.add_argument("--no-wait", dest="wait", action="store_false",
                    help="headless: end at once (by default, in a terminal, it waits for Enter so the "
                         "station's director page can be looked at)")
    args = ap.parse_args(argv)
    if not args.headless and not os.environ.get("DISPLAY"):
        print("No display ($DISPLAY is unset): running the headless demo instead (make run-headless).")
        args.headless = True
    return headless(args) if args.headless else windowed(args)


if __name__ == "__main__":
    sys.exit(main())
