"""The screen model the tablet kept beside the engine until the engine kept the tray itself
(FSB L114, 2007/2017 L80B2(e), WBF screen regulations), kept here only as an independent
reference for tests/rules/test_tray.py: fed every engine state with its event time, it says when
the tray may pass and what each seat has seen, without reading the engine's tray.

The rules it implements: screenmates share a side; a side sees its own calls at once and the other
side's calls only when the tray passes to it; the tray passes when the seat in turn sits on the
other side, no decision is pending, and the tray has spent at least the delay on this side; the
side receiving the tray sees the standing calls at the hand-over, never a call withdrawn before it.
"""
from __future__ import annotations

from typing import Any

ENDED = ("ended", "passed_out")


def side_of(seat: str, screenmates: tuple[tuple[str, str], ...]) -> int:
    for i, pair in enumerate(screenmates):
        if seat in pair:
            return i
    raise ValueError(f"seat {seat!r} is on neither side of the screen")


class Screen:
    """The tray and the two sides for one board."""

    def __init__(self, dealer: str, delay: float, screenmates: tuple[tuple[str, str], ...]):
        self.screenmates = screenmates
        self.delay = float(delay)
        self.tray_side = side_of(dealer, screenmates)
        self.arrived_at = 0.0
        # What the side without the tray sees: the standing calls at the moment the tray left it.
        # The side holding the tray sees the live calls.
        self.snapshot: list[list[dict[str, Any]]] = [[], []]
        self.passes: list[dict[str, Any]] = []
        self._last_call_t = 0.0
        self._ncalls = 0
        self._state: dict[str, Any] = {"calls": [], "status": "bidding", "next": dealer, "pending": None}

    # -- the tray ---------------------------------------------------------------------------------
    def ready_at(self) -> float | None:
        """Event time at which the tray may pass, or None while it must stay on this side."""
        st = self._state
        if st.get("pending") or st.get("status") not in ("bidding",):
            return None
        nxt = st.get("next")
        if nxt is None or side_of(nxt, self.screenmates) == self.tray_side:
            return None
        return max(self._last_call_t, self.arrived_at + self.delay)

    def advance(self, t: float) -> bool:
        """Pass the tray if it was due by event time `t`; True when it moved."""
        due = self.ready_at()
        if due is None or due > t:
            return False
        other = 1 - self.tray_side
        # The side giving up the tray keeps seeing what it saw; the side receiving it sees the
        # tray's content, i.e. the standing calls (never a call withdrawn before the pass).
        self.snapshot[self.tray_side] = [dict(c) for c in self._state.get("calls", [])]
        self.passes.append({"t": due, "to_side": other, "calls": len(self.snapshot[self.tray_side])})
        self.tray_side = other
        self.arrived_at = due
        return True

    def observe(self, state: dict[str, Any], t: float) -> None:
        """Record the engine state after an event at time `t` (pass a due tray first)."""
        self.advance(t)
        n = len(state.get("calls", []))
        if n != self._ncalls:
            self._last_call_t = t
            self._ncalls = n
        self._state = state

    # -- what a seat may see ----------------------------------------------------------------------
    def visible_calls(self, seat: str) -> list[dict[str, Any]]:
        side = side_of(seat, self.screenmates)
        if self._state.get("status") in ENDED or side == self.tray_side:
            return [dict(c) for c in self._state.get("calls", [])]
        return [dict(c) for c in self.snapshot[side]]
