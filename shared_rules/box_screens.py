"""The bidding box and screens in the log: a call taken from the box (FSB L112C), the tray passing
under the screen (FSB L114, 2007/2017 L80B2(e)), the screenmate (docs/laws/timing-box-screens.md).
The screen model the tablet draws is screens.py.
"""
from __future__ import annotations

from shared_rules.calls import (
    SEATS,
)
from shared_rules.table_base import (
    BIDDING,
    EventError,
    Rec,
    TableBase,
)


class BoxAndScreens(TableBase):
    def _screenmate(self, seat: int) -> int:
        pair = next(p for p in self._screenmates if seat in p)
        return pair[1] if pair[0] == seat else pair[0]

    def _on_tray(self, t: float) -> None:
        """The tray passed under the screen. It cannot while the TD rules (the irregularity is
        dealt with on the side where it happened) or once the auction is over."""
        if self._pending is not None:
            raise EventError(f"the tray stays on its side while the TD rules ({self._pending.kind})")
        if self._status != BIDDING:
            raise EventError("the auction is over: the tray does not pass any more")
        self._tray_side = 1 - self._tray_side
        self._tray_calls = len(self._calls)
        self._tray_passes.append({"t": t, "to": [SEATS[x] for x in self._screenmates[self._tray_side]],
                                  "calls": len(self._calls)})

    def _on_box_call(self, seat: int, code: int, t: float, stop: bool, taken: bool) -> None:
        """A call event from a box that reports the card taken out (`taken`), or the confirmation
        after one. Profile `call_made`: "taken" (FSB L112C, the call is made when taken out with
        visible intent) or "confirmed" (the box's confirmation makes it; a taken card is noted)."""
        if taken:
            made = self.profile.call_made == "taken"
            self._box_taken.append((seat, code, t, made))  # the state's dict is built when asked
            if made:
                self._taken = (seat, code)
                self._on_call(Rec(seat, code, t, t - self._turn_t, stop))
            return
        if self._taken == (seat, code):
            self._taken = None  # the confirmation of the call already made (FSB L112C)
            return
        self._taken = None
        self._on_call(Rec(seat, code, t, t - self._turn_t, stop))



