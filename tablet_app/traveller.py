"""The board's traveller and the pairs' running score, as the club's Bridgemate settings show them.

Pure functions on plain data: the station's results for a board (`GET /api/v1/boards/<n>/results`,
which a table sees only once its own result is in: 2007 L16C1, 2017 L16D1) in, what a screen shows
out. The fetch itself is at the I/O edge (`station_client.traveller_hook`).
"""
from __future__ import annotations

from typing import Any

from shared_rules.records import RecordError, Result, Withdrawal
from shared_rules.scoring.matchpoints import board_matchpoints, top


def shown(show_results: str, phase: str) -> bool:
    """Whether the club shows the board's other results now: `all` after the table's own result,
    `round_end` once the round is over; `own` and `none` never."""
    return show_results == "all" or (show_results == "round_end" and phase == "round_end")


def standing(results: list[Any]) -> list[Result]:
    """The board's result at each table as it stands: the latest revision of each table's record
    (Law 79C corrections are new revisions), withdrawn ones dropped, in table order. A line that
    is not a record the station's door takes (shared_rules.records) is left out."""
    latest: dict[tuple[str, int], Result | Withdrawal] = {}
    for r in results:
        try:
            rec = Result.from_json(r) if isinstance(r, dict) and not r.get("withdrawn") else Withdrawal.from_json(r)
        except RecordError:
            continue
        where = (rec.key.table_id.section, rec.key.table_id.table)
        if where not in latest or rec.key.revision >= latest[where].key.revision:
            latest[where] = rec
    return [rec for _, rec in sorted(latest.items()) if isinstance(rec, Result)]


def rows(results: list[Any]) -> list[dict[str, Any]]:
    """The traveller's lines, one per table (`standing`), each with its matchpoints among the
    results in so far (2/1/0 per result compared, Law 78A; an adjusted score without a table
    score counts for neither side here)."""
    lines = standing(results)
    scored = [r.score_ns for r in lines if r.score_ns is not None]
    mps = board_matchpoints(scored) if scored else []
    it = iter(mps)
    out = []
    for r in lines:
        mp = next(it) if r.score_ns is not None else None
        out.append({"table": r.key.table_id.table, "ns_pair": r.ns_pair, "ew_pair": r.ew_pair,
                    "contract": r.contract, "declarer": r.declarer, "tricks": r.tricks, "lead": r.lead,
                    "score_ns": r.score_ns, "adjusted": None if r.adjusted is None else dict(r.adjusted),
                    "mp_ns": mp[0] if mp else None, "mp_ew": mp[1] if mp else None,
                    "top": top(len(scored)) if r.score_ns is not None else None})
    return out


def running_score(travellers: dict[int, list[dict[str, Any]]], pair: int, direction: str,
                  per_direction: bool) -> dict[str, Any]:
    """The pair's matchpoints over the boards whose travellers this table holds: sum, tops and
    percentage over the boards that could be compared (a board with one result has a top of 0,
    Law 78A: nothing to compare it with), and how many of the pair's boards still wait for other
    results (`waiting`). `direction` is where the pair sits now; in a Mitchell (`per_direction`)
    pair 1 NS and pair 1 EW are two pairs, in a Howell a pair is found in either direction."""
    mp = 0.0
    tops = 0
    boards = 0
    waiting = 0
    for lines in travellers.values():
        for line in lines:
            if line.get("mp_ns") is None:
                continue
            for side in ("ns", "ew"):
                if line.get(f"{side}_pair") == pair and (not per_direction or side == direction.lower()):
                    if not line.get("top"):
                        waiting += 1
                        continue
                    mp += float(line[f"mp_{side}"])
                    tops += int(line["top"])
                    boards += 1
    return {"pair": pair, "direction": direction, "boards": boards, "mp": round(mp, 1), "top": tops,
            "percent": round(100.0 * mp / tops, 2) if tops else None, "waiting": waiting}
