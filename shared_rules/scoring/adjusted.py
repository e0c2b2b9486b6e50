"""Adjusted scores (2007 / 2017 Law 12, L86, FSB 99A3): artificial, assigned, weighted, split.

A board result's `adjusted` block (docs/scoring.md, "Adjusted scores") is turned into one value
per side. A side's value is either
- a `Distribution`: NS scores with weights (an assigned score is one outcome of weight 1, a
  weighted score several; 2017 §12C1c / 2007 L12C1c), compared with the field like a table
  result, or
- a `Fixed` percentage (artificial 2007 L12C2 / 2017 §12C2a, or a TD's direct percentage):
  not compared; the other results are Neuberg-scaled (docs/scoring.md).
Sides may differ (non-balancing: 2007 L12C1e, 2017 §12C1e, §12C4).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from shared_rules.scoring.imps import imp
from shared_rules.scoring.rounding import to_fraction
from shared_rules.scoring.rules import ScoringRules
from shared_rules.scoring.score_table import score

CATEGORIES = ("avg+", "avg", "avg-")
_CATEGORY_ALIASES = {"avg+": "avg+", "a+": "avg+", "average plus": "avg+", "avg_plus": "avg+",
                     "avg": "avg", "a": "avg", "average": "avg",
                     "avg-": "avg-", "a-": "avg-", "average minus": "avg-", "avg_minus": "avg-"}


@dataclass(frozen=True)
class Distribution:
    """NS scores and their weights (weights sum to 1)."""

    outcomes: tuple[tuple[Fraction, int], ...]


@dataclass(frozen=True)
class Fixed:
    """A percentage of the board's top, not compared with the field (artificial or direct)."""

    pct: Fraction
    category: str | None = None  # "avg+", "avg", "avg-" when artificial: the 12C2c cap needs it


SideValue = Distribution | Fixed


class AdjustedError(ValueError):
    pass


def artificial_category(value: Any) -> str:
    if isinstance(value, str) and value.strip().lower() in _CATEGORY_ALIASES:
        return _CATEGORY_ALIASES[value.strip().lower()]
    raise AdjustedError(f"artificial score must be avg+, avg or avg- (or a percentage), not {value!r}")


def artificial_pct(value: Any, rules: ScoringRules) -> Fixed:
    """avg+/avg/avg- -> the edition's percentage (2007 L12C2, 2017 §12C2a); a number -> itself."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        pct = to_fraction(value)
        if not 0 <= pct <= 100:
            raise AdjustedError(f"an artificial percentage must be 0-100, not {value!r}")
        return Fixed(pct)
    category = artificial_category(value)
    return Fixed(to_fraction(rules.artificial.pct[category]), category)


def artificial_imps(value: Any, rules: ScoringRules) -> float:
    """avg+/avg/avg- -> IMPs (2007 L86A, 2017 §12C2b: +3 / 0 / -3 unless the TO varies them)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return rules.artificial.imps[artificial_category(value)]


def _outcome_score(spec: Mapping[str, Any], vulnerability: str | None) -> int:
    if "score_ns" in spec:
        value = spec["score_ns"]
        if isinstance(value, bool) or not isinstance(value, int) or value % 10:
            raise AdjustedError(f"score_ns must be a whole multiple of 10, not {value!r}")
        return value
    if "contract" not in spec:
        raise AdjustedError("an assigned outcome needs score_ns, or contract, declarer and tricks")
    if vulnerability is None:
        raise AdjustedError("scoring an assigned contract needs the board's vulnerability")
    try:
        return score(spec["contract"], spec.get("declarer") or "", spec.get("tricks") or 0, vulnerability)
    except ValueError as exc:
        raise AdjustedError(f"assigned contract: {exc}") from None


def _weighted(outcomes: Any, vulnerability: str | None) -> Distribution:
    if not isinstance(outcomes, Sequence) or isinstance(outcomes, str) or not outcomes:
        raise AdjustedError("a weighted score needs a non-empty list of outcomes")
    parts = []
    for o in outcomes:
        if not isinstance(o, Mapping) or "weight" not in o:
            raise AdjustedError(f"each weighted outcome needs a weight: {o!r}")
        try:
            weight = to_fraction(o["weight"])
        except ValueError as exc:
            raise AdjustedError(f"weight: {exc}") from None
        if weight <= 0:
            raise AdjustedError(f"weights must be positive, not {o['weight']!r}")
        parts.append((weight, _outcome_score(o, vulnerability)))
    total = sum((w for w, _ in parts), Fraction(0))
    # Weights like 0.33/0.33/0.34 or 1/3 each: accept if they sum to 1 within a hundredth,
    # then normalise so the comparison stays exact.
    if abs(total - 1) > Fraction(1, 100):
        raise AdjustedError(f"weights must sum to 1, not {float(total):.4f}")
    return Distribution(tuple((w / total, s) for w, s in parts))


def _side(spec: Any, vulnerability: str | None, rules: ScoringRules) -> SideValue:
    if not isinstance(spec, Mapping):
        raise AdjustedError(f"a side's adjusted score must be an object, not {spec!r}")
    if "artificial" in spec:
        return artificial_pct(spec["artificial"], rules)
    if "pct" in spec:
        pct = spec["pct"]
        if isinstance(pct, bool) or not isinstance(pct, (int, float)):
            raise AdjustedError(f"pct must be a number 0-100, not {pct!r}")
        return artificial_pct(pct, rules)
    if "outcomes" in spec:
        return _weighted(spec["outcomes"], vulnerability)
    return Distribution(((Fraction(1), _outcome_score(spec, vulnerability)),))


def side_values(
    result: Mapping[str, Any], rules: ScoringRules, vulnerability: str | None = None
) -> tuple[SideValue, SideValue] | None:
    """A result record -> (NS side value, EW side value), or None when it has no result.

    Table results give the same Distribution to both sides. `vulnerability` defaults to the
    record's own "vulnerability" field.
    """
    vul = result.get("vulnerability", vulnerability) or vulnerability
    adjusted = result.get("adjusted")
    if adjusted is None:
        raw = result.get("score_ns")
        if raw is None:
            return None
        value = Distribution(((Fraction(1), _outcome_score({"score_ns": raw}, vul)),))
        return value, value
    if not isinstance(adjusted, Mapping):
        raise AdjustedError(f"adjusted must be an object or null, not {adjusted!r}")
    kind = adjusted.get("kind")
    if kind == "artificial":
        if "ns" not in adjusted or "ew" not in adjusted:
            raise AdjustedError("an artificial score needs a value for each side: ns and ew")
        return artificial_pct(adjusted["ns"], rules), artificial_pct(adjusted["ew"], rules)
    if kind == "assigned":
        value = Distribution(((Fraction(1), _outcome_score(adjusted, vul)),))
        return value, value
    if kind == "weighted":
        if adjusted.get("ruled_by", "td") == "td" and not rules.weighting_by_td:
            raise AdjustedError(
                f"under {rules.name} a TD does not weight scores: only an appeals committee or LK "
                "may (2007 L12C1c, FSB); set ruled_by to 'committee' or 'lk'"
            )
        value = _weighted(adjusted.get("outcomes"), vul)
        return value, value
    if kind == "split":
        if "ns" not in adjusted or "ew" not in adjusted:
            raise AdjustedError("a split score needs a value for each side: ns and ew")
        return _side(adjusted["ns"], vul, rules), _side(adjusted["ew"], vul, rules)
    raise AdjustedError(f"adjusted kind must be artificial, assigned, weighted or split, not {kind!r}")


def session_capped_pct(category: str | None, pct: Fraction, other_boards_pct: Fraction | None,
                       rules: ScoringRules) -> Fraction:
    """2007 L12C2(c) / 2017 §12C2c: a non-offending contestant (avg+) who scored more than 60%
    on the other boards of the session gets that percentage instead; an offending one (avg-)
    who scored less than 40% gets that lower percentage."""
    if not rules.session_cap_12C2c or other_boards_pct is None or category is None:
        return pct
    if category == "avg+" and other_boards_pct > pct:
        return other_boards_pct
    if category == "avg-" and other_boards_pct < pct:
        return other_boards_pct
    return pct


def weighted_imps(outcomes: Sequence[tuple[Fraction | str | float, int]], other_table_ns: int) -> Fraction:
    """IMPs for the team sitting NS at this table from a weighted assigned score: weight the
    IMPs of each outcome, not the points (A07 example W1: 4 + 1/3 - 2/3 = 3.667)."""
    return sum((to_fraction(w) * imp(s - other_table_ns) for w, s in outcomes), Fraction(0))


def weighted_matchpoints(outcomes: Sequence[tuple[Fraction | str | float, float]]) -> Fraction:
    """Weighted matchpoints from each outcome's matchpoints (A07 example W2: 10 + 40 + 50 = 100)."""
    return sum((to_fraction(w) * to_fraction(mp) for w, mp in outcomes), Fraction(0))


@dataclass(frozen=True)
class SplitImps:
    offenders: int
    non_offenders: int


def split_imps_self_inflicted(
    offenders_assigned_ns: int, other_table_ns: int, table_result_ns: int, without_error_ns: int
) -> SplitImps:
    """Team match, offenders sitting NS at this table (2007 L12C1b / 2017 §12C1e, A07 example).

    Offenders get the assigned score against the other table. Non-offenders get the mirror,
    less the IMP value of the self-inflicted part (the points their own serious error or gamble
    cost: table result against what they would have got without it). A07 subtracts IMPs, not
    points (11 - 5 = 6, where imp(570 - 170) would be 9).
    """
    offenders = imp(offenders_assigned_ns - other_table_ns)
    self_inflicted = imp(table_result_ns - without_error_ns)
    return SplitImps(offenders=offenders, non_offenders=-offenders - self_inflicted)


def knockout_average(side_a: float | Fraction, side_b: float | Fraction) -> tuple[Fraction, Fraction]:
    """Knockout with non-balancing scores (2007 L86B, 2017 §12C4): each side's score is worked
    out separately and each gets the average: (a - b) / 2 to A and the negation to B."""
    a, b = to_fraction(side_a), to_fraction(side_b)
    mean = (a - b) / 2
    return mean, -mean
