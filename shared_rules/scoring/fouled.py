"""Fouled boards (2007 L87 / 2017 §87, FSB 99A): results split into groups scored separately.

L87B: the TD groups the scores by the form in which the board was played and scores each group
as the regulations prescribe. FSB 99A gives Sweden's methods:
- "neuberg": by computer, Neuberg's formula (FSB 99A1 -> FSB 98C), each group scaled to the
  board's full top;
- "fsb-plus-one": the manual main rule, L78 matchpoints plus 1 for each result the pair cannot
  be compared with (M' = M + (N - n));
- optionally the small-group rule for events of at least seven tables: a group of 1, 2 or 3
  results gets 60 / 65-55 / 70-60-50 percent;
- a lone result with nothing to compare gets 60% or the pair's own average if higher;
- the pair at fault loses 10% of the board's maximum (FSB 99A2).
How these combine under computer scoring the FSB supplement leaves open; it is configuration.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from shared_rules.scoring.matchpoints import neuberg, raw_matchpoints, top
from shared_rules.scoring.rounding import round_half_up, to_fraction

METHODS = ("neuberg", "fsb-plus-one")
# FSB 99A1 small groups: percentages best to worst for groups of 1, 2 and 3 results.
SMALL_GROUP_PCT = {1: (60,), 2: (65, 55), 3: (70, 60, 50)}


def scale_group(mp: Fraction | int, n: int, expected: int, method: str) -> Fraction:
    """Matchpoints among a group of n results -> matchpoints on the board's full top."""
    if method == "neuberg":
        return neuberg(mp, n, expected)
    if method == "fsb-plus-one":
        return Fraction(mp) + (expected - n)
    raise ValueError(f"fouled board method must be one of {', '.join(METHODS)}, not {method!r}")


def small_group_pct(directional_scores: Sequence[int]) -> list[Fraction]:
    """FSB 99A1 small-group percentages for 1-3 results of one direction (higher is better).

    Equal results share the average of their places' percentages (a reading: docs/scoring.md).
    """
    n = len(directional_scores)
    if n not in SMALL_GROUP_PCT:
        raise ValueError(f"the FSB 99A1 small-group rule covers groups of 1-3 results, not {n}")
    table = SMALL_GROUP_PCT[n]
    ordered = sorted(directional_scores, reverse=True)
    out = []
    for s in directional_scores:
        places = [i for i, t in enumerate(ordered) if t == s]
        out.append(Fraction(sum(table[i] for i in places), len(places)))
    return out


def fouled_board_matchpoints(
    groups: Sequence[Sequence[int]],
    expected: int | None = None,
    method: str = "neuberg",
    small_group_rule: bool = False,
    tables: int | None = None,
    small_group_min_tables: int = 7,
    decimals: int = 1,
) -> list[list[tuple[float, float]]]:
    """NS scores per group -> (NS MP, EW MP) per result, on the board's full top 2(N-1).

    `expected` (N) defaults to the total number of results on the board; `tables` (for the
    small-group threshold) defaults to N.
    """
    big_n = sum(len(g) for g in groups) if expected is None else expected
    tables = big_n if tables is None else tables
    board_top = top(big_n)
    out: list[list[tuple[float, float]]] = []
    for group in groups:
        n = len(group)
        if n == 0:
            out.append([])
            continue
        if small_group_rule and tables >= small_group_min_tables and n <= 3:
            ns_pct = small_group_pct(group)
            ew_pct = small_group_pct([-s for s in group])
            out.append([(round_half_up(p * board_top / 100, decimals), round_half_up(q * board_top / 100, decimals))
                        for p, q in zip(ns_pct, ew_pct, strict=True)])
            continue
        ns_raw = raw_matchpoints(group)
        ew_raw = raw_matchpoints([-s for s in group])
        out.append([(round_half_up(scale_group(a, n, big_n, method), decimals),
                     round_half_up(scale_group(b, n, big_n, method), decimals))
                    for a, b in zip(ns_raw, ew_raw, strict=True)])
    return out


def lone_result_pct(own_average_pct: float | None, floor_pct: float = 60.0) -> Fraction:
    """FSB 99A1: a result with nothing to compare gets 60% or the pair's event average if higher."""
    floor = to_fraction(floor_pct)
    if own_average_pct is None:
        return floor
    return max(floor, to_fraction(own_average_pct))


def fouling_penalty(board_top: int | float, pct: float = 10.0, decimals: int = 1) -> float:
    """FSB 99A2: the pair at fault for fouling the board (or holding 14+ cards without counting)
    loses 10% of the board's maximum; returned as a positive number of matchpoints to deduct."""
    return round_half_up(to_fraction(board_top) * to_fraction(pct) / 100, decimals)
