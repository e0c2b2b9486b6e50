"""Alert timing behind screens, found by the tablet's screens work.

What "late" means: failure to alert promptly counts as misinformation (2007 L21B1(a)
"underlåtenhet att omedelbart alertera"; 2017 L21B1(a) "undladelse af omgående alert"). Behind
screens each player alerts to his screenmate (WBF screen regulations; FSB L115B: with screens every
alertable call is alerted). The caller's partner sits on the other side and learns of the call only
when the tray brings it, which is always after his screenmate has called on the other side: his
alert then is made at the first moment it can be and is not late. A call made on the alerter's own
side after he knew of the call (his own, or his screenmate's) does make it late. An alert of a
partner's call the tray has not yet brought is refused (docs/laws/choices.md #23).

Board 1: North deals; screenmates N-E and S-W; the tray starts on North's side.
"""
import pytest

from shared_rules.table import EventError, Table

from .helpers import events, run

TRAY = {"tray": True}


def kinds(state):
    return [f["kind"] for f in state["timing"]]


def test_wbf_screen_regulations_partner_alert_when_the_tray_arrives_is_not_late():
    # N 1C (artificial), E passes on North-East's side, the tray passes, South alerts 1C to West.
    state = run("wbf-screens-2017", "N 1C", "E P", TRAY, "S !")
    assert state["calls"][0]["alerted_to"] == ["W"]
    assert kinds(state) == []


def test_without_screens_an_alert_after_the_next_call_is_late():
    # the same alert at a table without screens is late: the partner saw 1C before East called
    state = run("dbf-2017", "N 1C", "E P", "S !")
    assert kinds(state) == ["alert_late"]
    assert state["timing"][0]["law"] == "2017 L21B1(a)"


def test_fsb_l115b_without_screens_the_same_alert_is_late_under_2007_l21b1():
    state = run("fsb-2007", "N 1C", "E P", "S !")
    assert [(f["kind"], f["law"], f["after"]) for f in state["timing"]] == [("alert_late", "2007 L21B1(a)", "E")]


def test_wbf_screen_regulations_self_alert_before_the_screenmate_calls_is_not_late():
    state = run("wbf-screens-2017", "N 1C", "N !", "E P")
    assert state["calls"][0]["alerted_to"] == ["E"]
    assert kinds(state) == []


@pytest.mark.parametrize("tray", [False, True])
def test_wbf_screen_regulations_self_alert_after_the_screenmate_called_is_late(tray):
    # East called on North's side without the alert, whether or not the tray has left since.
    specs = ["N 1C", "E P", *([TRAY] if tray else []), "N !"]
    state = run("wbf-screens-2017", *specs)
    assert [(f["kind"], f["call"], f["of"], f["after"], f["law"]) for f in state["timing"]] == [
        ("alert_late", "1C", "N", "E", "2017 L21B1(a)")]


def test_wbf_screen_regulations_partner_alert_a_second_round_after_the_tray_is_not_late():
    state = run("wbf-screens-2017", "N 1C", "E P", TRAY, "S 1D", "W P", TRAY, "N 1H", "E P", TRAY, "S !")
    assert state["calls"][4]["alerted_to"] == ["W"] and state["calls"][4]["alerted_by"] == "S"
    assert kinds(state) == []


def test_an_alert_of_a_partners_call_the_tray_has_not_brought_is_refused_and_changes_nothing():
    # South cannot have seen North's 1C: it is still on North-East's side of the screen.
    table = Table("wbf-screens-2017", 1)
    for e in events("N 1C"):
        table.apply(e)
    before = table.state()
    with pytest.raises(EventError, match="other side of the screen"):
        table.apply({"t": 1.0, "seat": "S", "alert": True})
    assert table.state() == before


def test_from_the_side_without_the_tray_an_alert_is_of_the_last_call_the_alerter_has_seen():
    # N's 1H has not crossed yet: South's alert is of his own 1D, which West has called over (late).
    state = run("wbf-screens-2017", "N 1C", "E P", TRAY, "S 1D", "W P", TRAY, "N 1H", "S !")
    assert [(f["kind"], f["call"], f["of"], f["after"]) for f in state["timing"]] == [
        ("alert_late", "1D", "S", "W")]
    assert state["calls"][2]["alerted_to"] == ["W"] and "alerted_to" not in state["calls"][4]
