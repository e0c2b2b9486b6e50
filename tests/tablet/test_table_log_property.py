"""Every table log the tablet writes replays (hypothesis, through the tablet's controller).

tests/rules/test_log_replay_property.py generates logs at the engine; this drives the tablet as
a table does: boxes send calls (in turn or not, with the stop card or not), alerts, the stop key,
UNDO and the TD key; the director answers the pending decision with one of its options (a
replacement call where the option needs one), corrects a call (L25A), rules exposed cards (L24);
time passes (the screens' tray moves). Whatever the tablet took or refused, the log it exports
(`Controller.table_log`, what `python -m tablet_app.table_log` prints):

- replays through `python -m shared_rules replay` (in process) with exit code 0 to the state
  the live table shows, whatever the boxes were refused meanwhile (a call while the TD is awaited,
  2007/2017 L9B2, never reaches the log as a call the replay cannot take);
- is the log a restarted tablet (the journal replayed) exports, with the same state.

Every profile, both editions, both policies. Deterministic: derandomized, no example database.
"""
from __future__ import annotations

import contextlib
import io
import json
import pathlib
import tempfile
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import profiles
from shared_rules.calls import CALL_CODE
from shared_rules.replay_cli import main as replay_main
from tablet_app.controller import Controller, Refused
from tests.tablet.conftest import SESSION, Clock

pytestmark = pytest.mark.slow  # whole tables: a journal written, exported and reopened per example

PIN = "4321"
SEATS = ("N", "E", "S", "W")
ANY_CALL = sorted(CALL_CODE, key=CALL_CODE.__getitem__)[:38]  # P X XX 1C..7NT: what a box can send
CARDS = [s + r for s in "SHDC" for r in "AKQJT98765432"]
THINK = (0.2, 1.0, 3.0, 9.5, 11.0, 20.0)


def plain(state: dict[str, Any]) -> Any:
    return json.loads(json.dumps(state))


def replay_cli(log: dict[str, Any]) -> dict[str, Any]:
    """The exported log through `python -m shared_rules replay -`, in process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = replay_main(["-"], stdin=io.StringIO(json.dumps(log)), stdout=out)
    assert code == 0 and err.getvalue() == "", err.getvalue()
    return json.loads(out.getvalue())


def act(data: st.DataObject, ctl: Controller, clock: Clock) -> None:
    """One thing that happens at a table: most are box calls, some the director's."""
    clock.advance(data.draw(st.sampled_from(THINK), label="think"))
    ctl.tick()
    state = ctl.estate
    roll = data.draw(st.integers(0, 29), label="what")
    pending = state.get("pending")
    try:
        if pending and roll < 8:  # the director answers with an option the Law offers
            option = data.draw(st.sampled_from(pending["options"]), label="option")
            call = data.draw(st.sampled_from(ANY_CALL), label="replacement") if option.get("needs_call") else None
            ctl.td_decide(PIN, option["id"], call)
        elif roll < 10:
            ctl.box_event(data.draw(st.sampled_from(SEATS), label="alerter"), "alert")
        elif roll == 10:
            ctl.td_correct_call(PIN, data.draw(st.sampled_from(SEATS), label="corrected seat"),
                                data.draw(st.sampled_from(ANY_CALL), label="corrected to"))
        elif roll == 11:
            cards = data.draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=2, unique=True), label="cards")
            ctl.td_exposed_cards(PIN, data.draw(st.sampled_from(SEATS), label="exposer"), cards)
        elif roll == 12:
            ctl.box_event(data.draw(st.sampled_from(SEATS), label="undoer"), "undo")
        elif roll == 13:
            ctl.box_event(data.draw(st.sampled_from(SEATS), label="td key"), "td")
        elif roll == 14:
            ctl.td_attended(PIN)
        else:  # a call: mostly the player in turn passing or bidding, sometimes anyone, anything
            seat = state.get("next") if roll < 26 and state.get("next") else data.draw(
                st.sampled_from(SEATS), label="caller")
            legal = state.get("legal_calls") or ["P"]
            call = "P" if roll < 19 else data.draw(st.sampled_from(legal if roll < 26 else ANY_CALL), label="call")
            if data.draw(st.integers(0, 5), label="stop") == 0:
                ctl.box_event(seat, "stop")
            ctl.box_event(seat, "call", call=call)
    except Refused:
        pass  # the tablet refused it: nothing changed, nothing journalled


@pytest.mark.parametrize("policy", ["record", "prevent"])
@pytest.mark.parametrize("name", profiles.names())
@settings(max_examples=6, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_L9B2_every_log_the_tablet_writes_replays_to_the_ruling_it_shows(name, policy, data):
    with tempfile.TemporaryDirectory() as tmp:
        db, clock = pathlib.Path(tmp) / "journal.db", Clock()
        ctl = Controller(db, clock=clock)
        try:
            ctl.setup({**SESSION, "profile": name, "policy": policy})
            for _ in range(data.draw(st.integers(8, 40), label="length")):
                act(data, ctl, clock)
            live, log = plain(ctl.estate), ctl.table_log()
        finally:
            ctl.close()
        assert log["profile"] == name and log["events"] == json.loads(json.dumps(log["events"]))
        assert replay_cli(log) == live, log
        again = Controller(db, clock=clock)
        try:
            assert again.table_log() == log and plain(again.estate) == live
        finally:
            again.close()
