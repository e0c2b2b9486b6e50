"""The director's assigned and weighted adjusted scores (Law 12C1), through the real Kivy app's
console and its own buttons:

    python -m tests.ui.drive_assigned OUT_DIR [SHOTS_DIR]

Board 1 is played to 3NT= by North and agreed. The Director button, the PIN, the tool "Assigned
adjusted score": board 1, 4S by South, nine tricks, Award, a reason: the next revision of
board 1's result carries the TD's 4S-1. Board 2 (East deals) is on the table after 1H: in
Swedish, the director weights 4H= by East 60 % and 4H-1 30 %: refused ("Vikterna måste bli
100 %"), nothing journalled, the board still on the table; he removes the second, adds 4H-1 at
40 % and awards: the weighted score goes to the station and the round ends. The panel is
measured for clipped texts in English, Swedish and Danish. Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from typing import Any

from tests.ui.driver import Driver
from tests.ui.fit import clipped
from tests.ui.shots import enter_pin, texts

drv = Driver()
ctl = drv.controller({"event": "club-2026-11-28", "section": "A", "table": 2, "round": 1, "boards": [1, 2],
                      "ns_pair": 2, "ew_pair": 9, "profile": "dbf-2017", "policy": "record", "td_pin": "4321",
                      "tables": 5})

app = drv.open_app("en")
checks, shots = drv.checks, drv.shots


def box(seat: str, call: str) -> None:
    assert drv.box(seat, call)["ok"], (seat, call)
    app.refresh()


def console() -> Any:
    return app.screens["director"]


def press(name: str) -> None:
    b = console().tool_buttons[name]
    assert not b.disabled, name
    b.trigger_action(0)


def signed_in() -> Any:
    """The console open with the director signed in (the PIN again if the table moved on)."""
    d = console()
    if app.sm.current != "director" or not d.unlocked:
        app.screens["auction"].td_btn.trigger_action(0)
        enter_pin(d, "4321")
    return d


def results() -> list[dict[str, Any]]:
    import json

    rows = ctl.outbox.conn.execute("SELECT payload FROM outbox WHERE kind = 'result' ORDER BY id").fetchall()
    return [json.loads(p) for (p,) in rows]


def fits(name: str) -> None:
    """The console as it is now, measured in each language (a frame after each switch)."""
    def switch(lang: str) -> Any:
        def go(_dt: float) -> None:
            app.lang = lang
            app.refresh()
        return go

    def take(lang: str) -> Any:
        def go(_dt: float) -> None:
            checks.setdefault("clipped", {})[f"{name}/{lang}"] = clipped(console())
        return go

    steps[0:0] = [f for lang in ("en", "sv", "da") for f in (switch(lang), take(lang))]


def step_play(_dt: float) -> None:
    for seat, call in [("N", "1NT"), ("E", "P"), ("S", "3NT"), ("W", "P"), ("N", "P"), ("E", "P")]:
        box(seat, call)
    ctl.enter_result(9, "HT")
    ctl.ew_confirm(True)
    app.refresh()
    app.screens["auction"].td_btn.trigger_action(0)
    d = console()
    enter_pin(d, "4321")
    checks["tools"] = sorted(d.tool_buttons)
    checks["tool_label"] = d.tool_buttons["assigned"].text
    press("assigned")
    checks["boards_offered"] = sorted(n for n in d.tool_buttons if n.startswith("aboard"))
    press("aboard1")
    for name in ("alevel4", "adenomS", "adeclS", "atricks9"):
        press(name)
    fits("assign")


def step_award(_dt: float) -> None:
    app.lang = "en"
    before = len(results())
    press("aaward")
    checks["asked_why"] = console().mode
    press("reason_ruling")
    press("record_reason")
    last = results()[-1]
    checks["assigned"] = [len(results()) - before, last["key"], last["contract"], last["adjusted"],
                          last["correction"]["reason"], console().message.text]
    checks["board_after"] = [ctl.board, ctl.phase]


def step_weighted(_dt: float) -> None:
    box("E", "1H")  # board 2: East deals
    box("S", "P")
    app.lang = "sv"
    app.refresh()
    signed_in()
    press("assigned")
    checks["boards_offered_2"] = sorted(n for n in console().tool_buttons if n.startswith("aboard"))
    press("aboard2")
    for name in ("alevel4", "adenomH", "adeclE", "atricks10", "aweight-10", "aweight-10", "aweight-10",
                 "aweight-10", "aadd"):
        press(name)
    checks["second_weight"] = console().draft["cur"]["weight"]
    for name in ("alevel4", "adenomH", "adeclE", "atricks9", "aweight-10", "aadd"):
        press(name)
    n, queued = ctl.journal.count(), len(results())
    press("aaward")
    checks["refused"] = [console().message.text, ctl.journal.count() == n, len(results()) == queued,
                         ctl.board, console().mode, [o["weight"] for o in console().draft["lists"]["ns"]]]
    shots.shot("director-assigned")


def step_mend(_dt: float) -> None:
    app.lang = "sv"
    press("aremove1")
    for name in ("alevel4", "adenomH", "adeclE", "atricks9", "aadd"):
        press(name)
    checks["listed"] = [o["weight"] for o in console().draft["lists"]["ns"]]
    press("aaward")
    last = results()[-1]
    checks["weighted"] = [last["board"], last["contract"], last["adjusted"]]
    checks["round_after"] = ctl.phase
    checks["texts"] = texts(console())
    checks["screen_after"] = app.sm.current


steps: list[Any] = [step_play, step_award, step_weighted, step_mend]
drv.run(steps, pace=None)  # each step once the screen stands still after the last
