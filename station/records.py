"""Validation of what tablets send (docs/interfaces.md section 3): pure functions, no I/O.

A bad item gets a `RecordError` naming the field; the station then stores nothing. The station
re-computes the Law 77 score with the project's one scorer (shared_rules.scoring) and refuses a
record whose score disagrees: a wrong score must be corrected at the table, not downstream.
"""
from __future__ import annotations

import calendar
import math
import re
import time
from typing import Any

from .http_json import JsonError, loads_limited

SEATS = ("N", "E", "S", "W")
VULS = ("None", "NS", "EW", "All")
KINDS = ("result", "td_call", "auction")
TD_STATUSES = ("launched", "in_progress", "resolved", "deferred")
PHASES = ("bidding", "playing", "entering_result")
ADJUSTED_KINDS = ("artificial", "assigned", "weighted", "split")
ARTIFICIAL = ("avg-", "avg", "avg+")
CONTRACT_RE = re.compile(r"^(PASS|[1-7](C|D|H|S|NT)(X|XX)?)$")
CALL_RE = re.compile(r"^(PASS|P|X|XX|[1-7](C|D|H|S|NT))$")  # the engine writes a pass as "P"
LEAD_RE = re.compile(r"^[SHDC]([2-9]|T|10|J|Q|K|A)$")
SECTION_RE = re.compile(r"^([A-Z])\1{0,2}$")  # A-Z, AA-ZZ, AAA-ZZZ, as Bridgemate sections
EVENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
MAX_ITEM_BYTES = 256 * 1024  # a record with a long auction log is a few kB
# Shape limits checked on every item before anything else (validation at the door).
MAX_DEPTH = 6          # payload -> auction -> call -> value is 4
MAX_LIST = 400         # the longest legal auction is 319 calls
MAX_STRING = 2000      # an alert explanation or a TD note; a key is at most 200
MAX_TIME = 4102444800  # 2100-01-01 in epoch seconds
MAX_THINK = 24 * 3600
# Free text that may hold a line break (a TD's note); everywhere else a control character could
# forge a line in a PBN or USEBIO file, so it is refused.
MULTILINE_FIELDS = frozenset({"note", "reason"})
ISO_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z$")
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")
CONTROL_BUT_NEWLINE_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
IRREGULARITY_KIND_RE = re.compile(r"^[a-z][a-z0-9_]{0,47}$")


class RecordError(ValueError):
    """The item is malformed; the message says which field and why."""


def _int(rec: dict, name: str, lo: int, hi: int, nullable: bool = False) -> int | None:
    v = rec.get(name)
    if v is None and nullable:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise RecordError(f"{name}: expected an integer {lo}..{hi}{' or null' if nullable else ''}, got {v!r}")
    return v


def _str(rec: dict, name: str, pattern: re.Pattern | None = None, choices: tuple = (),
         nullable: bool = False) -> str | None:
    v = rec.get(name)
    if v is None and nullable:
        return None
    if not isinstance(v, str) or (pattern is not None and not pattern.match(v)) or \
            (choices and v not in choices):
        want = f"one of {', '.join(choices)}" if choices else "a valid string"
        raise RecordError(f"{name}: expected {want}, got {v!r}")
    return v


def _bool(rec: dict, name: str, default: bool | None = None) -> bool:
    v = rec.get(name, default)
    if not isinstance(v, bool):
        raise RecordError(f"{name}: expected true or false, got {v!r}")
    return v


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


def _time(rec: dict, name: str, nullable: bool = False) -> None:
    """A time as ISO 8601 UTC (`2026-11-22T19:45:12Z`) or epoch seconds, 1970..2100."""
    v = rec.get(name)
    if v is None and nullable:
        return
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if math.isfinite(v) and 0 <= v <= MAX_TIME:
            return
    elif isinstance(v, str) and ISO_RE.match(v):
        try:
            if 0 <= calendar.timegm(time.strptime(v[:19], "%Y-%m-%dT%H:%M:%S")) <= MAX_TIME:
                return
        except ValueError:
            pass
    raise RecordError(f"{name}: expected a time as ISO 8601 UTC (2026-11-22T19:45:12Z) or epoch seconds, got {v!r}")


def _adjusted(payload: dict) -> None:
    """An adjusted score must be complete enough to score (shared_rules.scoring.adjusted, 2007/2017
    Law 12): an artificial or split score has both sides, an assigned one a score or contract."""
    adjusted = payload.get("adjusted")
    if not isinstance(adjusted, dict) or adjusted.get("kind") not in ADJUSTED_KINDS:
        raise RecordError(f"adjusted: expected null or an object with kind one of {', '.join(ADJUSTED_KINDS)}")
    if adjusted["kind"] == "artificial":
        for side in ("ns", "ew"):
            if adjusted.get(side) not in ARTIFICIAL:
                raise RecordError(f"adjusted.{side}: expected one of {', '.join(ARTIFICIAL)}")
    if adjusted["kind"] == "assigned" and "contract" in adjusted:
        _str(adjusted, "contract", CONTRACT_RE)
        if adjusted["contract"] != "PASS":
            _str(adjusted, "declarer", choices=SEATS)
            _int(adjusted, "tricks", 0, 13)
    try:
        import dataclasses

        from shared_rules.scoring.adjusted import side_values
        from shared_rules.scoring.rules import get_rules
    except ImportError:  # pragma: no cover - shared_rules ships with the station
        return
    # The jurisdiction's limits on who may weight (FSB: not the TD) are the scoring's to apply;
    # here only completeness is checked.
    rules = dataclasses.replace(get_rules("fsb-2007"), weighting_by_td=True)
    try:
        side_values(payload, rules)
    except (ValueError, TypeError, KeyError, ArithmeticError) as e:
        raise RecordError(f"adjusted: {str(e)[:200]}") from None


def _place(rec: dict) -> tuple[str, str, int]:
    event = _str(rec, "event", EVENT_RE)
    section = _str(rec, "section", SECTION_RE)
    table = _int(rec, "table", 1, 999)
    assert event is not None and section is not None and table is not None
    return event, section, table


def _calls(calls: Any, field: str) -> None:
    if not isinstance(calls, list):
        raise RecordError(f"{field}: expected a list of calls")
    for i, c in enumerate(calls):
        if not isinstance(c, dict):
            raise RecordError(f"{field}[{i}]: expected an object")
        _str(c, "seat", choices=SEATS)
        call = c.get("call")
        if not isinstance(call, str) or not CALL_RE.match(call):
            raise RecordError(f"{field}[{i}].call: expected P (or PASS), X, XX or 1C..7NT, got {call!r}")
        for flag in ("alerted", "stop"):
            if flag in c and not isinstance(c[flag], bool):
                raise RecordError(f"{field}[{i}].{flag}: expected true or false")
        think = c.get("think")
        if think is not None and (isinstance(think, bool) or not isinstance(think, (int, float))
                                  or not math.isfinite(think) or not 0 <= think <= MAX_THINK):
            raise RecordError(f"{field}[{i}].think: expected seconds 0..{MAX_THINK} or null")
        if "explanation" in c and not isinstance(c["explanation"], str):
            raise RecordError(f"{field}[{i}].explanation: expected a string")


def _irregularities(irr: Any, n_calls: int) -> None:
    if not isinstance(irr, list):
        raise RecordError("irregularities: expected a list")
    for i, x in enumerate(irr):
        if not isinstance(x, dict) or not isinstance(x.get("kind"), str) or \
                not IRREGULARITY_KIND_RE.match(x["kind"]):
            raise RecordError(f"irregularities[{i}]: expected an object with a kind (lower-case name)")
        if "index" in x:
            idx = x["index"]
            if not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx < max(n_calls, 1):
                raise RecordError(f"irregularities[{i}].index: expected a position in auction")
        if "skipped" in x and (not isinstance(x["skipped"], list) or any(s not in SEATS for s in x["skipped"])):
            raise RecordError(f"irregularities[{i}].skipped: expected a list of seats")
        for name in ("seat", "turn"):
            if x.get(name) is not None and x[name] not in SEATS:
                raise RecordError(f"irregularities[{i}].{name}: expected one of N, E, S, W")


def at_iso(at: Any) -> str:
    """A TD call's time as ISO 8601 UTC: tablets send either that or epoch seconds."""
    if isinstance(at, (int, float)) and not isinstance(at, bool):
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))
    return str(at)


def td_call_facts(key: str, payload: dict) -> tuple[str, str]:
    """(identity of the call, its status): a status change is a new item of the same call."""
    if "status" in payload:
        return key.rsplit("/", 1)[0], payload["status"]
    return key, "launched"


def expected_key(kind: str, rec: dict, n: int = 0) -> str:
    e, s, t = rec["event"], rec["section"], rec["table"]
    if kind == "result":
        return f"{e}/{s}/{t}/{rec['round']}/{rec['board']}/{rec['revision']}"
    if kind == "td_call":
        if "status" in rec and "call" in rec:  # one item per status change, numbered by the sender
            return f"{e}/{s}/{t}/td/{rec['call']}/{rec['status']}"
        # The tablet's form: the call when it is made (status "launched"), then one item per
        # later status, named after the call: <call key>/<status>. `n` is read from the key.
        # A tablet whose storage is full calls under its own name (`storage/<journal seq>`): it
        # cannot number the call among the table's own, which live in the full journal.
        kind_seg = "storage" if rec.get("reason") == "storage_full" else "td"
        launch = f"{e}/{s}/{t}/{rec['round']}/{rec['board']}/{kind_seg}/{n}"
        return launch + (f"/{rec['status']}" if "status" in rec else "")
    return f"{e}/{s}/{t}/{rec['round']}/{rec['board']}/auction/{rec['seq']}"


def law77_score(contract: str, declarer: str | None, tricks: int | None, vulnerability: str) -> int | None:
    """The Law 77 score from North-South's side, by the project's one scorer; None while the
    scoring package (shared_rules.scoring) is not installed: the tablet's score is then kept
    as sent."""
    try:
        from shared_rules.scoring import score
    except ImportError:
        return None
    return int(score(contract, declarer or "N", tricks or 0, vulnerability))


def _revision_in(key: str, lowest: int, why: str) -> int:
    parts = key.rsplit("/", 1)
    if len(parts) != 2 or not parts[1].isdigit() or int(parts[1]) < lowest:
        raise RecordError(f"key: {why}")
    return int(parts[1])


def validate_item(kind: Any, key: Any, payload: Any) -> dict:
    """Check one item. Returns the routing facts (event, section, table_no, round_no, board,
    revision) or raises RecordError."""
    if kind not in KINDS:
        raise RecordError(f"kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    if not isinstance(key, str) or not key or len(key) > 200:
        raise RecordError("key: expected a non-empty string of at most 200 characters")
    if not isinstance(payload, dict):
        raise RecordError("payload: expected a JSON object")
    if payload.get("key", key) != key:
        raise RecordError("payload.key differs from the item key")
    check_shape(payload)
    event, section, table = _place(payload)
    round_no = board = revision = None
    if kind == "result" and payload.get("withdrawn") is not None:
        # A withdrawal: the table's result on this board is taken back (recorded on the wrong
        # board); the scoring program sees it as a deleted result (ResultDTO IsDeleted).
        if payload["withdrawn"] is not True:
            raise RecordError("withdrawn: expected true (or leave it out)")
        round_no = _int(payload, "round", 1, 99)
        board = _int(payload, "board", 1, 999)
        _int(payload, "ns_pair", 0, 9999)
        _int(payload, "ew_pair", 0, 9999)
        for name in ("contract", "declarer", "tricks", "score_ns", "adjusted"):
            if payload.get(name) is not None:
                raise RecordError(f"{name}: a withdrawal carries no result")
        _str(payload, "reason", nullable=True)
        _time(payload, "entered_at")
        revision = _revision_in(key, 2, "a withdrawal is a new revision (2, 3, ...) of the result it takes back")
        want_key = expected_key(kind, {**payload, "revision": revision})
    elif kind == "result":
        round_no = _int(payload, "round", 1, 99)
        board = _int(payload, "board", 1, 999)
        _int(payload, "ns_pair", 0, 9999)
        _int(payload, "ew_pair", 0, 9999)
        _str(payload, "dealer", choices=SEATS)
        vul = _str(payload, "vulnerability", choices=VULS)
        adjusted = payload.get("adjusted")
        if adjusted is not None:
            _adjusted(payload)
        contract = _str(payload, "contract", CONTRACT_RE, nullable=adjusted is not None)
        played = contract not in (None, "PASS")
        declarer = _str(payload, "declarer", choices=SEATS, nullable=not played)
        tricks = _int(payload, "tricks", 0, 13, nullable=not played)
        if not played and (declarer is not None or tricks is not None):
            raise RecordError("declarer and tricks must be null when the board was passed out or not played")
        _str(payload, "lead", LEAD_RE, nullable=True)
        score_ns = payload.get("score_ns")
        if adjusted is None or score_ns is not None:
            if not isinstance(score_ns, int) or isinstance(score_ns, bool):
                raise RecordError(f"score_ns: expected an integer, got {score_ns!r}")
        if adjusted is None:
            assert contract is not None and vul is not None
            try:
                want = law77_score(contract, declarer, tricks, vul)
            except ValueError as e:
                raise RecordError(f"contract/tricks: {e}") from e
            if want is not None and want != score_ns:
                raise RecordError(f"score_ns: {score_ns} does not match Law 77 ({contract} by {declarer}, "
                                  f"{tricks} tricks, vulnerable {vul}: {want})")
        _bool(payload, "ew_confirmed", False)
        auction = payload.get("auction", [])
        _calls(auction, "auction")
        _irregularities(payload.get("irregularities", []), len(auction))
        if not isinstance(payload.get("td_calls", []), list):
            raise RecordError("td_calls: expected a list")
        _time(payload, "entered_at")
        revision = _revision_in(key, 1, "a result key ends with /<revision>, revision 1, 2, ...")
        want_key = expected_key(kind, {**payload, "revision": revision})
    elif kind == "td_call":
        round_no = _int(payload, "round", 0, 99)
        board = _int(payload, "board", 1, 999, nullable=True)
        if "status" in payload and "call" in payload:
            _int(payload, "call", 0, 9999)
            _str(payload, "status", choices=TD_STATUSES)
            want_key = expected_key(kind, payload)
        elif "status" in payload:
            # the tablet's form of a status change: the call's own key + /<status>
            _str(payload, "status", choices=TD_STATUSES)
            n = key.rsplit("/", 2)[-2] if key.count("/") >= 2 else ""
            if not n.isdigit():
                raise RecordError("key: a TD call status key ends with /td/<number>/<status> (storage/<number>/<status>)")
            want_key = expected_key(kind, payload, int(n))
        else:
            n = key.rsplit("/", 1)[-1]
            if not n.isdigit():
                raise RecordError("key: a TD call key ends with /td/<number> (storage/<number>)")
            want_key = expected_key(kind, payload, int(n))
        _time(payload, "at")
        for name in ("note", "reason"):
            if payload.get(name) is not None and not isinstance(payload[name], str):
                raise RecordError(f"{name}: expected a string")
        _str(payload, "seat", choices=SEATS, nullable=True)
    else:
        round_no = _int(payload, "round", 1, 99)
        board = _int(payload, "board", 1, 999)
        _int(payload, "seq", 1, 10**6)
        _str(payload, "phase", choices=PHASES)
        calls = payload.get("calls", [])
        _calls(calls, "calls")
        _irregularities(payload.get("irregularities", []), len(calls))
        _time(payload, "at")
        want_key = expected_key(kind, payload)
    if key != want_key:
        raise RecordError(f"key: expected {want_key!r} for this {kind}, got {key!r}")
    return {"event": event, "section": section, "table_no": table, "round_no": round_no,
            "board": board, "revision": revision}
