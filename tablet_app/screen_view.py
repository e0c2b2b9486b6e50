"""What the table's tablet shows when the table plays with screens: only what all four players may
see (docs/tablet.md "Where the tablet stands").

The tablet stands where both sides of the screen can read it, so during the auction it shows the
calls that have passed the tray to both sides, without alerts or explanations (each player heard
those from his own screenmate only: WBF screen regulations; FSB L115B with screens), without the
irregularity the TD is ruling on (it is ruled on the side where it was made), and never an
irregularity rectified before the tray passed (`hidden_from`, docs/laws/choices.md #36). What one
side may see goes to that side's boxes only (tablet_app/views.py). The director's page (behind
the PIN) still has the whole table. Pure functions of the engine's state dict.
"""
from __future__ import annotations

from typing import Any

ALERT_KEYS = ("alerted_by", "alert_t", "alerted_to")
ALERT_FLAGS = ("alert_late", "alert_not_permitted", "alert_by_wrong_player")


def public_state(state: dict[str, Any], seen_by_all: int) -> dict[str, Any]:
    """The engine's `state` as all four may see it: the first `seen_by_all` standing calls
    (those the tray has brought to both sides; all of them once the auction is over)."""
    over = state.get("status") in ("ended", "passed_out")
    calls = state.get("calls") or []
    shown = calls if over else calls[:seen_by_all]
    out = dict(state)
    out["calls"] = [_without_alert(c) for c in shown] if not over else [dict(c) for c in shown]
    out["irregularities"] = [dict(x) for x in state.get("irregularities") or [] if not x.get("hidden_from")]
    out["withdrawn"] = [dict(x) for x in state.get("withdrawn") or [] if not x.get("hidden_from")]
    if not over:
        out["timing"] = [dict(x) for x in state.get("timing") or [] if x.get("kind") not in ALERT_FLAGS]
        if state.get("pending"):
            out["pending"] = {"hidden": True}  # the TD rules on the side where it was made
            out["irregularities"] = [x for x in out["irregularities"] if x.get("resolution") is not None]
    return out


def _without_alert(call: dict[str, Any]) -> dict[str, Any]:
    c = {k: v for k, v in call.items() if k not in ALERT_KEYS}
    c["alerted"] = False
    return c


def sees(seat: str, offender: str, screenmates: tuple[tuple[str, str], ...]) -> bool:
    """Does `seat` sit on `offender`'s side of the screen (where an irregularity is ruled)?"""
    return any(seat in pair and offender in pair for pair in screenmates)
