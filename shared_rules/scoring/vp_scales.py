"""The VP scales an event can name (2007 L78D / 2017 §78D: the conditions of contest give the
method; FSB 94B: IMPs "omräknas i andra poängenheter enligt bestämmelser utfärdade av den
Ansvariga Organisationen"), by the name the station's `match scale` option and a profile's
`vp_scale` use.

Only scales whose figures a source gives are here. The WBF 2013 20-0 scale is the WBF's formula
with the correction its technical report requires (`wbf_vp`). The Swedish federation's 25-0
scale (named, not printed, in FSB 96B and 109) and a Danish federation scale were searched for
and not found in any source at hand, so neither is offered (docs/scoring.md "VP scales",
docs/laws/choices.md #41); an event under those profiles is scored on the WBF scale.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from shared_rules.scoring.wbf_vp import WbfScale2013

NONE = "none"  # no VPs: the match score is the IMPs (Data Connector method 40, or the TD's choice)


class PairScale(Protocol):
    """A VP scale that scores a match: (VP of A, VP of B) from the two teams' IMPs over `boards`."""

    @property
    def maximum(self) -> float: ...  # the winner's VPs at the blitz (a frozen dataclass field)

    def pair(self, imps_a: float | Fraction, imps_b: float | Fraction, boards: int) -> tuple[float, float]: ...

    def blitz(self, boards: int) -> int: ...  # the smallest whole margin that gives `maximum`


@dataclass(frozen=True)
class NamedScale:
    name: str
    title: str    # as the director page and the files name it
    source: str   # where its figures come from
    scale: PairScale


SCALES: dict[str, NamedScale] = {
    "wbf": NamedScale("wbf", "WBF 2013 20-0",
                      "WBF Scoring Panel, \"The New WBF IMP to VP Scales\" (2013): the continuous scale",
                      WbfScale2013()),
}


def names() -> tuple[str, ...]:
    """Every name an event may give: the scales, and `none` (IMPs only)."""
    return (*SCALES, NONE)


def named(name: str) -> NamedScale | None:
    """The scale of that name, None for `none`; ValueError for a name no source gives."""
    if name == NONE:
        return None
    if name not in SCALES:
        raise ValueError(f"no VP scale {name!r}: the scales are {', '.join(names())}")
    return SCALES[name]
