"""Victory points (2007 L78D / 2017 §78D: other methods with the RA's approval).

No VP scale is printed in the sources (S07 only names "the 25-0 scale", FSB 96B, 109), so the
scale is configuration: either a table the RA or club supplies (`TableScale`), or the WBF's
continuous 20-0 formula (`WbfContinuousScale`), which is what most events now use.
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from shared_rules.scoring.rounding import round_half_up


class VpScale(Protocol):
    maximum: float

    def winner_vp(self, margin: float, boards: int) -> float: ...


@dataclass(frozen=True)
class TableScale:
    """A discrete scale: `steps[i]` is the smallest IMP margin that wins `i + 1` VP steps.

    A margin below steps[0] is a draw (both `maximum / 2`, or `draw` if given). The winner's VP
    for step k is `winner[k]`; the loser gets `maximum - winner[k]` unless `loser` is given
    (the old 25-0 scales give e.g. 25-0 but 30-0 is not 25-5: hence the separate list).
    """

    steps: tuple[int, ...]
    winner: tuple[float, ...]
    maximum: float
    loser: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.steps) != len(self.winner) or (self.loser is not None and len(self.loser) != len(self.steps)):
            raise ValueError("a VP table needs one winner (and loser) value per IMP step")
        if list(self.steps) != sorted(self.steps):
            raise ValueError("VP table IMP steps must increase")

    def winner_vp(self, margin: float, boards: int) -> float:
        k = bisect.bisect_right(self.steps, abs(margin))
        return self.maximum / 2 if k == 0 else self.winner[k - 1]

    def loser_vp(self, margin: float) -> float:
        k = bisect.bisect_right(self.steps, abs(margin))
        if k == 0:
            return self.maximum / 2
        return self.loser[k - 1] if self.loser is not None else self.maximum - self.winner[k - 1]


@dataclass(frozen=True)
class WbfContinuousScale:
    """WBF 2013 continuous scale: VP = 10 + 10 (1 - tau^(3M/B)) / (1 - tau^3), capped at 20,
    with B = 15 sqrt(boards) and tau = (sqrt 5 - 1) / 2, rounded to 2 decimals."""

    maximum: float = 20.0
    decimals: int = 2

    def winner_vp(self, margin: float, boards: int) -> float:
        if boards < 1:
            raise ValueError("a VP conversion needs the number of boards in the match")
        tau = (math.sqrt(5) - 1) / 2
        blitz = 15 * math.sqrt(boards)
        half = self.maximum / 2
        value = half + half * (1 - tau ** (3 * abs(margin) / blitz)) / (1 - tau**3)
        return min(self.maximum, round_half_up(Fraction(repr(value)), self.decimals))


def victory_points(imps_a: float, imps_b: float, boards: int, scale: VpScale) -> tuple[float, float]:
    """Convert a match's IMP totals to VP for (team A, team B)."""
    margin = imps_a - imps_b
    win = scale.winner_vp(margin, boards)
    if isinstance(scale, TableScale):
        lose = scale.loser_vp(margin)
    else:
        lose = round(scale.maximum - win, 2)
    if margin == 0:
        return (scale.maximum / 2, scale.maximum / 2)
    return (win, lose) if margin > 0 else (lose, win)


def round_imps_favouring(imps: Fraction | float, non_offending_is_a: bool) -> int:
    """Round fractional (weighted) IMPs to a whole number in favour of the non-offending side
    before VP conversion (A07, weighted example: 3.667 -> 4 when the non-offender is the one
    receiving the IMPs). `imps` is from side A's point of view."""
    value = Fraction(repr(imps)) if isinstance(imps, float) else Fraction(imps)
    return math.ceil(value) if non_offending_is_a else math.floor(value)
