"""Byes / sit-outs (FSB 96), and the walk-over's figure (FSB L109A), which is given like the bye's."""
from __future__ import annotations

from collections.abc import Mapping
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


def bye_team_vp(by_scale: Mapping[str, float], scale: str) -> float:
    """FSB 96B, IMP events: "En tävlande (vanligen lag) erhåller den poäng som fastställs av den
    Ansvariga Organisationen. Med 25-0-skalan är denna poäng vanligen 18." The figure belongs
    to a scale, so the rules give one per scale (`ScoringRules.bye_team_vp`, keyed by the
    names of `vp_scales` and "25-0"), and a bye is the figure for the scale the event's matches
    are scored on: 18 on the 25-0 scale is not 18 of the WBF's 20 (docs/laws/choices.md #43).
    ValueError when the RA's figure for that scale is not configured, or when the event is
    scored in IMPs only (`none`: a bye has no VPs to give)."""
    return _figure(by_scale, scale, "a bye", "FSB 96B")


def walkover_team_vp(by_scale: Mapping[str, float], scale: str) -> float:
    """FSB L109A, a walk-over: "Det orsakande laget A får VP 0-25 [...] Det andra laget B får VP
    enligt det bästa av följande tre alternativ [...] 1) sitt snitt i övriga matcher [...] 2) 18
    VP, 3) genomsnittet av vad laget närmast före och närmast efter B fick mot det orsakande
    laget A". Alternatives 1 and 3 are known at the end of the series only; this is the figure of
    alternative 2 on the scale the match is scored on (`ScoringRules.walkover_team_vp`; 18 on the
    25-0 scale is 14 on the WBF 20-0 scale as for the bye: docs/laws/choices.md #45). ValueError
    as `bye_team_vp`."""
    return _figure(by_scale, scale, "a walk-over", "FSB L109A")


def _figure(by_scale: Mapping[str, float], scale: str, what: str, law: str) -> float:
    if scale == "none":
        raise ValueError(f"an event scored in IMPs only has no VP for {what} ({law} gives it in VPs)")
    if scale not in by_scale:
        given = ", ".join(f"{v:g} on {k}" for k, v in by_scale.items()) or "none"
        raise ValueError(f"the RA's VP for {what} on the {scale} scale is not configured ({law}; "
                         f"configured: {given})")
    return by_scale[scale]


def own_percentage(mp_scored: Number, top_played: Number) -> Fraction:
    return to_fraction(mp_scored) * 100 / to_fraction(top_played)
