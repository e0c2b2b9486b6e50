"""Replay a whole table log: read it, validate it, fold its events through a Table, return the
final state (docs/table-log.md).

A log is {"profile": name, "board": n, "events": [...], "policy"?: "record"|"prevent",
"no_alerts_by"?: ["NS"|"EW"], "screens"?: true|false (screens at this table; without it the
profile's own setting)}; other top-level keys are metadata and are ignored. Any problem raises
LogError naming the event.
"""
from __future__ import annotations

import json
from typing import Any

from shared_rules.profiles import ProfileError
from shared_rules.table import EventError, Table


class LogError(ValueError):
    """A malformed log or an event the table cannot take; the message says which and why."""


def open_table(log: Any) -> Table:
    if not isinstance(log, dict):
        raise LogError(f"a log must be a JSON object, not {type(log).__name__}")
    for key in ("profile", "board", "events"):
        if key not in log:
            raise LogError(f"the log has no {key!r}")
    if not isinstance(log["profile"], str):
        raise LogError("profile must be a profile name (a string)")
    board = log["board"]
    if isinstance(board, bool) or not isinstance(board, int):
        raise LogError(f"board must be a whole number from 1 up (got {board!r})")
    if not isinstance(log["events"], list):
        raise LogError("events must be a list")
    policy = log.get("policy")
    if policy is not None and policy not in ("record", "prevent"):
        raise LogError(f"policy must be 'record' or 'prevent' (got {policy!r})")
    no_alerts = log.get("no_alerts_by", [])
    if not isinstance(no_alerts, list):
        raise LogError(f"no_alerts_by must be a list of 'NS' / 'EW' (got {no_alerts!r})")
    screens = log.get("screens")
    if screens is not None and not isinstance(screens, bool):
        raise LogError(f"screens must be true or false (got {screens!r})")
    try:
        return Table(log["profile"], board, policy, no_alerts, screens)
    except (ProfileError, EventError) as exc:
        raise LogError(str(exc)) from exc


def replay(log: dict[str, Any]) -> dict[str, Any]:
    table = open_table(log)
    apply = table.take  # the state dict is built once, at the end
    for i, event in enumerate(log["events"]):
        try:
            apply(event)
        except EventError as exc:
            raise LogError(f"event {i} ({_short(event)}): {exc}") from exc
    return table.state()


def _short(event: Any) -> str:
    text = repr(event)
    return text if len(text) <= 80 else text[:77] + "..."



def loads(text: str) -> Any:
    """A log file's JSON text as Python values. JSON readers keep the last of two equal keys in an
    object without a word, so an event written {"seat": "N", "seat": "E"} would replay as E's:
    such a file is refused (LogError, naming the event, or the log, and the key). Malformed JSON
    raises ValueError as json.loads does."""
    twice: dict[int, str] = {}  # id of an object (alive: it is in the result) -> its repeated key

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in items:
            if key in obj:
                twice.setdefault(id(obj), key)
            obj[key] = value
        return obj

    value = json.loads(text, object_pairs_hook=pairs)
    if twice:
        where, key = _first_twice(value, "the log", twice) or ("the log", next(iter(twice.values())))
        raise LogError(f"{where}: the key {key!r} is written twice (a JSON reader keeps only the last, "
                       "which may not be what happened)")
    return value


def _first_twice(value: Any, where: str, twice: dict[int, str]) -> tuple[str, str] | None:
    """The first object, in the file's order, with a key written twice: where it is (the event it
    belongs to, "event 3", or "the log") and the key."""
    if isinstance(value, dict):
        if id(value) in twice:
            return where, twice[id(value)]
        for key, item in value.items():
            if where == "the log" and key == "events" and isinstance(item, list):
                found = next((f for i, e in enumerate(item) if (f := _first_twice(e, f"event {i}", twice))), None)
            else:
                found = _first_twice(item, where, twice)
            if found:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _first_twice(item, where, twice)
            if found:
                return found
    return None
