"""The tray kept by the engine alone (FSB L114, 2007/2017 L80B2(e), WBF screen regulations): when
it is next due (`Table.tray_due_at`) and what each seat has seen (`Table.visible_calls`) agree with
an independent screen model (tests/rules/tray_reference.py, the model the tablet kept beside the
engine before it read the engine's tray), event by event over random screen sessions.

One difference is deliberate: the engine counts the tray's time on a side from the tray event
that brought it there (the tray moved then), the model from the moment it was due; the model is
told the event's time here, which is what the tablet journals.
"""
from __future__ import annotations

import random
from typing import Any

import pytest

from shared_rules import profiles
from shared_rules.outcome import Accepted
from shared_rules.table import Table
from shared_rules.types import SEATS
from tests.rules.tray_reference import Screen

CALLS = ["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
PROFILE = "wbf-screens-2017"


def _event(rng: random.Random, state: dict[str, Any], t: float) -> dict[str, Any]:
    if state["pending"] and rng.random() < 0.7:
        opt = rng.choice(state["pending"]["options"])
        ev = {"t": t, "td": state["pending"]["kind"], "choice": opt["id"]}
        if opt.get("needs_call"):
            ev["call"] = rng.choice(CALLS[:12])
        return ev
    if rng.random() < 0.15:
        return {"t": t, "seat": rng.choice(SEATS), "alert": True}
    seat = state["next"] if state["next"] and rng.random() < 0.85 else rng.choice(SEATS)
    return {"t": t, "seat": seat, "call": rng.choice(state["legal_calls"][:8] or CALLS)}


def _agree(table: Table, screen: Screen, delay: float | None) -> None:
    assert table.tray_due_at(delay) == screen.ready_at()
    for seat in SEATS:
        assert table.visible_calls(seat) == screen.visible_calls(seat), seat


@pytest.mark.parametrize("delay", [None, 0.0, 3.0])
@pytest.mark.parametrize("seed", range(12))
def test_FSB_L114_the_engine_keeps_the_tray_as_the_screen_model_did(seed, delay):
    rng = random.Random(seed)
    board = 1 + seed % 16
    profile = profiles.load(PROFILE)
    table = Table(PROFILE, board)
    screen = Screen(table.state()["dealer"], profile.screens.tray_delay_s if delay is None else delay,
                    profile.screens.screenmates)
    screen.observe(table.state(), 0.0)
    t, passes = 0.0, 0
    for _ in range(60):
        if table.status() in ("ended", "passed_out", "adjusted_score"):
            break
        t += rng.choice([0.5, 2.0, 6.0, 16.0])
        due = screen.ready_at()
        if due is not None and due <= t:
            # the tablet journals the tray as soon as it is due, not before the last event
            at = max(due, table.state()["calls"][-1]["t"] if table.state()["calls"] else 0.0, t - 0.5)
            assert table.tray_due_at(delay) == due
            moved = table.step({"t": at, "tray": True})
            assert isinstance(moved, Accepted)
            screen.advance(at)
            screen.arrived_at = at  # the engine's reading: the tray arrived with its event
            screen.observe(moved.state, at)
            passes += 1
            _agree(table, screen, delay)
        got = table.step(_event(rng, table.state(), t))
        if isinstance(got, Accepted):
            screen.observe(got.state, t)
        _agree(table, screen, delay)
    assert passes >= 2


def test_FSB_L114_the_side_without_the_tray_sees_the_calls_as_the_tray_left_it():
    table = Table(PROFILE, 1)  # N deals: the tray starts with North and East
    for ev in [{"t": 0.0, "seat": "N", "call": "1C"}, {"t": 1.0, "seat": "E", "call": "P"}]:
        table.step(ev)
    assert [c["call"] for c in table.visible_calls("N")] == ["1C", "P"]
    assert table.visible_calls("S") == [] and table.tray_due_at() == 15.0  # the profile's 15 s
    assert table.tray_due_at(3.0) == 3.0
    table.step({"t": 15.0, "tray": True})
    assert table.tray_due_at() is None  # South, in turn, has the tray
    table.step({"t": 16.0, "seat": "S", "call": "1H"})
    assert [c["call"] for c in table.visible_calls("S")] == ["1C", "P", "1H"]
    assert [c["call"] for c in table.visible_calls("E")] == ["1C", "P"]  # not yet across
    assert table.tray_due_at() is None  # West, in turn, is on this side too
    table.step({"t": 17.0, "seat": "W", "call": "P"})
    assert table.tray_due_at() == 30.0  # 15 s after the tray came to South and West


def test_without_screens_there_is_no_tray_and_everyone_sees_every_call():
    table = Table("dbf-2017", 1)
    table.step({"t": 0.0, "seat": "N", "call": "1C"})
    assert table.tray_due_at() is None and [c["call"] for c in table.visible_calls("S")] == ["1C"]


def test_FSB_L114_the_tray_is_a_pure_function_of_event_times():
    """The same events give the same tray passes: replay moves the tray as the table did. Release
    time = max(the last call on the side, arrival + the delay)."""

    def run() -> tuple[list[tuple[list[str], int, int]], list[dict[str, Any]]]:
        table = Table(PROFILE, 1)  # N deals: the tray starts with North and East
        out = []
        for t, seat, call in [(1.0, "N", "1C"), (3.0, "E", "P"), (20.0, "S", "1H"), (22.0, "W", "P")]:
            due = table.tray_due_at(15.0)
            if due is not None and due <= t:
                assert isinstance(table.step({"t": due, "tray": True}), Accepted)
            assert isinstance(table.step({"t": t, "seat": seat, "call": call}), Accepted)
            out.append((table.state()["tray"]["seats"], len(table.visible_calls("S")), len(table.visible_calls("N"))))
        due = table.tray_due_at(15.0)
        assert due is not None and isinstance(table.step({"t": due, "tray": True}), Accepted)
        return out, table.state()["tray"]["passes"]

    assert run() == run()
    out, passes = run()
    assert out[1] == (["N", "E"], 0, 2)  # East called; the tray still with North and East
    assert out[2] == (["S", "W"], 3, 2)  # passed at 15 s (on the side since 0 s); South called on it
    assert [p["t"] for p in passes] == [15.0, 30.0]  # max(last call, arrival + 15 s)
