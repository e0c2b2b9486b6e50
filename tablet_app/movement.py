"""Round end: where each pair and the boards go next.

The station's movement is the authority when it is connected (its `next` record is shown as is).
Without a station the tablet knows the standard Mitchell: North-South stay, East-West move up one
table, the boards move down one table (scoring-logistics.md, movements). For a Howell without a
station the tablet says so rather than guess: a wrong move sends pairs to the wrong table.
"""
from __future__ import annotations

from typing import Any


def next_positions(session: Any) -> dict[str, Any]:
    if session.next_positions:
        return dict(session.next_positions)
    if session.movement == "mitchell":
        tables = session.tables
        up = session.table % tables + 1
        down = (session.table - 2) % tables + 1
        return {
            "ns": {"pair": session.ns_pair, "table": session.table, "seat": "NS"},
            "ew": {"pair": session.ew_pair, "table": up, "seat": "EW"},
            "boards": {"boards": list(session.boards), "table": down},
        }
    return {"unknown": "see the movement card or ask the director"}
