"""The director ends the round from the console, on the real Kivy app in Swedish:

    python -m tests.ui.drive_end_round OUT_DIR [SHOTS_DIR]

Round 1 has boards 1 and 2; board 1 is passed out and confirmed, board 2's auction has begun
when the director signs in on the console and taps "Avsluta ronden". One confirmation names the
round that ends, the next round's pairs (numbers and names) and boards from the station's
movement, and what is left without a result (board 2, in play); "Ja" ends it: the table is on
round 2 at its first board, the top bar says so, the round item goes to the station `by:
director`. The station's movement is the reply the station gives (its I/O is tested in
tests/tablet/test_td_end_round.py). Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

import json

from tests.ui import round_movement
from tests.ui.driver import Driver
from tests.ui.fit import clipped
from tests.ui.shots import texts

drv = Driver()
ctl = drv.controller(round_movement.first_round())

app = drv.open_app("sv")
app.next_preview = round_movement.next_preview(ctl)
checks, shots = drv.checks, drv.shots


def step1(_dt):
    for seat in "NESW":  # board 1 passed out and confirmed
        assert drv.box(seat, "P")["ok"]
    ctl.enter_result(None)
    ctl.ew_confirm()
    assert drv.box("E", "1S")["ok"]  # board 2 (East deals) is under way
    app.refresh()
    d = drv.sign_in("4321")
    checks["tools"] = sorted(d.tool_buttons)
    d.tool_buttons["end_round"].trigger_action(0)  # "Avsluta ronden"
    checks["mode"] = d.mode
    checks["confirm_texts"] = texts(d.side)
    shots.shot("director-end-round")


def step2(_dt):
    d = app.screens["director"]
    checks["confirm_texts_again"] = texts(d.side)  # after the language round trip of the screenshots
    checks["confirm_clipped"] = clipped(d)  # laid out and drawn (the screenshots waited for it)
    d.tool_buttons["end_round_yes"].trigger_action(0)  # "Ja - avsluta rond 1, starta rond 2"
    checks["after"] = [app.sm.current, ctl.phase, ctl.session.round, ctl.session.ns_pair, ctl.session.ew_pair,
                       ctl.board]
    checks["note"] = app.current_note()
    rows = ctl.outbox.conn.execute("SELECT item_key, payload FROM outbox WHERE kind = 'round' ORDER BY id")
    checks["round_items"] = [(key, json.loads(payload)["by"]) for key, payload in rows]
    checks["results"] = [it["key"] for it in ctl.outbox.items() if it["kind"] == "result"]
    checks["round_end"] = [body for _, kind, body in ctl.journal.records() if kind == "round_end"]


def step3(_dt):
    bar = app.screens["auction"].topbar
    checks["bar"] = [bar.title.text, bar.note.text]
    checks["bar_clipped"] = clipped(bar)


drv.run([step1, step2, step3], pace=None)  # each step once the screen stands still after the last
