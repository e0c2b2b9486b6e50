"""The auction-progress item (tablet -> station): where a board stands at a table, with the calls
so far; it drives the director page's progress column and the `.bws` bidding log.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .auction_log import Irregularity, LoggedCall, read_auction
from .fields import Json, Time, extra_fields, required_moment, required_text, required_whole, round_and_board
from .keys import AuctionKey, TableId


class Phase(StrEnum):
    BIDDING = "bidding"
    PLAYING = "playing"
    ENTERING_RESULT = "entering_result"


PHASES = tuple(p.value for p in Phase)
PROGRESS_FIELDS = frozenset({"key", "event", "section", "table", "round", "board", "seq", "phase", "calls",
                             "irregularities", "at"})


@dataclass(frozen=True, slots=True)
class AuctionProgress:
    """Sent when a board starts (`bidding`, no calls), when the table freezes on an
    irregularity, when the auction ends (`playing`) and when North enters the result; `seq`
    (in the key) numbers them per board."""

    key: AuctionKey
    phase: str
    at: Time
    calls: tuple[LoggedCall, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        k = self.key
        out: dict[str, Any] = {
            "event": k.table_id.event, "section": k.table_id.section, "table": k.table_id.table,
            "round": k.round, "board": k.board, "seq": k.seq, "phase": self.phase,
            "calls": [c.to_json() for c in self.calls],
            "irregularities": [x.to_json() for x in self.irregularities],
            "at": self.at,
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, payload: Any, key: str) -> AuctionProgress:
        """The station's check (`item.read_item`) of a progress item (its payload has no key)."""
        from .item import read_item

        rec = read_item("auction", key, payload)
        assert isinstance(rec, AuctionProgress)
        return rec


def read_progress(p: Json, table_id: TableId) -> tuple[AuctionProgress, str]:
    """(the item, the key it must have), every field checked in the door's order."""
    round_no, board = round_and_board(p)
    seq = required_whole(p, "seq", 1, 10**6)
    phase = required_text(p, "phase", choices=PHASES)
    calls, irregularities = read_auction(p, "calls")
    at = required_moment(p, "at")
    key = AuctionKey(table_id, round_no, board, seq)
    return AuctionProgress(key, phase, at, calls, irregularities, extra_fields(p, PROGRESS_FIELDS)), key.format()
