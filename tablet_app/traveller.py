"""The board's traveller and the pairs' running score, as the club's Bridgemate settings show them.

Pure functions on plain data: the station's results for a board (`GET /api/v1/boards/<n>/results`,
which a table sees only once its own result is in: 2007 L16C1, 2017 L16D1) in, what a screen shows
out. The fetch itself is at the I/O edge (`station_client.traveller_hook`).
"""
from __future__ import annotations

from typing import Any

from shared_rules.scoring.matchpoints import board_matchpoints, top


def shown(show_results: str, phase: str) -> bool:
    """Whether the club shows the board's other results now: `all` after the table's own result,
    `round_end` once the round is over; `own` and `none` never."""
    return show_results == "all" or (show_results == "round_end" and phase == "round_end")


def rows(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The traveller's lines, one per table (withdrawn results dropped, the latest revision kept),
    in table order, each with its matchpoints among the results in so far (2/1/0 per result
    compared, Law 78A; an adjusted score without a table score counts for neither side here)."""
    latest: dict[Any, dict[str, Any]] = {}
    for r in results:
        if isinstance(r, dict) and not r.get("withdrawn"):
            latest[(r.get("section"), r.get("table"))] = r
    lines = [latest[k] for k in sorted(latest, key=lambda k: (str(k[0]), int(k[1] or 0)))]
    scores = [r.get("score_ns") if isinstance(r.get("score_ns"), int) else None for r in lines]
    scored = [s for s in scores if s is not None]
    mps = board_matchpoints(scored) if scored else []
    it = iter(mps)
    out = []
    for r, s in zip(lines, scores, strict=True):
        mp = next(it) if s is not None else None
        out.append({"table": r.get("table"), "ns_pair": r.get("ns_pair"), "ew_pair": r.get("ew_pair"),
                    "contract": r.get("contract"), "declarer": r.get("declarer"), "tricks": r.get("tricks"),
                    "lead": r.get("lead"), "score_ns": s, "adjusted": r.get("adjusted"),
                    "mp_ns": mp[0] if mp else None, "mp_ew": mp[1] if mp else None,
                    "top": top(len(scored)) if s is not None else None})
    return out


def running_score(travellers: dict[int, list[dict[str, Any]]], pair: int, direction: str,
                  per_direction: bool) -> dict[str, Any]:
    """The pair's matchpoints over the boards whose travellers this table holds: sum, tops and
    percentage. `direction` is where the pair sits now; in a Mitchell (`per_direction`) pair 1 NS
    and pair 1 EW are two pairs, in a Howell a pair is found in either direction."""
    mp = 0.0
    tops = 0
    boards = 0
    for lines in travellers.values():
        for line in lines:
            if line.get("mp_ns") is None:
                continue
            for side in ("ns", "ew"):
                if line.get(f"{side}_pair") == pair and (not per_direction or side == direction.lower()):
                    mp += float(line[f"mp_{side}"])
                    tops += int(line["top"])
                    boards += 1
    return {"pair": pair, "direction": direction, "boards": boards, "mp": round(mp, 1), "top": tops,
            "percent": round(100.0 * mp / tops, 2) if tops else None}
