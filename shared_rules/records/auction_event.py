"""The auction event item (tablet -> station): one item for each thing that happens in an auction,
queued in the same transaction as the journal record that made it, so the station holds every
call as it is made (the live feed, docs/station.md "The live feed").

One item per journal record of the auction: a call, an alert, a stop card, the tray passing under
the screen, the director called from a box, a TD's ruling. Each carries what happened (`what`,
`seat`, `call`) and the auction as the engine has it after it (`calls`, `irregularities`,
`status`, `contract`, `declarer`), so the station never replays the Laws: a later item of the
board says all an earlier one said, and a change the TD allows (Law 25) is simply the next state.
`n`, in the key, is the tablet's journal record number: stable across a restart (a replayed
journal queues nothing, and the record keeps its number), so a resend is the same key.

Behind screens (`screens` true) `visible` is how many calls all four players have seen (the
tray has passed with them); the station shows no more than that before the board ends.
`at` is the tablet's clock (epoch seconds, to the millisecond): when the call was made; the
station's delay counts from when it received the item, which can only be later.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from shared_rules.types import Status

from .auction_log import Irregularity, LoggedCall, read_auction
from .errors import RecordError
from .fields import (
    CALL_RE,
    CONTRACT_RE,
    SEATS,
    VULS,
    Json,
    Time,
    extra_fields,
    flag,
    required_moment,
    required_text,
    required_whole,
    round_and_board,
    text,
    whole,
)
from .keys import AuctionEventKey, TableId


class What(StrEnum):
    """What an auction event is."""

    CALL = "call"
    ALERT = "alert"
    STOP = "stop"
    TRAY = "tray"            # screens: the tray passed under the screen (2007/2017 L80B2(e), FSB L114)
    DIRECTOR = "director"    # a box called the director (Law 9B1)
    RULING = "ruling"        # the TD's decision on an irregularity (the engine's `td` event)


WHATS = tuple(w.value for w in What)
STATUSES = tuple(s.value for s in Status)
PROFILE_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")  # a regulation profile's name (shared_rules/profiles)
EVENT_FIELDS = frozenset({"key", "event", "section", "table", "round", "board", "n", "what", "at", "t", "seat",
                          "call", "calls", "irregularities", "status", "contract", "declarer", "dealer",
                          "vulnerability", "screens", "visible", "profile"})


@dataclass(frozen=True, slots=True)
class AuctionEvent:
    """One event of a board's auction at a table, with the auction after it."""

    key: AuctionEventKey
    what: str
    at: Time
    t: float | None = None                 # board time (seconds since the board started)
    seat: str | None = None
    call: str | None = None
    calls: tuple[LoggedCall, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()
    status: str = "bidding"
    contract: str | None = None
    declarer: str | None = None
    dealer: str | None = None
    vulnerability: str | None = None
    screens: bool = False
    visible: int | None = None             # screens: calls all four have seen
    profile: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        k = self.key
        out: dict[str, Any] = {
            "event": k.table_id.event, "section": k.table_id.section, "table": k.table_id.table,
            "round": k.round, "board": k.board, "n": k.n, "what": self.what, "at": self.at, "t": self.t,
            "seat": self.seat, "call": self.call, "calls": [c.to_json() for c in self.calls],
            "irregularities": [x.to_json() for x in self.irregularities], "status": self.status,
            "contract": self.contract, "declarer": self.declarer, "dealer": self.dealer,
            "vulnerability": self.vulnerability, "screens": self.screens, "visible": self.visible,
            "profile": self.profile,
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, payload: Any, key: str) -> AuctionEvent:
        """The station's check (`item.read_item`) of an auction event."""
        from .item import read_item

        rec = read_item("auction_event", key, payload)
        assert isinstance(rec, AuctionEvent)
        return rec


def read_auction_event(p: Json, table_id: TableId) -> tuple[AuctionEvent, str]:
    """(the item, the key it must have), every field checked in the door's order."""
    round_no, board = round_and_board(p)
    n = required_whole(p, "n", 1, 2**53)
    what = required_text(p, "what", choices=WHATS)
    at = required_moment(p, "at")
    t = p.get("t")
    if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0):
        raise RecordError(f"t: expected seconds since the board started or null, got {t!r}")
    seat = text(p, "seat", choices=SEATS, nullable=True)
    call = text(p, "call", CALL_RE, nullable=True)
    calls, irregularities = read_auction(p, "calls")
    status = required_text(p, "status", choices=STATUSES)
    contract = text(p, "contract", CONTRACT_RE, nullable=True)
    declarer = text(p, "declarer", choices=SEATS, nullable=True)
    dealer = text(p, "dealer", choices=SEATS, nullable=True)
    vul = text(p, "vulnerability", choices=VULS, nullable=True)
    screens = flag(p, "screens", False)
    visible = whole(p, "visible", 0, len(calls), nullable=True)
    profile = text(p, "profile", PROFILE_RE, nullable=True)
    key = AuctionEventKey(table_id, round_no, board, n)
    return AuctionEvent(key, what, at, None if t is None else float(t), seat, call, calls, irregularities, status,
                        contract, declarer, dealer, vul, screens, visible, profile,
                        extra_fields(p, EVENT_FIELDS)), key.format()
