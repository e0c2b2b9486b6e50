"""Test doubles for the parts the tablet builds against while they are written in parallel.

`engine_factory()` and `outbox_factory()` return the real engine / outbox when they exist
(shared_rules.table, tablet_app.outbox) and these doubles only otherwise. The double engine
speaks the seam of docs/interfaces.md section 1 for a normal auction and one irregularity class
(insufficient bid, with TD options), which is all the controller's own logic needs; it is not a
laws engine and is never used by the product.
"""
from __future__ import annotations

import json
from typing import Any

from shared_rules import boards

SEATS = ("N", "E", "S", "W")
DENOMS = ("C", "D", "H", "S", "NT")
BIDS = [f"{lvl}{d}" for lvl in range(1, 8) for d in DENOMS]


def _rank(call: str) -> int:
    return BIDS.index(call)


class DoubleTable:
    def __init__(self, profile: str, board: int, policy: str | None = None):
        self.profile, self.board, self.policy = profile, board, policy or "record"
        self.events: list[dict[str, Any]] = []
        self.calls: list[dict[str, Any]] = []
        self.irregularities: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.turn_since = 0.0

    def _next(self) -> str | None:
        if self._ended():
            return None
        return SEATS[(SEATS.index(boards.dealer(self.board)) + len(self.calls)) % 4]

    def _ended(self) -> bool:
        c = [x["call"] for x in self.calls]
        return (len(c) >= 4 and c[-3:] == ["P"] * 3) and (any(x != "P" for x in c) or len(c) == 4)

    def _lowest(self) -> str | None:
        bids = [x["call"] for x in self.calls if x["call"] in BIDS]
        if not bids:
            return "1C"
        r = _rank(bids[-1]) + 1
        return BIDS[r] if r < len(BIDS) else None

    def check(self, ev: dict[str, Any]) -> dict[str, Any] | None:
        if "call" not in ev or "seat" not in ev:
            return None
        if ev["seat"] != self._next():
            return {"kind": "call_out_of_rotation", "seat": ev["seat"], "law": "2017 L28-32"}
        low = self._lowest()
        if ev["call"] in BIDS and (low is None or _rank(ev["call"]) < _rank(low)):
            return {"kind": "insufficient_bid", "seat": ev["seat"], "law": "2017 L27"}
        return None

    def apply(self, ev: dict[str, Any]) -> dict[str, Any]:
        if "td" in ev:
            if not self.pending or ev["td"] != self.pending["kind"]:
                raise ValueError("no such decision pending")
            if ev["choice"] == "accept":
                self.calls.append(self.pending["call_entry"])
            self.pending = None
            self.turn_since = ev["t"]
        elif ev.get("alert"):
            for c in reversed(self.calls):
                if c["seat"] != ev["seat"]:
                    c["alerted"] = True
                    break
        elif "call" in ev:
            if ev["call"] not in BIDS + ["P", "X", "XX"]:
                raise ValueError(f"not a call: {ev['call']}")
            if self._ended():
                raise ValueError("auction over")
            bad = self.check(ev)
            entry = {"seat": ev["seat"], "call": ev["call"], "alerted": False, "stop": bool(ev.get("stop")),
                     "think": round(ev["t"] - self.turn_since, 2)}
            if bad and bad["kind"] == "insufficient_bid":
                self.irregularities.append(bad)
                self.pending = {
                    "kind": "insufficient_bid", "law": "2017 L27", "seat": ev["seat"], "asks": "td",
                    "options": [{"id": "accept", "label": "LHO accepts the insufficient bid", "law": "2017 L27A1"},
                                {"id": "cancel", "label": "Cancel; offender calls again", "law": "2017 L27B"}],
                    "call_entry": entry,
                }
            elif bad:
                raise ValueError(bad["kind"])
            else:
                self.calls.append(entry)
                self.turn_since = ev["t"]
        else:
            raise ValueError("unknown event")
        self.events.append(ev)
        return self.state()

    def state(self) -> dict[str, Any]:
        contract = declarer = None
        bids = [x for x in self.calls if x["call"] in BIDS]
        status = "awaiting_td" if self.pending else "bidding"
        if self._ended():
            if bids:
                last = bids[-1]
                side = (last["seat"], SEATS[(SEATS.index(last["seat"]) + 2) % 4])
                denom = last["call"][1:]
                declarer = next(x["seat"] for x in bids if x["seat"] in side and x["call"][1:] == denom)
                after = [x["call"] for x in self.calls[self.calls.index(last):] if x["call"] in ("X", "XX")]
                contract = last["call"] + (after[-1] if after else "")
                status = "ended"
            else:
                status = "passed_out"
        pending = None
        if self.pending:
            pending = {k: v for k, v in self.pending.items() if k != "call_entry"}
        return json.loads(json.dumps({
            "board": self.board, "dealer": boards.dealer(self.board), "vulnerability": boards.vulnerability(self.board),
            "profile": self.profile, "edition": 2017, "policy": self.policy,
            "calls": self.calls, "status": status, "contract": contract, "declarer": declarer,
            "next": None if self.pending else self._next(), "irregularities": self.irregularities,
            "obligations": [], "lead_restrictions": [], "timing": [], "pending": pending,
            "lowest_bid": self._lowest(), "legal_calls": ["P"] + ([] if not self._lowest() else BIDS[_rank(self._lowest()):]),
            "stop_lock_until": None,
        }))


class DoubleOutbox:
    """Same seam as tablet_app.outbox.Outbox: a table in the journal's database, no commit."""

    def __init__(self, conn):
        self.conn = conn
        conn.execute("CREATE TABLE IF NOT EXISTS outbox_double (key TEXT PRIMARY KEY, kind TEXT, payload TEXT)")

    def enqueue(self, kind: str, key: str, payload: dict[str, Any]) -> None:
        self.conn.execute("INSERT INTO outbox_double VALUES (?, ?, ?)", (key, kind, json.dumps(payload)))

    def items(self) -> list[tuple[str, str, dict[str, Any]]]:
        rows = self.conn.execute("SELECT key, kind, payload FROM outbox_double ORDER BY rowid").fetchall()
        return [(k, kind, json.loads(p)) for k, kind, p in rows]


def real_engine_available() -> bool:
    try:
        import shared_rules.table  # noqa: F401
    except ImportError:
        return False
    return True


def engine_factory():
    if real_engine_available():
        from shared_rules.table import Table

        return Table
    return DoubleTable


def outbox_factory():
    try:
        from tablet_app.outbox import Outbox

        return Outbox
    except ImportError:
        return DoubleOutbox


def outbox_items(outbox) -> list[tuple[str, str, dict[str, Any]]]:
    """(key, kind, payload) of every queued item, for either outbox."""
    if isinstance(outbox, DoubleOutbox):
        return outbox.items()
    rows = outbox.conn.execute("SELECT item_key, kind, payload FROM outbox ORDER BY id").fetchall()
    return [(k, kind, json.loads(p)) for k, kind, p in rows]
