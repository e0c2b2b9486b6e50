"""`Table.step` refuses without changing anything: for each kind of refusal, on every profile
(both editions) where it can arise, the state after the refusal is the state before it, and the
table goes on exactly as one that never saw the refused event. Where a profile's rules allow the
same event (no stop lock, another alert regulation), it is accepted instead.
"""
from __future__ import annotations

from typing import Any

import pytest

from shared_rules import laws, profiles
from shared_rules.outcome import Accepted, Refused
from shared_rules.table import EventError, Table
from shared_rules.types import IrregularityKind, Refusal, TimingKind

ALL = ("fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl")


def calls(*specs: str, t0: float = 0.0) -> list[dict[str, Any]]:
    out = []
    for i, spec in enumerate(specs):
        seat, what = spec.split()
        out.append({"t": t0 + i, "seat": seat, "alert": True} if what == "!" else {"t": t0 + i, "seat": seat, "call": what})
    return out


def refuses(profile: str, setup: list[dict[str, Any]], event: dict[str, Any], follow: dict[str, Any] | None,
            policy: str | None = None, no_alerts_by: tuple[str, ...] = ()) -> Refused:
    """Step through `setup` (all taken), then `event` (refused, nothing changed), then `follow`,
    which must leave the table as a fresh one given only `setup` and `follow`."""
    table = Table(profile, 1, policy, no_alerts_by)
    for e in setup:
        assert isinstance(table.step(e), Accepted), e
    before = table.state()
    got = table.step(event)
    assert isinstance(got, Refused), got
    assert table.state() == before
    if follow is not None:
        fresh = Table(profile, 1, policy, no_alerts_by)
        for e in setup:
            fresh.step(e)
        assert type(table.step(follow)) is type(fresh.step(follow))
        assert table.state() == fresh.state()
    return got


def edition(profile: str) -> int:
    return profiles.load(profile).edition


# ---------------------------------------------------------------- the prevent policy
PREVENTED = [
    # (setup, the irregular call, kind, laws.REFS key, a call after it)
    (["N 1H"], "E 1D", IrregularityKind.INSUFFICIENT_BID, "insufficient_bid", "E 1S"),
    (["N 1H"], "W 1S", IrregularityKind.CALL_OUT_OF_ROTATION, "out_of_rotation_laws", "E P"),
    (["N 1H"], "N 1S", IrregularityKind.CHANGE_OF_CALL, "change_of_call", "E P"),
    (["N 1H"], "E XX", IrregularityKind.INADMISSIBLE_DOUBLE, "inadmissible_double", "E X"),
    ([], "N 8C", IrregularityKind.BID_ABOVE_SEVEN, "above_seven", "N 1C"),
    (["N P", "E P", "S P", "W P"], "N 1C", IrregularityKind.CALL_AFTER_FINAL_PASS, "after_final_pass", None),
]


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize("setup,call,kind,ref,follow", PREVENTED, ids=[k for _, _, k, _, _ in PREVENTED])
def test_prevent_policy_refuses_an_irregular_call_before_anyone_sees_it(profile, setup, call, kind, ref, follow):
    evs = calls(*setup, call, *([follow] if follow else []))
    n = len(setup)
    got = refuses(profile, evs[:n], evs[n], evs[n + 1] if follow else None, policy="prevent")
    assert got.kind == kind and got.law == laws.REFS[edition(profile)][ref]


@pytest.mark.parametrize("profile", ALL)
def test_L28A_prevent_refuses_the_call_and_deems_no_pass(profile):
    # W's exposed king (L24B): his partner E must pass at his next turn. S calls at E's turn, so
    # E's pass would be deemed made (L28A) and S's call judged in turn after it: an insufficient
    # 1C is refused with no pass deemed; S's 1H then stands after E's deemed pass.
    setup = [*calls("N 1C"), {"t": 1.0, "td": "exposed_cards", "seat": "W", "cards": ["SK"]}]
    got = refuses(profile, setup, calls("S 1C", t0=2.0)[0], calls("S 1H", t0=3.0)[0], policy="prevent")
    assert got.kind == IrregularityKind.INSUFFICIENT_BID
    table = Table(profile, 1, "prevent")
    for e in [*setup, *calls("S 1H", t0=3.0)]:
        table.step(e)
    state = table.state()
    assert [(c["seat"], c["call"]) for c in state["calls"]] == [("N", "1C"), ("E", "P"), ("S", "1H")]
    assert state["calls"][1]["deemed"] is True and state["refused"] == []


# ---------------------------------------------------------------- the stop lock (FSB L116B)
@pytest.mark.parametrize("profile", ALL)
def test_FSB_L116B_a_locked_box_is_refused_inside_the_stop_wait(profile):
    setup = [{"t": 0.0, "seat": "N", "call": "2S", "stop": True}]
    early = {"t": 3.0, "seat": "E", "call": "P"}
    follow = {"t": 10.0, "seat": "E", "call": "P"}
    if profiles.load(profile).stop.enforcement == "lock":
        got = refuses(profile, setup, early, follow)
        assert got.kind == TimingKind.STOP_WAIT_SHORT and got.law == "FSB L116B" and got.until == 10.0
    else:  # warn / none: the boxes are not locked; the short wait is reported
        table = Table(profile, 1)
        table.step(setup[0])
        got = table.step(early)
        assert isinstance(got, Accepted) and [f["kind"] for f in got.timing] == ["stop_wait_short"]


# ---------------------------------------------------------------- alerts the profile forbids (FSB L115)
@pytest.mark.parametrize("profile", ALL)
def test_FSB_L115B_a_self_alert_where_partner_alerts_is_refused(profile):
    rules = profiles.load(profile).alert
    setup, alert, follow = calls("N 1C"), calls("N !", t0=1.0)[0], calls("E P", t0=2.0)[0]
    if "self" in rules.by:
        assert isinstance(Table(profile, 1).step(setup[0]), Accepted)
        table = Table(profile, 1)
        table.step(setup[0])
        assert isinstance(table.step(alert), Accepted)
        return
    got = refuses(profile, setup, alert, follow)
    assert got.kind == TimingKind.ALERT_BY_WRONG_PLAYER and got.law == rules.law


@pytest.mark.parametrize("profile", ALL)
def test_FSB_L115B_an_alert_above_the_cutoff_is_refused(profile):
    # N 1C, E P, S 4C, W P: N alerts his partner's 4C
    rules = profiles.load(profile).alert
    setup = calls("N 1C", "E P", "S 4C", "W P")
    alert, follow = calls("N !", t0=4.0)[0], calls("N P", t0=5.0)[0]
    if rules.cutoff_level is not None and not profiles.load(profile).screens.enabled:
        got = refuses(profile, setup, alert, follow)
        assert got.kind == TimingKind.ALERT_NOT_PERMITTED and got.law == rules.law
        return
    table = Table(profile, 1)
    for e in setup:
        table.step(e)
    got = table.step(alert)
    assert isinstance(got, Accepted)
    if profiles.load(profile).screens.enabled:
        # behind screens N has not seen S's 4C (no tray passed): his alert is of his own 1C, late
        assert [(f["kind"], f["call"]) for f in got.timing] == [("alert_late", "1C")]


def test_FSB_L115A1_an_alert_by_a_pair_asked_not_to_alert_is_refused():
    got = refuses("fsb-2007", calls("N 1C", "E P"), calls("S !", t0=2.0)[0], calls("S 1H", t0=3.0)[0],
                  no_alerts_by=("NS",))
    assert got.kind == TimingKind.ALERT_NOT_PERMITTED and got.law == "FSB L115A1"


# ---------------------------------------------------------------- refusals of procedure
@pytest.mark.parametrize("profile", ALL)
def test_no_call_once_the_auction_is_stopped_for_an_adjusted_score(profile):
    # N's call was made with cards from the wrong board and S has called since: the TD adjusts
    # (2007 L17D2, L12C2 / 2017 L15A2(a), L12C1); no call is taken any more
    setup = [*calls("N 1C", "E P", "S 1H"), {"t": 3.0, "td": "wrong_board_call", "seat": "N"}]
    got = refuses(profile, setup, calls("W P", t0=4.0)[0], {"t": 5.0, "td": "exposed_cards", "seat": "W",
                                                             "cards": ["SK"]})
    assert got.kind == Refusal.AUCTION_STOPPED
    assert got.law == laws.WRONG_BOARD_CALL[edition(profile)].partner_called


@pytest.mark.parametrize("profile", ALL)
def test_L9B2_only_the_calls_the_law_gives_a_meaning_while_the_TD_is_awaited(profile):
    got = refuses(profile, calls("N 1H", "E 1D"), calls("W P", t0=2.0)[0], calls("S P", t0=3.0)[0])
    assert got.kind == Refusal.AWAITING_TD and got.law == "L9B2"


@pytest.mark.parametrize("profile", ["fsb-2007", "dbf-2017", "ebu", "acbl"])
def test_L9B2_a_call_refused_after_its_acceptance_began_leaves_everything_as_it_was(profile):
    # The LHO accepts an insufficient bid by calling (L27A1); standing it brings a judgement the
    # Law defers to the offender's next call (2017 L30B1: comparable?; 2007 L31A2: the same
    # denomination?), so the LHO's call itself must wait for the TD. The acceptance had begun: the
    # table is put back as it was. (Behind screens the call out of rotation is cancelled with no
    # further rectification, so nothing is deferred: wbf-screens-2017 has no such case.)
    if edition(profile) == 2017:  # W passes at his partner's (E's) turn: 2017 L30B1
        setup = [*calls("N 1S", "W P"), {"t": 2.0, "td": "call_out_of_rotation", "choice": "cancel"},
                 *calls("E 2C", "S 2S", "W 2H", t0=3.0)]
    else:  # S bids at his RHO's (E's) turn, E then bids: 2007 L31A2
        setup = [*calls("N 1C", "S 1H"), {"t": 2.0, "td": "call_out_of_rotation", "choice": "cancel"},
                 *calls("E 1S", "S 1D", t0=3.0)]
    last = setup[-1]["seat"]
    lho = "NESW"[("NESW".index(last) + 1) % 4]
    got = refuses(profile, setup, {"t": 9.0, "seat": lho, "call": "P"},
                  {"t": 10.0, "td": "insufficient_bid", "choice": "accept"})
    assert got.kind == Refusal.AWAITING_TD and got.law == "L9B2" and "waits for the TD" in got.reason


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize("event", [
    {"t": 1.0, "seat": "N", "call": "1Z"},
    {"t": 1.0, "seat": "Q", "call": "1C"},
    {"t": -1.0, "seat": "N", "call": "1C"},
    {"t": 1.0, "td": "insufficient_bid", "choice": "replace"},
    {"t": 1.0, "seat": "N", "alert": True},
    ["not", "an", "event"],
], ids=["call", "seat", "time", "td", "alert", "type"])
def test_an_event_the_table_cannot_take_is_refused_and_changes_nothing(profile, event):
    got = refuses(profile, [], event, calls("N 1C", t0=2.0)[0])
    assert got.kind == Refusal.INVALID and got.reason


@pytest.mark.parametrize("profile", ALL)
def test_a_TD_answer_the_table_cannot_take_is_refused_and_changes_nothing(profile):
    # the replacement of an insufficient bid needs the call (L27B); answering another decision
    setup = calls("N 1H", "E 1D")
    got = refuses(profile, setup, {"t": 2.0, "td": "insufficient_bid", "choice": "replace"},
                  {"t": 3.0, "td": "insufficient_bid", "choice": "accept"})
    assert got.kind == Refusal.INVALID and "needs the call" in got.reason
    got = refuses(profile, setup, {"t": 2.0, "td": "change_of_call", "choice": "accept"}, None)
    assert "the pending decision is 'insufficient_bid'" in got.reason


@pytest.mark.parametrize("profile", ALL)
def test_FSB_L114_a_tray_refused_without_screens_or_while_the_TD_rules(profile):
    screens = profiles.load(profile).screens.enabled
    setup = calls("N 1H", "E 1D") if screens else []
    got = refuses(profile, setup, {"t": 5.0, "tray": True}, None)
    assert got.kind == Refusal.INVALID
    assert ("while the TD rules" if screens else "plays without screens") in got.reason


def test_a_saved_state_puts_back_everything_an_event_may_change():
    # snapshot.save/restore, the undo of a refusal found part-way, on its own: whatever a rule
    # changes in place (the pending decision and its call, an irregularity entry, the
    # obligations, the standing calls) comes back as it was
    from shared_rules import snapshot
    from shared_rules.calls import PASS
    from shared_rules.model import Rec
    from shared_rules.types import MustPass

    table = Table("dbf-2017", 1)
    for e in calls("N 1H", "E 1D"):
        table.step(e)
    fold = table._f  # the engine's working state: what a rule changes
    before = table.state()
    p = fold.pending
    assert p is not None and p.rec is not None
    pending_fields = (p.rec, p.law, p.context.only_bid_or_pass, p.irregularity)
    saved = snapshot.save(fold)
    p.rec.think, p.rec.in_rotation, p.rec.shown = 99.0, False, (1,)
    p.law, p.context.only_bid_or_pass = "changed", True
    p.irregularity["resolution"] = "changed"
    p.rec.alerted_to.append(3)
    fold.oblige(3, MustPass.REST, "changed")
    fold.stand(Rec(2, PASS, 5.0, 1.0, False))
    fold.pending = None
    snapshot.restore(fold, saved)
    assert table.state() == before
    assert (p.rec, p.law, p.context.only_bid_or_pass, p.irregularity) == pending_fields
    assert p.rec.think == 1.0 and p.rec.in_rotation and p.rec.shown is None and p.rec.alerted_to == []


@pytest.mark.parametrize("seed", range(40))
def test_refused_events_leave_no_trace_in_random_sessions(seed):
    # calls in and out of turn, alerts, trays, TD answers and findings, on every profile and both
    # policies: after each refusal the state is as before, and the session ends where a table
    # given only the accepted events ends
    import random

    from tests.rules.data.make_step_golden import random_session

    rng = random.Random(seed)
    log = random_session(rng, Table, EventError, n=40)
    args = (log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())))
    table, accepted = Table(*args), []
    for ev in log["events"]:
        before = table.state()
        got = table.step(ev)
        if isinstance(got, Refused):
            assert table.state() == before, ev
        else:
            accepted.append(ev)
    fresh = Table(*args)
    assert all(isinstance(fresh.step(ev), Accepted) for ev in accepted)
    assert fresh.state() == table.state()
