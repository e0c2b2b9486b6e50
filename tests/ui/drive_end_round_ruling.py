"""The director ends the round while a ruling is not finished, on the real Kivy app in Swedish:

    python -m tests.ui.drive_end_round_ruling OUT_DIR [SHOTS_DIR]

Round 1 has boards 1 and 2. On board 1 (North deals) North bids 1H; the director opens *Avsluta
ronden*, and before he taps Yes East bids 1D, insufficient (2007 L27): the table waits for the
director, South may still accept it by calling (L27A1), and Yes (the club's grace kept the console
open) is refused, the confirmation now showing the ruling. Back on the console it shows the Law's
options and under them *Avsluta ronden* (2007 L8B1); its confirmation names the ruling with its Law
and who it waits for, and what ending the round does to it (docs/laws/choices.md #42). *Fäll
domslutet först* goes back to the options with nothing journalled; *Avsluta rond 1 ändå* ends the
round leaving the ruling, which the `round_end` record keeps, and the table is on round 2 from the
station's movement (its I/O: tests/tablet/test_td_end_round.py). Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from tests.ui import round_movement
from tests.ui.driver import Driver
from tests.ui.fit import clipped
from tests.ui.shots import texts

drv = Driver()
ctl = drv.controller(round_movement.first_round())

app = drv.open_app("sv")
app.next_preview = round_movement.next_preview(ctl)
checks, shots = drv.checks, drv.shots


def round_ends() -> list[dict]:
    return [body for _, kind, body in ctl.journal.records() if kind == "round_end"]


def step0(_dt):
    # The director opens the confirmation while the auction runs, and East's insufficient bid
    # arrives before he taps Yes: the table moving on ends his sitting, the club's grace keeps the
    # console open on the confirmation drawn before, and the end is refused and the confirmation
    # shows the ruling. (Without a grace the console asks the PIN and opens on the options.)
    ctl.set_club_defaults(director_grace_s=30)
    assert drv.box("N", "1H")["ok"]
    d = drv.sign_in("4321")
    d.tool_buttons["end_round"].trigger_action(0)
    checks["before_texts"] = texts(d.side)
    assert drv.box("E", "1D")["ok"]  # insufficient (2007 L27): the table waits for the director
    app.refresh()
    d.tool_buttons["end_round_yes"].trigger_action(0)  # "Ja - avsluta rond 1, starta rond 2"
    checks["raised_since"] = [app.sm.current, d.mode, d.message.text, round_ends(), texts(d.side)]
    d.tool_buttons["end_round_back"].trigger_action(0)  # "Fäll domslutet först"
    checks["message_after_back"] = d.message.text


def step1(_dt):
    checks["phase"] = ctl.phase
    d = app.screens["director"]
    checks["options"] = [b.option["id"] for b in d.option_buttons]
    checks["tools"] = sorted(d.tool_buttons)
    checks["options_texts"] = texts(d.side)
    shots.shot("director-ruling-end-round")


def step2(_dt):
    d = app.screens["director"]
    checks["options_clipped"] = clipped(d)
    d.tool_buttons["end_round"].trigger_action(0)  # "Avsluta ronden"
    checks["mode"] = d.mode
    checks["confirm_texts"] = texts(d.side)
    shots.shot("director-end-round-ruling")


def step3(_dt):
    d = app.screens["director"]
    checks["confirm_texts_again"] = texts(d.side)  # after the language round trip of the screenshots
    checks["confirm_clipped"] = clipped(d)
    journalled = ctl.journal.count()
    d.tool_buttons["end_round_back"].trigger_action(0)  # "Fäll domslutet först"
    checks["back"] = [app.sm.current, d.mode, [b.option["id"] for b in d.option_buttons],
                      ctl.journal.count() - journalled, ctl.phase]
    d.tool_buttons["end_round"].trigger_action(0)
    d.tool_buttons["end_round_yes"].trigger_action(0)  # "Avsluta rond 1 ändå, starta rond 2"
    checks["after"] = [app.sm.current, ctl.phase, ctl.session.round, ctl.board]
    checks["round_end"] = round_ends()
    checks["results"] = [it["key"] for it in ctl.outbox.items() if it["kind"] == "result"]
    checks["note"] = app.current_note()


drv.run([step0, step1, step2, step3], pace=None)  # each step once the screen stands still after the last
