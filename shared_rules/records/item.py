"""One item of the tablet's outbox as the station receives it, `{kind, key, payload}`, read into
its record or refused (docs/station.md, "Checked at the door").

`read_item` checks in a fixed order and raises `RecordError` at the first problem, so the same
bad item always gets the same message: the kind, the key, the payload's shape, the table it
comes from, the fields of its kind, and last that the key is the one its fields give.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .auction_event import AuctionEvent, read_auction_event
from .errors import RecordError
from .fields import EVENT_RE, MAX_KEY, SECTION_RE, Json, check_shape, required_text, required_whole
from .keys import ItemKind, TableId
from .players import PlayerNumbers, read_players
from .progress import AuctionProgress, read_progress
from .result import Result, Withdrawal, read_result, read_withdrawal
from .round_start import RoundStart, read_round_start
from .td_call import TdCall, read_td_call

KINDS = tuple(k.value for k in ItemKind)
Item = Result | Withdrawal | AuctionProgress | AuctionEvent | TdCall | RoundStart | PlayerNumbers


@dataclass(frozen=True, slots=True)
class Where:
    """Where an item belongs, as the station files it (its `items` table's columns)."""

    event: str
    section: str
    table_no: int
    round_no: int | None
    board: int | None
    revision: int | None


def where(item: Item) -> Where:
    tid = item.key.table_id
    if isinstance(item, (Result, Withdrawal)):
        return Where(tid.event, tid.section, tid.table, item.key.round, item.key.board, item.key.revision)
    if isinstance(item, RoundStart):
        return Where(tid.event, tid.section, tid.table, item.round, None, None)
    if isinstance(item, (AuctionProgress, AuctionEvent)):
        return Where(tid.event, tid.section, tid.table, item.key.round, item.key.board, None)
    if isinstance(item, PlayerNumbers):
        return Where(tid.event, tid.section, tid.table, item.key.round, None, None)
    return Where(tid.event, tid.section, tid.table, item.round, item.board, None)


def read_table_id(payload: Json) -> TableId:
    """The table an item says it comes from (its `event`, `section`, `table`)."""
    event = required_text(payload, "event", EVENT_RE)
    section = required_text(payload, "section", SECTION_RE)
    return TableId(event, section, required_whole(payload, "table", 1, 999))


def read_item(kind: Any, key: Any, payload: Any) -> Item:
    """The record of one item, or RecordError naming the first field that is wrong."""
    if kind not in KINDS:
        raise RecordError(f"kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    if not isinstance(key, str) or not key or len(key) > MAX_KEY:
        raise RecordError(f"key: expected a non-empty string of at most {MAX_KEY} characters")
    if not isinstance(payload, dict):
        raise RecordError("payload: expected a JSON object")
    if payload.get("key", key) != key:
        raise RecordError("payload.key differs from the item key")
    check_shape(payload)
    table_id = read_table_id(payload)
    record: Item
    if kind == ItemKind.RESULT and payload.get("withdrawn") is not None:
        record, want = read_withdrawal(payload, key, table_id)
    elif kind == ItemKind.RESULT:
        record, want = read_result(payload, key, table_id)
    elif kind == ItemKind.TD_CALL:
        record, want = read_td_call(payload, key, table_id)
    elif kind == ItemKind.AUCTION_EVENT:
        record, want = read_auction_event(payload, table_id)
    elif kind == ItemKind.ROUND:
        record, want = read_round_start(payload, table_id)
    elif kind == ItemKind.PLAYERS:
        record, want = read_players(payload, table_id)
    else:
        record, want = read_progress(payload, table_id)
    if key != want:
        raise RecordError(f"key: expected {want!r} for this {kind}, got {key!r}")
    return record


def to_item(record: Item) -> tuple[str, str, dict[str, Any]]:
    """(kind, key, payload): the record as the outbox queues it and the station receives it."""
    kind = ItemKind.TD_CALL if isinstance(record, TdCall) else \
        ItemKind.ROUND if isinstance(record, RoundStart) else \
        ItemKind.AUCTION if isinstance(record, AuctionProgress) else \
        ItemKind.AUCTION_EVENT if isinstance(record, AuctionEvent) else \
        ItemKind.PLAYERS if isinstance(record, PlayerNumbers) else ItemKind.RESULT
    return kind.value, record.key.format(), record.to_json()
