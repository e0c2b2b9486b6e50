"""The WBF 2013 20-0 victory point scale, as the WBF publishes it (2007 L78D / 2017 §78D: the
conditions of contest name the scale).

`vp.WbfContinuousScale` is the WBF formula rounded to two decimals. The WBF's technical report
("The New WBF IMP to VP Scales", WBF Scoring Panel) requires more of the published scale: each
extra IMP is worth no more VPs than the one before (no "cusping"), and it says the published
scale corrects the rounded formula where rounding breaks that. Plain rounding breaks it at many
margins (8 boards, 39-41 IMPs: 19.62, 19.73, 19.85 gains 0.11 then 0.12), so this module
applies the correction: wherever a gain is larger than the gain before it, the VP between the
two is raised by 0.01, from the smallest margin up, until no gain grows. The same correction is
what BridgeScore (marcshearer/BridgeScore, `BridgeImps.vp`) applies to produce the WBF tables.

No national scale text was found in the sources: the Swedish supplements name only "the 25-0
scale" (FSB 96B, 109) without printing it, and the Danish sources have no VP scale. Events under
those profiles use this WBF scale unless the club configures a `vp.TableScale`
(docs/scoring.md).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from shared_rules.scoring.rounding import round_half_up

TAU = (math.sqrt(5) - 1) / 2


def formula_vp(margin: int, boards: int) -> Fraction:
    """The winner's VP by the WBF formula, before any correction: 10 + 10 (1 - tau^(3M/B)) /
    (1 - tau^3), B = 15 sqrt(boards), at most 20, rounded half-up to 2 decimals."""
    blitz = 15 * math.sqrt(boards)
    value = 10 + 10 * (1 - TAU ** (3 * margin / blitz)) / (1 - TAU**3)
    return min(Fraction(20), Fraction(str(round_half_up(Fraction(repr(value)), 2))))


@lru_cache(maxsize=128)
def _table(boards: int) -> tuple[Fraction, ...]:
    """Winner's VP for every whole margin from 0 up to the blitz (20 VP), corrected."""
    values = [formula_vp(0, boards)]
    while values[-1] < 20:
        values.append(formula_vp(len(values), boards))
    values.append(Fraction(20))
    step = Fraction(1, 100)
    changed = True
    while changed:
        changed = False
        for i in range(2, len(values)):
            if values[i] - values[i - 1] > values[i - 1] - values[i - 2]:
                values[i - 1] += step
                changed = True
                break
    return tuple(values)


@dataclass(frozen=True)
class WbfScale2013:
    """The WBF 2013 continuous 20-0 scale with the report's correction. Margins are whole IMPs
    (the scale is defined for them): a fractional margin (weighted scores) is rounded half away
    from zero first."""

    maximum: float = 20.0

    def winner_vp(self, margin: float | Fraction, boards: int) -> float:
        if boards < 1:
            raise ValueError("a VP conversion needs the number of boards in the match")
        m = abs(Fraction(str(margin)) if isinstance(margin, float) else Fraction(margin))
        whole = int(m + Fraction(1, 2))
        table = _table(boards)
        return float(table[whole]) if whole < len(table) else 20.0

    def blitz(self, boards: int) -> int:
        """The smallest whole margin that gives the winner the scale's 20 VP over `boards` (a
        walk-over's IMP result, FSB L109A: "med IMP-resultat som minimum för 0-25")."""
        if boards < 1:
            raise ValueError("a VP conversion needs the number of boards in the match")
        return next(m for m, vp in enumerate(_table(boards)) if vp >= 20)

    def pair(self, imps_a: float | Fraction, imps_b: float | Fraction, boards: int) -> tuple[float, float]:
        """(VP of A, VP of B); the loser gets 20 minus the winner's VP, a draw 10-10."""
        margin = Fraction(str(imps_a)) - Fraction(str(imps_b))
        win = self.winner_vp(margin, boards)
        lose = float(Fraction(20) - Fraction(str(win)))
        if int(abs(margin) + Fraction(1, 2)) == 0:
            return (10.0, 10.0)
        return (win, lose) if margin > 0 else (lose, win)
