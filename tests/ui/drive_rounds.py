"""The table runs itself between rounds, through the real Kivy app in Swedish:

    python -m tests.ui.drive_rounds OUT_DIR [SHOTS_DIR]

Round 1's only board is played and confirmed; at the round end the players tap Next round, the
tablet shows round 2's pairs (numbers and names) from the station's movement and they confirm:
round 2 starts without the director's PIN. After round 2 the players find the pairs wrong and
call the director: the PIN screen opens (the director's setup, as before). The station's
movement is the reply the station gives (its I/O is tested in tests/tablet/test_round_change.py).
Checks go to OUT_DIR/checks.json.
"""
from __future__ import annotations

from tablet_app.session import from_station
from tablet_app.station_client import NextRound
from tests.ui.driver import Driver
from tests.ui.shots import texts

EVENT = "club-2026-11-27"
NAMES = {2: {"N": "Anna Berg", "S": "Carl Dahl", "E": "Åke Öst", "W": "Kim Lund"},
         3: {"N": "Anna Berg", "S": "Carl Dahl", "E": "Eva Ek", "W": "Fia Falk"}}
# The station's movement for table 1: North-South pair 1 stays, East-West pairs come to it.
MOVEMENT = {"event": EVENT, "section": "A", "tables": 3, "pairs_per_direction": True, "settings": {},
            "rounds": {str(r): {"1": {"ns": 1, "ew": 10 + r, "boards": [r], "next": {"last_round": r == 3}}}
                       for r in (1, 2, 3)}}

drv = Driver()
ctl = drv.controller(from_station(MOVEMENT, 1, 1, profile="fsb-2007", td_pin="4321"))
asked: list[int] = []


def next_preview() -> NextRound:
    """What station_client.next_round gives: the next round of the movement, with its names."""
    s = ctl.session
    assert s is not None  # set up above
    r = s.round + 1
    asked.append(r)
    return NextRound(from_station(MOVEMENT, 1, r, profile=s.profile, td_pin=s.td_pin),
                     NAMES[r])


def pass_out() -> None:
    for seat in "NESW":
        assert drv.box(seat, "P")["ok"]
    ctl.enter_result(None)
    ctl.ew_confirm()


app = drv.open_app("sv")
app.next_preview = next_preview
checks, shots = drv.checks, drv.shots


def step1(_dt):
    pass_out()
    app.refresh()
    checks["round1_end"] = [app.sm.current, ctl.phase]
    end = app.screens["round_end"]
    end.next_btn.trigger_action(0)  # "Nästa rond": no PIN asked
    checks["after_next"] = app.sm.current
    checks["confirm_texts"] = texts(end)
    shots.shot("round-confirm")


def step2(_dt):
    end = app.screens["round_end"]
    checks["confirm_texts_again"] = texts(end)  # after the language round trip of the screenshots
    end.confirm_btn.trigger_action(0)  # "Ja - starta ronden"
    checks["round2"] = [app.sm.current, ctl.phase, ctl.session.round, ctl.session.ns_pair, ctl.session.ew_pair,
                        ctl.board]
    checks["round_items"] = [it["key"] for it in ctl.outbox.items() if it["kind"] == "round"]


def step3(_dt):
    pass_out()
    app.refresh()
    end = app.screens["round_end"]
    end.next_btn.trigger_action(0)
    checks["round3_shown"] = texts(end)
    end.wrong_btn.trigger_action(0)  # "Nej - tillkalla TL": the director's, with his PIN
    checks["wrong_pairs"] = [app.sm.current, ctl.phase, ctl.session.round]
    checks["asked"] = list(asked)


drv.run([step1, step2, step3], pace=None)  # each step once the screen stands still after the last
