"""Screens and the bidding box in the log: the tray, alerts to the screenmate, a call out of
rotation that never crossed the screen, and a call taken from the box (FSB L112C).

Board 1: North deals; screenmates N-E and S-W; the tray starts on the dealer's side.
"""
import pytest

from shared_rules.outcome import Accepted, Refused
from shared_rules.table import EventError, Table
from shared_rules.types import IrregularityKind
from tests.rules.helpers import step

from .helpers import calls, obligations, options, run, td

TRAY = {"tray": True}


def test_tray_passes_are_in_the_log_and_the_state():
    state = run("wbf-screens-2017", "N 1C", "E P", TRAY, "S 1H")
    assert state["tray"]["seats"] == ["S", "W"]
    assert state["tray"]["passes"] == [{"t": 2.0, "to": ["S", "W"], "calls": 2}]


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_no_tray_without_screens(profile):
    with pytest.raises(EventError, match="without screens"):
        step(Table(profile, 1), {"t": 1.0, "tray": True})


def test_tray_stays_while_the_TD_rules():
    table = Table("wbf-screens-2017", 1)
    step(table, {"t": 0.0, "seat": "E", "call": "1H"})
    with pytest.raises(EventError, match="stays on its side"):
        step(table, {"t": 1.0, "tray": True})


def test_screens_call_out_of_rotation_not_passed_is_cancelled_without_rectification():
    # E bids 1H at N's turn; the tray has not moved, so W never saw it (WBF screen regulations,
    # 2017 L80B2(e)): cancelled, no L31 consequences. Without screens (dbf-2017) L31A applies.
    state = run("wbf-screens-2017", "E 1H", td("call_out_of_rotation", "cancel"))
    assert state["withdrawn"][-1]["law"] == "WBF screen regulations, 2017 L80B2(e)"
    assert state["irregularities"][-1]["resolution"] == "cancelled_behind_screen"
    assert obligations(state) == {} and state["lead_restrictions"] == [] and state["next"] == "N"
    plain = run("dbf-2017", "E 1H", td("call_out_of_rotation", "cancel"))
    assert plain["irregularities"][-1]["ruling"] == "2017 L31A"


def test_screens_alerts_go_to_the_screenmate():
    # N self-alerts his 1C to E; after the tray passes, S alerts it to W.
    state = run("wbf-screens-2017", "N 1C", "N !", "E P", TRAY, "S !")
    assert state["calls"][0]["alerted_to"] == ["E", "W"] and state["calls"][0]["alerted_by"] == "N"


def test_no_screenmate_alert_field_without_screens():
    state = run("fsb-2007", "N 1C", "E P", "S !")
    assert "alerted_to" not in state["calls"][0]


def taken(seat, call):
    return {"seat": seat, "call": call, "taken": True}


def test_FSB_L112C_a_call_taken_from_the_box_is_made_and_its_confirmation_is_the_same_call():
    state = run("fsb-2007", taken("N", "1H"), "N 1H", "E P")
    assert calls(state) == ["N 1H", "E P"] and state["box_taken"][0]["made"] is True
    assert state["box_taken"][0]["law"] == "FSB L112C"


def test_FSB_L112C_confirming_another_call_is_a_change_of_call():
    # N took out 1H with visible intent, then confirmed 1S: the 1H was made (FSB L112C), so the
    # 1S is a change of call (2007 L25).
    state = run("fsb-2007", taken("N", "1H"), "N 1S")
    assert state["pending"]["kind"] == "change_of_call" and calls(state) == ["N 1H"]
    assert options(state) == ["unintended", "accept", "cancel"]


def test_confirmed_profile_a_taken_card_is_noted_not_made():
    state = run("dbf-2017", taken("N", "1H"), "N 1S")
    assert calls(state) == ["N 1S"] and state["pending"] is None
    assert state["box_taken"] == [{"seat": "N", "call": "1H", "t": 0.0, "made": False, "law": ""}]


def test_FSB_L112C_a_confirmation_is_no_new_call_another_call_is_a_change_of_call():
    table = Table("fsb-2007", 1, policy="prevent")
    step(table, {"t": 0.0, **taken("N", "1H")})
    got = table.step({"t": 1.0, "seat": "N", "call": "1S"})
    assert isinstance(got, Refused) and got.kind == IrregularityKind.CHANGE_OF_CALL  # prevent: refused
    got = table.step({"t": 1.0, "seat": "N", "call": "1H"})
    assert isinstance(got, Accepted) and got.irregularities == () and calls(got.state) == ["N 1H"]


@pytest.mark.parametrize("bad", [{"t": 1.0, "tray": False}, {"t": 1.0, "tray": True, "seat": "N"},
                                 {"t": 1.0, "seat": "N", "alert": True, "taken": True},
                                 {"t": 1.0, "seat": "N", "call": "1C", "taken": "yes"}])
def test_malformed_tray_and_taken_events_are_refused(bad):
    table = Table("wbf-screens-2017", 1)
    with pytest.raises(EventError):
        step(table, bad)
    assert table.state()["calls"] == []
