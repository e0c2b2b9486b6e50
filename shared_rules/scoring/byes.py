"""Byes / sit-outs (FSB 96)."""
from __future__ import annotations

from fractions import Fraction

from shared_rules.scoring.rounding import Number, round_half_up, to_fraction


def bye_matchpoints(mp_scored: Number, top_played: Number, top_bye: Number, decimals: int = 1) -> float:
    """FSB 96A, pairs: for the round sat out, a pair gets its own percentage on the boards it
    played: MP scored / top available on those boards x top available on the bye boards
    (our generalisation to rounds of unequal length). FSB's example: 13 rounds played,
    the 14th sat out, equal rounds -> one thirteenth of the points scored."""
    played = to_fraction(top_played)
    if played <= 0:
        raise ValueError("a bye score needs some boards played (top on played boards > 0)")
    return round_half_up(to_fraction(mp_scored) / played * to_fraction(top_bye), decimals)


def bye_team_vp(rules_vp: float | None) -> float:
    """FSB 96B, IMP events: the score the RA fixes (usually 18 VP on the 25-0 scale)."""
    if rules_vp is None:
        raise ValueError("the RA's VP for a bye is not configured (FSB 96B: usually 18 on 25-0)")
    return rules_vp


def own_percentage(mp_scored: Number, top_played: Number) -> Fraction:
    return to_fraction(mp_scored) * 100 / to_fraction(top_played)
