"""What both demos share: the session, the work folder, the boxes on emulated chips."""
from __future__ import annotations

import os
import pathlib
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
SEATS = "NESW"
PIN = "1234"
# how long a box's panel must stand still, on the box's clock, before the demo prints it: four
# times a full frame's push on the chip (about 25 ms over 400 kHz I2C)
SCREEN_STILL_S = 0.1
HANG_S = 60.0  # a wait of the demo's that ends only a hang (on the boxes' clock), never a slow box
TMUX_SESSION = os.environ.get("BIDDING_BOX_TMUX_SESSION", "bidding-box-demo")  # tests use their own
LEGEND = ("1-7 level, c d h s n suit/NT, p pass, x double, r redouble, Enter OK, Esc clear, "
          "! stop, a alert, u undo, v review, t director")


def demo_session(profile: str, policy: str | None) -> dict[str, Any]:
    return {"event": "demo-club", "section": "A", "table": 1, "round": 1, "boards": [1, 2, 3],
            "ns_pair": 1, "ew_pair": 2, "profile": profile, "policy": policy, "td_pin": PIN, "tables": 4}


def fresh_db(workdir: pathlib.Path) -> pathlib.Path:
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "tablet.db"
    from tablet_app.journal import discard

    discard(db)  # every file of the last run's journal, its commit mark too
    return db


def emulated_boxes(work: pathlib.Path) -> Any:
    """Four boxes on emulated RP2040s (`--boxes rp2040`), flashed as `make flash` flashes them."""
    from hardware.emu.boxes import EmuBoxes
    from hardware.emu.harness import missing

    why = missing()
    if why:
        raise SystemExit(f"--boxes rp2040: {why}")
    print("Booting four emulated RP2040s (stock MicroPython, the flashed firmware); they run at "
          "about 1/8 of real time here, so the boxes answer slowly.")
    return EmuBoxes(work / "emu")


