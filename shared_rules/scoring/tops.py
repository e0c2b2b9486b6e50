"""Different tops in different sessions (FSB 97)."""
from __future__ import annotations

from shared_rules.scoring.rounding import Number, round_half_up, to_fraction


def normalize_to_top(mp: Number, session_top: Number, common_top: Number, decimals: int | None = 1) -> float:
    """FSB 97: when sessions have different tops per board, every score is multiplied up so the
    top per board is the same throughout the event (session 1 top 12, session 2 top 14: multiply
    session 1 by 14/12). Decimals when scoring by computer (default one, FSB 98C); `decimals=0`
    gives the whole points of manual scoring."""
    top = to_fraction(session_top)
    if top <= 0:
        raise ValueError(f"a session top must be positive, not {session_top!r}")
    value = to_fraction(mp) * to_fraction(common_top) / top
    return round_half_up(value, decimals if decimals is not None else 1)
