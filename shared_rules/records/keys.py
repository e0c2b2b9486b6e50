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
A key of fixed words and numbers after its table id says so as data (its `LAYOUT`), and one
writer and one reader serve them all; the two forms of a TD call, with a status and a board that
may be `None`, read their own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar, NamedTuple, Self

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


def _status(segment: str, text: str) -> str:
    if segment not in TD_STATUSES:
        raise RecordError(f"key {text!r}: the status must be one of {', '.join(TD_STATUSES)}, not {segment!r}")
    return segment


def _checked_status(status: str) -> str:
    if status not in TD_STATUSES:
        raise RecordError(f"status: expected one of {', '.join(TD_STATUSES)}, got {status!r}")
    return status


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


class _Num(NamedTuple):
    """A number in a key's layout: the field that holds it, how an error names it, its lowest."""

    field: str
    what: str
    lowest: int = 0


_Layout = tuple[str | _Num, ...]

_ROUND = _Num("round", "the round")
_BOARD = _Num("board", "the board", 1)


class _LaidOutKey:
    """A key that is its table id and then the segments of its `LAYOUT`: a word (the same in every
    key of the kind) or a `_Num` (one of the key's fields, in the order they are declared).
    `format()` writes it; `parse()` checks the count of segments, then the words, then the table
    id, then the numbers in order, and refuses the first that is wrong."""

    __slots__ = ()
    LAYOUT: ClassVar[_Layout]
    FORM: ClassVar[str]
    table_id: TableId

    def format(self) -> str:
        return "/".join([self.table_id.format(), *(seg if isinstance(seg, str) else str(getattr(self, seg.field))
                                                   for seg in self.LAYOUT)])

    @classmethod
    def parse(cls, text: object) -> Self:
        return cls._read(_segments(text, (3 + len(cls.LAYOUT),), cls.FORM), str(text))

    @classmethod
    def _read(cls, parts: list[str], text: str) -> Self:
        pairs = list(zip(cls.LAYOUT, parts[3:], strict=True))
        if any(isinstance(seg, str) and part != seg for seg, part in pairs):
            raise RecordError(f"key {text!r}: expected {cls.FORM}")
        table_id = TableId._read(parts, text)
        numbers = [_number(part, seg.what, text, seg.lowest) for seg, part in pairs if isinstance(seg, _Num)]
        return cls(table_id, *numbers)  # type: ignore[call-arg]


def _form(layout: _Layout) -> str:
    """A layout as the error messages show it: `<event>/<section>/<table>/<round>/<board>/auction/<seq>`."""
    return "/".join([TableId.FORM, *(seg if isinstance(seg, str) else f"<{seg.field}>" for seg in layout)])


@dataclass(frozen=True, slots=True)
class ResultKey(_LaidOutKey):
    """`<table id>/<round>/<board>/<revision>`: one revision of one board's result at a table."""

    table_id: TableId
    round: int
    board: int
    revision: int = 1

    LAYOUT: ClassVar[_Layout] = (_ROUND, _BOARD, _Num("revision", "the revision", 1))
    FORM: ClassVar[str] = _form(LAYOUT)

    def next_revision(self) -> ResultKey:
        """Law 79C: a result changed after it was agreed is the next revision, never an edit."""
        return replace(self, revision=self.revision + 1)

    @classmethod
    def parse(cls, text: object) -> Self:
        parts = _segments(text, (6,), cls.FORM)
        if parts[3] == "td":
            raise RecordError(f"key {text!r}: expected {cls.FORM}, not a TD call's key")
        return cls._read(parts, str(text))


@dataclass(frozen=True, slots=True)
class AuctionKey(_LaidOutKey):
    """`<table id>/<round>/<board>/auction/<seq>`: the auction's progress, numbered per board."""

    table_id: TableId
    round: int
    board: int
    seq: int

    LAYOUT: ClassVar[_Layout] = (_ROUND, _BOARD, "auction", _Num("seq", "the sequence number", 1))
    FORM: ClassVar[str] = _form(LAYOUT)


@dataclass(frozen=True, slots=True)
class AuctionEventKey(_LaidOutKey):
    """`<table id>/<round>/<board>/event/<n>`: one event of the board's auction, `n` the tablet's
    journal record that holds it (unique and stable across restarts)."""

    table_id: TableId
    round: int
    board: int
    n: int

    LAYOUT: ClassVar[_Layout] = (_ROUND, _BOARD, "event", _Num("n", "the record number", 1))
    FORM: ClassVar[str] = _form(LAYOUT)


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
        return replace(self, status=_checked_status(status))

    @classmethod
    def parse(cls, text: object) -> TdCallKey:
        parts = _segments(text, (7, 8), cls.FORM)
        if parts[5] not in (TdCallSeries.TD, TdCallSeries.STORAGE):
            raise RecordError(f"key {text!r}: expected {cls.FORM} (storage/<n> in place of td/<n>)")
        status = _status(parts[7], str(text)) if len(parts) == 8 else None
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
        return f"{self.launch()}/{self.status}"

    def with_status(self, status: str) -> TableTdCallKey:
        return replace(self, status=_checked_status(status))

    def launch(self) -> str:
        """What names the call whatever its status (this form has no key without a status)."""
        return f"{self.table_id.format()}/td/{self.call}"

    @classmethod
    def parse(cls, text: object) -> TableTdCallKey:
        parts = _segments(text, (6,), cls.FORM)
        if parts[3] != "td":
            raise RecordError(f"key {text!r}: expected {cls.FORM}")
        status = _status(parts[5], str(text))
        return cls(TableId._read(parts, str(text)), _number(parts[4], "the call's number", str(text)), status)


@dataclass(frozen=True, slots=True)
class RoundKey(_LaidOutKey):
    """`<table id>/round/<round>`: the table moved to this round (one item per round)."""

    table_id: TableId
    round: int

    LAYOUT: ClassVar[_Layout] = ("round", _Num("round", "the round", 1))
    FORM: ClassVar[str] = _form(LAYOUT)


@dataclass(frozen=True, slots=True)
class PlayersKey(_LaidOutKey):
    """`<table id>/<round>/players/<entry>`: the table's `entry`-th entry of numbers in `round`."""

    table_id: TableId
    round: int
    entry: int

    LAYOUT: ClassVar[_Layout] = (_Num("round", "the round", 1), "players", _Num("entry", "the entry", 1))
    FORM: ClassVar[str] = _form(LAYOUT)


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
