"""Scoring configuration: edition and jurisdiction as data, not if-chains.

`RULES["fsb-2007"]` (Sweden, 2007 laws + FSB supplements) and `RULES["dbf-2017"]` (Denmark,
2017 laws) are the presets; a club derives its own with `dataclasses.replace`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from shared_rules import profiles


@dataclass(frozen=True)
class ArtificialScores:
    """Artificial adjusted scores: pairs percentages and team IMPs per category."""

    pct: dict[str, float]  # "avg+", "avg", "avg-" -> percent of the board top
    imps: dict[str, float]  # "avg+", "avg", "avg-" -> IMPs
    law: str


@dataclass(frozen=True)
class ScoringRules:
    name: str
    edition: int
    artificial: ArtificialScores
    session_cap_12C2c: bool = True  # 12C2(c): beyond 60% / below 40% use the session score
    decimals: int = 1  # FSB 98C: one decimal for board matchpoints and the final result
    fewer_results: str = "neuberg"  # FSB 98C: Neuberg by computer; "fsb-plus-one" = manual FSB 99A1
    fouled_method: str = "neuberg"  # "neuberg" | "fsb-plus-one" (FSB 99A1 manual rule)
    fouled_small_group_rule: bool = False  # FSB 99A1 60/65-55/70-60-50 for tiny groups
    fouled_small_group_min_tables: int = 7  # FSB 99A1 "at least seven tables"
    fouled_lone_result_min_pct: float | None = 60.0  # FSB 99A1: 60% or own average if higher
    fouled_penalty_pct: float = 10.0  # FSB 99A2: 10% of the board's maximum
    # FSB 96B: the RA's VPs for a bye, per scale ("25-0", or a name of `vp_scales`): `byes.bye_team_vp`
    bye_team_vp: Mapping[str, float] = field(default_factory=dict)
    # FSB L109A: the VPs of the team whose opponent gave a walk-over, per scale: `byes.walkover_team_vp`
    walkover_team_vp: Mapping[str, float] = field(default_factory=dict)
    weighting_by_td: bool = True  # Law 12C1(c): as the regulation profile of the same name says
    knockout_average_split: bool = True  # 2007 L86B / 2017 §12C4
    extra: dict[str, str] = field(default_factory=dict)


_ARTIFICIAL_2007: Final = ArtificialScores(
    pct={"avg+": 60.0, "avg": 50.0, "avg-": 40.0},
    imps={"avg+": 3.0, "avg": 0.0, "avg-": -3.0},
    law="2007 L12C2 (pairs: at most 40 / 50 / at least 60 percent), 2007 L86A (+3 / -3 IMPs)",
)
_ARTIFICIAL_2017: Final = ArtificialScores(
    pct={"avg+": 60.0, "avg": 50.0, "avg-": 40.0},
    imps={"avg+": 3.0, "avg": 0.0, "avg-": -3.0},
    law="2017 §12C2a (pairs 40 / 50 / 60 percent), §12C2b (+3 / -3 IMPs)",
)

def _weighting_by_td(name: str) -> bool:
    """Who may weight an assigned score is the regulation profile's (`[adjusted]`, Law 12C1(c)):
    one source for the table that rules and the scoring that reads the ruling."""
    return profiles.load(name).adjusted.weighting_by_td


# FSB 96B: "Med 25-0-skalan är denna poäng vanligen 18". The WBF 20-0 scale's figure is ours
# (docs/laws/choices.md #43): FSB's masterpoint rules for team series count 18-12 on the 25-0
# scale and 14-6 on a 20-0 scale each as the smallest won match, so a bye, the smallest won
# match on the 25-0 scale, is 14 on the 20-0 scale.
_FSB_BYE: Final = MappingProxyType({"25-0": 18.0, "wbf": 14.0})  # read-only: shared by derived rules
# FSB L109A: the team whose opponent gave a walk-over gets, on the 25-0 scale, the best of its
# average in its other matches, "18 VP", and what the teams placed next to it got against the
# offender (both known only at the end of the series). The 18 is the bye's figure of FSB 96B and
# is converted the same way, to 14 on the WBF 20-0 scale (docs/laws/choices.md #45).
_FSB_WALKOVER: Final = MappingProxyType({"25-0": 18.0, "wbf": 14.0})

RULES: Final[dict[str, ScoringRules]] = {
    "fsb-2007": ScoringRules(
        name="fsb-2007", edition=2007, artificial=_ARTIFICIAL_2007, bye_team_vp=_FSB_BYE,
        walkover_team_vp=_FSB_WALKOVER,
        weighting_by_td=_weighting_by_td("fsb-2007"),  # 2007 L12C1(c) (S07): a committee and LK only
    ),
    "dbf-2017": ScoringRules(name="dbf-2017", edition=2017, artificial=_ARTIFICIAL_2017,
                             weighting_by_td=_weighting_by_td("dbf-2017")),  # 2017 L12C1(c)
}


def get_rules(name: str) -> ScoringRules:
    try:
        return RULES[name]
    except KeyError:
        raise ValueError(f"unknown scoring rules {name!r}; known: {', '.join(sorted(RULES))}") from None
