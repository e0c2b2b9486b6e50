"""The auction as a result or a progress item carries it: the calls made, and the irregularities
the engine recorded (docs/table-log.md), as the station checks them and the exports read them.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RecordError
from .fields import CALL_RE, MAX_THINK, SEATS, Json, text

IRREGULARITY_KIND_RE = re.compile(r"^[a-z][a-z0-9_]{0,47}$")


@dataclass(frozen=True, slots=True)
class LoggedCall:
    """One call of the auction: who, what, alerted, whether a stop preceded it, and how long the
    seat thought (seconds from being in turn; None when unknown). `explanation`: the alert's
    text, where the sender has it (a PBN note)."""

    seat: str
    call: str
    alerted: bool = False
    stop: bool = False
    think: float | None = None
    explanation: str | None = None

    @classmethod
    def from_engine(cls, call: Mapping[str, Any]) -> LoggedCall:
        """A call of the engine's state (`state["calls"]`), as the tablet logs it."""
        return cls(call.get("seat"), call.get("call"), bool(call.get("alerted")),  # type: ignore[arg-type]
                   bool(call.get("stop")), call.get("think"))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "call": self.call, "alerted": self.alerted, "stop": self.stop,
                               "think": self.think}
        if self.explanation is not None:
            out["explanation"] = self.explanation
        return out


def logged_calls(engine_calls: Iterable[Mapping[str, Any]]) -> tuple[LoggedCall, ...]:
    """The auction log of the engine's calls."""
    return tuple(LoggedCall.from_engine(c) for c in engine_calls)


def read_calls(calls: Any, field: str) -> tuple[LoggedCall, ...]:
    """The calls of `field` (a list of objects), checked; RecordError naming the first bad one."""
    if not isinstance(calls, list):
        raise RecordError(f"{field}: expected a list of calls")
    out = []
    for i, c in enumerate(calls):
        if not isinstance(c, dict):
            raise RecordError(f"{field}[{i}]: expected an object")
        seat = text(c, "seat", choices=SEATS)
        call = c.get("call")
        if not isinstance(call, str) or not CALL_RE.match(call):
            raise RecordError(f"{field}[{i}].call: expected P (or PASS), X, XX or 1C..7NT, got {call!r}")
        for name in ("alerted", "stop"):
            if name in c and not isinstance(c[name], bool):
                raise RecordError(f"{field}[{i}].{name}: expected true or false")
        think = c.get("think")
        if think is not None and (isinstance(think, bool) or not isinstance(think, (int, float))
                                  or not math.isfinite(think) or not 0 <= think <= MAX_THINK):
            raise RecordError(f"{field}[{i}].think: expected seconds 0..{MAX_THINK} or null")
        if "explanation" in c and not isinstance(c["explanation"], str):
            raise RecordError(f"{field}[{i}].explanation: expected a string")
        assert seat is not None
        out.append(LoggedCall(seat, call, c.get("alerted", False), c.get("stop", False), think, c.get("explanation")))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Irregularity:
    """An irregularity as the engine recorded it (docs/table-log.md: `kind`, `seat`, `call`,
    `law`, `resolution`, `turn`, `ruling`, ... per kind). The record is the engine's and is
    carried whole; the properties are what the station and its exports read of it."""

    record: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return str(self.record["kind"])

    @property
    def seat(self) -> str | None:
        return self.record.get("seat")

    @property
    def turn(self) -> str | None:
        return self.record.get("turn")

    @property
    def call(self) -> str | None:
        return self.record.get("call")

    @property
    def resolution(self) -> str | None:
        return self.record.get("resolution")

    @property
    def index(self) -> int | None:
        """Its position in the auction, where the sender gives it (else PBN works it out)."""
        return self.record.get("index")

    @property
    def hidden_from(self) -> tuple[str, ...]:
        """Behind screens, the seats never told of it (rectified before the tray passed:
        docs/laws/choices.md #36): a feed the players may see leaves it out."""
        return tuple(self.record.get("hidden_from") or ())

    def to_json(self) -> dict[str, Any]:
        return dict(self.record)


def read_irregularities(irr: Any, n_calls: int) -> tuple[Irregularity, ...]:
    """The irregularities of an auction of `n_calls` calls, checked for what the exports read."""
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
        if "hidden_from" in x and (not isinstance(x["hidden_from"], list)
                                   or any(s not in SEATS for s in x["hidden_from"])):
            raise RecordError(f"irregularities[{i}].hidden_from: expected a list of seats")
        for name in ("seat", "turn"):
            if x.get(name) is not None and x[name] not in SEATS:
                raise RecordError(f"irregularities[{i}].{name}: expected one of N, E, S, W")
    return tuple(Irregularity(x) for x in irr)


def read_auction(rec: Json, field: str) -> tuple[tuple[LoggedCall, ...], tuple[Irregularity, ...]]:
    """The calls of `field` (none when the item leaves it out) and the irregularities recorded on
    them, checked in that order: what a result, a progress item and an auction event carry."""
    calls = rec.get(field, [])
    return read_calls(calls, field), read_irregularities(rec.get("irregularities", []), len(calls))


def auction_dealer(record: Mapping[str, Any]) -> str | None:
    """The seat whose turn the record's auction began with (a result or progress item in its JSON
    form). It is the record's `dealer`, except for a result moved to another board (the boards
    were mixed up at the table, 2007/2017 L15): the record then carries the board's dealer while
    its auction was bid from the dealer of the board the table had, so the first call settles it.
    A first call out of rotation that was accepted (L29A) was made at the dealer's turn: that
    irregularity's `turn` is the dealer. None when the record names no dealer and has no calls."""
    dealer = record.get("dealer")
    given = record.get("auction") if "auction" in record else record.get("calls")
    calls = [c for c in given if isinstance(c, Mapping)] if isinstance(given, (list, tuple)) else []
    irregularities = record.get("irregularities")
    if not calls or calls[0].get("seat") not in SEATS:
        return dealer if dealer in SEATS else None
    first = calls[0]
    if first["seat"] == dealer:
        return str(dealer)
    for irr in irregularities if isinstance(irregularities, (list, tuple)) else []:
        if isinstance(irr, Mapping) and irr.get("kind") == "call_out_of_rotation" \
                and irr.get("resolution") == "accepted" and irr.get("seat") == first["seat"] \
                and irr.get("call") == first.get("call") and irr.get("index", 0) == 0:
            turn = irr.get("turn")
            return str(turn) if turn in SEATS else (dealer if dealer in SEATS else None)
    return str(first["seat"])
