"""The round-start item (tablet -> station): the table has moved to a round, the players having
confirmed the pairs the movement gives it (`by` "players") or the director having set it up
(`by` "director"). Key `<table id>/round/<round>`: one per round, whoever started it.

The station takes it as the round the table is on when that is later than what its results
say (station/law16.py): a result of that round is then no longer "too early", even if a board
of an earlier round has no result at the station (a board the director took out, a tablet that
broke). What a table may read is unchanged (2017 Law 16D1, 2007 Law 16C1).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import RecordError
from .fields import Json, Time, required_moment, required_text, required_whole
from .keys import RoundKey, TableId

ROUND_FIELDS = frozenset({"event", "section", "table", "round", "ns_pair", "ew_pair", "boards", "by", "at"})


class StartedBy(StrEnum):
    """Who moved the table to the round."""

    PLAYERS = "players"    # after the last board of the round before, the pairs shown confirmed
    DIRECTOR = "director"  # the director's setup (with the PIN), or a round he ended


@dataclass(frozen=True, slots=True)
class RoundStart:
    key: RoundKey
    ns_pair: int
    ew_pair: int
    boards: tuple[int, ...]
    by: StartedBy
    at: Time

    @property
    def round(self) -> int:
        return self.key.round

    def to_json(self) -> dict[str, Any]:
        tid = self.key.table_id
        return {"event": tid.event, "section": tid.section, "table": tid.table, "round": self.key.round,
                "ns_pair": self.ns_pair, "ew_pair": self.ew_pair, "boards": list(self.boards),
                "by": self.by.value, "at": self.at}


def read_round_start(p: Json, table_id: TableId) -> tuple[RoundStart, str]:
    """(the item, the key it must have), every field checked in the door's order."""
    round_no = required_whole(p, "round", 1, 99)
    ns = required_whole(p, "ns_pair", 0, 999)
    ew = required_whole(p, "ew_pair", 0, 999)
    boards = p.get("boards")
    if not isinstance(boards, list) or not 1 <= len(boards) <= 99 or not all(
            isinstance(b, int) and not isinstance(b, bool) and 1 <= b <= 999 for b in boards):
        raise RecordError("boards: expected a list of 1 to 99 board numbers from 1 to 999")
    by = StartedBy(required_text(p, "by", choices=tuple(s.value for s in StartedBy)))
    at = required_moment(p, "at")
    unknown = sorted(set(p) - ROUND_FIELDS - {"key", "kind"})
    if unknown:
        raise RecordError(f"{unknown[0]}: not a field of a round start")
    key = RoundKey(table_id, round_no)
    return RoundStart(key, ns, ew, tuple(boards), by, at), key.format()
