"""A team match scored by IMPs (2007 L78B / 2017 §78B), converted to VP (L78D).

Each board is played at two tables; the home team sits NS at table 1 and EW at table 2
(FSB 104A: NS in the open room). Per board, home's IMPs = imp(NS at table 1 - NS at table 2).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from shared_rules.scoring.imps import team_board
from shared_rules.scoring.rounding import round_half_up, to_fraction
from shared_rules.scoring.vp import VpScale, victory_points


def team_match(
    boards: Sequence[tuple[int | None, int | None]],
    adjustments: Mapping[int, tuple[float, float]] | None = None,
    scale: VpScale | None = None,
) -> dict[str, Any]:
    """`boards`: per board (NS score at table 1, NS score at table 2); a board with a missing
    score counts only through `adjustments`. `adjustments`: board index -> (home IMPs, away
    IMPs) set by the TD (artificial +3/-3, weighted, split or knockout-averaged; possibly
    non-balancing, 2007 L12C1e / 2017 §12C4), replacing the board's computed IMPs.

    Returns per-board IMPs, totals, IMPs won and lost by each side (the FSB 95B quotient),
    boards won, and VP when a scale is given.
    """
    adjustments = adjustments or {}
    per_board: list[tuple[Fraction, Fraction] | None] = []
    for i, (t1, t2) in enumerate(boards):
        if i in adjustments:
            home, away = adjustments[i]
            per_board.append((to_fraction(home), to_fraction(away)))
        elif t1 is None or t2 is None:
            per_board.append(None)
        else:
            v = team_board(t1, t2)
            per_board.append((Fraction(v), Fraction(-v)))
    played = [b for b in per_board if b is not None]
    home_won = sum((max(h, Fraction(0)) for h, _ in played), Fraction(0))
    away_won = sum((max(a, Fraction(0)) for _, a in played), Fraction(0))
    home_total = sum((h for h, _ in played), Fraction(0))
    away_total = sum((a for _, a in played), Fraction(0))
    out: dict[str, Any] = {
        "boards": [None if b is None else (float(b[0]), float(b[1])) for b in per_board],
        "home_imps": round_half_up(home_total, 2), "away_imps": round_half_up(away_total, 2),
        # For the FSB 95B quotient: IMPs won and lost over the match, per side.
        "home_won": float(home_won), "home_lost": float(away_won),
        "away_won": float(away_won), "away_lost": float(home_won),
        "home_boards_won": sum(1 for h, a in played if h > a),
        "away_boards_won": sum(1 for h, a in played if a > h),
    }
    if scale is not None and played:
        # Each team's net IMPs are its margin over the other (a board's IMPs are won by one team
        # and lost by the other, L78B): +3 and -3 is a 3-IMP match, not 6. Each side on its own
        # net, so a non-balancing adjustment (2007 L12C1e) gives each the VPs of its own IMPs.
        # The scale's length is the boards played (the WBF scale: "N is the number of boards
        # played in the current match"): a board with neither score nor adjustment is not one.
        out["vp"] = (victory_points(float(home_total), 0.0, len(played), scale)[0],
                     victory_points(float(away_total), 0.0, len(played), scale)[0])
    return out
