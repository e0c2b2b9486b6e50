"""Runs the real Kivy tablet app and measures whether the Law's texts fit where they are shown.

    python -m tests.ui.drive_texts OUT_DIR [SHOTS_DIR]

FSB 2007, board 1 (North deals): North opens 2S with the stop card, East thinks 17.6 s and passes
(a long thought after the stop, FSB L116B), South bids 3S; North bids 4S at West's turn, out of
rotation: not accepted (the director's ruling goes in through the controller: the console is
tested in test_app.py), West passes, and North must repeat 4S (2007 L31A1). In English, Swedish and
Danish, upright and flat, the auction screen (the consequences, each seat's strip) and the tempo
screen are measured with tests/ui/fit.py; the checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from tests.ui.driver import Driver
from tests.ui.fit import clipped, visible_labels
from tests.ui.shots import on_still

drv = Driver()
ctl = drv.controller({"event": "club-2026-11-27", "section": "A", "table": 4, "round": 1, "boards": [1],
                      "ns_pair": 3, "ew_pair": 9, "profile": "fsb-2007", "policy": "record", "td_pin": "4321",
                      "tables": 5})


def box(seat: str, call: str, think: float, stop: bool = False) -> None:
    r = drv.box(seat, call, think=think, stop=stop)
    assert r["ok"], (seat, call, r)


app = drv.open_app("en")
checks, shots = drv.checks, drv.shots


def play(_dt: float) -> None:
    box("N", "2S", 2.0, stop=True)
    box("E", "P", 17.6)
    box("S", "3S", 3.0)
    drv.box("N", "4S")  # at West's turn: out of rotation
    ctl.td_decide("4321", "cancel")
    box("W", "P", 2.0)
    app.go("auction")


def measure(name: str, lang: str, flat: bool) -> None:
    app.lang, app.flat = lang, flat
    app.refresh()

    @on_still
    def take(_dt: float) -> None:
        screen = app.sm.current_screen
        key = f"{name}/{lang}/{'flat' if flat else 'upright'}"
        checks.setdefault("clipped", {})[key] = clipped(screen)
        checks.setdefault("texts", {})[key] = [w.text for w in visible_labels(screen)]

    steps.insert(0, take)


steps: list = [play]
for lang in ("en", "sv", "da"):
    for flat in (False, True):
        steps.append(lambda _dt, lang=lang, flat=flat: measure("auction", lang, flat))
steps.append(lambda _dt: shots.shot("repeat-obligation"))
steps.append(lambda _dt: app.go("tempo"))
for lang in ("en", "sv", "da"):
    steps.append(lambda _dt, lang=lang: measure("tempo", lang, False))
steps.append(lambda _dt: shots.shot("tempo-long-thought"))

drv.run(steps, pace=None)  # each step once the screen stands still after the last
