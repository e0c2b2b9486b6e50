"""Behind screens the tray decides what each side has seen, for the irregularities too.

A player accepts, condones or calls over only what the tray has brought to his side (FSB L114 and
2007/2017 L80B2(e) with the WBF screen regulations: the TD rules on the side where the irregularity
was made; docs/laws/choices.md #34). An insufficient bid corrected on one side before the tray
passes is without rectification, and the other side is never told (WBF screen regulations, 2017
L80B2(e), profile `screens.unpassed_insufficient`; #36). The partner's alert after his screenmate
has called is in time while the tray is on his side where the regulation says so (profile
`screens.partner_alert`; #35).

Board 1: North deals; screenmates N-E and S-W; the tray starts on North's side.
"""
from __future__ import annotations

import pytest

from shared_rules.outcome import Accepted, Refused
from shared_rules.table import Table
from shared_rules.types import Refusal

from .helpers import events

SCREEN_TABLES = [("wbf-screens-2017", None), ("fsb-2007", True), ("dbf-2017", True)]


def table(name: str, screens: bool | None, *specs: str | dict) -> Table:
    t = Table(name, 1, screens=screens)
    for e in events(*specs):
        got = t.step(e)
        assert isinstance(got, Accepted), (e, got)
    return t


@pytest.mark.parametrize(("name", "screens"), SCREEN_TABLES)
def test_L27A1_south_cannot_accept_easts_insufficient_bid_the_tray_has_not_brought_him(name, screens):
    t = table(name, screens, "N 1H", "E 1C")
    before = t.state()
    got = t.step({"t": 5.0, "seat": "S", "call": "P"})
    assert isinstance(got, Refused) and got.kind == Refusal.NOT_SEEN
    assert "S has not seen E's 1C" in got.reason and got.law == t.profile.screens.law
    assert t.state() == before  # nothing changed
    pending = before["pending"]
    assert "S" not in pending["may_call"]
    assert "accept" not in [o["id"] for o in pending["options"]]  # nor can the TD accept for him


def test_L27A1_without_screens_south_accepts_easts_insufficient_bid_by_calling():
    t = table("fsb-2007", None, "N 1H", "E 1C")
    assert "S" in t.state()["pending"]["may_call"]
    assert t.step({"t": 5.0, "seat": "S", "call": "P"}).status == "bidding"
    assert [c["call"] for c in t.state()["calls"]] == ["1H", "1C", "P"]


@pytest.mark.parametrize(("name", "screens"), SCREEN_TABLES)
def test_L27A1_east_accepts_his_screenmates_insufficient_bid_he_has_seen(name, screens):
    # West deals on board 4: W 1H, tray, N 1C (insufficient) on North-East's side: E has seen it
    t = Table(name, 4, screens=screens)
    for e in [{"t": 0.0, "seat": "W", "call": "1H"}, {"t": 20.0, "tray": True},
              {"t": 21.0, "seat": "N", "call": "1C"}]:
        assert isinstance(t.step(e), Accepted)
    assert "E" in t.state()["pending"]["may_call"]
    assert "accept" in [o["id"] for o in t.state()["pending"]["options"]]
    assert t.step({"t": 22.0, "seat": "E", "call": "P"}).status == "bidding"
    assert t.state()["irregularities"][0]["resolution"] == "accepted"


@pytest.mark.parametrize(("name", "screens"), SCREEN_TABLES)
def test_L29A_south_cannot_accept_a_call_out_of_rotation_made_on_the_other_side_L28B_north_calls_over_it(name, screens):
    # N deals; E calls before N (out of rotation, on North-East's side); S is E's LHO, W is not in
    # turn; N is in turn and saw it: he may call over it (L28B), S may not accept it (L29A)
    t = table(name, screens, "E 1S")
    assert t.state()["pending"]["may_call"] == ["N"]
    got = t.step({"t": 5.0, "seat": "S", "call": "P"})
    assert isinstance(got, Refused) and got.kind == Refusal.NOT_SEEN
    assert t.step({"t": 6.0, "seat": "N", "call": "1C"}).status == "bidding"


def test_WBF_screen_regulations_insufficient_bid_corrected_before_the_tray_passes_without_rectification():
    t = table("wbf-screens-2017", None, "N 1H", "E 1C")
    pending = t.state()["pending"]
    assert [o["text"] for o in pending["options"]] == ["insufficient_bid.correct_screen"]
    got = t.step({"t": 3.0, "td": "insufficient_bid", "choice": "replace", "call": "P"})
    assert got.status == "bidding"
    state = t.state()
    assert [c["call"] for c in state["calls"]] == ["1H", "P"]
    assert state["obligations"] == [] and state["lead_restrictions"] == [] and state["reviews"] == []
    entry = state["irregularities"][0]
    assert entry["resolution"] == "corrected_behind_screen" and entry["hidden_from"] == ["S", "W"]
    assert state["withdrawn"][0]["hidden_from"] == ["S", "W"]
    # the tray carries only the standing calls: the other side never learns of the 1C
    t.step({"t": 20.0, "tray": True})
    assert [c["call"] for c in t.visible_calls("S")] == ["1H", "P"]


def test_WBF_screen_regulations_the_offender_corrects_before_the_TD_rules_L27C_without_rectification():
    t = table("wbf-screens-2017", None, "N 1H", "E 1C")
    assert t.step({"t": 3.0, "seat": "E", "call": "2C"}).status == "bidding"
    state = t.state()
    assert [c["call"] for c in state["calls"]] == ["1H", "2C"] and state["obligations"] == []
    assert state["irregularities"][0]["hidden_from"] == ["S", "W"]


def test_WBF_screen_regulations_the_correction_must_be_a_legal_call():
    t = table("wbf-screens-2017", None, "N 1H", "E 1C")
    before = t.state()
    got = t.step({"t": 3.0, "td": "insufficient_bid", "choice": "replace", "call": "1D"})
    assert isinstance(got, Refused) and "must be a legal call" in got.reason
    assert t.state() == before


def test_FSB_L114_without_a_screen_rectification_of_its_own_Law_27_applies():
    # fsb-2007 with screens: no FSB text varies Law 27 (2007 L80B2(e) allows it; none is given)
    t = table("fsb-2007", True, "N 1H", "E 1C")
    t.step({"t": 3.0, "td": "insufficient_bid", "choice": "replace", "call": "1NT"})
    t.step({"t": 4.0, "td": "insufficient_bid_judgement", "choice": "none"})
    assert t.state()["obligations"][0]["seat"] == "W"  # L27B2: partner passes for the rest
    assert "hidden_from" not in t.state()["irregularities"][0]


def test_WBF_call_out_of_rotation_cancelled_behind_the_screen_is_hidden_from_the_other_side():
    t = table("wbf-screens-2017", None, "E 1S")
    t.step({"t": 3.0, "td": "call_out_of_rotation", "choice": "cancel"})
    state = t.state()
    assert state["irregularities"][0]["hidden_from"] == ["S", "W"]
    assert state["withdrawn"][0]["hidden_from"] == ["S", "W"]


@pytest.mark.parametrize(("name", "screens", "late"), [("wbf-screens-2017", None, False),
                                                       ("fsb-2007", True, True), ("dbf-2017", True, True)])
def test_2017_L80B2e_partner_alert_after_his_screenmate_called_is_in_time_where_the_regulation_says(
        name, screens, late):
    # N 1C, E 2C (artificial) on North-East's side; the tray brings it to South-West; S (in turn,
    # W's screenmate) passes; then W alerts his partner's 2C to S
    t = table(name, screens, "N 1C", "E 2C", {"tray": True}, "S P")
    got = t.step({"t": 10.0, "seat": "W", "alert": True})
    assert isinstance(got, Accepted)
    assert t.state()["calls"][1]["alerted_to"] == ["S"]
    assert [f["kind"] for f in got.timing] == (["alert_late"] if late else [])



def test_WBF_the_record_the_station_gets_says_whom_a_rectified_irregularity_is_hidden_from():
    from shared_rules.records import RecordError
    from shared_rules.records.auction_log import read_irregularities

    t = table("wbf-screens-2017", None, "N 1H", "E 1C")
    t.step({"t": 3.0, "td": "insufficient_bid", "choice": "replace", "call": "P"})
    [irr] = read_irregularities(t.state()["irregularities"], 2)
    assert irr.hidden_from == ("S", "W")  # a feed the players may see leaves it out
    with pytest.raises(RecordError, match="hidden_from"):
        read_irregularities([{"kind": "insufficient_bid", "hidden_from": "SW"}], 2)


@pytest.mark.parametrize(("name", "screens"), SCREEN_TABLES)
def test_L36A_south_cannot_condone_easts_inadmissible_redouble_the_tray_has_not_brought_him(name, screens):
    t = table(name, screens, "N 1H", "E XX")
    assert t.state()["pending"]["may_call"] == []  # without screens: ["S"], who condones by calling
    got = t.step({"t": 5.0, "seat": "S", "call": "P"})
    assert isinstance(got, Refused) and got.kind == Refusal.NOT_SEEN
    t.step({"t": 6.0, "td": "inadmissible_double", "choice": "cancel"})  # the TD rules on East's side
    assert t.status() == "bidding" and t.state()["next"] == "E"


def test_L36A_without_screens_south_condones_the_inadmissible_redouble_by_calling():
    t = table("dbf-2017", None, "N 1H", "E XX")
    assert t.state()["pending"]["may_call"] == ["S"]
    assert isinstance(t.step({"t": 5.0, "seat": "S", "call": "P"}), Accepted)
