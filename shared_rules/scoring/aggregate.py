"""Aggregate scoring (2007 L78C / 2017 §78C): each contestant's score is the sum of its points."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from typing import Any


def aggregate(results: Iterable[Mapping[str, Any]]) -> dict[Hashable, int]:
    """Total points per pair or team from result records (`ns_pair`, `ew_pair`, `score_ns`).

    EW's points are the negation of NS's (L77: one side's plus is the other's minus). Records
    without a score (not played) add nothing.
    """
    totals: dict[Hashable, int] = defaultdict(int)
    for r in results:
        s = r.get("score_ns")
        if s is None:
            continue
        if isinstance(s, bool) or not isinstance(s, int):
            raise ValueError(f"score_ns must be a whole number, not {s!r}")
        totals[r["ns_pair"]] += s
        totals[r["ew_pair"]] -= s
    return dict(totals)
