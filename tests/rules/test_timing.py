"""Timing rules as calls are made: the stop procedure (FSB L116, 2017 L73A1 + DBf fn), alerts
(FSB L115B, L21B1(a)), and think time per call (L16B, L73). Reported, never silently fixed."""
import pytest

from shared_rules.table import Table


def play(profile, evs, board=1):
    table = Table(profile, board)
    state = table.state()
    for e in evs:
        state = table.apply(e)
    return state


def c(t, seat, call, stop=False):
    e = {"t": t, "seat": seat, "call": call}
    if stop:
        e["stop"] = True
    return e


def a(t, seat):
    return {"t": t, "seat": seat, "alert": True}


def kinds(state):
    return [(x["kind"], x["seat"]) for x in state["timing"]]


@pytest.mark.parametrize("evs,missing", [
    ([c(0, "N", "2S")], True),                                   # FSB L116B1: opening at the 2-level
    ([c(0, "N", "2S", stop=True)], False),
    ([c(0, "N", "1H"), c(12, "E", "P"), c(13, "S", "3H")], True),  # FSB L116B2: jump (min 2H)
    ([c(0, "N", "1H"), c(12, "E", "2S")], True),                 # jump overcall (min 1S)
    ([c(0, "N", "1H"), c(12, "E", "P"), c(13, "S", "2H")], False),  # not a stop call
    ([c(0, "N", "P"), c(2, "E", "2H")], True),                   # "open": the first bid, after passes
])
def test_FSB_L116B_stop_missing(evs, missing):
    state = play("fsb-2007", evs)
    assert (("stop_missing", evs[-1]["seat"]) in kinds(state)) is missing


def test_2017_L73A1_dbf_stop_only_for_jumps():
    assert kinds(play("dbf-2017", [c(0, "N", "2S")])) == []
    assert kinds(play("dbf-2017", [c(0, "N", "1C"), c(11, "E", "2S")])) == [("stop_missing", "E")]


@pytest.mark.parametrize("t_next,expected", [(2.0, ["stop_wait_short"]), (9.5, []), (12.0, []), (45.0, ["long_thought_after_stop"])])
def test_FSB_L116B_next_player_waits_about_ten_seconds(t_next, expected):
    state = play("fsb-2007", [c(0, "N", "2S", stop=True), c(t_next, "E", "P")])
    assert [k for k, _ in kinds(state)] == expected
    if expected:
        assert state["timing"][0]["seat"] == "E" and state["timing"][0]["law"].startswith("FSB L116B")


def test_FSB_L116B_stop_lock_until_for_the_next_box():
    state = play("fsb-2007", [c(3.0, "N", "2S", stop=True)])
    assert state["next"] == "E" and state["stop_lock_until"] == 13.0 and state["stop_enforcement"] == "lock"
    state = play("fsb-2007", [c(3.0, "N", "2S", stop=True), c(14.0, "E", "P")])
    assert state["stop_lock_until"] is None


def test_L21B1a_alert_after_the_next_player_called_is_late():
    state = play("fsb-2007", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", "2C"), c(3, "W", "P"), a(4, "N")])
    assert kinds(state) == [("alert_late", "N")]
    assert state["calls"][2]["alerted"] is True  # recorded, but reported as late


def test_alert_in_time_is_not_reported():
    state = play("fsb-2007", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", "2C"), a(2.5, "N")])
    assert kinds(state) == [] and state["calls"][2]["alerted"] is True


@pytest.mark.parametrize("bid", ["4D", "4C"])
def test_FSB_L115B_no_alert_once_4C_or_higher_was_bid(bid):
    state = play("fsb-2007", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", bid, stop=True), a(2.5, "N")])
    assert kinds(state) == [("alert_not_permitted", "N")]
    assert state["timing"][0]["law"] == "FSB L115B"


def test_FSB_L115B_cutoff_applies_to_later_calls_too():
    state = play("fsb-2007", [c(0, "N", "1NT"), c(1, "E", "4S", stop=True), c(12, "S", "X"), a(12.5, "N")])
    assert kinds(state) == [("alert_not_permitted", "N")]


def test_FSB_L115B_stayman_below_cutoff_is_alerted():
    state = play("fsb-2007", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", "2C"), a(2.5, "N")])
    assert state["timing"] == []


def test_screens_have_no_alert_cutoff():
    state = play("wbf-screens-2017", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", "4D", stop=True), a(2.5, "S")])
    assert kinds(state) == []  # self-alert to screenmate, no cut-off with screens


def test_dbf_has_no_4C_cutoff():
    state = play("dbf-2017", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", "4D", stop=True), a(2.5, "N")])
    assert kinds(state) == []


def test_ebu_opening_at_four_level_may_be_alerted_but_not_later_calls():
    assert kinds(play("ebu", [c(0, "N", "4C", stop=True), a(0.5, "S")])) == []  # a skip bid: with the Stop card
    assert kinds(play("ebu", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", "4D", stop=True), a(2.5, "N")])) == [("alert_not_permitted", "N")]


def test_FSB_L115B_self_alert_where_partner_must_alert():
    state = play("fsb-2007", [c(0, "N", "1NT"), c(1, "E", "P"), c(2, "S", "2C"), a(2.2, "S")])
    assert kinds(state) == [("alert_by_wrong_player", "S")]
    assert state["timing"][0]["expected"] == "partner"


def test_think_time_from_the_moment_the_seat_was_in_turn():
    state = play("dbf-2017", [c(1.0, "N", "1C"), c(4.0, "E", "P"), c(20.0, "S", "1H")])
    assert [x["think"] for x in state["calls"]] == [1.0, 3.0, 16.0]


def test_FSB_L116B_lock_profile_check_refuses_inside_the_wait():
    table = Table("fsb-2007", 1)
    table.apply(c(0, "N", "2S", stop=True))
    verdict = table.check(c(3, "E", "P"))
    assert verdict["kind"] == "stop_wait_short" and verdict["action"] == "refuse" and verdict["until"] == 10.0
    assert table.check(c(9.5, "E", "P")) is None
    warn = Table("dbf-2017", 1)
    warn.apply(c(0, "N", "1C"))
    warn.apply(c(1, "E", "3S", stop=True))
    assert warn.check(c(2, "S", "P")) is None  # dbf: warn only, the call is not refused


@pytest.mark.parametrize("profile,law", [("fsb-2007", "2007 L22A2"), ("dbf-2017", "2017 L22A")])
def test_end_of_auction_names_its_law(profile, law):
    state = play(profile, [c(0, "N", "1C"), c(1, "E", "P"), c(2, "S", "P"), c(3, "W", "P")])
    assert state["status"] == "ended" and state["status_law"] == law


# FSB L115A1-A2: a pair may ask that its opponents at the table do not alert.
def test_FSB_L115A1_alert_by_a_pair_asked_not_to_alert_is_reported():
    table = Table("fsb-2007", 1, no_alerts_by=["EW"])  # North-South asked East-West not to alert
    for e in [c(1, "N", "1C"), a(2, "S"), c(3, "E", "1D"), a(4, "W")]:
        state = table.apply(e)
    flagged = [x for x in state["timing"] if x["kind"] == "alert_not_permitted"]
    assert [(x["seat"], x["law"]) for x in flagged] == [("W", "FSB L115A1")]
    assert flagged[0]["reason"] == "the opponents asked this pair not to alert"
    assert state["no_alerts_by"] == ["EW"]
    # reported, never silently dropped: the alert still marks the call for the TD
    assert [x["alerted"] for x in state["calls"]] == [True, True]


def test_FSB_L115A2_one_pair_alerts_the_other_does_not_and_the_default_is_both():
    assert Table("fsb-2007", 1).state()["no_alerts_by"] == []
    state = play("fsb-2007", [c(1, "N", "1C"), a(2, "S"), c(3, "E", "1D"), a(4, "W")])
    assert kinds(state) == []


def test_no_per_pair_alert_choice_outside_sweden_and_bad_sides_refused():
    from shared_rules.table import EventError

    with pytest.raises(EventError, match="dbf-2017 has no choice for a pair to decline alerts"):
        Table("dbf-2017", 1, no_alerts_by=["NS"])
    with pytest.raises(EventError, match="'NS' or 'EW'"):
        Table("fsb-2007", 1, no_alerts_by=["N"])
