"""The items for the station, queued in the outbox (`tablet_app/outbox.py`, docs/tablet.md "What goes
to the station"): the table's progress for the director page, the calls for the director, the
result records, a storage episode's end, built with the records package (`tablet_app/station_items.py`,
`shared_rules/records`). Each is queued inside the transaction of the journal record that caused
it (the caller's): the outbox never commits.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

from shared_rules.records import TableId
from tablet_app import station_items
from tablet_app.control.state import ResultRecord, TableState
from tablet_app.outbox import Outbox

if TYPE_CHECKING:
    from tablet_app.control.storage_episode import StorageSince


class Refusal(TypedDict):
    kind: str  # shared_rules.records.ItemKind
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
        st = self.st
        assert st.session is not None and st.board is not None
        self.outbox.put(station_items.progress(st.session, st.board, st.progress_seq, phase, st.estate, self.clock()))

    def td_call(self, n: int, status: str) -> None:
        """Director call number n of the session: the call itself when launched, `<its key>/resolved`
        when it is over. Keyed by where it was made (`place`), maybe a round ago."""
        c = self.st.td_calls[n - 1]
        self.outbox.put(station_items.td_call(c["place"], n, dict(c), status, self.clock()))

    def result(self, rec: ResultRecord) -> None:
        """A result record (a new revision of the board's result: interfaces.md section 3)."""
        self.outbox.enqueue("result", rec["key"], rec)

    def storage_over(self, since: StorageSince) -> None:
        """A storage episode's call and its end, once a write commits again."""
        assert since["place"] is not None
        call = station_items.storage_call(TableId(*since["place"]), dict(since))
        if not self.outbox.has(call.key.with_status("resolved").format()):
            self.outbox.put(call)
            self.outbox.put(station_items.resolved(call, self.clock()))

    def delivery(self) -> Delivery:
        try:
            return self.outbox.delivery()  # type: ignore[return-value]  # Outbox.delivery's own keys
        except Exception as exc:  # a locked or failing database: said, never a crash of the screen
            return {"delivered": 0, "waiting": 0, "refused": [], "last_error": f"outbox unreadable: {exc}",
                    "connected": False}
