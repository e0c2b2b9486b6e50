"""Only the director rules, through the real Kivy app's own buttons:

    python -m tests.ui.drive_director OUT_DIR [SHOTS_DIR]

An irregularity opens the console on "the director is called" and the PIN pad, no option shown;
the PIN; the ruling; the console back on the auction by itself; the Director button asks for the
PIN again; so does the next irregularity. Then the club's grace (30 s here): the Director button
counts it down (its text measured against the button in English, Swedish and Danish) and the
console reopens without the PIN until it ends; an idle console and the app going to the
background sign out with no grace; a grace still counting when the round ends does not reach the
next round, whose first irregularity asks for the PIN again. Boxes are stood in for by controller.box_event.
Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from typing import Any

from tablet_app.control.director_session import IDLE_S
from tests.ui.driver import Driver
from tests.ui.shots import Clock, enter_pin, texts

drv = Driver()
boot = Clock()  # the boot clock (sitting, grace); the driver's clock is the wall clock (calls' times)
boot.t = 7_200.0
ctl = drv.controller({"event": "club-2026-11-22", "section": "A", "table": 3, "round": 2, "boards": [1],
                      "ns_pair": 1, "ew_pair": 8, "profile": "dbf-2017", "policy": "record", "td_pin": "4321",
                      "tables": 5}, boot_clock=boot)
app = drv.open_app("en")
checks, shots = drv.checks, drv.shots


def box(seat: str, call: str) -> None:
    assert drv.box(seat, call)["ok"], (seat, call)
    app.refresh()


def console() -> dict[str, object]:
    """What the director console shows now."""
    d = app.screens["director"]
    shown = texts(d)
    return {"screen": app.sm.current, "signed_in": d.unlocked, "pin_pad": "Sign in" in shown,
            "options": [b.option["id"] for b in d.option_buttons],
            "tools": sorted(d.tool_buttons) if d.unlocked else [], "texts": shown}


def pin() -> None:
    enter_pin(app.screens["director"], "4321")


def option(choice: str) -> None:
    d = app.screens["director"]
    next(b for b in d.option_buttons if b.option["id"] == choice).trigger_action(0)


def director_button() -> None:
    app.screens["auction"].td_btn.trigger_action(0)


def grace_tick(seconds: float) -> str:
    """The boot clock moves on; the app's half-second clock redraws; the Director button's text."""
    boot.t += seconds
    app._second_tick(0)
    app.refresh()
    return app.screens["auction"].td_btn.text


def fits(button: Any) -> dict[str, list[Any]]:
    """The button's text in each language: [text, its drawn width, the button's width]."""
    keep, out = app.lang, {}
    for lang in ("en", "sv", "da"):
        app.lang = lang
        app.refresh()
        button.texture_update()
        out[lang] = [button.text, button.texture_size[0], button.width]
    app.lang = keep
    app.refresh()
    return out


def step1(_dt):
    box("N", "1H")
    box("E", "1D")  # insufficient (2017 L27): the table freezes, the console opens by itself
    checks["frozen"] = console()
    shots.shot("director-called")


def step2(_dt):
    pin()
    checks["signed_in"] = console()
    option("accept")  # South accepts the insufficient bid (2017 L27A1): the table goes on
    checks["after_ruling"] = [app.sm.current, ctl.phase, ctl.director()["signed_in"]]
    director_button()  # a player presses Director after the ruling
    checks["director_button"] = console()
    app.screens["director"].back.trigger_action(0)


def step3(_dt):
    box("S", "P")
    box("W", "1C")  # insufficient again: the next irregularity
    checks["next_irregularity"] = console()
    pin()
    option("accept")  # North accepts (2017 L27A1)
    checks["after_second_ruling"] = [app.sm.current, ctl.phase]


def step4(_dt):
    # The club sets a grace of 30 s: the console reopens without the PIN for that long after
    # the director leaves it, counting down on the Director button for everyone to see.
    ctl.set_club_defaults(director_grace_s=30)
    box("N", "1S")
    box("E", "1H")  # insufficient
    pin()
    option("accept")
    checks["grace_button"] = [app.sm.current, app.screens["auction"].td_btn.text]
    checks["grace_countdown"] = grace_tick(10)
    checks["grace_fits"] = fits(app.screens["auction"].td_btn)
    shots.shot("auction-director-grace")


def step5(_dt):
    director_button()
    checks["grace_reopened"] = console()  # within the grace: the tools, no PIN
    app.screens["director"].back.trigger_action(0)
    checks["grace_after_back"] = grace_tick(0)
    checks["grace_over"] = grace_tick(31)
    director_button()
    checks["after_grace"] = console()


def step6(_dt):
    # an idle console signs out by itself (no grace) and goes back to the auction
    pin()
    checks["idle_signed_in"] = console()["signed_in"]
    boot.t += IDLE_S
    app._second_tick(0)
    checks["idle"] = [app.sm.current, ctl.director()]
    director_button()
    checks["after_idle"] = console()
    # the app goes to the background: signed out at once, the grace does not apply
    pin()
    app.on_pause()
    checks["on_pause"] = console()  # what the table sees when the tablet is picked up again
    app.screens["director"].back.trigger_action(0)
    director_button()
    checks["after_background"] = console()


def step7(_dt):
    # The director signs in and leaves: the club's grace counts down while the board ends.
    app.screens["director"].back.trigger_action(0)
    director_button()
    pin()
    app.screens["director"].back.trigger_action(0)
    checks["grace_at_board_end"] = app.screens["auction"].td_btn.text
    for seat, call in [("S", "P"), ("W", "P"), ("N", "P")]:
        box(seat, call)  # East declares 1H
    r = app.screens["result"]
    r.trick_buttons[7].trigger_action(0)
    r.lead_buttons["S"].trigger_action(0)
    r.lead_buttons["A"].trigger_action(0)
    r.enter_btn.trigger_action(0)


def step8(_dt):
    app.screens["result"].confirm_btn.trigger_action(0)
    checks["round_end"] = [app.sm.current, ctl.director()["grace_s"] > 0]
    # the next round, typed in at the table: its PIN gate is not a sitting at the console
    app.screens["round_end"].next_btn.trigger_action(0)
    enter_pin(app.screens["pin"], "4321")
    su = app.screens["setup"]
    su.inputs["boards"].text = "2"
    su.start.trigger_action(0)
    app.refresh()
    checks["next_round"] = [ctl.session.round, ctl.board, app.sm.current, app.screens["auction"].td_btn.text,
                            ctl.director()]


def step9(_dt):
    box("E", "1H")  # board 2: East deals
    box("S", "1D")  # insufficient (2017 L27): the first irregularity of the new round
    checks["next_round_irregularity"] = console()


drv.run([step1, step2, step3, step4, step5, step6, step7, step8, step9], pace=None)
