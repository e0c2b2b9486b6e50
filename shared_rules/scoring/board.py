"""Matchpoint one board from its result records (the station's entry point for pairs events).

Each direction is compared separately (2007 L78A: a contestant is compared with those "with whom
comparison is to be made"), so a split score puts its NS value among the NS results and its EW
value among the EW results. Table results are the same on both lists, so then EW = top - NS.
Results without a comparable value (missing, artificial) are left out and the others are
Neuberg-scaled to the board's expected number of results (FSB 98C).
"""
from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from shared_rules.scoring.adjusted import Distribution, Fixed, SideValue, side_values
from shared_rules.scoring.fouled import scale_group, small_group_pct
from shared_rules.scoring.matchpoints import raw_matchpoints, top
from shared_rules.scoring.rounding import round_half_up
from shared_rules.scoring.rules import RULES, ScoringRules


def _compare(a: Distribution, b: Distribution, sign: int) -> Fraction:
    """Expected 2/1/0 points of a against b; sign=+1 for NS (higher better), -1 for EW."""
    points = Fraction(0)
    for wa, sa in a.outcomes:
        for wb, sb in b.outcomes:
            diff = (sa - sb) * sign
            points += wa * wb * (2 if diff > 0 else 1 if diff == 0 else 0)
    return points


def _direction_mp(
    values: Sequence[SideValue | None], sign: int, expected: int, method: str = "neuberg",
    small_group: bool = False,
) -> list[Fraction | None]:
    """Matchpoints (exact) for one direction; Fixed values become pct of top.

    `method` scales a group smaller than `expected` (FSB 98C Neuberg, or FSB 99A1's
    "fsb-plus-one" for fouled-board groups); `small_group` applies FSB 99A1's 60 / 65-55 /
    70-60-50 percentages to a group of at most three plain results.
    """
    board_top = top(expected)
    compared = [(i, v) for i, v in enumerate(values) if isinstance(v, Distribution)]
    n = len(compared)
    out: list[Fraction | None] = [None] * len(values)
    plain = all(len(v.outcomes) == 1 for _, v in compared)
    if small_group and plain and 0 < n <= 3:
        pcts = small_group_pct([sign * v.outcomes[0][1] for _, v in compared])
        for (i, _), pct in zip(compared, pcts, strict=True):
            out[i] = pct * board_top / 100
    elif plain:
        # Plain scores: sort-based, O(n log n); this is nearly every board.
        raw = raw_matchpoints([sign * v.outcomes[0][1] for _, v in compared])
        for (i, _), mp in zip(compared, raw, strict=True):
            out[i] = scale_group(mp, n, expected, method) if n < expected else Fraction(mp)
    else:
        # A weighted score is compared outcome by outcome with the same weights, and the others
        # are compared with each of its outcomes (a reading: docs/scoring.md).
        # Plain results are compared by bisection; only pairs involving a weighted score are
        # compared outcome by outcome, so one weighted score on a big board stays cheap.
        plain_sorted = sorted(sign * v.outcomes[0][1] for _, v in compared if len(v.outcomes) == 1)
        weighted = [(j, w) for j, w in compared if len(w.outcomes) > 1]
        for i, v in compared:
            exact = Fraction(0)
            for weight, s in v.outcomes:
                below = bisect.bisect_left(plain_sorted, sign * s)
                equal = bisect.bisect_right(plain_sorted, sign * s) - below
                exact += weight * (2 * below + equal)
            if len(v.outcomes) == 1:
                exact -= 1  # a plain result is equal to itself once in plain_sorted
            exact += sum((_compare(v, w, sign) for j, w in weighted if j != i), Fraction(0))
            out[i] = scale_group(exact, n, expected, method) if n < expected else exact
    for i, value in enumerate(values):
        if isinstance(value, Fixed):
            out[i] = value.pct * board_top / 100
    return out


def score_board(
    results: Sequence[Mapping[str, Any]],
    expected: int | None = None,
    rules: ScoringRules | str = "fsb-2007",
    vulnerability: str | None = None,
) -> list[dict[str, Any]]:
    """Matchpoint one board. `results`: result records (docs/interfaces.md section 3; only
    `ns_pair`, `ew_pair`, `score_ns`, `adjusted` and `vulnerability` are read).

    `expected`: Neuberg's N (default: the number of records, so a record with `score_ns` null
    counts as a table that should have had a result). Returns, per record in order:
    `{"ns_pair", "ew_pair", "ns_mp", "ew_mp", "ns_pct", "ew_pct", "top"}` with MP rounded to one
    decimal (FSB 98C); MP and pct are None where the record has no result. Artificial scores are
    marked `"ns_artificial"` / `"ew_artificial"` with their category so the session can apply
    12C2(c). A record with `"rotated": true` (FSB 99A3a) credits its NS line to its `ew_pair`
    and its EW line to its `ns_pair`. Bad adjusted blocks raise `AdjustedError` (a ValueError).
    """
    rules = RULES[rules] if isinstance(rules, str) else rules
    big_n = len(results) if expected is None else expected
    if not results:
        return []
    if isinstance(big_n, bool) or not isinstance(big_n, int) or big_n < 1:
        raise ValueError(f"expected number of results must be a whole number from 1 up, not {expected!r}")
    values = [side_values(r, rules, vulnerability) for r in results]
    present = sum(v is not None for v in values)
    if present > big_n:
        raise ValueError(f"{present} results on a board expected to have at most {big_n}")
    ns_mp: list[Fraction | None] = [None] * len(results)
    ew_mp: list[Fraction | None] = [None] * len(results)
    # Fouled board (2007 L87B / 2017 §87B): results tagged with a "fouled_group" are scored
    # only within their group, scaled to the board's full top by the configured FSB 99A method.
    groups: dict[Any, list[int]] = {}
    for i, r in enumerate(results):
        groups.setdefault(r.get("fouled_group"), []).append(i)
    fouled = len(groups) > 1 or None not in groups
    method = rules.fouled_method if fouled else rules.fewer_results
    small = fouled and rules.fouled_small_group_rule and big_n >= rules.fouled_small_group_min_tables
    ns_values = [v[0] if v else None for v in values]
    ew_values = [v[1] if v else None for v in values]
    for members in groups.values():
        ns_part = _direction_mp([ns_values[i] for i in members], +1, big_n, method, small)
        ew_part = _direction_mp([ew_values[i] for i in members], -1, big_n, method, small)
        for k, i in enumerate(members):
            ns_mp[i], ew_mp[i] = ns_part[k], ew_part[k]
    board_top = top(big_n)
    out = []
    for r, v, ns, ew in zip(results, values, ns_mp, ew_mp, strict=True):
        ns_pair, ew_pair = r.get("ns_pair"), r.get("ew_pair")
        if r.get("rotated"):
            # FSB 99A3a: the board was played rotated; score_ns is for the board's NS hands,
            # which the registered EW pair held, so that pair gets the NS line (and vice versa).
            ns_pair, ew_pair = ew_pair, ns_pair
        row: dict[str, Any] = {"ns_pair": ns_pair, "ew_pair": ew_pair, "top": board_top,
                               "ns_mp": None, "ew_mp": None, "ns_pct": None, "ew_pct": None}
        if r.get("rotated"):
            row["rotated"] = True
        for side, mp, value in (("ns", ns, v[0] if v else None), ("ew", ew, v[1] if v else None)):
            if mp is None:
                continue
            row[f"{side}_mp"] = round_half_up(mp, rules.decimals)
            row[f"{side}_pct"] = round_half_up(mp * 100 / board_top, 2) if board_top else 50.0
            if isinstance(value, Fixed):
                row[f"{side}_artificial"] = value.category or "pct"
        out.append(row)
    return out
