"""L9B2: after attention is drawn to an irregularity, nobody acts until the TD has explained the
rectification (2007 L9B2 "Ingen spelare skall göra något förrän tävlingsledaren klargjort allt
som rör korrigering"; 2017 L9B2 "Ingen spiller må foretage sig videre, før turneringslederen har
forklaret alt om berigtigelse af uregelmæssigheden").

A call the Law gives no meaning while the TD is awaited is refused at the box (`Table.step`), but
a table log is what happened: replayed (`apply`, `take`, `python -m shared_rules replay`) such a
call is itself an irregularity, recorded and cancelled (docs/laws/choices.md #30), and the log
always replays. The pending decision, the standing calls, the turn and the obligations are as if
the call had never been made; only the record says it was.
"""
from __future__ import annotations

from typing import Any

import pytest

from shared_rules import profiles
from shared_rules.outcome import Refused
from shared_rules.replay import replay
from shared_rules.table import Table
from shared_rules.types import IrregularityKind, Refusal, Resolution
from tests.rules.helpers import without_awaiting_record

ALL = ("fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl")
KIND = IrregularityKind.CALL_WHILE_AWAITING_TD
# Behind screens East's insufficient bid is ruled on his side of the screen: South cannot accept
# it and it is corrected without a Law 27 judgement (docs/laws/choices.md #34, #36; tested in
# test_screens_tray_seen.py), so the L9B2 cases built on them are played without screens.
OPEN = tuple(p for p in ALL if not profiles.load(p).screens.enabled)


def ev(spec: str, t: float) -> dict[str, Any]:
    seat, call = spec.split()
    return {"t": t, "seat": seat, "call": call}


def ed(profile: str) -> int:
    return profiles.load(profile).edition


def ui(profile: str) -> str:
    return {2007: "2007 L9B2, L16D", 2017: "2017 L9B2, L16C"}[ed(profile)]


def run(profile: str, events: list[dict[str, Any]], policy: str | None = None) -> Table:
    table = Table(profile, 1, policy)
    for e in events:
        table.apply(e)
    return table


# W is E's partner: while the TD is awaited on E's insufficient bid, only S (L27A1, acceptance)
# and E (L27C, an early replacement) may call.
IB = [ev("N 1H", 0.0), ev("E 1D", 1.0)]


@pytest.mark.parametrize("profile", ALL)
def test_L9B2_a_call_while_the_TD_is_awaited_is_recorded_and_cancelled_in_the_log(profile):
    table = run(profile, IB)
    before = table.state()
    state = table.apply(ev("W 2H", 2.0))
    irr = state["irregularities"][-1]
    assert irr["kind"] == KIND and irr["seat"] == "W" and irr["call"] == "2H" and irr["t"] == 2.0
    assert irr["law"] == f"{ed(profile)} L9B2" and irr["resolution"] == Resolution.CANCELLED
    assert irr["ruling"] == ui(profile) and irr["awaiting"] == "insufficient_bid"
    assert "waits" in irr["reason"] and "L9B2" in irr["reason"]
    assert state["withdrawn"][-1] == {"seat": "W", "call": "2H", "t": 2.0, "law": ui(profile),
                                      "reason": "made while the table waited for the TD (insufficient_bid)"}
    assert any(r["seat"] == "W" and "L9B2" in r["reason"] for r in state["reviews"])
    # the table still waits for the same decision, nothing else moved
    assert state["pending"] == before["pending"] and state["calls"] == before["calls"]
    assert without_awaiting_record(state) == before


@pytest.mark.parametrize("profile", OPEN)
def test_L9B2_the_log_with_such_a_call_replays_and_goes_on_as_without_it(profile):
    # the TD then rules on the insufficient bid as if W had not called; the log replays
    events = [*IB, ev("W 2H", 2.0), {"t": 3.0, "td": "insufficient_bid", "choice": "accept"},
              ev("S P", 4.0), ev("W 2H", 5.0), ev("N P", 6.0)]
    state = replay({"profile": profile, "board": 1, "events": events})
    never = replay({"profile": profile, "board": 1, "events": [e for i, e in enumerate(events) if i != 2]})
    assert without_awaiting_record(state) == never
    assert [(c["seat"], c["call"]) for c in state["calls"]] == [("N", "1H"), ("E", "1D"), ("S", "P"), ("W", "2H"),
                                                                ("N", "P")]


@pytest.mark.parametrize("profile", ALL)
def test_L9B2_the_box_is_still_refused_and_nothing_changes(profile):
    table = Table(profile, 1)
    for e in IB:
        table.step(e)
    before = table.state()
    got = table.step(ev("W 2H", 2.0))
    assert isinstance(got, Refused) and got.kind == Refusal.AWAITING_TD and got.law == "L9B2"
    assert "only S may call now (L9B2)" in got.reason
    assert table.state() == before


@pytest.mark.parametrize("profile", OPEN)
def test_L9B2_a_call_while_the_TD_alone_is_asked_is_recorded(profile):
    # the replacement of an insufficient bid is judged by the TD alone (L27B1): no player may call
    table = run(profile, [*IB, {"t": 2.0, "td": "insufficient_bid", "choice": "replace", "call": "2C"}])
    before = table.state()
    assert before["pending"]["kind"] == "insufficient_bid_judgement" and before["pending"]["may_call"] == []
    state = table.apply(ev("S P", 3.0))
    assert state["irregularities"][-1]["kind"] == KIND
    assert state["irregularities"][-1]["awaiting"] == "insufficient_bid_judgement"
    assert without_awaiting_record(state) == before


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017", "ebu", "acbl"])
def test_L9B2_the_LHOs_acceptance_stands_when_it_brings_a_decision_first(profile):
    # The LHO accepts an insufficient bid by calling (L27A1); the bid standing brings a judgement the
    # Law defers to the offender's next call (2017 L30B1: comparable?; 2007 L31A2: the same
    # denomination?). The acceptance is made; the LHO's call itself came while the TD was
    # awaited on that judgement: recorded and cancelled, he calls again once the TD has ruled.
    if ed(profile) == 2017:  # W passes at his partner's (E's) turn: 2017 L30B1
        setup = [ev("N 1S", 0.0), ev("W P", 1.0), {"t": 2.0, "td": "call_out_of_rotation", "choice": "cancel"},
                 ev("E 2C", 3.0), ev("S 2S", 4.0), ev("W 2H", 5.0)]
    else:  # S bids at his RHO's (E's) turn, E then bids: 2007 L31A2
        setup = [ev("N 1C", 0.0), ev("S 1H", 1.0), {"t": 2.0, "td": "call_out_of_rotation", "choice": "cancel"},
                 ev("E 1S", 3.0), ev("S 1D", 4.0)]
    offender = setup[-1]["seat"]
    lho = "NESW"[("NESW".index(offender) + 1) % 4]
    table = run(profile, setup)
    assert table.state()["pending"]["kind"] == "insufficient_bid"
    state = table.apply({"t": 9.0, "seat": lho, "call": "P"})
    ib = next(i for i in state["irregularities"] if i["kind"] == "insufficient_bid" and i["seat"] == offender)
    assert ib["resolution"] == "accepted"  # L27A1: the LHO's call accepted it
    assert state["calls"][-1]["seat"] == offender and state["pending"]["kind"] == "oot_judgement"
    assert state["irregularities"][-1]["kind"] == KIND and state["irregularities"][-1]["seat"] == lho
    # step refuses the whole call at the box, as before (test_step_refusals.py)
    box = Table(profile, 1)
    for e in setup:
        box.step(e)
    assert isinstance(box.step({"t": 9.0, "seat": lho, "call": "P"}), Refused)


@pytest.mark.parametrize("profile", OPEN)
def test_L9B2_an_early_replacement_the_Law_does_not_allow_is_recorded(profile):
    # after L27B4 (another insufficient bid) the offender may only bid sufficiently or pass (L27B3);
    # his early double (L27C) is no replacement: a call while the TD is awaited
    table = run(profile, [*IB, {"t": 2.0, "td": "insufficient_bid", "choice": "replace", "call": "1C"}])
    before = table.state()
    state = table.apply(ev("E X", 3.0))
    irr = state["irregularities"][-1]
    assert irr["kind"] == KIND and irr["seat"] == "E" and "L27B3" in irr["reason"]
    assert without_awaiting_record(state) == before


def test_L9B2_under_prevent_the_call_is_listed_as_refused_and_nothing_else():
    # Under prevent no irregular call reaches the table, but a TD finding may leave a decision
    # pending: 2007 L17D2, N's first call was from the wrong board, E had called over it, N's new
    # call is another: the TD judges whether it differs. W's call meanwhile is refused.
    table = run("fsb-2007", [ev("N 1C", 0.0), ev("E 1H", 1.0), {"t": 2.0, "td": "wrong_board_call", "seat": "N"},
                             ev("N 1D", 3.0)], policy="prevent")
    before = table.state()
    assert before["pending"]["kind"] == "wrong_board_judgement"
    state = table.apply(ev("W P", 4.0))
    assert state["refused"][-1] == {"t": 4.0, "seat": "W", "call": "P", "kind": Refusal.AWAITING_TD,
                                    "law": "L9B2", "reason": state["refused"][-1]["reason"]}
    assert "waits for the TD" in state["refused"][-1]["reason"]
    assert without_awaiting_record(state) == before


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize("caller", ["N", "E", "W"])
def test_L9B2_every_seat_but_the_ones_the_Law_names_is_recorded_on_every_decision(profile, caller):
    # a change of call by N at E's turn (L25): E may accept it by calling; N, S, W may not call
    table = run(profile, [ev("N 1H", 0.0), ev("N 1S", 1.0)])
    before = table.state()
    assert before["pending"]["kind"] == "change_of_call"
    allowed = before["pending"]["may_call"]
    if caller in allowed:
        return
    state = table.apply(ev(f"{caller} 2C", 2.0))
    assert state["irregularities"][-1]["kind"] == KIND and without_awaiting_record(state) == before


def test_FSB_L112C_a_card_taken_out_while_the_TD_is_awaited_is_the_call_and_its_confirmation_no_second():
    # fsb-2007: the call is made when the card is taken from the box (FSB L112C). W takes 2H while
    # the TD is awaited: that is the call made then (L9B2), recorded once; the box's confirmation
    # of the same card after it is not another call.
    table = run("fsb-2007", [{**e, "taken": True} for e in IB])
    before = table.state()
    state = table.apply({"t": 2.0, "seat": "W", "call": "2H", "taken": True})
    state = table.apply({"t": 2.5, "seat": "W", "call": "2H"})
    assert [i["kind"] for i in state["irregularities"]].count(KIND) == 1
    assert state["box_taken"][-1]["seat"] == "W" and state["box_taken"][-1]["made"] is True
    assert without_awaiting_record(state) == before
