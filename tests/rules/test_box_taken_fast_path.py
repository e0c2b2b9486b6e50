"""Calls from a box that reports the card taken out (`"taken": true`, FSB L112C; the tablet sends
it on every box call under fsb-2007) take the engine's fast path, with the same result as the full
path and, where the profile makes the call when taken, the same state as the plain call.

Each log is a random table session: calls in turn (legal or not), calls by a random seat, the
box's confirmation after a taken call, alerts, the TD answering a pending decision with a random
option, stops; events the table refuses are kept in the comparison (both sides must refuse).
"""
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.calls import SEATS
from shared_rules.table import EventError, Table
from tests.hypothesis_profiles import examples

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILES = st.sampled_from(["fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl"])
CALLS = ["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]


class FullPath(dict):
    """An event the fast path does not recognise (it takes only plain dicts): goes through
    _validate and the full dispatch, the reference for the fast path."""


def session(data: Any, profile: str, board: int, n: int = 40) -> list[dict[str, Any]]:
    """Events chosen against a live table, so most are ones it takes."""
    table = Table(profile, board)
    events: list[dict[str, Any]] = []
    t = 0.0
    last_call: dict[str, Any] | None = None
    for _ in range(n):
        state = table.state()
        t += data.draw(st.sampled_from([0.0, 0.2, 1.0, 4.0, 12.0]), label="dt")
        what = data.draw(st.sampled_from(["turn", "turn", "turn", "any", "confirm", "alert", "td"]), label="what")
        e: dict[str, Any]
        if what == "td" and state["pending"]:
            opt = data.draw(st.sampled_from(state["pending"]["options"]), label="option")
            e = {"t": t, "td": state["pending"]["kind"], "choice": opt["id"]}
            if opt.get("needs_call"):
                e["call"] = data.draw(st.sampled_from(CALLS[:12]), label="replacement")
        elif what == "alert":
            e = {"t": t, "seat": data.draw(st.sampled_from(SEATS), label="alerter"), "alert": True}
        elif what == "confirm" and last_call is not None:
            e = {"t": t, "seat": last_call["seat"], "call": last_call["call"], "taken": False}
        else:
            seat = state["next"] if what == "turn" and state["next"] else data.draw(st.sampled_from(SEATS), label="seat")
            legal = state["legal_calls"] or CALLS
            pool = legal[:8] if data.draw(st.integers(0, 9), label="legal?") else CALLS
            e = {"t": t, "seat": seat, "call": data.draw(st.sampled_from(pool), label="call")}
            if e["call"][0].isdigit() and data.draw(st.booleans(), label="stop?"):
                e["stop"] = True
            last_call = e
        try:
            table.apply(e)
        except EventError:
            pass
        events.append(e)
    return events


def fold(table: Table, events: list[dict[str, Any]]) -> list[Any]:
    """The state after each event, or the refusal's message."""
    out: list[Any] = []
    for e in events:
        try:
            out.append(table.apply(e))
        except EventError as exc:
            out.append(("refused", str(exc)))
    return out


def with_taken(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**e, "taken": True} if "call" in e and "td" not in e and "taken" not in e else e for e in events]


@SETTINGS
@given(data=st.data(), profile=PROFILES, board=st.integers(min_value=1, max_value=16))
def test_fsb_l112c_taken_calls_take_the_fast_path_with_the_full_paths_result(data, profile, board):
    events = with_taken(session(data, profile, board))
    fast = fold(Table(profile, board), events)
    full = fold(Table(profile, board), [FullPath(e) for e in events])
    assert fast == full


@SETTINGS
@given(data=st.data(), board=st.integers(min_value=1, max_value=16))
def test_fsb_l112c_a_call_taken_from_the_box_is_the_call_itself(data, board):
    # fsb-2007 makes the call when it is taken out: a log with taken on every call rules exactly
    # as the same log without it; only the record of the box (box_taken) differs.
    events = [e for e in session(data, "fsb-2007", board) if e.get("taken") is None]
    plain = fold(Table("fsb-2007", board), events)
    taken = fold(Table("fsb-2007", board), with_taken(events))
    for a, b in zip(plain, taken, strict=True):
        if isinstance(a, dict) and isinstance(b, dict):
            assert a.pop("box_taken") == []
            made = b.pop("box_taken")
            assert made and all(x["made"] and x["law"] == "FSB L112C" for x in made)
        assert a == b


def test_the_fast_path_is_taken_by_a_taken_call():
    # pins that the taken call does not fall back to _validate (the whole point: a replay of an
    # fsb-2007 journal runs at the plain calls' rate)
    table = Table("fsb-2007", 1)
    seen: list[Any] = []
    original = table._validate
    table._validate = lambda ev: seen.append(ev) or original(ev)
    for i, (seat, call) in enumerate([("N", "1C"), ("E", "P"), ("S", "1NT"), ("W", "P")]):
        table.take({"t": float(i), "seat": seat, "call": call, "taken": True})
    table.take({"t": 5.0, "seat": "W", "call": "P"})  # the box's confirmation of the taken pass
    assert seen == []
    assert [c["call"] for c in table.state()["calls"]] == ["1C", "P", "1NT", "P"]
