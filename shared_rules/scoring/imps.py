"""IMPs (2007 L78B / 2017 §78B, the full scale), team boards, cross-IMPs and Butler.

Cross-IMPs and Butler are not in the sources; Law 78D lets the RA approve other methods, so
their parameters (Butler trimming, datum rounding, cross-IMP averaging) are arguments here.
"""
from __future__ import annotations

import bisect
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from shared_rules.scoring.rounding import round_half_up

# Upper bound of each IMP step, L78B: 0-10 = 0 (printed only in 2017 §78B), 20-40 = 1, ...,
# 3500-3990 = 23, 4000 and more = 24.
IMP_BOUNDS: Final = (10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290,
                     1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990)


def imp(difference: int | Fraction) -> int:
    """IMPs for a difference in points, with its sign (L78B). Scores are multiples of 10; a
    difference falling in a gap of the printed table (e.g. 15) takes the lower step."""
    size = difference if difference >= 0 else -difference
    steps = bisect.bisect_left(IMP_BOUNDS, size)
    return steps if difference >= 0 else -steps


def team_board(ns_score_table1: int, ns_score_table2: int) -> int:
    """IMPs on one board of a team match, for the team sitting NS at table 1."""
    return imp(ns_score_table1 - ns_score_table2)


def cross_imps(ns_scores: Sequence[int], average: bool = True, decimals: int = 2) -> list[float]:
    """IMPs of each NS score against every other score on the board (EW: the negation).

    `average=True` divides by the number of comparisons, the usual way to keep cross-IMP
    totals comparable to team IMPs; `average=False` gives the plain sum.
    """
    out = []
    n = len(ns_scores)
    for i, s in enumerate(ns_scores):
        total = sum(imp(s - t) for j, t in enumerate(ns_scores) if j != i)
        value = Fraction(total, n - 1) if average and n > 1 else Fraction(total)
        out.append(round_half_up(value, decimals))
    return out


def butler_datum(ns_scores: Sequence[int], trim: int | None = None, round_to: int = 10) -> int:
    """Butler datum: the mean NS score after dropping the `trim` highest and lowest scores.

    Default trim: one each way when there are at least 5 results, none otherwise (a common club
    choice; L78D leaves it to the RA). The mean is rounded half-up to the nearest `round_to`.
    """
    if not ns_scores:
        raise ValueError("a Butler datum needs at least one score")
    k = (1 if len(ns_scores) >= 5 else 0) if trim is None else trim
    if len(ns_scores) - 2 * k < 1:
        raise ValueError(f"cannot drop {k} top and bottom scores from {len(ns_scores)} results")
    kept = sorted(ns_scores)[k:len(ns_scores) - k]
    mean = Fraction(sum(kept), len(kept)) / round_to
    sign = -1 if mean < 0 else 1
    return sign * int((abs(mean) * 2 + 1) // 2) * round_to


def butler(ns_scores: Sequence[int], trim: int | None = None, round_to: int = 10) -> list[int]:
    """IMPs of each NS score against the Butler datum (EW: the negation)."""
    datum = butler_datum(ns_scores, trim, round_to)
    return [imp(s - datum) for s in ns_scores]
