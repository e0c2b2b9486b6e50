"""Bad input is named: a field of the wrong type or value, a TD choice the Law does not offer, a
field an event does not take, a key written twice in a log file. The table refuses it, says which
field and why, and changes nothing; the replay tool exits 1 with that message, never with the
"internal error" it keeps for a bug in the engine."""
from __future__ import annotations

import io
import json
from typing import Any

import pytest

from shared_rules import profiles
from shared_rules.outcome import Refused
from shared_rules.replay import LogError, loads, replay
from shared_rules.replay_cli import main
from shared_rules.table import Table
from shared_rules.types import Refusal

ALL = ("fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl")
SETUP = [{"t": 0, "seat": "N", "call": "1H"}, {"t": 1, "seat": "E", "call": "1D"}]  # E's bid is insufficient
NOT_A_SEAT = [["N"], {"seat": "N"}, 0, None, True, 1.5, [[1]]]
EVENTS_WITH_A_SEAT = [
    {"t": 2, "seat": "S", "call": "P"},
    {"t": 2, "seat": "S", "alert": True},
    {"t": 2, "seat": "S", "call": "P", "taken": True},
    {"t": 2, "td": "exposed_cards", "seat": "S", "cards": ["SK"]},
    {"t": 2, "td": "correct_call", "seat": "E", "call": "1S"},
    {"t": 2, "td": "wrong_board_call", "seat": "E"},
]


def run_cli(text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stderr(err):
        code = main(["-"], stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue(), err.getvalue()


def refused(profile: str, event: Any, setup: list[dict[str, Any]] = SETUP) -> Refused:
    table = Table(profile, 1)
    for e in setup:
        table.step(e)
    before = table.state()
    got = table.step(event)
    assert isinstance(got, Refused), got
    assert got.kind == Refusal.INVALID and table.state() == before
    return got


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize("value", NOT_A_SEAT, ids=repr)
@pytest.mark.parametrize("event", EVENTS_WITH_A_SEAT, ids=lambda e: str(e.get("td") or next(
    k for k in ("alert", "taken", "call") if k in e)))
def test_a_seat_that_is_not_a_seat_letter_is_named(profile, value, event):
    bad = {**event, "seat": value}
    got = refused(profile, bad)
    assert got.reason.startswith("seat must be one of N, E, S, W") and repr(value)[:10] in got.reason


@pytest.mark.parametrize("value", NOT_A_SEAT, ids=repr)
def test_replay_names_a_seat_that_is_not_a_seat_letter_and_exits_1(value):
    log = {"profile": "dbf-2017", "board": 1, "events": [*SETUP, {"t": 2, "seat": value, "call": "P"}]}
    with pytest.raises(LogError, match=r"event 2 .*seat must be one of N, E, S, W"):
        replay(log)
    code, out, err = run_cli(json.dumps(log))
    assert code == 1 and out == "" and "seat must be one of N, E, S, W" in err and "internal error" not in err


@pytest.mark.parametrize("profile", ALL)
@pytest.mark.parametrize("choice", ["bogus", "b1a", "cancel", ["accept"], {"id": "accept"}, 1, None, ""],
                         ids=repr)
def test_a_TD_choice_not_among_the_options_names_the_choice_the_decision_and_the_options(profile, choice):
    got = refused(profile, {"t": 2, "td": "insufficient_bid", "choice": choice})
    # behind screens East's insufficient bid is only corrected (docs/laws/choices.md #34, #36)
    options = "replace" if profiles.load(profile).screens.enabled else "accept, replace, unintended"
    assert "choice" in got.reason and options in got.reason, got.reason
    if isinstance(choice, str) and choice:
        assert f"{choice!r} is not an option" in got.reason and "insufficient_bid" in got.reason
    else:
        assert repr(choice) in got.reason


@pytest.mark.parametrize("event,field", [
    ({"t": 2, "td": "insufficient_bid", "choice": "accept", "seat": "S"}, "seat"),
    ({"t": 2, "td": "insufficient_bid", "choice": "accept", "cards": ["SK"]}, "cards"),
    ({"t": 2, "td": "insufficient_bid", "choice": "accept", "taken": True}, "taken"),
    ({"t": 2, "td": "correct_call", "seat": "E", "call": "1S", "choice": "accept"}, "choice"),
    ({"t": 2, "td": "correct_call", "seat": "E", "call": "1S", "shown": ["S"]}, "shown"),
    ({"t": 2, "td": "misinformation_change", "seat": "E", "call": "1S", "led": False}, "led"),
])
def test_a_field_a_TD_event_does_not_take_is_named(event, field):
    # a TD answer carries t, td, choice and what the option needs (call, stop, shown); a field of
    # another event is refused, so a typo cannot silently change a ruling (docs/table-log.md)
    got = refused("dbf-2017", event)
    assert field in got.reason


@pytest.mark.parametrize("text,where,key", [
    ('{"profile": "dbf-2017", "board": 1, "events": [{"t": 0, "seat": "N", "seat": "E", "call": "1H"}]}',
     "event 0", "seat"),
    ('{"profile": "dbf-2017", "board": 1, "events": [{"t": 0, "seat": "N", "call": "1H"}, '
     '{"t": 1, "td": "insufficient_bid", "choice": "accept", "choice": "replace"}]}', "event 1", "choice"),
    ('{"profile": "dbf-2017", "profile": "fsb-2007", "board": 1, "events": []}', "the log", "profile"),
    ('{"profile": "dbf-2017", "board": 1, "events": [{"t": 0, "seat": "N", "call": "1H"}], "events": []}',
     "the log", "events"),
    ('{"profile": "dbf-2017", "board": 1, "table": {"round": 1, "round": 2}, "events": []}', "the log", "round"),
])
def test_a_key_written_twice_in_the_log_file_is_named(text, where, key):
    # JSON parsers keep the last of two equal keys without a word: a log whose event says both
    # "N" and "E" would replay as E's call. The replay tool refuses the file and says where.
    with pytest.raises(LogError, match=f"{where}: the key {key!r} is written twice"):
        loads(text)
    code, out, err = run_cli(text)
    assert code == 1 and out == "" and f"the key {key!r} is written twice" in err and where in err


def test_a_log_without_repeated_keys_loads_as_json_does():
    text = '{"profile": "dbf-2017", "board": 1, "table": {"round": 1}, "events": [{"t": 0, "seat": "N", "call": "1H"}]}'
    assert loads(text) == json.loads(text)
