"""The station's door for what tablets send: the body read as JSON within the door's limits, then
the item checked by the records package (`shared_rules.records`, where the contract between
tablet and station is defined once: docs/interfaces.md section 3). Pure functions, no I/O.

A bad item gets a `RecordError` naming the field; the station then stores nothing. The station
re-computes the Law 77 score with the project's one scorer (shared_rules.scoring) and refuses a
record whose score disagrees: a wrong score must be corrected at the table, not downstream.
"""
from __future__ import annotations

from typing import Any

from shared_rules.records import RecordError, as_iso, read_item, td_call_launch, where

from .http_json import JsonError, loads_limited

__all__ = ["MAX_ITEM_BYTES", "RecordError", "at_iso", "parse_item", "td_call_facts", "validate_item"]

MAX_ITEM_BYTES = 256 * 1024  # a record with a long auction log is a few kB


def parse_item(body: bytes) -> dict:
    """The request body as a JSON object, or RecordError (HTTP 400) for anything else: what the
    door's JSON limits refuse (station/http_json.py: bad UTF-8, NaN/Infinity, huge numbers, deep
    nesting), or JSON that is not an object."""
    try:
        doc = loads_limited(body)
    except JsonError as e:
        raise RecordError(f"malformed JSON: {str(e)[:200]}") from None
    if not isinstance(doc, dict):
        raise RecordError("expected a JSON object {kind, key, payload}")
    return doc


def validate_item(kind: Any, key: Any, payload: Any) -> dict:
    """Check one item (`shared_rules.records.read_item`). Returns where the store files it
    (event, section, table_no, round_no, board, revision) or raises RecordError."""
    w = where(read_item(kind, key, payload))
    return {"event": w.event, "section": w.section, "table_no": w.table_no, "round_no": w.round_no,
            "board": w.board, "revision": w.revision}


def at_iso(at: Any) -> str:
    """A TD call's time as ISO 8601 UTC: tablets send either that or epoch seconds."""
    return as_iso(at)


def td_call_facts(key: str, payload: dict) -> tuple[str, str]:
    """(identity of the call, its status) of a stored TD call: a status change is a new item of
    the same call, named after it (shared_rules.records.keys)."""
    status = payload.get("status", "launched")
    try:
        return td_call_launch(key), str(status)
    except RecordError:  # not a key this station's door lets in (an older station's row): as it stands
        return key, str(status)
