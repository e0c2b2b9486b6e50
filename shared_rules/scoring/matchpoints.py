"""Matchpoints (2007 L78A / 2017 §78A) and Neuberg's formula for boards with fewer results (FSB 98C).

A result gets 2 points for each worse, 1 for each equal and 0 for each better comparable result,
so with n results the top is 2(n-1) (2007 L78A). The 2017 law also allows publishing in half
units (1 / ½ / 0): divide by 2.
"""
from __future__ import annotations

import bisect
from collections.abc import Sequence
from fractions import Fraction

from shared_rules.scoring.rounding import round_half_up


def raw_matchpoints(scores: Sequence[int]) -> list[int]:
    """2/1/0 matchpoints of each score against the others (higher score is better), L78A."""
    ordered = sorted(scores)
    out = []
    for s in scores:
        below = bisect.bisect_left(ordered, s)
        equal = bisect.bisect_right(ordered, s) - below
        out.append(2 * below + (equal - 1))
    return out


def neuberg(mp: Fraction | int, n: int, expected: int) -> Fraction:
    """Neuberg's formula: matchpoints among n results scaled to a board with `expected` results.

    M' = (M + 1) * N / n - 1 (FSB 98C prescribes the formula by name; the sources do not print
    it, this is the standard form, which gives 19.9 for M=18, n=10, N=11 as the FSB example checks).
    """
    if n < 1 or expected < 1:
        raise ValueError(f"Neuberg needs at least one result and one expected result (n={n}, N={expected})")
    if n == expected:
        return Fraction(mp)
    return (Fraction(mp) + 1) * expected / n - 1


def top(expected: int) -> int:
    """Top on a board with `expected` results on the 2/1/0 scale: 2(N-1)."""
    return 2 * (expected - 1)


def board_matchpoints(
    ns_scores: Sequence[int | None], expected: int | None = None, decimals: int = 1
) -> list[tuple[float, float] | None]:
    """One board's NS scores -> (NS matchpoints, EW matchpoints) per result, None where missing.

    `expected` is Neuberg's N, the number of results the board should have had; by default the
    length of `ns_scores` (a None entry is a table that has no comparable result). Boards with
    fewer results are Neuberg-scaled to the top 2(N-1) and rounded to `decimals` (FSB 98C: 1).
    EW matchpoints are top minus NS matchpoints.
    """
    big_n = len(ns_scores) if expected is None else expected
    present = [s for s in ns_scores if s is not None]
    if len(present) > big_n:
        raise ValueError(f"{len(present)} results on a board expected to have at most {big_n}")
    board_top = top(big_n)
    raw = iter(raw_matchpoints(present))
    out: list[tuple[float, float] | None] = []
    for s in ns_scores:
        if s is None:
            out.append(None)
            continue
        mp = neuberg(next(raw), len(present), big_n)
        out.append((round_half_up(mp, decimals), round_half_up(board_top - mp, decimals)))
    return out
