"""The values an item is made of, and how each is checked (docs/station.md, "Checked at the door").

Pure functions on a JSON object: each reads one field and returns it, or raises `RecordError`
naming the field. The messages are the station's replies to the tablet, word for word, so a
tablet's rejected item says the same whichever version of this code refused it.
"""
from __future__ import annotations

import calendar
import datetime
import math
import re
import time
from collections.abc import Mapping
from typing import Any

from shared_rules.types import SEATS as SEATS  # re-exported: the records check seats by it
from shared_rules.types import Vulnerability

from .errors import RecordError

VULS = tuple(v.value for v in Vulnerability)  # Law 2's words, as the records carry them
CONTRACT_RE = re.compile(r"^(PASS|[1-7](C|D|H|S|NT)(X|XX)?)$")
CALL_RE = re.compile(r"^(PASS|P|X|XX|[1-7](C|D|H|S|NT))$")  # the engine writes a pass as "P"
LEAD_RE = re.compile(r"^[SHDC]([2-9]|T|10|J|Q|K|A)$")
SECTION_RE = re.compile(r"^([A-Z])\1{0,2}$")  # A-Z, AA-ZZ, AAA-ZZZ, as Bridgemate sections
EVENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
# Shape limits checked on every item before anything else.
MAX_DEPTH = 6          # payload -> auction -> call -> value is 4
MAX_LIST = 400         # the longest legal auction is 319 calls
MAX_STRING = 2000      # an alert explanation or a TD note; a key is at most 200
MAX_KEY = 200
MAX_TIME = 4102444800  # 2100-01-01 in epoch seconds
MAX_THINK = 24 * 3600
# Free text that may hold a line break (a TD's note); everywhere else a control character could
# forge a line in a PBN or USEBIO file, so it is refused.
MULTILINE_FIELDS = frozenset({"note", "reason"})
ISO_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z$")
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")
CONTROL_BUT_NEWLINE_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")

Json = Mapping[str, Any]
# A time as the contract carries it: ISO 8601 UTC text, or epoch seconds.
Time = str | float


def whole(rec: Json, name: str, lo: int, hi: int, nullable: bool = False) -> int | None:
    """An integer lo..hi (not a boolean); None only when `nullable`."""
    v = rec.get(name)
    if v is None and nullable:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RecordError(f"{name}: expected an integer {lo}..{hi}{' or null' if nullable else ''}, got {v!r}")
    return v


def required_whole(rec: Json, name: str, lo: int, hi: int) -> int:
    v = whole(rec, name, lo, hi)
    assert v is not None
    return v


def round_and_board(rec: Json) -> tuple[int, int]:
    """The round (1..99) and the board (1..999) of an item about one board: a result or its
    withdrawal, an auction's progress or one of its events."""
    return required_whole(rec, "round", 1, 99), required_whole(rec, "board", 1, 999)


def text(rec: Json, name: str, pattern: re.Pattern[str] | None = None, choices: tuple[str, ...] = (),
         nullable: bool = False) -> str | None:
    """A string matching `pattern` or one of `choices`; None only when `nullable`."""
    v = rec.get(name)
    if v is None and nullable:
        return None
    if not isinstance(v, str) or (pattern is not None and not pattern.match(v)) or \
            (choices and v not in choices):
        want = f"one of {', '.join(choices)}" if choices else "a valid string"
        raise RecordError(f"{name}: expected {want}, got {v!r}")
    return v


def required_text(rec: Json, name: str, pattern: re.Pattern[str] | None = None,
                  choices: tuple[str, ...] = ()) -> str:
    v = text(rec, name, pattern, choices)
    assert v is not None
    return v


def flag(rec: Json, name: str, default: bool | None = None) -> bool:
    v = rec.get(name, default)
    if not isinstance(v, bool):
        raise RecordError(f"{name}: expected true or false, got {v!r}")
    return v


def moment(rec: Json, name: str, nullable: bool = False) -> Time | None:
    """A time as ISO 8601 UTC (`2026-11-22T19:45:12Z`) or epoch seconds, 1970..2100."""
    v = rec.get(name)
    if v is None and nullable:
        return None
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if math.isfinite(v) and 0 <= v <= MAX_TIME:
            return v
    elif isinstance(v, str) and ISO_RE.match(v):
        try:
            if 0 <= calendar.timegm(time.strptime(v[:19], "%Y-%m-%dT%H:%M:%S")) <= MAX_TIME:
                return v
        except ValueError:
            pass
    raise RecordError(f"{name}: expected a time as ISO 8601 UTC (2026-11-22T19:45:12Z) or epoch seconds, got {v!r}")


def required_moment(rec: Json, name: str) -> Time:
    v = moment(rec, name)
    assert v is not None
    return v


def iso_utc(at: float) -> str:
    """Epoch seconds as the tablet writes a time (`2026-11-22T19:45:12Z`)."""
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def as_iso(at: Any) -> str:
    """A stored time as ISO 8601 UTC: tablets send either that or epoch seconds."""
    if isinstance(at, (int, float)) and not isinstance(at, bool):
        return iso_utc(at)
    return str(at)


def check_shape(value: Any, path: str = "payload", depth: int = 0) -> None:
    """Every value of an item, whatever its field: finite numbers, bounded strings without
    control characters, bounded lists, bounded nesting."""
    if depth > MAX_DEPTH:
        raise RecordError(f"{path}: nested too deep")
    if isinstance(value, float) and not math.isfinite(value):
        raise RecordError(f"{path}: expected a finite number")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        raise RecordError(f"{path}: number out of range")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise RecordError(f"{path}: text longer than {MAX_STRING} characters")
        name = path.rsplit(".", 1)[-1]
        if (CONTROL_BUT_NEWLINE_RE if name in MULTILINE_FIELDS else CONTROL_RE).search(value):
            raise RecordError(f"{path}: control characters (line breaks, tabs ...) are not allowed here")
    elif isinstance(value, list):
        if len(value) > MAX_LIST:
            raise RecordError(f"{path}: more than {MAX_LIST} entries")
        for i, v in enumerate(value):
            check_shape(v, f"{path}[{i}]", depth + 1)
    elif isinstance(value, dict):
        if len(value) > 100:
            raise RecordError(f"{path}: more than 100 fields")
        for k, v in value.items():
            if not isinstance(k, str) or len(k) > 64 or CONTROL_RE.search(k):
                raise RecordError(f"{path}: field names are short text")
            check_shape(v, f"{path}.{k}", depth + 1)


def extra_fields(payload: Json, known: frozenset[str]) -> dict[str, Any]:
    """The payload's fields this contract does not name, kept as sent: the station has always
    taken them (a newer tablet's additions), so reading and writing an item keeps them."""
    return {k: v for k, v in payload.items() if k not in known}
