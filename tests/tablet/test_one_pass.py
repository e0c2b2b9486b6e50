"""The tablet hands each event to the engine once (`Table.step`) and acts on what it answers: a
refusal's reason, kind and Law go to the box and to the journal's `refused` record, with nothing to
undo (no preview on a copy of the engine, no engine rebuilt from the journal)."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from shared_rules.outcome import Accepted, Refused
from shared_rules.table import Table
from tests.tablet.conftest import SESSION


class Counting:
    """The real engine, with every method the controller calls counted."""

    built = 0

    def __init__(self, profile: str, board: int, policy: str | None, no_alerts_by: tuple[str, ...] = (),
                 screens: bool | None = None):
        type(self).built += 1
        self.table = Table(profile, board, policy, no_alerts_by, screens)
        self.calls: list[str] = []

    def step(self, event: dict[str, Any]) -> Accepted | Refused:
        self.calls.append("step")
        return self.table.step(event)

    def state(self) -> dict[str, Any]:
        self.calls.append("state")
        return self.table.state()

    def status(self) -> Any:
        self.calls.append("status")
        return self.table.status()

    def tray_due_at(self, delay_s: float | None = None) -> float | None:
        self.calls.append("tray_due_at")
        return self.table.tray_due_at(delay_s)

    def visible_calls(self, seat: str) -> list[dict[str, Any]]:
        self.calls.append("visible_calls")
        return self.table.visible_calls(seat)


@pytest.fixture
def counted(make_controller):
    Counting.built = 0
    return make_controller(engine_factory=Counting)


@pytest.fixture
def no_copies(monkeypatch):
    """From here on, nothing may be deep-copied (the baseline previewed each alert on a copy)."""

    def forbid() -> None:
        def no_copy(*args: Any, **kw: Any) -> Any:
            raise AssertionError("the call path copied something")

        monkeypatch.setattr(copy, "deepcopy", no_copy)

    return forbid


def refused_records(ctl: Any) -> list[dict[str, Any]]:
    rows = ctl.journal.conn.execute("SELECT body FROM journal WHERE kind = 'refused' ORDER BY seq").fetchall()
    return [json.loads(b) for (b,) in rows]


def test_a_call_is_one_step_of_the_engine(counted, clock, no_copies):
    ctl = counted
    ctl.setup(SESSION)
    no_copies()
    engine, built = ctl.engine, Counting.built
    engine.calls.clear()
    clock.advance(3)
    assert ctl.box_event("N", "call", call="1H")["ok"]
    assert engine.calls.count("step") == 1 and engine.calls[0] == "step"
    assert Counting.built == built


def test_prevent_2017_L27_the_engines_refusal_goes_to_the_box_and_the_journal(counted, clock, no_copies):
    ctl = counted
    ctl.setup({**SESSION, "policy": "prevent"})
    no_copies()
    engine, built = ctl.engine, Counting.built
    clock.advance(2)
    ctl.box_event("N", "call", call="1H", seq=1, box_ms=10)
    engine.calls.clear()
    before = ctl.estate
    clock.advance(2)
    r = ctl.box_event("E", "call", call="1D", seq=1, box_ms=20)  # insufficient: refused under prevent
    assert not r["ok"] and r["reason"] == "insufficient bid (2017 L27)"
    assert engine.calls == ["step"]  # classified once; nothing to undo
    assert ctl.engine is engine and Counting.built == built  # not rebuilt from the journal
    assert ctl.estate == before and ctl.phase == "auction"
    assert refused_records(ctl)[-1] == {"seat": "E", "kind": "call", "call": "1D",
                                        "reason": "insufficient bid (2017 L27)",
                                        "box": {"seat": "E", "seq": 1, "box_ms": 20, "epoch": 0}}
    # the resent frame is recognised, and the table takes the legal call
    assert ctl.box_event("E", "call", call="1D", seq=1, box_ms=20)["duplicate"]
    assert ctl.box_event("E", "call", call="2D", seq=2, box_ms=30)["ok"]


def test_FSB_L115B_an_alert_the_profile_forbids_is_refused_in_one_step_without_a_copy(counted, clock, no_copies):
    ctl = counted
    ctl.setup({**SESSION, "profile": "fsb-2007"})
    no_copies()
    engine = ctl.engine
    clock.advance(2)
    assert ctl.box_event("N", "call", call="1C")["ok"]
    engine.calls.clear()
    clock.advance(1)
    r = ctl.box_event("N", "alert", seq=5, box_ms=50)  # fsb-2007: partner alerts
    assert not r["ok"] and r["reason"] == "alert by wrong player (FSB L115B)"
    assert engine.calls == ["step"]
    assert refused_records(ctl)[-1]["kind"] == "alert" and not ctl.estate["calls"][0]["alerted"]
    assert ctl.box_event("S", "alert", seq=6, box_ms=60)["ok"]
    assert ctl.estate["calls"][0]["alerted"]


def test_FSB_L116B_a_call_inside_the_locked_stop_wait_is_refused_with_its_law(counted, clock):
    ctl = counted
    ctl.setup({**SESSION, "profile": "fsb-2007"})
    engine, built = ctl.engine, Counting.built
    clock.advance(2)
    assert ctl.box_event("N", "call", call="2S", stop=True)["ok"]
    clock.advance(3)
    r = ctl.box_event("E", "call", call="P")
    assert not r["ok"] and r["reason"].startswith("stop wait short (FSB L116B)")
    assert ctl.engine is engine and Counting.built == built and [c["call"] for c in ctl.estate["calls"]] == ["2S"]
    clock.advance(7)
    assert ctl.box_event("E", "call", call="P")["ok"]


def test_L27B_a_TD_answer_the_engine_refuses_is_refused_and_nothing_journalled(counted, clock):
    ctl = counted
    ctl.setup(SESSION)
    engine, built = ctl.engine, Counting.built
    clock.advance(2)
    ctl.box_event("N", "call", call="1H")
    clock.advance(2)
    ctl.box_event("E", "call", call="1D")  # insufficient (record policy): the TD is called
    assert ctl.phase == "frozen"
    n = ctl.journal.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    with pytest.raises(ValueError, match="legal call"):
        ctl.td_decide("4321", "replace", call="8C")  # no such replacement (L27B)
    assert ctl.journal.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == n
    assert ctl.engine is engine and Counting.built == built and ctl.estate["pending"]["kind"] == "insufficient_bid"
