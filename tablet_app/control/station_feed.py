"""The items for the station, queued in the outbox (`tablet_app/outbox.py`, docs/tablet.md "What goes
to the station"): the table's progress for the director page, the calls for the director, the
result records, a storage episode's end. Each is queued inside the transaction of the journal
record that caused it (the caller's): `Outbox.enqueue` never commits.
"""
from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

from tablet_app.control.state import ResultRecord, TableState
from tablet_app.outbox import Outbox, storage_call

if TYPE_CHECKING:
    from tablet_app.control.storage_episode import StorageSince


class Refusal(TypedDict):
    key: str
    status: int | None
    reason: str
    retrying: bool


class Delivery(TypedDict):
    """The outbox as the director console shows it (refused deliveries in red)."""

    delivered: int
    waiting: int
    refused: list[Refusal]
    last_error: str | None
    connected: bool


class StationFeed:
    def __init__(self, outbox: Outbox, st: TableState, clock: Callable[[], float]):
        self.outbox = outbox
        self.st = st
        self.clock = clock

    def progress(self, phase: str) -> None:
        """An "auction" item: the board starts (`bidding`), the table freezes (`bidding`), the
        auction ends (`playing`), North enters the result (`entering_result`); numbered per board."""
        st, s, board = self.st, self.st.session, self.st.board
        assert s is not None and board is not None
        key = f"{s.event}/{s.section}/{s.table}/{s.round}/{board}/auction/{st.progress_seq}"
        calls = st.estate.get("calls", [])
        self.outbox.enqueue("auction", key, {
            "event": s.event, "section": s.section, "table": s.table, "round": s.round, "board": board,
            "seq": st.progress_seq, "phase": phase,
            "calls": [{"seat": c.get("seat"), "call": c.get("call"), "alerted": bool(c.get("alerted")),
                       "stop": bool(c.get("stop")), "think": c.get("think")} for c in calls],
            "irregularities": list(st.estate.get("irregularities", [])),
            "at": datetime.datetime.fromtimestamp(self.clock(), datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        })

    def td_call(self, n: int, status: str) -> None:
        """Director call number n of the session: the call itself when launched, `<its key>/resolved`
        when it is over (station/records.py, the tablet's form)."""
        c = self.st.td_calls[n - 1]
        event, section, table, round_ = c["place"]  # where the call was made, maybe a round ago
        key = f"{event}/{section}/{table}/{round_}/{c.get('board')}/td/{n}"
        payload: dict[str, Any] = {
            "kind": "td_call", "event": event, "section": section, "table": table, "round": round_,
            "board": c.get("board"), "seat": c.get("seat"), "t": c.get("t"), "reason": c.get("reason"),
            "note": c.get("note"), "at": self.clock()}
        if status != "launched":
            key += "/" + status
            payload["status"] = status
        self.outbox.enqueue("td_call", key, {**payload, "key": key})

    def result(self, rec: ResultRecord) -> None:
        """A result record (a new revision of the board's result: interfaces.md section 3)."""
        self.outbox.enqueue("result", rec["key"], rec)

    def storage_over(self, since: StorageSince) -> None:
        """A storage episode's call and its end, once a write commits again."""
        assert since["place"] is not None
        event, section, table = since["place"]
        key, launch = storage_call(event, section, table, dict(since))
        if not self.outbox.has(key + "/resolved"):
            self.outbox.enqueue("td_call", key, launch)
            self.outbox.enqueue("td_call", key + "/resolved",
                                {**launch, "key": key + "/resolved", "status": "resolved", "at": self.clock()})

    def delivery(self) -> Delivery:
        try:
            return self.outbox.delivery()  # type: ignore[return-value]  # Outbox.delivery's own keys
        except Exception as exc:  # a locked or failing database: said, never a crash of the screen
            return {"delivered": 0, "waiting": 0, "refused": [], "last_error": f"outbox unreadable: {exc}",
                    "connected": False}
