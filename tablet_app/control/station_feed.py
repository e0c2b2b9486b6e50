"""The items for the station, queued in the outbox (`tablet_app/outbox.py`, docs/tablet.md "What goes
to the station"): the table's progress for the director page, each auction event as it happens
(the live feed), the calls for the director, the result records, a storage episode's end, built
with the records package (`tablet_app/station_items.py`, `shared_rules/records`). Each is queued
inside the transaction of the journal record that caused it (the caller's): the outbox never
commits, and its own thread delivers (the table never waits for the station).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from shared_rules.records import (
    AuctionEvent,
    AuctionEventKey,
    Irregularity,
    ItemKind,
    LoggedCall,
    TableId,
    What,
    logged_calls,
)
from shared_rules.types import SEATS
from tablet_app import station_items
from tablet_app.control.call_log import CallLog
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
    held: bool  # the station takes it once the table is on its round (docs/station.md "Law 16 at the station")


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
        self.call_log = CallLog()

    def progress(self, phase: str) -> None:
        """An "auction" item: the board starts (`bidding`), the table freezes (`bidding`), the
        auction ends (`playing`), North enters the result (`entering_result`); numbered per board."""
        st = self.st
        assert st.session is not None and st.board is not None
        self.outbox.put(station_items.progress(st.session, st.board, st.progress_seq, phase, st.estate, self.clock()))

    def journalled(self, seq: int, kind: str, body: dict[str, Any]) -> None:
        """Journal record `seq` was written and applied (`journal_tx.Transactions.record`): a call,
        an alert, a stop, a tray pass, a box's director call or a TD's ruling on the board in
        play goes to the station as it happens, with the auction after it (an `auction_event`
        item keyed by `seq`: a restarted tablet replays without queueing, and a record keeps its
        number, so nothing is sent twice under two keys). Anything else: nothing."""
        what = _what(kind, body)
        st = self.st
        if what is None or st.session is None or st.board is None or st.engine is None:
            return
        item = auction_event(st, seq, what, body, self.clock(), self.call_log)
        self.outbox.enqueue_text(ItemKind.AUCTION_EVENT.value, item.key.format(), self.call_log.text(item))

    def round_start(self, session: Any, by: str) -> None:
        """The table moved to `session`'s round: one item per round (a second setup of the same
        round, the TD correcting it, sends nothing new: the station has the round already)."""
        item = station_items.round_start(session, by, self.clock())
        if not self.outbox.has(item.key.format()):
            self.outbox.put(item)

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


def _what(kind: str, body: dict[str, Any]) -> What | None:
    """What an auction event a journal record is, if any."""
    if kind == "stop":
        return What.STOP
    if kind == "td_call":
        return What.DIRECTOR
    if kind != "event":
        return None
    ev = body.get("ev") or {}
    if "td" in ev:
        return What.RULING
    if "call" in ev:
        return What.CALL
    if ev.get("alert"):
        return What.ALERT
    if ev.get("tray"):
        return What.TRAY
    return None


def auction_event(st: TableState, seq: int, what: What, body: dict[str, Any], at: float,
                  call_log: Callable[[Sequence[Mapping[str, Any]]], tuple[LoggedCall, ...]] = logged_calls,
                  ) -> AuctionEvent:
    """The auction event of journal record `seq` (`what`), with the engine's auction after it
    (its calls logged by `call_log`). Behind screens `visible` counts the calls every seat has
    seen (the engine's own tray), which is all the live feed shows before the board ends."""
    s, state = st.session, st.estate
    assert s is not None and st.board is not None
    ev = body.get("ev") or body
    engine = st.engine if st.tray is not None else None  # behind screens: the engine keeps the tray
    visible = None
    if engine is not None:
        visible = min(len(engine.visible_calls(seat)) for seat in SEATS)
    return AuctionEvent(
        key=AuctionEventKey(TableId(s.event, s.section, s.table), s.round, st.board, seq), what=what.value,
        at=round(at, 3), t=ev.get("t"), seat=ev.get("seat"), call=ev.get("call"),
        calls=call_log(state.get("calls", [])),
        irregularities=tuple(Irregularity(x) for x in state.get("irregularities", [])),
        status=str(state.get("status") or "bidding"), contract=state.get("contract"),
        declarer=state.get("declarer"), dealer=state.get("dealer"), vulnerability=state.get("vulnerability"),
        screens=engine is not None, visible=visible, profile=state.get("profile"))
