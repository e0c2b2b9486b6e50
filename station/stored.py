"""A stored item read back: what every reader of the `items` table gets (the director page,
status.json, a board's results for a table, the Data Connector's polls, the `.bws` bridge, a
table's movement, the exports: all through `Store.items`/`Store.read`), so that one bad row
never breaks a page for the whole event.

The door checked every item before it was stored (`shared_rules.records.read_item`), but a
database can hold anything: a copy edited by hand, an older station's rows, a disk fault. A row
is read here into the dict the readers have always used (`id`, `key`, `kind`, `event`,
`received_at`, `payload`) only when what they rely on is there:

- the payload is a JSON object (at most `MAX_PAYLOAD` characters, nested at most 64 deep; a
  NaN, Infinity or 1e400 in it reads as null, so every page and reply stays JSON), the kind is
  one the door knows, the key is a key of that kind
  (`shared_rules.records.parse_key`), and the row is filed where its key says (the `event`,
  `section`, `table_no`, `round_no`, `board`, `revision` columns) and the payload says the same;
- what the pages show of each kind has its type: a result's pairs, contract, declarer, tricks,
  score, adjusted score and lead; a progress item's phase; a TD call's status, time, seat and
  note; the seats and member numbers of a player-numbers entry.

Anything else is `Damaged`: its id, key and why, which the director page and status.json list.
What is not read here (an auction's calls, think times, irregularities) may still be odd in a
row from an older station: the exports write such values as unknown (docs/station.md "Files").
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from shared_rules.records import (
    KINDS,
    PHASES,
    TD_STATUSES,
    WHATS,
    AuctionEventKey,
    AuctionKey,
    PlayersKey,
    RecordError,
    ResultKey,
    TdCallKey,
    check_number,
    parse_key,
)
from shared_rules.records.fields import CONTRACT_RE, SEATS, moment, text, whole

from .http_json import MAX_DEPTH, depth
from .notices import Notice, NoticeCode

C = NoticeCode

# The columns a reader selects, in this order (`read_row` takes one such row).
COLUMNS = "id, item_key, kind, event, section, table_no, round_no, board, revision, received_at, payload"
# The door takes a body of at most 256 kB (records.MAX_ITEM_BYTES); a payload stored longer than
# that did not come through it.
MAX_PAYLOAD = 256 * 1024


@dataclass(frozen=True, slots=True)
class Damaged:
    """A stored row no reader can use: shown (escaped) on the director page and in status.json.
    `why` in English (status.json, the exports), `notice` its code and values (the director page
    says it in the TD's language; None: say `why`)."""

    id: int
    key: str
    kind: str
    event: str
    received_at: str
    why: str
    notice: Notice | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "key": self.key, "kind": self.kind, "event": self.event,
                "received_at": self.received_at, "why": self.why,
                "notice": self.notice.to_json() if self.notice else None}


class _Bad(ValueError):
    """Why a row is damaged: its notice (the message is its English)."""

    def __init__(self, code: NoticeCode, **params: object):
        self.notice = Notice.of(code, **params)
        super().__init__(str(self.notice))


_FIELD = re.compile(r"([A-Za-z_][\w.\[\]]*): (.+)", re.S)


def _checked(message: str) -> Notice:
    """A field's check in English ("tricks: expected an integer 0..13, got 14"): the field named
    on the page in the TD's language, the check's own words kept for the English."""
    m = _FIELD.fullmatch(message)
    if m:
        return Notice.of(C.STORED_FIELD, field=m.group(1), detail=m.group(2))
    return Notice.of(C.STORED_CHECK, detail=message)


def _constant(name: str) -> None:
    """NaN, Infinity: no JSON number, no value (an older station stored a NaN think time)."""
    return None


def _finite(literal: str) -> float | None:
    """A number out of a float's range (1e400) has no value either."""
    value = float(literal)
    return value if math.isfinite(value) else None


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_constant)


def _as_text(value: Any, limit: int = 200) -> str:
    """A column as text for the damage list (whatever SQLite holds there), cut to `limit`."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return str(value)[:limit]


def decode(payload: Any) -> dict[str, Any]:
    """The payload column as a JSON object, or _Bad saying why not."""
    if isinstance(payload, bytes):
        try:
            payload = payload.decode("utf-8")
        except UnicodeDecodeError:
            raise _Bad(C.STORED_NOT_UTF8) from None
    if not isinstance(payload, str):
        raise _Bad(C.STORED_NOT_TEXT, type=type(payload).__name__)
    if len(payload) > MAX_PAYLOAD:
        raise _Bad(C.STORED_TOO_LONG, chars=len(payload), limit=MAX_PAYLOAD)
    try:
        doc = _DECODER.decode(payload)
    except RecursionError:
        raise _Bad(C.STORED_TOO_DEEP, limit=MAX_DEPTH) from None
    except _Bad:
        raise
    except ValueError as e:  # JSONDecodeError, an integer of thousands of digits
        raise _Bad(C.STORED_NOT_JSON, detail=str(e)[:160]) from None
    if not isinstance(doc, dict):
        raise _Bad(C.STORED_NOT_OBJECT, type=type(doc).__name__)
    # Counting brackets is cheap and bounds the depth: only a payload with many walks it.
    if payload.count("[") + payload.count("{") > MAX_DEPTH and depth(doc) > MAX_DEPTH:
        raise _Bad(C.STORED_TOO_DEEP, limit=MAX_DEPTH)
    return doc


def _same(what: str, stored: Any, want: Any, by_payload: bool = False) -> None:
    """`what`: "payload.<field>" or a column's name; `by_payload`: the column against the payload."""
    if type(stored) is not type(want) or stored != want:  # 1.0 or True is not the table 1
        value = _as_text(stored, 40)
        if what.startswith("payload."):
            raise _Bad(C.STORED_PAYLOAD, field=what, value=value, want=str(want))
        raise _Bad(C.STORED_FILED if by_payload else C.STORED_COLUMN, column=what, value=value, want=str(want))


def _filed(row: Sequence[Any], key: Any, p: dict[str, Any]) -> None:
    """The row's columns and the payload say where the item belongs, as its key does."""
    _, _, _, event, section, table_no, round_no, board, revision = row[:9]
    tid = key.table_id
    checks = [("event", event, tid.event), ("section", section, tid.section),
              ("table_no", table_no, tid.table), ("payload.event", p.get("event"), tid.event),
              ("payload.section", p.get("section"), tid.section), ("payload.table", p.get("table"), tid.table)]
    if isinstance(key, (ResultKey, AuctionKey, AuctionEventKey, TdCallKey)):
        checks += [("payload.round", p.get("round"), key.round), ("payload.board", p.get("board"), key.board)]
    if isinstance(key, ResultKey):
        checks.append(("revision", revision, key.revision))
    if isinstance(key, PlayersKey):
        checks += [("payload.round", p.get("round"), key.round), ("payload.entry", p.get("entry"), key.entry)]
    # The door files an item under the round and board its payload names (a TD call numbered by
    # its sender has them nowhere else).
    filed = [("round_no", round_no, p.get("round")), ("board", board, p.get("board"))]
    got = [c[1] for c in checks + filed]
    want = [c[2] for c in checks + filed]
    # One comparison for a good row; field by field (for the message) only for a bad one.
    if got != want or list(map(type, got)) != list(map(type, want)):
        for name, stored, wanted in checks:
            _same(name, stored, wanted)
        for name, stored, wanted in filed:
            _same(name, stored, wanted, by_payload=True)


def _result(p: dict[str, Any]) -> None:
    """What the pages, the travellers and the Data Connector read of a result."""
    withdrawn = p.get("withdrawn")
    if withdrawn is not None and not isinstance(withdrawn, bool):
        raise _Bad(C.STORED_FIELD, field="withdrawn",
                   detail=f"expected true, false or null, got {_as_text(withdrawn, 40)}")
    whole(p, "ns_pair", 0, 9999)
    whole(p, "ew_pair", 0, 9999)
    if withdrawn:
        return
    contract = text(p, "contract", CONTRACT_RE, nullable=True)
    played = contract not in (None, "PASS")
    text(p, "declarer", choices=SEATS, nullable=not played)
    whole(p, "tricks", 0, 13, nullable=not played)
    whole(p, "score_ns", -99999, 99999, nullable=True)
    if p.get("adjusted") is not None and not isinstance(p["adjusted"], dict):
        raise _Bad(C.STORED_FIELD, field="adjusted", detail="expected an object or null")
    text(p, "lead", nullable=True)


def _td_call(p: dict[str, Any], key: Any) -> None:
    """What the pages and the Data Connector read of a TD call."""
    whole(p, "round", 0, 99)
    whole(p, "board", 1, 999, nullable=True)
    status = text(p, "status", choices=TD_STATUSES, nullable=True) or "launched"
    if (key.status or "launched") != status:
        raise _Bad(C.STORED_TD_STATUS, status=status, key_status=key.status or "launched")
    moment(p, "at", nullable=True)
    text(p, "seat", choices=SEATS, nullable=True)
    for name in ("note", "reason"):
        text(p, name, nullable=True)


def _progress(p: dict[str, Any]) -> None:
    text(p, "phase", choices=PHASES)
    for name in ("calls", "irregularities"):
        if p.get(name) is not None and not isinstance(p[name], list):
            raise _Bad(C.STORED_FIELD, field=name, detail="expected a list")


def _players(p: dict[str, Any]) -> None:
    """What the polls and the exports read of the player numbers entered at a table."""
    numbers = p.get("numbers")
    if not isinstance(numbers, dict) or not numbers:
        raise _Bad(C.STORED_FIELD, field="numbers", detail="expected an object of seat -> player number")
    for seat, number in numbers.items():
        if seat not in SEATS:
            raise _Bad(C.STORED_FIELD, field="numbers", detail=f"{_as_text(seat, 20)!r} is not a seat")
        check_number(number)


def _round(p: dict[str, Any], key: Any) -> None:
    """A round start (what `law16.current_round` reads of it: its round)."""
    _same("payload.round", p.get("round"), key.round)


def _auction_event(p: dict[str, Any]) -> None:
    text(p, "what", choices=WHATS)
    for name in ("calls", "irregularities"):
        if p.get(name) is not None and not isinstance(p[name], list):
            raise _Bad(C.STORED_FIELD, field=name, detail="expected a list")


def read_row(row: Sequence[Any]) -> dict[str, Any] | Damaged:
    """One row of `SELECT {COLUMNS} FROM items`: the item as readers use it, or Damaged."""
    item_id, key, kind, event, received_at = row[0], row[1], row[2], row[3], row[9]
    try:
        if not isinstance(kind, str) or kind not in KINDS:
            raise _Bad(C.STORED_KIND, kind=repr(_as_text(kind, 40)))
        if not isinstance(key, str):
            raise _Bad(C.STORED_KEY_TEXT)
        if not isinstance(received_at, str):
            raise _Bad(C.STORED_TIME)
        p = decode(row[10])
        parsed = parse_key(kind, key)
        _filed(row, parsed, p)
        if kind == "result":
            _result(p)
        elif kind == "td_call":
            _td_call(p, parsed)
        elif kind == "auction_event":
            _auction_event(p)
        elif kind == "round":
            _round(p, parsed)
        elif kind == "players":
            _players(p)
        else:
            _progress(p)
    except (_Bad, RecordError) as e:
        # a field's own check (shared_rules.records) names the field in English: its detail
        said = e.notice if isinstance(e, _Bad) else _checked(str(e)[:300])
        return Damaged(int(item_id), _as_text(key), _as_text(kind, 40), _as_text(event, 80),
                       _as_text(received_at, 40), str(said)[:300], said)
    return {"id": int(item_id), "key": key, "kind": kind, "event": event, "received_at": received_at,
            "payload": p}


def read_rows(rows: Iterable[Sequence[Any]]) -> tuple[list[dict[str, Any]], list[Damaged]]:
    """(the rows that read, the damaged ones), each in the order given."""
    good: list[dict[str, Any]] = []
    bad: list[Damaged] = []
    for row in rows:
        it = read_row(row)
        (bad if isinstance(it, Damaged) else good).append(it)  # type: ignore[arg-type]
    return good, bad
