"""The club shows the board's other results, and the director rules with the stop card, through
the real Kivy app:

    python -m tests.ui.drive_traveller OUT_DIR [SHOTS_DIR]

Board 1 is played and confirmed; the station's results of the board are handed to the controller
as the I/O edge does (`Controller.set_traveller`) and the result screen draws the traveller and the
running score. On board 2 South bids insufficiently, then shows the stop card before the
replacement: the director's picker has "with the stop card" on, and the jump replacement is made
with it (FSB L116B). At the round end the last board's traveller is drawn. Checks go to
OUT_DIR/checks.json.
"""
from __future__ import annotations

from functools import partial

from tests.ui.driver import Driver
from tests.ui.shots import texts

EVENT = "club-2026-11-24"

drv = Driver(think=3.0)
ctl = drv.controller({"event": EVENT, "section": "A", "table": 2, "round": 1, "boards": [1, 2], "ns_pair": 2,
                      "ew_pair": 12, "profile": "fsb-2007", "policy": "record", "td_pin": "4321", "tables": 3,
                      "settings": {"show_results": "all", "score_recap": True}})
line = partial(drv.station_result, entered_at="2026-11-24T19:45:12Z")


app = drv.open_app("en")
checks, shots, box, sign_in = drv.checks, drv.shots, drv.box, drv.sign_in
shot = shots.shot


def step1(_dt):
    for seat, call in (("N", "3NT"), ("E", "P"), ("S", "P"), ("W", "P")):
        box(seat, call)
    ctl.enter_result(10)
    rec = ctl.ew_confirm()
    app.go("result")
    checks["before_traveller"] = texts(app.screens["result"])
    # the station stored our 3NT+1 (+430); tables 1 and 3 are in too
    results = [line(1, 1, "4S", "S", 10, 420), rec, line(3, 1, "3NT", "N", 8, -50)]
    checks["taken"] = ctl.set_traveller(rec["key"], results)
    app.refresh()
    checks["traveller"] = ctl.snapshot()["traveller"]
    checks["result_texts"] = texts(app.screens["result"])
    shot("result-traveller")


def step2(_dt):
    box("E", "1NT")
    box("S", "1C")  # insufficient over 1NT: the table waits for the director (2007 L27)
    d = sign_in()
    checks["pending_seat"] = ctl.estate["pending"].get("seat")
    replace = next(b for b in d.option_buttons if b.option.get("needs_call"))
    replace.trigger_action(0)
    # no stop card shown: the replacement is not taken as made with it
    checks["stop_not_shown"] = [d.draft.get("stop"), d.tool_buttons["stop"].text]
    d.tool_buttons["other_option"].trigger_action(0)
    box("S", kind="stop")  # South shows the stop card before the replacement
    checks["stop_shown"] = list(ctl.snapshot()["stop_shown"])
    app.refresh()
    next(b for b in d.option_buttons if b.option.get("needs_call")).trigger_action(0)
    checks["stop_default"] = [d.draft.get("stop"), d.tool_buttons["stop"].text]
    d.tool_buttons["stop"].trigger_action(0)  # the director can turn it off, and on again
    checks["stop_toggled"] = d.draft.get("stop")
    d.tool_buttons["stop"].trigger_action(0)
    next(b for b in d.picker.children if getattr(b, "call", None) == "3C").trigger_action(0)
    shot("director-stop-card")


def step3(_dt):
    d = app.screens["director"]
    checks["stop_texts_en"] = texts(d)
    d.tool_buttons["confirm_call"].trigger_action(0)
    checks["judgement"] = (ctl.estate.get("pending") or {}).get("kind")
    # 2007 L27B1(b): the director judges the replacement's meaning; it stands, South's 3C
    next(b for b in d.option_buttons if b.option["id"] == "b1b").trigger_action(0)
    calls = ctl.estate["calls"]
    checks["replacement"] = [(c["seat"], c["call"], bool(c.get("stop"))) for c in calls]
    checks["irregularities"] = [i.get("kind") for i in ctl.estate.get("irregularities", [])]
    checks["pending_after"] = ctl.estate.get("pending")
    d.leave()


def step4(_dt):
    # the rest of board 2: 3C by South, one down; then the round is over
    # West waits the stop wait after a call made with the stop card (FSB L116B); North presses
    # 4C by mistake and reports it with UNDO (L25A)
    checks["b2_calls"] = [box("W", "P", think=12.0)["ok"], box("N", "4C")["ok"]]
    box("N", kind="undo", think=1.0)
    d = sign_in()
    d.tool_buttons["correct"].trigger_action(0)
    d.tool_buttons["N"].trigger_action(0)
    checks["correct_stop"] = [d.draft.get("stop"), d.tool_buttons["stop"].text]
    d.tool_buttons["stop"].trigger_action(0)  # North meant a pass with the stop card
    checks["correct_stop_on"] = [d.draft.get("stop"), d.tool_buttons["stop"].text]
    next(b for b in d.picker.children if getattr(b, "call", None) == "P").trigger_action(0)
    checks["corrected"] = [(c["seat"], c["call"], bool(c.get("stop"))) for c in ctl.estate["calls"]][-1]
    d.tool_buttons["dismiss"].trigger_action(0)  # the director has seen to North's UNDO
    d.leave()
    checks["b2_calls"].append(box("E", "P", think=12.0)["ok"])
    checks["phase_b2"] = [ctl.phase, ctl.estate.get("contract")]
    ctl.enter_result(8)
    rec = ctl.ew_confirm()
    results = [line(1, 2, "2H", "E", 8, -110), rec]
    checks["taken2"] = ctl.set_traveller(rec["key"], results)
    app.refresh()
    checks["round_end_screen"] = app.sm.current
    checks["traveller2"] = ctl.snapshot()["traveller"]
    checks["round_end_texts"] = texts(app.screens["round_end"])
    shot("round-end-traveller")


drv.run([step1, step2, step3, step4], pace=None)  # each step once the screen stands still after the last
