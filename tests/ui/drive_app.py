"""Runs the real Kivy tablet app (under the display in $DISPLAY) and drives it by pressing its buttons.

    python -m tests.ui.drive_app OUT_DIR [SHOTS_DIR]

A round with rulings: a wrong card, exposed cards, an insufficient bid behind a wrong and a right
PIN, the result entered, disputed and confirmed, the tempo screen, the next round's setup, an
artificial score and a correction with its reason. Each step records what the screen showed into
OUT_DIR/checks.json, which the pytest side asserts on; screenshots go to SHOTS_DIR.
"""
from __future__ import annotations

import json

from tests.ui.driver import Driver
from tests.ui.shots import enter_pin, texts

drv = Driver()
ctl = drv.controller({"event": "club-2026-11-22", "section": "A", "table": 3, "round": 2, "boards": [2],
                      "ns_pair": 1, "ew_pair": 8, "profile": "dbf-2017", "policy": "record", "td_pin": "4321",
                      "tables": 5})
app = drv.open_app("en")
checks, shots, box, sign_in = drv.checks, drv.shots, drv.box, drv.sign_in
shot = shots.shot


def step1(_dt):
    box("E", "P", think=2.1)
    box("S", "1NT", think=4.0)
    box("W", "P", think=1.2)
    box("N", "2C", think=6.3)
    box("S", kind="alert", think=0.8)
    box("E", "X", think=12.5)
    app.refresh()
    checks["auction_screen"] = app.sm.current
    checks["auction_texts"] = texts(shots.current())
    shot("auction")


def step1a(_dt):
    app.toggle_flat()  # the tablet lies flat between the players: a strip turned to each seat
    a = app.screens["auction"]
    checks["flat_strips"] = {seat: (strip.angle, strip.label.text, strip.size[:]) for seat, strip in a.strips.items()}
    shot("auction-flat")


def step1b(_dt):
    app.toggle_flat()
    box("E", kind="undo", think=1.0)  # "wrong card": East meant to pass (Law 25A)
    app.go("director")
    d = app.screens["director"]
    checks["undo_texts"] = texts(d)
    enter_pin(d, "4321")
    d.tool_buttons["correct"].trigger_action(0)
    d.tool_buttons["E"].trigger_action(0)
    next(b for b in d.picker.children if getattr(b, "call", None) == "P").trigger_action(0)
    checks["after_correction"] = [c["call"] for c in ctl.estate["calls"]]
    checks["correction_kind"] = ctl.estate["irregularities"][-1]["kind"]
    # signing in did not dismiss East's call: the auction waits until the director says so
    checks["held_until_dismissed"] = [ctl.held(), bool(ctl.snapshot()["td_calls"])]
    box("S", "2D", think=1.0)
    checks["call_while_held"] = [c["call"] for c in ctl.estate["calls"]]
    d.tool_buttons["dismiss"].trigger_action(0)
    checks["held_after_dismiss"] = ctl.held()
    d.back.trigger_action(0)
    checks["after_correction_screen"] = app.sm.current
    checks["director_locked_again"] = not d.unlocked


def step1c(_dt):
    # Law 24: South showed the club two (a single non-honour, not led: 2017 L24A)
    d = sign_in()
    checks["tools"] = sorted(d.tool_buttons)
    d.tool_buttons["exposed"].trigger_action(0)
    d.tool_buttons["S"].trigger_action(0)
    d.tool_buttons["C2"].trigger_action(0)
    shot("director-exposed-cards")


def step1d(_dt):
    d = app.screens["director"]
    d.tool_buttons["record"].trigger_action(0)
    checks["exposed_cards"] = [(x["seat"], x["cards"], x["law"]) for x in ctl.estate["exposed_cards"]]
    checks["exposed_conseq"] = d.conseq.text
    d.back.trigger_action(0)


frames = [0]


def count_frames(*_a):
    frames[0] += 1


def rest1(_dt):
    # back on the auction screen (step1d): frames are counted from here on
    from kivy.core.window import Window

    Window.bind(on_flip=count_frames)


def rest_start(_dt):
    # a step after rest1: the frame that drew step1d's change may come late on a busy machine
    # (it is the change's, not a frame at rest), so what is drawn at rest is counted from here
    checks["rest_frames"] = [frames[0]]


def rest2(_dt):
    pass  # a step of the driver's clock (0.3 s) while the screen is left alone


def rest3(_dt):
    checks["rest_frames"].append(frames[0])
    from kivy.core.window import Window

    Window.unbind(on_flip=count_frames)


def step2(_dt):
    box("S", "2D", think=3.0)
    box("W", "2C", think=2.0)  # insufficient over 2D: the table freezes
    app.refresh()
    checks["frozen_screen"] = app.sm.current
    d = app.screens["director"]
    for k in "9999":
        d.pin_buttons[k].trigger_action(0)
    journal_before, state_before = ctl.journal.count(), json.dumps(ctl.estate, sort_keys=True)
    d.pin_buttons["unlock"].trigger_action(0)
    checks["wrong_pin_message"] = d.message.text
    # a wrong PIN is journalled by design (one `pin_wrong` record: the lockout survives a restart,
    # the station's director page hears of it); nothing else changes
    last = list(ctl.journal.records())[-1]
    checks["wrong_pin_changed_nothing_else"] = [ctl.journal.count() - journal_before, last[1],
                                                json.dumps(ctl.estate, sort_keys=True) == state_before, ctl.phase]
    checks["wrong_pin_still_locked"] = not d.unlocked and bool(d.pin_buttons)
    enter_pin(d, "4321")
    checks["options_shown"] = [b.option["id"] for b in d.option_buttons]
    checks["director_texts"] = texts(d)
    shot("director-console")


def step3(_dt):
    d = app.screens["director"]
    replace = next(b for b in d.option_buttons if b.option["id"] == "replace")
    replace.trigger_action(0)
    checks["picker_calls"] = [b.call for b in reversed(d.picker.children)]
    journal_before = ctl.journal.count()
    next(b for b in d.picker.children if getattr(b, "call", None) == "3D").trigger_action(0)  # mis-tap
    checks["mis_tap_recorded_nothing"] = ctl.journal.count() == journal_before and ctl.estate["pending"]["kind"]
    next(b for b in d.picker.children if getattr(b, "call", None) == "3C").trigger_action(0)
    d.tool_buttons["confirm_call"].trigger_action(0)
    checks["judgement_options"] = [b.option["id"] for b in d.option_buttons]
    none = next(b for b in d.option_buttons if b.option["id"] == "none")
    none.trigger_action(0)
    checks["screen_after_last_ruling"] = app.sm.current  # back on the auction by itself
    app.go("director")
    checks["signed_in_after_last_ruling"] = app.screens["director"].unlocked
    checks["consequence_texts"] = texts(app.screens["director"])
    shot("director-consequences")


def step4(_dt):
    app.screens["director"].back.trigger_action(0)
    checks["auction_consequences"] = app.screens["auction"].conseq.text
    box("N", "3S", think=4.4)
    box("E", "P", think=1.0)
    box("S", "4S", think=5.2)
    box("W", "P", think=1.0)
    box("N", "P", think=1.0)
    box("E", "P", think=1.0)
    app.refresh()
    checks["after_auction_screen"] = app.sm.current
    r = app.screens["result"]
    r.trick_buttons[10].trigger_action(0)
    r.lead_buttons["H"].trigger_action(0)
    r.lead_buttons["K"].trigger_action(0)
    shot("result-entry")


def step4b(_dt):
    r = app.screens["result"]
    r.enter_btn.trigger_action(0)
    checks["confirm_texts"] = texts(r)
    r.dispute_btn.trigger_action(0)  # "Not agreed": back to North, and it says so
    checks["not_agreed"] = [ctl.phase, r.message_label.text]
    r.enter_btn.trigger_action(0)  # North's entry was kept: entered again as it was
    shot("result-confirm")


def step5(_dt):
    r = app.screens["result"]
    r.confirm_btn.trigger_action(0)
    checks["after_confirm_screen"] = app.sm.current
    checks["confirmed_note"] = app.current_note()
    rows = ctl.journal.conn.execute("SELECT kind, item_key, payload FROM outbox WHERE kind='result'").fetchall()
    checks["outbox"] = [(k, key, json.loads(p)) for k, key, p in rows]
    app.screens["round_end"].topbar.lang.trigger_action(0)  # EN -> SV
    checks["swedish_texts"] = texts(app.screens["round_end"])
    shot("round-end")


def step6(_dt):
    app.go("auction")
    app.screens["auction"].tempo_btn.trigger_action(0)
    checks["tempo_asks_pin"] = app.sm.current
    shot("pin-gate")


def step6b(_dt):
    g = app.screens["pin"]
    enter_pin(g, "4321")
    checks["tempo_texts"] = texts(app.screens["tempo"])
    shot("tempo")


def step7(_dt):
    app.screens["tempo"].back.trigger_action(0)
    app.go("round_end")
    app.screens["round_end"].next_btn.trigger_action(0)
    checks["next_round_asks_pin"] = app.sm.current
    g = app.screens["pin"]
    enter_pin(g, "1111")
    checks["next_round_wrong_pin"] = [app.sm.current, g.message.text]
    enter_pin(g, "4321")
    checks["setup_screen"] = app.sm.current
    su = app.screens["setup"]
    checks["setup_prefilled"] = {k: su.inputs[k].text for k in ("round", "ns_pair", "ew_pair", "td_pin")}
    checks["setup_choices"] = [su.profile.text, su.policy.text, su.alerts.disabled]
    # FSB L114, 2017 L80B2(e): the TD may require screens under a regulation with screen rules
    checks["setup_screens"] = [su.screens.disabled, su.screens.text, su.screens.values]
    su.screens.text = su.screens.values[1]
    checks["setup_screens_on"] = su.values()["screens"]
    su.screens.text = su.screens.values[0]
    app.next_language()
    app.next_language()
    first = su.profile_id()
    app.next_language()
    checks["setup_profile_after_switch"] = [first, su.profile_id()]
    su.inputs["boards"].text = "5-3"
    su.inputs["ns_pair"].text = "1"
    su.inputs["ew_pair"].text = "6"
    journal_before = ctl.journal.count()
    su.start.trigger_action(0)
    checks["setup_error"] = su.error.text
    checks["setup_error_changed_nothing"] = ctl.journal.count() == journal_before and ctl.phase == "round_end"
    su.inputs["boards"].text = "3-5"
    shot("setup")


def step8(_dt):
    su = app.screens["setup"]
    su.start.trigger_action(0)
    checks["after_setup_screen"] = app.sm.current
    checks["new_round"] = [ctl.session.round, list(ctl.session.boards), ctl.session.ew_pair, ctl.board]


def step9(_dt):
    d = sign_in()
    d.tool_buttons["artificial"].trigger_action(0)
    d.tool_buttons["nsavg+"].trigger_action(0)
    d.tool_buttons["ewavg-"].trigger_action(0)
    d.tool_buttons["award"].trigger_action(0)
    rows = ctl.journal.conn.execute("SELECT payload FROM outbox WHERE kind='result' ORDER BY id").fetchall()
    checks["artificial"] = json.loads(rows[-1][0])["adjusted"]
    checks["after_artificial_board"] = ctl.board
    d.back.trigger_action(0)
    for seat, call in [("W", "1S"), ("N", "P"), ("E", "4S"), ("S", "P"), ("W", "P"), ("N", "P")]:
        box(seat, call, think=2.0)
    r = app.screens["result"]
    r.trick_buttons[10].trigger_action(0)
    r.enter_btn.trigger_action(0)
    r.confirm_btn.trigger_action(0)


def step10(_dt):
    d = sign_in()
    d.tool_buttons["fix"].trigger_action(0)
    d.tool_buttons["board4"].trigger_action(0)
    shot("director-correction")


def step10b(_dt):
    d = app.screens["director"]
    d.tool_buttons["tricks9"].trigger_action(0)
    # L79C: the console asks why before anything is changed; no reason, no correction
    journal_before = ctl.journal.count()
    d.tool_buttons["record_reason"].trigger_action(0)
    checks["no_reason"] = [d.message.text, ctl.journal.count() == journal_before, d.mode]
    d.tool_buttons["reason_miscounted"].trigger_action(0)
    shot("director-reason")


def step10c(_dt):
    d = app.screens["director"]
    checks["reason_typed"] = d.reason_input.text
    d.tool_buttons["record_reason"].trigger_action(0)
    rows = ctl.journal.conn.execute("SELECT item_key, payload FROM outbox WHERE kind='result' ORDER BY id").fetchall()
    checks["corrected"] = [(k, json.loads(p)["score_ns"]) for k, p in rows[-2:]]
    checks["correction_reason"] = json.loads(rows[-1][1]).get("correction", {}).get("reason")
    checks["correction_message"] = d.message.text


drv.run([step1, step1a, step1b, step1c, step1d, rest1, rest_start, rest2, rest2, rest3, step2, step3, step4, step4b,
         step5, step6, step6b, step7, step8, step9, step10, step10b, step10c])
