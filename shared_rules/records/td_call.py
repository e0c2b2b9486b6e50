"""The TD-call item (tablet -> station): the director was called at a table, and each later
status of that call. Two key forms (keys.py): the tablet's (`.../<round>/<board>/td/<n>`, then
`<that key>/<status>`; `storage/<seq>` when its storage is full) and one numbered by the sender
(`<table id>/td/<call>/<status>`, `call` and `status` in the payload).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RecordError
from .fields import (
    SEATS,
    Json,
    Time,
    extra_fields,
    required_moment,
    required_text,
    required_whole,
    text,
    whole,
)
from .keys import TD_STATUSES, TableId, TableTdCallKey, TdCallKey, TdCallSeries

STORAGE_FULL = "storage_full"  # the `reason` of a call the tablet makes because its disk is full
TD_CALL_FIELDS = frozenset({"kind", "key", "event", "section", "table", "round", "board", "call", "status",
                            "seat", "t", "reason", "note", "at"})


@dataclass(frozen=True, slots=True)
class TdCall:
    """A TD call or a change of its status. `round` 0 and `board` None: made before or between
    boards. `t`: seconds into the board when it was made (the tablet's clock for the board);
    `reason`/`note`: why, for the director page (a line break allowed)."""

    key: TdCallKey | TableTdCallKey
    round: int
    board: int | None
    at: Time
    seat: str | None = None
    t: float | None = None
    reason: str | None = None
    note: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        return self.key.status or "launched"

    @property
    def call_key(self) -> str:
        """What names the call across its status changes (the director page's one line of it)."""
        return self.key.launch() if isinstance(self.key, TableTdCallKey) else self.key.launch().format()

    def with_status(self, status: str, at: Time) -> TdCall:
        """The same call, now in `status` (a new item: each status change is one)."""
        key = self.key.with_status(status) if isinstance(self.key, TableTdCallKey) else \
            self.key.launch().with_status(status)
        return dataclasses.replace(self, key=key, at=at)

    def to_json(self) -> dict[str, Any]:
        tid = self.key.table_id
        out: dict[str, Any] = {
            "kind": "td_call", "event": tid.event, "section": tid.section, "table": tid.table,
            "round": self.round, "board": self.board, "seat": self.seat, "t": self.t,
            "reason": self.reason, "note": self.note, "at": self.at,
        }
        if isinstance(self.key, TableTdCallKey):
            out["call"] = self.key.call
        if self.key.status is not None:
            out["status"] = self.key.status
        out["key"] = self.key.format()
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, payload: Any, key: str | None = None) -> TdCall:
        """The station's check (`item.read_item`) of a TD call; `key` defaults to the payload's."""
        from .item import read_item

        rec = read_item("td_call", payload.get("key") if key is None and isinstance(payload, dict) else key, payload)
        assert isinstance(rec, TdCall)
        return rec


def _numbered(key: str, from_end: int, why: str) -> int:
    """The call's number in the tablet's key: the last segment, or the one before the status,
    found as the door always has (so a malformed key gets the message it always got); the key is
    then compared whole with the one the fields give."""
    n = key.rsplit("/", 1)[-1] if from_end == 1 else key.rsplit("/", 2)[-2] if key.count("/") >= 2 else ""
    if n.isdigit():
        try:
            return int(n)
        except ValueError:  # a digit int() cannot read (superscripts)
            pass
    raise RecordError(f"key: {why}")


def read_td_call(p: Json, key: str, table_id: TableId) -> tuple[TdCall, str]:
    """(the call, the key it must have), every field checked in the door's order."""
    round_no = required_whole(p, "round", 0, 99)
    board = whole(p, "board", 1, 999, nullable=True)
    want: TdCallKey | TableTdCallKey
    if "status" in p and "call" in p:  # one item per status change, numbered by the sender
        call = required_whole(p, "call", 0, 9999)
        want = TableTdCallKey(table_id, call, required_text(p, "status", choices=TD_STATUSES))
    else:
        # The tablet's form: the call when it is made (status "launched"), then one item per
        # later status, named after the call: <call key>/<status>. A tablet whose storage is
        # full calls under its own name (`storage/<journal seq>`): it cannot number the call
        # among the table's own, which live in the full journal.
        series = TdCallSeries.STORAGE if p.get("reason") == STORAGE_FULL else TdCallSeries.TD
        if "status" in p:
            status = required_text(p, "status", choices=TD_STATUSES)
            n = _numbered(key, 2, "a TD call status key ends with /td/<number>/<status> (storage/<number>/<status>)")
            want = TdCallKey(table_id, round_no, board, n, series, status)
        else:
            n = _numbered(key, 1, "a TD call key ends with /td/<number> (storage/<number>)")
            want = TdCallKey(table_id, round_no, board, n, series)
    at = required_moment(p, "at")
    for name in ("note", "reason"):
        if p.get(name) is not None and not isinstance(p[name], str):
            raise RecordError(f"{name}: expected a string")
    seat = text(p, "seat", choices=SEATS, nullable=True)
    rec = TdCall(want, round_no, board, at, seat, p.get("t"), p.get("reason"), p.get("note"),
                 extra_fields(p, TD_CALL_FIELDS))
    return rec, want.format()
