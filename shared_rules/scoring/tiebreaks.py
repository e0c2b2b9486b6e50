"""Tie-breaks (FSB 95): matchpoint pairs (95A) and IMP/VP teams (95B).

Both return the tied contestants best first, as groups: a group of more than one is still
tied after every step the rule gives, and FSB 95A/95B then say lots decide (`"lots": true`);
drawing them is the TD's act, so no randomness here.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from shared_rules.scoring.rounding import Number, to_fraction

Key = Callable[[Hashable, Sequence[Hashable]], Any]


def _split(group: Sequence[Hashable], keys: Sequence[Key]) -> list[list[Hashable]]:
    """Order `group` by keys[0] (higher first); split ties with the next keys, recursively."""
    if len(group) <= 1 or not keys:
        return [list(group)]
    first, rest = keys[0], keys[1:]
    values = {c: first(c, group) for c in group}
    out: list[list[Hashable]] = []
    for value in sorted(set(values.values()), reverse=True):
        sub = [c for c in group if values[c] == value]
        out.extend(_split(sub, rest) if len(sub) > 1 else [sub])
    return out


def _result(groups: list[list[Hashable]], scores: Mapping[Hashable, Mapping[str, Any]]) -> list[dict[str, Any]]:
    out = []
    place = 1
    for g in groups:
        out.append({"place": place, "contestants": g, "lots": len(g) > 1,
                    "detail": {c: dict(scores.get(c, {})) for c in g}})
        place += len(g)
    return out


def fsb95a(tied: Sequence[Hashable], board_pct: Mapping[Hashable, Mapping[Any, Number]]) -> list[dict[str, Any]]:
    """FSB 95A, matchpoint tie-break between pairs.

    `board_pct`: pair -> {board: the pair's percentage on that board}. Every board played by
    any tied pair counts. On a board two or more tied pairs played, each gets 2 points for every
    other tied pair it beat and 1 for each equal result; on a board only one of them played, it
    gets 2 above average (50%), 1 at average, 0 below. Most points first; then lots.
    """
    if len(set(tied)) != len(tied) or len(tied) < 2:
        raise ValueError("a tie-break needs two or more different contestants")
    points: dict[Hashable, int] = {p: 0 for p in tied}
    boards = {b for p in tied for b in board_pct.get(p, {})}
    for b in boards:
        players = [p for p in tied if b in board_pct.get(p, {})]
        if len(players) == 1:
            pct = to_fraction(board_pct[players[0]][b])
            points[players[0]] += 2 if pct > 50 else 1 if pct == 50 else 0
            continue
        for p in players:
            mine = to_fraction(board_pct[p][b])
            for q in players:
                if q != p:
                    theirs = to_fraction(board_pct[q][b])
                    points[p] += 2 if mine > theirs else 1 if mine == theirs else 0
    groups = _split(list(tied), [lambda c, _g: points[c]])
    return _result(groups, {p: {"points": points[p]} for p in tied})


def quotient(won: Number, lost: Number) -> Fraction | float:
    """FSB 95B1: IMPs won / IMPs lost; nothing lost is +infinity (a reading: docs/scoring.md)."""
    w, lo = to_fraction(won), to_fraction(lost)
    if lo == 0:
        return math.inf if w > 0 else Fraction(0)
    return w / lo


def fsb95b(
    tied: Sequence[Hashable],
    totals: Mapping[Hashable, Mapping[str, Number]],
    head_to_head: Mapping[tuple[Hashable, Hashable], Mapping[str, Number]] | None = None,
) -> list[dict[str, Any]]:
    """FSB 95B, teams equal on VP: quotient (IMPs won / lost), then among the still-tied teams
    head-to-head IMPs, boards won, total points; any difference, however small, decides.

    `totals`: team -> {"won": IMPs won, "lost": IMPs lost} over the event.
    `head_to_head`: (team A, team B) -> {"imps": A's IMP margin, "boards": A's boards won minus
    B's, "points": A's total-point margin}, for each match played between tied teams (one
    entry per pair of teams, either order).
    """
    if len(set(tied)) != len(tied) or len(tied) < 2:
        raise ValueError("a tie-break needs two or more different contestants")
    h2h = head_to_head or {}
    q = {t: quotient(totals[t]["won"], totals[t]["lost"]) for t in tied}

    def h2h_key(field: str) -> Key:
        def key(team: Hashable, group: Sequence[Hashable]) -> Fraction:
            total = Fraction(0)
            for other in group:
                if other == team:
                    continue
                if (team, other) in h2h:
                    total += to_fraction(h2h[(team, other)][field])
                elif (other, team) in h2h:
                    total -= to_fraction(h2h[(other, team)][field])
            return total
        return key

    keys: list[Key] = [lambda t, _g: q[t], h2h_key("imps"), h2h_key("boards"), h2h_key("points")]
    groups = _split(list(tied), keys)
    return _result(groups, {t: {"quotient": float(q[t])} for t in tied})
