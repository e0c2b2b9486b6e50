"""The tablet's items for the station besides results (docs/interfaces.md section 3), built with
the records package: the auction's progress for the director page, and the TD calls.

Pure: the controller journals and queues what these return (`Outbox.put`) in one transaction.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared_rules.records import (
    STORAGE_FULL,
    AuctionKey,
    AuctionProgress,
    Irregularity,
    RoundKey,
    RoundStart,
    StartedBy,
    TableId,
    TdCall,
    TdCallKey,
    TdCallSeries,
    iso_utc,
    logged_calls,
)

STORAGE_NOTE = "tablet storage full: calls are refused until space is freed"


def progress(session: Any, board: int, seq: int, phase: str, state: dict[str, Any], at: float) -> AuctionProgress:
    """Where board `board` stands at the table (`phase`: bidding, playing, entering_result), the
    `seq`-th such item of the board, with the engine's calls and irregularities so far."""
    return AuctionProgress(
        key=AuctionKey(TableId(session.event, session.section, session.table), session.round, board, seq),
        phase=phase, at=iso_utc(at), calls=logged_calls(state.get("calls", [])),
        irregularities=tuple(Irregularity(x) for x in state.get("irregularities", [])))


def round_start(session: Any, by: str, at: float) -> RoundStart:
    """The table moved to the session's round (`by` players, having confirmed its pairs, or
    the director): the station takes it as the round the table is on (docs/station.md)."""
    return RoundStart(RoundKey(TableId(session.event, session.section, session.table), session.round),
                      session.ns_pair, session.ew_pair, tuple(session.boards), StartedBy(by), iso_utc(at))


def td_call(place: Sequence[Any], n: int, call: dict[str, Any], status: str, at: float) -> TdCall:
    """TD call number `n` of the round at `place` (event, section, table, round: where it was
    made, maybe a round ago): the call itself when `status` is launched, else the change of its
    status (`<its key>/<status>`)."""
    event, section, table, round_ = place
    key = TdCallKey(TableId(event, section, table), round_, call.get("board"), n)
    return TdCall(key=key if status == "launched" else key.with_status(status), round=round_,
                  board=call.get("board"), at=at, seat=call.get("seat"), t=call.get("t"), reason=call.get("reason"),
                  note=call.get("note"))


def storage_call(table_id: TableId, since: dict[str, Any]) -> TdCall:
    """The call for a storage episode that began after journal record `since["seq"]` (the
    controller's `storage_since`): numbered by that record, because the table's own calls live in
    the full journal (`<table id>/<round>/<board>/storage/<seq>`)."""
    key = TdCallKey(table_id, since["round"], since["board"], since["seq"], TdCallSeries.STORAGE)
    return TdCall(key=key, round=since["round"], board=since["board"], at=since["at"], reason=STORAGE_FULL,
                  note=STORAGE_NOTE)


def resolved(call: TdCall, at: float) -> TdCall:
    """The end of `call`: the same call, status resolved, at `at`."""
    return call.with_status("resolved", at)
