"""Score a pairs session by matchpoints: every board, then each pair's total and percentage.

Board matchpoints are rounded to one decimal and so is the total (FSB 98C). Artificial scores
get the 12C2(c) session cap, and byes the pair's own percentage (FSB 96A). Equal totals share
the placing (FSB 95); `tiebreaks.fsb95a` breaks them when the TD decides to.
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from shared_rules.scoring.adjusted import session_capped_pct
from shared_rules.scoring.board import score_board
from shared_rules.scoring.matchpoints import top
from shared_rules.scoring.rounding import round_half_up, to_fraction
from shared_rules.scoring.rules import RULES, ScoringRules


@dataclass
class _Pair:
    mp: Fraction = Fraction(0)
    top: Fraction = Fraction(0)
    boards: int = 0
    artificial: list[tuple[str | None, Fraction, int]] = field(default_factory=list)  # category, pct, top


def score_pairs_session(
    boards: Mapping[int, Sequence[Mapping[str, Any]]],
    expected: int | None = None,
    rules: ScoringRules | str = "fsb-2007",
    byes: Mapping[Hashable, int] | None = None,
    penalties: Mapping[Hashable, float] | None = None,
) -> dict[str, Any]:
    """Matchpoint a whole session.

    `boards`: board number -> that board's result records (interfaces section 3). Pair ids must
    be unique across directions (in a Mitchell, e.g. "NS1" and "EW1"). `expected`: Neuberg's N
    for every board (default: the largest number of records on any board).
    `byes`: pair -> number of boards it sat out (FSB 96A). `penalties`: pair -> matchpoints to
    deduct (procedural penalties, e.g. FSB 99A2 `fouled.fouling_penalty(top)`), applied to the
    total after everything else.

    Returns `{"top": per-board top, "boards": {n: score_board rows}, "pairs": {pair: {"mp",
    "top", "pct", "boards"}}, "ranking": [{"place": "1" or "3-4", "pair", "mp", "pct"}]}`.
    """
    rules = RULES[rules] if isinstance(rules, str) else rules
    big_n = expected if expected is not None else max((len(rs) for rs in boards.values()), default=0)
    if big_n < 1:
        raise ValueError("a session needs at least one board with results")
    board_rows: dict[int, list[dict[str, Any]]] = {}
    pairs: dict[Hashable, _Pair] = {}
    for number in sorted(boards):
        rows = score_board(boards[number], big_n, rules)
        board_rows[number] = rows
        for row in rows:
            for side in ("ns", "ew"):
                mp = row[f"{side}_mp"]
                if mp is None:
                    continue
                pair = pairs.setdefault(row[f"{side}_pair"], _Pair())
                if f"{side}_artificial" in row:
                    category = row[f"{side}_artificial"]
                    pct = to_fraction(mp) * 100 / row["top"] if row["top"] else Fraction(50)
                    pair.artificial.append((None if category == "pct" else category, pct, row["top"]))
                else:
                    pair.mp += to_fraction(mp)
                    pair.top += row["top"]
                pair.boards += 1
    per_board_top = top(big_n)
    out_pairs: dict[Hashable, dict[str, Any]] = {}
    for pid, p in pairs.items():
        # 12C2(c): the percentage on the other boards of the session (those not artificial).
        other_pct = p.mp * 100 / p.top if p.top else None
        mp, tp = p.mp, p.top
        for category, pct, board_top in p.artificial:
            capped = session_capped_pct(category, pct, other_pct, rules)
            mp += to_fraction(round_half_up(capped * board_top / 100, rules.decimals))
            tp += board_top
        sat_out = (byes or {}).get(pid, 0)
        if sat_out:
            if not tp:
                raise ValueError(f"pair {pid!r} sat out but played no board: FSB 96A needs its own percentage")
            bye_top = per_board_top * sat_out
            mp += to_fraction(round_half_up(mp / tp * bye_top, rules.decimals))
            tp += bye_top
        penalty = to_fraction((penalties or {}).get(pid, 0))
        mp -= penalty
        out_pairs[pid] = {"mp": round_half_up(mp, rules.decimals), "top": float(tp),
                          "pct": round_half_up(mp * 100 / tp, 2) if tp else 50.0,
                          "boards": p.boards, "byes": sat_out, "penalty": float(penalty)}
    for pid in penalties or {}:
        if pid not in out_pairs:
            raise ValueError(f"penalty for pair {pid!r}, which has no result in the session")
    for pid, sat_out in (byes or {}).items():
        if pid not in out_pairs and sat_out:
            raise ValueError(f"pair {pid!r} sat out but played no board: FSB 96A needs its own percentage")
    return {"top": per_board_top, "boards": board_rows, "pairs": out_pairs, "ranking": rank(out_pairs)}


def rank(pairs: Mapping[Hashable, Mapping[str, Any]], key: str = "pct") -> list[dict[str, Any]]:
    """Ranking by `key`, highest first; equal scores share the placing ("3-4"), FSB 95."""
    ordered = sorted(pairs.items(), key=lambda kv: (-kv[1][key], str(kv[0])))
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1][1][key] == ordered[i][1][key]:
            j += 1
        place = str(i + 1) if i == j else f"{i + 1}-{j + 1}"
        for pid, data in ordered[i:j + 1]:
            out.append({"place": place, "pair": pid, "mp": data["mp"], "pct": data["pct"]})
        i = j + 1
    return out
