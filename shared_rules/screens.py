"""Play with screens: the two sides of the screen, the tray, and what each seat may see, as a
model the tablet keeps beside the engine. The engine now keeps the tray itself (`Table.tray_due_at`,
`Table.visible_calls`, box_screens.py); this model stays until the tablet reads those instead.

Pure model, no clock: every observation carries its own event time, so a replay of the same events
gives the same tray movements.

The rules it implements (docs/tablet.md keeps the reasoning):
- Screenmates share a side; by default North with East and South with West (WBF screen
  regulations; a profile may name other screenmates).
- Calls go on the tray. A side sees its own calls at once, and the other side's calls only when
  the tray passes under the screen to it.
- The tray passes when the seat in turn sits on the other side, no TD decision is pending, and the
  tray has spent at least the profile's delay on this side (WBF Code of Practice: a tray that
  returns after 15 s or less carries no implication; the delay hides who thought).
- WBF Code of Practice: "Players on the other side of a screen are not to be made aware of an
  irregularity if it is rectified before the tray is passed under the screen." The tray cannot
  pass while a decision is pending, and the other side receives only the calls standing at the
  hand-over; so an irregularity rectified on one side never reaches the other.
"""
from __future__ import annotations

from typing import Any, Final

from shared_rules.profiles import Profile
from shared_rules.types import SEATS, Status

# WBF screen regulations: North with East, South with West (a profile may name other screenmates).
DEFAULT_SCREENMATES: Final[tuple[tuple[str, str], ...]] = ((SEATS[0], SEATS[1]), (SEATS[2], SEATS[3]))
ENDED: Final = (Status.ENDED, Status.PASSED_OUT)


def side_of(seat: str, screenmates: tuple[tuple[str, str], ...] = DEFAULT_SCREENMATES) -> int:
    for i, pair in enumerate(screenmates):
        if seat in pair:
            return i
    raise ValueError(f"seat {seat!r} is on neither side of the screen")


# The profile is read through its typed [screens] table (profiles.ScreenRules), one field each.
def tray_delay(profile: Profile, default: float | None = None) -> float:
    """The minimum time the tray stays on a side: the profile's `screens.tray_delay_s`. (Every
    profile has it; `default` is not used and stays only for the tablet's present call.)"""
    return profile.screens.tray_delay_s


def screenmates_of(profile: Profile) -> tuple[tuple[str, str], ...]:
    return profile.screens.screenmates


def uses_screens(profile: Profile) -> bool:
    return profile.screens.enabled


class Screen:
    """The tray and the two sides for one board. Feed it every engine state with its event time."""

    def __init__(self, dealer: str, delay: float, screenmates: tuple[tuple[str, str], ...] = DEFAULT_SCREENMATES):
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

    def may_call(self, seat: str) -> bool:
        """A box on the side without the tray has nothing to put its call on."""
        return side_of(seat, self.screenmates) == self.tray_side

    def sees_irregularities(self, seat: str) -> bool:
        """Irregularities are shown only on the side holding the tray (where they happened)."""
        return side_of(seat, self.screenmates) == self.tray_side or self._state.get("status") in ENDED

    def to_dict(self) -> dict[str, Any]:
        return {
            "tray_side": self.tray_side,
            "tray_seats": list(self.screenmates[self.tray_side]),
            "arrived_at": self.arrived_at,
            "ready_at": self.ready_at(),
            "delay": self.delay,
            "passes": list(self.passes),
        }
