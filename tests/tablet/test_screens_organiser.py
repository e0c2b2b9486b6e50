"""Screens turned on by the organiser, and what the tablet and each box are shown behind them.

FSB L114: players use screens "när arrangören så kräver" (when the organiser requires them);
2007/2017 L80B2(e). The tablet stands where both sides read it: it shows only what all four may see
(docs/tablet.md "Where the tablet stands"); what one side may see goes to that side's boxes only.
Board 1: North deals; screenmates N-E and S-W; the tray starts on North's side.
"""
from __future__ import annotations

import pytest

from shared_rules.replay import replay
from tablet_app.session import SetupError, from_station
from tests.tablet.conftest import SESSION

FSB_SCREENS = {**SESSION, "profile": "fsb-2007", "policy": "record", "screens": True, "tray_delay_s": 5.0}
WBF = {**SESSION, "profile": "wbf-screens-2017", "policy": "record"}


def seen(view):
    return [a["call"] for a in view["auction"]]


def test_FSB_L114_the_TD_turns_screens_on_at_setup_and_the_table_log_replays_as_a_screen_table(
        make_controller, clock):
    ctl = make_controller()
    ctl.setup(FSB_SCREENS)
    assert ctl.screen is not None  # fsb-2007 has screens off by default
    clock.advance(1)
    assert ctl.box_event("N", "call", call="1C")["ok"]
    clock.advance(1)
    assert ctl.box_event("E", "call", call="P")["ok"]
    assert seen(ctl.views()["S"]) == [None, None]
    clock.advance(6)
    assert ctl.tick()  # the tray passes after the TD's 5 s
    assert seen(ctl.views()["S"]) == ["1C", "P"]
    log = ctl.table_log()
    assert log["screens"] is True and any(e.get("tray") for e in log["events"])
    assert replay(log)["tray"]["seats"] == ["S", "W"]  # ruled as a screen table


def test_screens_cannot_be_required_under_a_regulation_without_screen_rules(make_controller):
    ctl = make_controller()
    with pytest.raises(SetupError, match="no screen rules"):
        ctl.setup({**SESSION, "profile": "ebu", "screens": True})


def test_the_station_movement_says_screens_for_the_table():
    movement = {"event": "ev", "section": "A", "tables": 2, "profile": "fsb-2007", "screens": True,
                "director_pin": None, "rounds": {"1": {"1": {"ns": 1, "ew": 1, "boards": [1, 2]}}}}
    s = from_station(movement, 1, 1, td_pin="4321")
    assert s.screens is True
    with pytest.raises(SetupError, match="Screens"):
        from_station({**movement, "screens": "yes"}, 1, 1, td_pin="4321")


def test_the_tablet_shows_only_the_calls_that_passed_the_tray_and_no_alerts(make_controller, clock):
    ctl = make_controller()
    ctl.setup(WBF)
    clock.advance(1)
    ctl.box_event("N", "call", call="1C")
    clock.advance(1)
    ctl.box_event("N", "alert")  # N alerts his own 1C to East (WBF: both players alert)
    clock.advance(1)
    ctl.box_event("E", "call", call="P")
    snap = ctl.snapshot()
    assert snap["state"]["calls"] == []  # nothing has passed the tray to South-West yet
    assert [c["call"] for c in snap["director_state"]["calls"]] == ["1C", "P"]
    clock.advance(20)
    assert ctl.tick()
    snap = ctl.snapshot()
    assert [c["call"] for c in snap["state"]["calls"]] == ["1C", "P"]
    assert not any(c["alerted"] or "alerted_to" in c for c in snap["state"]["calls"])
    assert snap["director_state"]["calls"][0]["alerted_to"] == ["E"]
    # the alert reached East's box only, not South's (N's partner) nor West's
    views = ctl.views()
    assert [a["alert"] for a in views["E"]["auction"]] == [True, False]
    assert not any(a["alert"] for s in "NSW" for a in views[s]["auction"])


def test_WBF_an_alert_made_after_the_tray_passed_still_reaches_the_screenmates_box(make_controller, clock):
    ctl = make_controller()
    ctl.setup(WBF)
    clock.advance(1)
    ctl.box_event("N", "call", call="1C")
    clock.advance(1)
    ctl.box_event("E", "call", call="P")
    clock.advance(20)
    assert ctl.tick()  # the tray is with South-West now
    clock.advance(1)
    assert ctl.box_event("N", "alert")["ok"]  # late, but made: it goes to East
    assert [a["alert"] for a in ctl.views()["E"]["auction"]][:1] == [True]
    assert not ctl.views()["S"]["auction"][0]["alert"]


def test_WBF_an_irregularity_ruled_behind_the_screen_never_reaches_the_other_side(make_controller, clock):
    ctl = make_controller()
    ctl.setup(WBF)
    clock.advance(1)
    ctl.box_event("N", "call", call="1NT")
    clock.advance(1)
    ctl.box_event("E", "call", call="1S")  # insufficient, on North-East's side
    views = ctl.views()
    assert "1S" in views["N"]["message"] and "1S" in views["E"]["message"]
    assert "1S" not in views["S"]["message"] and "1S" not in views["W"]["message"]
    snap = ctl.snapshot()
    assert snap["state"]["pending"] == {"hidden": True} and snap["state"]["irregularities"] == []
    assert snap["director_state"]["pending"]["call"] == "1S"
    r = ctl.box_event("S", "call", call="P")
    assert not r["ok"]  # South cannot accept what the tray has not brought him
    ctl.td_decide("4321", "replace", call="2S")
    clock.advance(20)
    assert ctl.tick()
    snap = ctl.snapshot()
    assert [c["call"] for c in snap["state"]["calls"]] == ["1NT", "2S"]
    assert snap["state"]["irregularities"] == [] and snap["state"]["withdrawn"] == []
    assert seen(ctl.views()["S"]) == ["1NT", "2S"]


@pytest.mark.parametrize("lang", ["en", "sv", "da"])
def test_the_director_reads_the_screen_options_in_their_own_words(make_controller, clock, lang):
    from tablet_app import i18n, present

    ctl = make_controller()
    ctl.setup(WBF)
    clock.advance(1)
    ctl.box_event("N", "call", call="1NT")
    clock.advance(1)
    ctl.box_event("E", "call", call="1S")
    pending = ctl.snapshot()["director_state"]["pending"]
    [option] = pending["options"]
    label = i18n.option_label(pending["kind"], option, lang, present.seat_names(pending, lang))
    assert {"en": "did not pass the screen", "sv": "inte passerat skärmen", "da": "ikke passeret skærmen"}[lang] in label
    assert "L27B" not in label  # not the Law 27 replacement's words


def test_the_organiser_plays_a_wbf_table_without_screens_and_its_log_says_so(make_controller, clock):
    ctl = make_controller()
    ctl.setup({**WBF, "screens": False})
    assert ctl.screen is None
    clock.advance(1)
    ctl.box_event("N", "call", call="1C")
    assert seen(ctl.views()["S"]) == ["1C"]  # no tray: everyone sees the call at once
    log = ctl.table_log()
    assert log["screens"] is False and replay(log)["tray"] is None
