"""The boundaries of Law 27 and of the FSB L116B stop wait, each pinned on both sides.

A replacement for an insufficient bid is judged by L18C against the last bid (equal rank is not
higher, so not sufficient) and must be a legal call (L18A: at most seven, so 7NT is the highest);
the offender who replaces early (L27C) ended his wait after a stop when he first called; the
next player's wait after a stop counts as kept from `wait_s - tolerance_s` (9.0 s with fsb-2007's
10 s and 1 s) on.
"""
import pytest

from shared_rules.outcome import Accepted, Refused
from shared_rules.table import Table
from shared_rules.types import TimingKind
from tests.rules.helpers import calls, logged, run, step, td

BOTH = pytest.mark.parametrize("profile,ed", [("fsb-2007", "2007"), ("dbf-2017", "2017")])


def timing(state, seat=None):
    return [x["kind"] for x in state["timing"] if seat is None or x["seat"] == seat]


# ---------------------------------------------------------------- L27B4: equal to the last bid
@BOTH
def test_L27B4_a_replacement_equal_to_the_last_bid_is_another_insufficient_bid(profile, ed):
    # N 1H, E 1D (insufficient); E replaces it with 1H, the last bid itself: not higher (L18C),
    # so it is another insufficient bid (L27B4), which the LHO may accept.
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "1H"))
    assert state["pending"]["kind"] == "insufficient_bid" and state["pending"]["law"] == f"{ed} L27B4"
    assert state["pending"]["call"] == "1H" and state["irregularities"][-1]["call"] == "1H"
    assert state["withdrawn"][-1]["call"] == "1D" and state["withdrawn"][-1]["law"] == f"{ed} L27B4"


@BOTH
def test_L27B_a_replacement_one_step_above_the_last_bid_is_sufficient(profile, ed):
    # the other side of the boundary: 1S over 1H is sufficient and goes to the TD's judgement
    state = run(profile, "N 1H", "E 1D", td("insufficient_bid", "replace", "1S"))
    assert state["pending"]["kind"] == "insufficient_bid_judgement" and state["pending"]["call"] == "1S"


# ---------------------------------------------------------------- L27B with 7NT, the highest bid
@BOTH
def test_L27B_7NT_is_a_legal_replacement(profile, ed):
    # N 7S, E 7H (insufficient); E replaces it with 7NT, the highest legal bid (L18A): sufficient.
    state = run(profile, "N 7S", "E 7H", td("insufficient_bid", "replace", "7NT"))
    assert state["pending"]["kind"] == "insufficient_bid_judgement" and state["pending"]["call"] == "7NT"
    state = run(profile, "N 7S", "E 7H", td("insufficient_bid", "replace", "7NT"),
                td("insufficient_bid_judgement", "none"))
    assert calls(state) == ["N 7S", "E 7NT"] and state["next"] == "S"


@BOTH
def test_L27C_7NT_replacing_early_is_legal_and_8C_is_refused(profile, ed):
    state = run(profile, "N 7S", "E 7H", "E 7NT")
    assert state["pending"]["kind"] == "insufficient_bid_judgement" and state["pending"]["law"] == f"{ed} L27C"
    table = Table(profile, 1)
    for e in [{"t": 0.0, "seat": "N", "call": "7S"}, {"t": 1.0, "seat": "E", "call": "7H"}]:
        step(table, e)
    before = table.state()
    with pytest.raises(ValueError, match="legal call"):
        step(table, {"t": 2.0, "td": "insufficient_bid", "choice": "replace", "call": "8C"})
    assert table.state() == before


# ---------------------------------------------------------------- L27C and the FSB L116B wait
def _stop_then_early_replacement(t_insufficient: float, t_replacement: float) -> dict:
    # N 2S with the stop card at t=0; E's insufficient 2C at t_insufficient; E replaces it himself
    # (L27C) at t_replacement with 3C; the TD rules it a comparable replacement (B1).
    table = Table("fsb-2007", 1)
    for e in [{"t": 0.0, "seat": "N", "call": "2S", "stop": True},
              {"t": t_insufficient, "seat": "E", "call": "2C"},
              {"t": t_replacement, "seat": "E", "call": "3C"},
              {"t": t_replacement + 1.0, "td": "insufficient_bid_judgement", "choice": "b1b"}]:
        state = step(table, e)
    assert calls(state) == ["N 2S", "E 3C"]
    return state


def test_FSB_L116B_L27C_the_wait_ended_at_the_insufficient_bid_kept():
    # E waited 10.5 s before his insufficient bid: the wait was kept, however long he took over
    # the replacement he made himself (L27C) at t=40.
    assert timing(_stop_then_early_replacement(10.5, 40.0), "E") == []


def test_FSB_L116B_L27C_the_wait_ended_at_the_insufficient_bid_short():
    # E called at once (t=1) and replaced at t=40: he waited 1 s, not 40.
    state = _stop_then_early_replacement(1.0, 40.0)
    assert timing(state, "E") == ["stop_wait_short"] and state["timing"][-1]["waited"] == 1.0


# ---------------------------------------------------------------- FSB L116B: the 9.0 s boundary
@pytest.mark.parametrize("t_next,short", [(15.0, False), (14.99, True), (15.01, False)])
def test_FSB_L116B_a_wait_of_wait_s_minus_tolerance_is_kept(t_next, short):
    # fsb-2007: wait_s 10, tolerance_s 1. A stop at t=6.0 and the next call at t=15.0 is a wait of
    # exactly 9.0 s: kept ("about 10 s"); a hundredth of a second less is short.
    state = logged("fsb-2007", {"t": 6.0, "seat": "N", "call": "2S", "stop": True},
                   {"t": t_next, "seat": "E", "call": "P"})
    assert (timing(state, "E") == ["stop_wait_short"]) is short
    if short:
        assert state["timing"][-1]["wait"] == 10.0 and state["timing"][-1]["law"] == "FSB L116B"


@pytest.mark.parametrize("t_next,refused", [(15.0, False), (14.99, True)])
def test_FSB_L116B_the_locked_box_is_released_at_wait_s_minus_tolerance(t_next, refused):
    # The lock (enforcement = "lock") refuses a call inside the same boundary as the report.
    table = Table("fsb-2007", 1)
    step(table, {"t": 6.0, "seat": "N", "call": "2S", "stop": True})
    got = table.step({"t": t_next, "seat": "E", "call": "P"})
    assert (isinstance(got, Refused) and got.kind == TimingKind.STOP_WAIT_SHORT) is refused
    if isinstance(got, Refused):
        assert got.until == 16.0 and got.law == "FSB L116B"
    else:
        assert isinstance(got, Accepted) and got.state["calls"][-1]["seat"] == "E"
