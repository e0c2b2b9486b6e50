"""Results as the players meet them, through the real Kivy app's buttons:

    python -m tests.ui.drive_results OUT_DIR [SHOTS_DIR]

FSB 2007, the club shows all results with the running score. Board 1: North enters 10 tricks and
the lead, East-West press "Not agreed" (the entry stays, to be corrected), North corrects it to 9
tricks, East-West confirm. The result screen stays with the board's results; the station's copy
arrives on another thread, as the deliverer hands it over (`Controller.set_traveller`), and the
screen draws it with no other redraw asked for. Back to board 2's auction: the Result button is
there and shows board 1's results again. Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

import threading
from functools import partial
from typing import Any

from tests.ui.driver import Driver
from tests.ui.fit import clipped
from tests.ui.shots import texts

EVENT = "club-2026-11-27"

drv = Driver(think=3.0)
ctl = drv.controller({"event": EVENT, "section": "A", "table": 2, "round": 1, "boards": [1, 2], "ns_pair": 2,
                      "ew_pair": 12, "profile": "fsb-2007", "policy": "record", "td_pin": "4321", "tables": 3,
                      "settings": {"show_results": "all", "score_recap": True}})
line = partial(drv.station_result, entered_at="2026-11-27T19:45:12Z")


app = drv.open_app("en")
checks, shots = drv.checks, drv.shots


def result_screen():
    return app.screens["result"]  # the screens are built when the app starts


def chosen() -> list[str]:
    """What North's entry shows as chosen: the tricks and the lead's suit and rank buttons lit."""
    from tablet_app.ui.theme import BTN  # Kivy's: loaded with the app

    lit = [k for k, b in {**result_screen().trick_buttons, **result_screen().lead_buttons}.items() if b.base_color == BTN]
    return sorted(map(str, lit))


def play(_dt: float) -> None:
    for seat, call in (("N", "4S"), ("E", "P"), ("S", "P"), ("W", "P")):
        drv.box(seat, call)
    app.refresh()  # the auction is over: result entry opens by itself
    checks["after_auction"] = app.sm.current
    result_screen().trick_buttons[10].trigger_action(0)
    result_screen().lead_buttons["H"].trigger_action(0)
    result_screen().lead_buttons["K"].trigger_action(0)
    result_screen().enter_btn.trigger_action(0)


def dispute(_dt: float) -> None:
    checks["confirm_phase"] = ctl.phase
    result_screen().dispute_btn.trigger_action(0)


def correct(_dt: float) -> None:
    checks["after_dispute_phase"] = ctl.phase
    checks["after_dispute_chosen"] = chosen()
    checks["after_dispute_enter_enabled"] = not result_screen().enter_btn.disabled
    result_screen().trick_buttons[9].trigger_action(0)
    result_screen().enter_btn.trigger_action(0)


def confirm(_dt: float) -> None:
    entry: dict[str, Any] = dict(ctl.snapshot()["result"] or {})
    checks["corrected_entry"] = [entry.get("tricks"), entry.get("lead")]
    result_screen().confirm_btn.trigger_action(0)


def station(_dt: float) -> None:
    checks["after_confirm_screen"] = app.sm.current
    checks["board_now"] = ctl.board
    checks["before_traveller"] = texts(app.sm.current_screen)
    rec = ctl.snapshot()["done"][-1]
    rows = [line(1, 1, "4S", "S", 10, 420), rec, line(3, 1, "3NT", "N", 7, -100)]
    # the deliverer's thread hands the station's copy over; nothing here asks for a redraw
    drawn[0] = shots.refreshes
    t = threading.Thread(target=lambda: checks.__setitem__("taken", ctl.set_traveller(rec["key"], rows)))
    t.start()
    t.join()


drawn = [0]  # the app's redraws before the station's copy arrived


def redrawn(_dt: float) -> bool:
    """The app has redrawn by itself since the station's copy arrived (a wait: False until then)."""
    return shots.refreshes > drawn[0]


def arrived(_dt: float) -> None:
    checks["arrived_screen"] = app.sm.current
    checks["arrived_texts"] = texts(app.sm.current_screen)
    checks["arrived_clipped"] = clipped(app.sm.current_screen)
    shots.shot("result-after-confirm")


def back(_dt: float) -> None:
    app.screens["result"].back_btn.trigger_action(0)


def next_board(_dt: float) -> None:
    auction = app.screens["auction"]
    checks["next_board_screen"] = app.sm.current
    checks["result_btn_enabled"] = not auction.result_btn.disabled
    auction.result_btn.trigger_action(0)


def on_demand(_dt: float) -> None:
    checks["on_demand_screen"] = app.sm.current
    checks["on_demand_texts"] = texts(app.sm.current_screen)


def speak(lang: str) -> None:
    app.lang = lang
    app.refresh()


def measure(lang: str) -> None:
    checks[f"on_demand_{lang}"] = texts(app.sm.current_screen)
    checks[f"on_demand_clipped_{lang}"] = clipped(app.sm.current_screen)


def board2(_dt: float) -> None:
    app.screens["result"].back_btn.trigger_action(0)
    for seat, call in (("E", "1NT"), ("S", "P"), ("W", "P"), ("N", "P")):
        drv.box(seat, call)
    app.refresh()
    result_screen().trick_buttons[7].trigger_action(0)
    result_screen().lead_buttons["S"].trigger_action(0)
    result_screen().lead_buttons["4"].trigger_action(0)
    result_screen().enter_btn.trigger_action(0)


def last_confirm(_dt: float) -> None:
    result_screen().confirm_btn.trigger_action(0)


def last_station(_dt: float) -> None:
    checks["round_end_screen"] = app.sm.current
    checks["round_end_before"] = texts(app.sm.current_screen)
    rec = ctl.snapshot()["done"][-1]
    rows = [line(1, 2, "1NT", "E", 8, -120), rec, line(3, 2, "2S", "W", 8, -110)]
    drawn[0] = shots.refreshes
    t = threading.Thread(target=lambda: checks.__setitem__("taken2", ctl.set_traveller(rec["key"], rows)))
    t.start()
    t.join()


def round_end(_dt: float) -> None:
    checks["round_end_after"] = texts(app.sm.current_screen)


languages = [step for lang in ("sv", "da")
             for step in (lambda _dt, lang=lang: speak(lang), lambda _dt, lang=lang: measure(lang))]
round_end_languages = [step for lang in ("sv", "da")
                       for step in (lambda _dt, lang=lang: speak(lang),
                                    lambda _dt, lang=lang: checks.__setitem__(f"round_end_clipped_{lang}",
                                                                              clipped(app.sm.current_screen)))]
drv.run([play, dispute, correct, confirm, station, redrawn, arrived, back, next_board, on_demand, *languages,
         lambda _dt: speak("en"), board2, last_confirm, last_station, redrawn, round_end, *round_end_languages,
         lambda _dt: speak("en")], pace=None)  # each step once the screen stands still after the last
