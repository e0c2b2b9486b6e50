"""Pause rules after a skip bid, as profile data ([stop] `card`, `pause_without_card`, `triggers`,
`wait_s`, `tolerance_s`): who must pause, for how long, whether a skip bid made without the Stop
card still obliges the pause, and what the engine flags (docs/laws/timing-box-screens.md).

- FSB L116B: "Därefter skall han avge sitt bud. Näste spelare skall därefter avvakta i cirka 10
  sekunder": the pause follows the stop; a skip bid without it is flagged (`stop_missing`) and
  owes no pause. DBf's footnote to 2017 L73A1 ("efter »stop«") reads the same way.
- EBU (Bidding Box Regulations, "The Stop card"): the Stop card before a skip bid; the LHO pauses
  about ten seconds, and where the card was not used he still pauses as though it had been.
- ACBL (since 1 January 2018): no Stop card and no skip-bid warning; the LHO still pauses about
  ten seconds after a skip bid, a clear break mattering more than the exact length.
The EBU and ACBL values stay marked assumed until a regulation text is cited (profiles: `cite`).
"""
from __future__ import annotations

from typing import Any

import pytest

from shared_rules import profiles
from shared_rules.table import Table


def c(t: float, seat: str, call: str, stop: bool = False) -> dict[str, Any]:
    e: dict[str, Any] = {"t": t, "seat": seat, "call": call}
    if stop:
        e["stop"] = True
    return e


def play(profile: str, evs: list[dict[str, Any]]) -> dict[str, Any]:
    table = Table(profile, 1)
    state = table.state()
    for e in evs:
        state = table.apply(e)
    return state


def flags(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(x["kind"], x["seat"]) for x in state["timing"]]


def test_the_pause_rules_are_profile_data():
    got = {name: (p.stop.card, p.stop.pause_without_card, p.stop.triggers)
           for name in profiles.names() for p in [profiles.load(name)]}
    assert got["fsb-2007"] == (True, False, ("opening_two_level", "jump"))  # FSB L116B1-B2
    assert got["dbf-2017"] == (True, False, ("jump",))  # 2017 L73A1 + DBf fn: "efter »stop«"
    assert got["ebu"] == (True, True, ("opening_two_level", "jump"))
    assert got["acbl"] == (False, True, ("opening_two_level", "jump"))


# ---------------------------------------------------------------- EBU: the card, and the pause without it
def test_EBU_a_skip_bid_without_the_stop_card_is_flagged_and_the_LHO_still_pauses():
    state = play("ebu", [c(0, "N", "1H"), c(1, "E", "3S"), c(2, "S", "P")])
    assert flags(state) == [("stop_missing", "E"), ("stop_wait_short", "S")]
    short = state["timing"][1]
    assert short["waited"] == 1.0 and short["wait"] == 10.0 and short["stop_card"] is False
    assert "EBU" in short["law"]


def test_EBU_the_LHOs_pause_of_about_ten_seconds_after_a_skip_bid_without_the_card_is_kept():
    state = play("ebu", [c(0, "N", "1H"), c(1, "E", "3S"), c(10.5, "S", "P")])
    assert flags(state) == [("stop_missing", "E")]


def test_EBU_the_box_shows_the_pause_after_a_skip_bid_made_without_the_card():
    state = play("ebu", [c(0, "N", "1H"), c(1, "E", "3S")])
    assert state["next"] == "S" and state["stop_lock_until"] == 11.0


def test_EBU_with_the_card_the_flags_are_as_before():
    state = play("ebu", [c(0, "N", "1H"), c(1, "E", "3S", stop=True), c(2, "S", "P")])
    assert flags(state) == [("stop_wait_short", "S")] and "stop_card" not in state["timing"][0]


def test_EBU_an_opening_bid_at_the_two_level_is_a_skip_bid():
    # a jump bid is one above the minimum level required, and an opening's minimum is the one
    # level (docs/laws/choices.md #32)
    state = play("ebu", [c(0, "N", "2S"), c(1, "E", "P")])
    assert flags(state) == [("stop_missing", "N"), ("stop_wait_short", "E")]
    assert flags(play("ebu", [c(0, "N", "1S"), c(1, "E", "P")])) == []


def test_EBU_no_pause_is_owed_after_a_bid_at_the_minimum_level():
    assert flags(play("ebu", [c(0, "N", "1H"), c(1, "E", "2C"), c(1.5, "S", "P")])) == []


# ---------------------------------------------------------------- ACBL: no card, the pause stays
def test_ACBL_a_skip_bid_needs_no_card_and_the_LHO_must_pause():
    state = play("acbl", [c(0, "N", "1H"), c(1, "E", "3S"), c(2, "S", "P")])
    assert flags(state) == [("stop_wait_short", "S")]  # no stop_missing: there is no card
    assert state["timing"][0]["stop_card"] is False and "ACBL" in state["timing"][0]["law"]


@pytest.mark.parametrize("waited,short", [(1.0, True), (3.5, True), (4.0, False), (5.0, False), (12.0, False)])
def test_ACBL_a_clear_break_of_four_seconds_counts_as_the_pause(waited, short):
    # about ten seconds, but a clear break in tempo matters more than the exact length; a district
    # bulletin says four or five seconds are enough (docs/laws/choices.md #33)
    state = play("acbl", [c(0, "N", "1H"), c(1, "E", "3S"), c(1 + waited, "S", "P")])
    assert (("stop_wait_short", "S") in flags(state)) is short


def test_ACBL_an_opening_at_two_or_three_is_a_skip_bid():
    assert flags(play("acbl", [c(0, "N", "2NT"), c(1, "E", "P")])) == [("stop_wait_short", "E")]
    assert flags(play("acbl", [c(0, "N", "3D"), c(1, "E", "P")])) == [("stop_wait_short", "E")]


def test_ACBL_a_stop_card_used_by_habit_changes_nothing():
    # ACBL: a player who shows a Stop card by old habit is not penalised: no flag, and no pause
    # owed after a call that is not a skip bid
    assert flags(play("acbl", [c(0, "N", "1H", stop=True), c(1, "E", "P")])) == []


# ---------------------------------------------------------------- FSB and DBf: the pause follows the card
@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017"])
def test_FSB_L116B_and_DBf_L73A1_no_pause_is_owed_after_a_skip_bid_without_the_stop(profile):
    state = play(profile, [c(0, "N", "1H"), c(1, "E", "3S"), c(2, "S", "P")])
    assert flags(state) == [("stop_missing", "E")]
    assert play(profile, [c(0, "N", "1H"), c(1, "E", "3S")])["stop_lock_until"] is None
