"""The stored results of a session as the exports read them: every row, whatever the database
holds, either a result to write or a damaged row to name in the file (never an exception).

The door checks every item before it is stored, but a database can hold anything: a copy edited
by hand, an older station's rows, a disk fault. The exports take a result when it can be placed
on a board: its payload is a JSON object (UTF-8, at most the door's size, parseable), its key is
a result's (`shared_rules.records.ResultKey`), its payload's section, table, round and board are
what the key says and `withdrawn` is true, false or absent. Any other value of the record is the
writers' to reduce (pbn.py and usebio.py write it as unknown). Everything else is `Damaged` and
written as a comment naming its key (PBN `{...}`, a USEBIO XML comment): a row of an unknown kind,
a result that cannot be placed, and a board whose latest revision (a Law 79C correction) is
damaged, since its earlier revision was corrected and is no longer the board's result.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from shared_rules.records import KINDS, RecordError, ResultKey

from .records import MAX_ITEM_BYTES
from .store import latest_results

PLACES = ("table", "round", "board")


@dataclass(frozen=True)
class Damaged:
    """A stored row the exports leave out, with the reason, for a comment in the file."""

    id: int
    key: str
    why: str

    def note(self) -> str:
        key = self.key if len(self.key) <= 80 else self.key[:80] + "..."
        return f"Damaged stored item {key} (row {self.id}), not exported: {self.why[:120]}"


class _Bad(ValueError):
    """Why a row cannot be exported (the message)."""


def _text(value: Any, limit: int = 200) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return str(value)[:limit]


def _payload(raw: Any) -> dict[str, Any]:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _Bad("the payload is not UTF-8 text") from None
    if not isinstance(raw, str):
        raise _Bad(f"the payload is {type(raw).__name__}, not text")
    if len(raw) > MAX_ITEM_BYTES:
        raise _Bad(f"the payload is {len(raw)} characters, over the door's {MAX_ITEM_BYTES}")
    try:
        doc = json.loads(raw)
    except RecursionError:
        raise _Bad("the payload is nested too deep") from None
    except ValueError as e:  # JSONDecodeError; an integer of thousands of digits
        raise _Bad(f"the payload is not JSON ({_text(e, 80)})") from None
    if not isinstance(doc, dict):
        raise _Bad(f"the payload is a JSON {type(doc).__name__}, not an object")
    return doc


def _placed(key: ResultKey, p: dict[str, Any]) -> None:
    """The payload says the board its key says (the writers and the scorer rely on these)."""
    want = {"section": key.table_id.section, "table": key.table_id.table, "round": key.round, "board": key.board}
    for name, value in want.items():
        got = p.get(name)
        if type(got) is not type(value) or got != value:  # 6.0 or True is not the table 6
            raise _Bad(f"payload.{name} is {_text(json.dumps(got) if name in p else 'missing', 40)}, "
                       f"its key says {value}")
    if p.get("withdrawn") not in (None, True, False):
        raise _Bad(f"payload.withdrawn is {_text(p['withdrawn'], 40)!r}, not true or false")


def read(rows: list[tuple]) -> tuple[list[dict[str, Any]], list[Damaged]]:
    """Rows (id, item_key, kind, received_at, payload) of one session, in id order -> (its
    results as the exports take them: the latest revision of each board, withdrawals left out;
    the damaged rows, in id order)."""
    damaged: list[Damaged] = []
    revisions: list[dict[str, Any]] = []  # every result with a result's key, damaged or not
    for item_id, raw_key, kind, received_at, raw in rows:
        try:
            if kind not in KINDS:
                raise _Bad(f"unknown kind {_text(kind, 40)!r}")
            if kind != "result":
                continue
            try:
                key = ResultKey.parse(raw_key)
            except RecordError as e:
                raise _Bad(f"its key is not a result's ({_text(e, 80)})") from None
        except _Bad as e:
            damaged.append(Damaged(int(item_id), _text(raw_key, 300), str(e)))
            continue
        item = {"id": int(item_id), "key": raw_key, "kind": kind, "received_at": received_at, "payload": {}}
        try:
            item["payload"] = _payload(raw)
            _placed(key, item["payload"])
        except _Bad as e:
            # Still its board's revision: a damaged correction is not replaced by the result
            # it corrected.
            item = {**item, "payload": {}, "damaged": Damaged(int(item_id), raw_key, str(e))}
        revisions.append(item)
    latest = latest_results(revisions)
    lost = {it["id"] for it in latest if "damaged" in it}
    for it in revisions:
        if "damaged" in it:
            bad = it["damaged"]
            damaged.append(bad if bad.id in lost else Damaged(bad.id, bad.key, bad.why + " (a later revision "
                                                              "replaces it)"))
    return [it for it in latest if "damaged" not in it], sorted(damaged, key=lambda d: d.id)


def session_items(store: Any, tablet_event: str) -> tuple[list[dict[str, Any]], list[Damaged]]:
    """`read` of every row stored under a session's id (`session_scope.SessionScope.tablet_event`)."""
    rows = store.query("SELECT id, item_key, kind, received_at, payload FROM items WHERE event = ? ORDER BY id",
                       (tablet_event,))
    return read([tuple(r) for r in rows])
