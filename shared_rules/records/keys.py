"""Item keys: the station's idempotency key of every item a tablet sends, one class per kind.

A key names where the item comes from, `<event>/<section>/<table>` (the table id, also the
tablet's `X-Table` header), and what it is:

- a result:        `<table id>/<round>/<board>/<revision>` (Law 79C: a correction is a new revision)
- auction progress: `<table id>/<round>/<board>/auction/<seq>`
- an auction event (each call as it is made): `<table id>/<round>/<board>/event/<n>`, `n` the
  tablet's journal record number
- a TD call, as the tablet sends it: `<table id>/<round>/<board>/td/<n>` when it is made, and
  `<that key>/<status>` for each later status; a call the tablet makes because its storage is
  full is numbered by its journal, `.../storage/<seq>` (it cannot count its own calls then).
  A call made between boards has `None` for its board (the wire form since the first tablet).
- a TD call numbered by its sender: `<table id>/td/<call>/<status>`, one item per status.
- the table moved to a round: `<table id>/round/<round>`, one per round.
- the player numbers entered at a table: `<table id>/<round>/players/<entry>` (players.py).

`format()` writes a key; `parse()` reads one back and refuses anything else with a
`RecordError` that says what is wrong. Parsing checks the key's grammar (the segments and
whole numbers); what values the station takes is the records' business (`item.read_item`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from .errors import RecordError

TD_STATUSES = ("launched", "in_progress", "resolved", "deferred")
# A key's event and section: what the tablet lets a setup name (tablet_app/session.py); the
# station is stricter about the values it stores (fields.EVENT_RE, fields.SECTION_RE).
_EVENT = re.compile(r"[A-Za-z0-9._-]{1,64}")
_SECTION = re.compile(r"[A-Z]{1,3}")
_NUMBER = re.compile(r"0|[1-9][0-9]*")


class ItemKind(StrEnum):
    """What an item is; the `kind` of `POST /api/v1/items`."""

    RESULT = "result"
    TD_CALL = "td_call"
    AUCTION = "auction"
    AUCTION_EVENT = "auction_event"
    ROUND = "round"
    PLAYERS = "players"


class TdCallSeries(StrEnum):
    """How the tablet numbered a TD call: among the table's calls, or by its journal record
    because its storage was full."""

    TD = "td"
    STORAGE = "storage"


def _number(segment: str, what: str, text: str, lowest: int = 0) -> int:
    if not _NUMBER.fullmatch(segment) or int(segment) < lowest:
        raise RecordError(f"key {text!r}: {what} must be a whole number from {lowest} up, not {segment!r}")
    return int(segment)


def _segments(text: object, counts: tuple[int, ...], form: str) -> list[str]:
    if not isinstance(text, str) or not text:
        raise RecordError(f"key: expected a non-empty string, got {text!r}")
    parts = text.split("/")
    if len(parts) not in counts:
        raise RecordError(f"key {text!r}: expected {form}")
    return parts


@dataclass(frozen=True, slots=True)
class TableId:
    """`<event>/<section>/<table>`: one table of one event (session) at the station."""

    event: str
    section: str
    table: int

    FORM: ClassVar[str] = "<event>/<section>/<table>"

    def format(self) -> str:
        return f"{self.event}/{self.section}/{self.table}"

    @classmethod
    def parse(cls, text: object) -> TableId:
        return cls._read(_segments(text, (3,), cls.FORM), str(text))

    @classmethod
    def _read(cls, parts: list[str], text: str) -> TableId:
        event, section, table = parts[:3]
        if not _EVENT.fullmatch(event):
            raise RecordError(f"key {text!r}: the event must be letters, digits, '.', '_' or '-', not {event!r}")
        if not _SECTION.fullmatch(section):
            raise RecordError(f"key {text!r}: the section must be 1 to 3 capital letters, not {section!r}")
        return cls(event, section, _number(table, "the table", text, 1))


@dataclass(frozen=True, slots=True)
class ResultKey:
    """`<table id>/<round>/<board>/<revision>`: one revision of one board's result at a table."""

    table_id: TableId
    round: int
    board: int
    revision: int = 1

    FORM: ClassVar[str] = "<event>/<section>/<table>/<round>/<board>/<revision>"

    def format(self) -> str:
        return f"{self.table_id.format()}/{self.round}/{self.board}/{self.revision}"

    def next_revision(self) -> ResultKey:
        """Law 79C: a result changed after it was agreed is the next revision, never an edit."""
        return replace(self, revision=self.revision + 1)

    @classmethod
    def parse(cls, text: object) -> ResultKey:
        parts = _segments(text, (6,), cls.FORM)
        if parts[3] == "td":
            raise RecordError(f"key {text!r}: expected {cls.FORM}, not a TD call's key")
        return cls(TableId._read(parts, str(text)), _number(parts[3], "the round", str(text)),
                   _number(parts[4], "the board", str(text), 1), _number(parts[5], "the revision", str(text), 1))


@dataclass(frozen=True, slots=True)
class AuctionKey:
    """`<table id>/<round>/<board>/auction/<seq>`: the auction's progress, numbered per board."""

    table_id: TableId
    round: int
    board: int
    seq: int

    FORM: ClassVar[str] = "<event>/<section>/<table>/<round>/<board>/auction/<seq>"

    def format(self) -> str:
        return f"{self.table_id.format()}/{self.round}/{self.board}/auction/{self.seq}"

    @classmethod
    def parse(cls, text: object) -> AuctionKey:
        parts = _segments(text, (7,), cls.FORM)
        if parts[5] != "auction":
            raise RecordError(f"key {text!r}: expected {cls.FORM}")
        return cls(TableId._read(parts, str(text)), _number(parts[3], "the round", str(text)),
                   _number(parts[4], "the board", str(text), 1), _number(parts[6], "the sequence number", str(text), 1))


@dataclass(frozen=True, slots=True)
class AuctionEventKey:
    """`<table id>/<round>/<board>/event/<n>`: one event of the board's auction, `n` the tablet's
    journal record that holds it (unique and stable across restarts)."""

    table_id: TableId
    round: int
    board: int
    n: int

    FORM: ClassVar[str] = "<event>/<section>/<table>/<round>/<board>/event/<n>"

    def format(self) -> str:
        return f"{self.table_id.format()}/{self.round}/{self.board}/event/{self.n}"

    @classmethod
    def parse(cls, text: object) -> AuctionEventKey:
        parts = _segments(text, (7,), cls.FORM)
        if parts[5] != "event":
            raise RecordError(f"key {text!r}: expected {cls.FORM}")
        return cls(TableId._read(parts, str(text)), _number(parts[3], "the round", str(text)),
                   _number(parts[4], "the board", str(text), 1), _number(parts[6], "the record number", str(text), 1))


@dataclass(frozen=True, slots=True)
class TdCallKey:
    """`<table id>/<round>/<board>/td/<n>[/<status>]`, the tablet's form of a TD call: the call
    itself (no status: it is launched), then one item per later status. `board` None: the call
    was made between boards."""

    table_id: TableId
    round: int
    board: int | None
    number: int
    series: TdCallSeries = TdCallSeries.TD
    status: str | None = None

    FORM: ClassVar[str] = "<event>/<section>/<table>/<round>/<board>/td/<n>[/<status>]"

    def format(self) -> str:
        launch = f"{self.table_id.format()}/{self.round}/{self.board}/{self.series.value}/{self.number}"
        return launch if self.status is None else f"{launch}/{self.status}"

    def launch(self) -> TdCallKey:
        """The key of the call itself: what every later status of it is named after."""
        return replace(self, status=None)

    def with_status(self, status: str) -> TdCallKey:
        if status not in TD_STATUSES:
            raise RecordError(f"status: expected one of {', '.join(TD_STATUSES)}, got {status!r}")
        return replace(self, status=status)

    @classmethod
    def parse(cls, text: object) -> TdCallKey:
        parts = _segments(text, (7, 8), cls.FORM)
        if parts[5] not in (TdCallSeries.TD, TdCallSeries.STORAGE):
            raise RecordError(f"key {text!r}: expected {cls.FORM} (storage/<n> in place of td/<n>)")
        status = parts[7] if len(parts) == 8 else None
        if status is not None and status not in TD_STATUSES:
            raise RecordError(f"key {text!r}: the status must be one of {', '.join(TD_STATUSES)}, not {status!r}")
        board = None if parts[4] == "None" else _number(parts[4], "the board", str(text), 1)
        return cls(TableId._read(parts, str(text)), _number(parts[3], "the round", str(text)), board,
                   _number(parts[6], "the call's number", str(text)), TdCallSeries(parts[5]), status)


@dataclass(frozen=True, slots=True)
class TableTdCallKey:
    """`<table id>/td/<call>/<status>`: a TD call numbered by its sender, one item per status."""

    table_id: TableId
    call: int
    status: str

    FORM: ClassVar[str] = "<event>/<section>/<table>/td/<call>/<status>"

    def format(self) -> str:
        return f"{self.table_id.format()}/td/{self.call}/{self.status}"

    def with_status(self, status: str) -> TableTdCallKey:
        if status not in TD_STATUSES:
            raise RecordError(f"status: expected one of {', '.join(TD_STATUSES)}, got {status!r}")
        return replace(self, status=status)

    def launch(self) -> str:
        """What names the call whatever its status (this form has no key without a status)."""
        return f"{self.table_id.format()}/td/{self.call}"

    @classmethod
    def parse(cls, text: object) -> TableTdCallKey:
        parts = _segments(text, (6,), cls.FORM)
        if parts[3] != "td":
            raise RecordError(f"key {text!r}: expected {cls.FORM}")
        if parts[5] not in TD_STATUSES:
            raise RecordError(f"key {text!r}: the status must be one of {', '.join(TD_STATUSES)}, not {parts[5]!r}")
        return cls(TableId._read(parts, str(text)), _number(parts[4], "the call's number", str(text)), parts[5])


@dataclass(frozen=True, slots=True)
class RoundKey:
    """`<table id>/round/<round>`: the table moved to this round (one item per round)."""

    table_id: TableId
    round: int

    FORM: ClassVar[str] = "<event>/<section>/<table>/round/<round>"

    def format(self) -> str:
        return f"{self.table_id.format()}/round/{self.round}"

    @classmethod
    def parse(cls, text: object) -> RoundKey:
        parts = _segments(text, (5,), cls.FORM)
        if parts[3] != "round":
            raise RecordError(f"key {text!r}: expected {cls.FORM}")
        return cls(TableId._read(parts, str(text)), _number(parts[4], "the round", str(text), 1))


@dataclass(frozen=True, slots=True)
class PlayersKey:
    """`<table id>/<round>/players/<entry>`: the table's `entry`-th entry of numbers in `round`."""

    table_id: TableId
    round: int
    entry: int

    FORM: ClassVar[str] = "<event>/<section>/<table>/<round>/players/<entry>"

    def format(self) -> str:
        return f"{self.table_id.format()}/{self.round}/players/{self.entry}"

    @classmethod
    def parse(cls, text: object) -> PlayersKey:
        parts = _segments(text, (6,), cls.FORM)
        if parts[4] != "players":
            raise RecordError(f"key {text!r}: expected {cls.FORM}")
        return cls(TableId._read(parts, str(text)), _number(parts[3], "the round", str(text), 1),
                   _number(parts[5], "the entry", str(text), 1))


ItemKey = RoundKey | ResultKey | AuctionKey | AuctionEventKey | TdCallKey | TableTdCallKey | PlayersKey


def parse_key(kind: str, text: object) -> ItemKey:
    """The key of an item of `kind`, read back (RecordError if it is not one)."""
    if kind == ItemKind.RESULT:
        return ResultKey.parse(text)
    if kind == ItemKind.AUCTION:
        return AuctionKey.parse(text)
    if kind == ItemKind.AUCTION_EVENT:
        return AuctionEventKey.parse(text)
    if kind == ItemKind.ROUND:
        return RoundKey.parse(text)
    if kind == ItemKind.TD_CALL:
        if isinstance(text, str) and text.count("/") == 5:
            return TableTdCallKey.parse(text)
        return TdCallKey.parse(text)
    if kind == ItemKind.PLAYERS:
        return PlayersKey.parse(text)
    raise RecordError(f"kind: expected one of {', '.join(ItemKind)}, got {kind!r}")


def td_call_launch(key: str) -> str:
    """The key that names a TD call whatever its status: the same call across its items."""
    if key.count("/") == 5:
        return TableTdCallKey.parse(key).launch()
    return TdCallKey.parse(key).launch().format()
