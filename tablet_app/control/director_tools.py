"""The director's tools: rulings fed to the engine, and the results he adjusts, corrects, withdraws
or moves.

Each takes the PIN (or a `sign_in` token) first. A ruling is an engine event at the board's time;
the engine refuses what the Law does not allow then, with its law, as `Refused`, and nothing is
journalled. A changed result is a new revision of the board's result record
(`event/section/table/round/board/<revision>`), journalled and queued for the station in one
transaction, never an edit of the old one.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from shared_rules.profiles import Profile
from shared_rules.records import RecordError
from shared_rules.records.result import check_adjusted
from shared_rules.types import SEATS, Finding
from tablet_app import assigned, results
from tablet_app.control import td_calls
from tablet_app.control.auction import Auction
from tablet_app.control.boards import Boards
from tablet_app.control.director_pin import DirectorPin
from tablet_app.control.errors import Refused
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.result_entry import latest, next_revision
from tablet_app.control.state import EngineEvent, ResultRecord, TableState
from tablet_app.control.station_feed import StationFeed


class RecordBody(TypedDict):
    record: ResultRecord


class MovedBody(TypedDict):
    withdrawn: ResultRecord  # the revision that withdraws it from the board it was entered on
    record: ResultRecord  # the same play on the board it belongs to


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise Refused("say why (a few words for the scorer and the players)", "td.reason_missing")
    return reason.strip()[:200]


class DirectorTools:
    def __init__(self, st: TableState, tx: Transactions, pin: DirectorPin, auction: Auction, boards: Boards,
                 feed: StationFeed, clock: Callable[[], float], profile: Callable[[], Profile]):
        self.st = st
        self.profile = profile  # the round's regulation profile (who may weight: Law 12C1(c))
        self.tx = tx
        self.pin = pin
        self.auction = auction
        self.boards = boards
        self.feed = feed
        self.clock = clock

    # -- rulings: engine events ---------------------------------------------------------------
    def decide(self, given: str, choice: str, call: str | None = None, *, shown: list[str] | None = None,
               stop: bool = False) -> None:
        """The answer to the pending decision: one of its options (`call`: the replacement where
        the option needs one; `shown`: for `cancel_artificial`, 2007/2017 L29C, the denominations
        the artificial call showed; `stop`: the replacement was made with the stop card, FSB L116B)."""
        self.pin.require(given)
        pending = self.st.estate.get("pending")
        if not pending:
            raise Refused("there is no decision waiting for the director")
        ids = [o.get("id") for o in pending.get("options", [])]
        if choice not in ids:
            raise Refused(f"{choice!r} is not one of the options: {', '.join(map(str, ids))}")
        ev: EngineEvent = {"td": pending["kind"], "choice": choice}
        if call:
            ev["call"] = call
            if stop:
                ev["stop"] = True
        if shown is not None:
            ev["shown"] = list(shown) if isinstance(shown, list | tuple) else shown  # the engine checks it
        self.auction.td_event(ev)

    def correct_call(self, given: str, seat: str, call: str, stop: bool | None = None) -> None:
        """L25A (2007 L25A1-A4, FSB L112D; 2017 L25A1-A6): an unintended call replaced; the engine
        says when it is too late. `stop` None keeps what the replaced call had (FSB L116B)."""
        self.pin.require(given)
        if seat not in SEATS:
            raise Refused(f"unknown seat {seat!r}")
        if self.st.phase not in ("auction", "play"):
            raise Refused("a call can be corrected during the auction, or before the opening lead")
        ev: EngineEvent = {"td": Finding.CORRECT_CALL, "seat": seat, "call": call}
        if stop is not None:
            ev["stop"] = bool(stop)
        self.auction.td_event(ev)

    def cancel_board(self, given: str, reason: str) -> None:
        """2007 L15C: a call of the repeated auction differs from the first one: the engine stops
        the auction (`adjusted_score`) until the TD awards the score. The reason is journalled."""
        self.pin.require(given)
        why = _reason(reason)
        if self.st.phase not in ("auction", "frozen"):
            raise Refused("the board is cancelled during the auction (2007 L15C)")
        self.auction.td_event({"td": Finding.CANCEL_BOARD}, reason=why)

    def event(self, given: str, ev: EngineEvent, phases: tuple[str, ...], when: str) -> None:
        """A TD event the engine rules on (Law 24, 2007 L15C/L17D, 2017 L15A/L15B), in `phases`."""
        self.pin.require(given)
        if "seat" in ev and ev["seat"] not in SEATS:
            raise Refused(f"unknown seat {ev['seat']!r}")
        if self.st.phase not in phases:
            raise Refused(when)
        self.auction.td_event(ev)

    def attended(self, given: str) -> bool:
        """The director has seen to the calls from this table's boxes (he dismisses them on the
        console; signing in alone does not). True if there were any."""
        self.pin.require(given)
        if not td_calls.any_unattended(self.st):
            return False
        self.tx.record("td_attended", {"t": self.clock()})
        return True

    # -- results: new revisions ------------------------------------------------------------------
    def artificial_score(self, given: str, ns: str, ew: str, law: str) -> ResultRecord:
        """The board cannot be played normally: an artificial adjusted score (L12C2) instead of a
        result, queued like a result; the table moves on."""
        self.pin.require(given)
        st = self.st
        if st.session is None or st.board is None or st.phase not in ("auction", "frozen", "play", "confirm"):
            raise Refused("there is no board in play to adjust")
        rec = results.artificial_record(st.session.to_dict(), st.estate, st.board, ns, ew, law, self.clock(),
                                        next_revision(st, st.board))
        rec["td_calls"] = [dict(c) for c in td_calls.board_calls(st)]
        with self.tx.tx():
            self.feed.result(rec)
            self.tx.record("adjusted", {"record": rec})
            self.boards.next()
        return rec

    def assigned_score(self, given: str, board: int, ns: Any, ew: Any = None, *, reason: str | None = None,
                       by: str = "director") -> ResultRecord:
        """Law 12C1: the TD's assigned adjusted score for `board`, one outcome or several weighted
        (`ns`, and `ew` where the two sides get different scores: tablet_app/assigned.py). The
        board in play is replaced by it and the table moves on, as after an artificial score; a
        board with a result agreed this round gets it as the next revision of its record (the
        table's own result kept beside it; `reason` asked as for a correction). Journalled and
        queued for the station in one transaction; refused input changes nothing."""
        self.pin.require(given)
        st = self.st
        if st.session is None:
            raise Refused("there is no round at this table", "adjusted.no_board", board=board)
        block = assigned.block(ns, ew, self.profile())
        in_play = board == st.board and st.phase in ("auction", "frozen", "play", "confirm")
        if in_play:
            rec = results.ruled_record(st.session.to_dict(), st.estate, board, block, self.clock(),
                                       next_revision(st, board))
            rec["td_calls"] = [dict(c) for c in td_calls.board_calls(st)]
        else:
            why = _reason(reason)
            try:
                previous = latest(st, board)
            except Refused:
                raise Refused(f"board {board} is neither on the table nor played here this round",
                              "adjusted.no_board", board=board) from None
            rec = results.reruled_record(previous, block, self.clock())
            rec["correction"] = {"by": str(by)[:60], "reason": why, "previous": previous["key"], "law": block["law"]}
        try:
            check_adjusted(rec)  # the station's own check of the block (shared_rules.records)
        except RecordError as e:  # a block built here that the station would refuse: a bug, said
            raise Refused(f"the adjusted score cannot be sent: {e}", "adjusted.invalid") from None
        with self.tx.tx():
            self.feed.result(rec)
            if in_play:
                self.tx.record("adjusted", {"record": rec})
                self.boards.next()
            else:
                self.tx.record("reruled", {"record": rec})
        return rec

    def correct_result(self, given: str, board: int, tricks: int, lead: str | None = None, *,
                       reason: str | None = None, by: str = "director") -> ResultRecord:
        """Law 79C: the tricks of a result both sides agreed this round, corrected."""
        self.pin.require(given)
        why = _reason(reason)
        previous = latest(self.st, board)
        rec = results.corrected_record(previous, tricks, lead, self.clock())
        rec["correction"] = {"by": str(by)[:60], "reason": why, "previous": previous["key"], "law": "L79C"}
        with self.tx.tx():
            self.feed.result(rec)
            self.tx.record("correction", {"record": rec})
        return rec

    def withdraw_result(self, given: str, board: int, *, reason: str, by: str = "director") -> ResultRecord:
        """A result that should not stand: a revision marked `withdrawn` (the scoring program sees
        it deleted); the board can then be played again."""
        self.pin.require(given)
        why = _reason(reason)
        previous = latest(self.st, board)
        rec = results.withdrawn_record(previous, {"by": str(by)[:60], "reason": why, "previous": previous["key"]},
                                       self.clock())
        with self.tx.tx():
            self.feed.result(rec)
            self.tx.record("withdrawn", {"record": rec})
        return rec

    def move_result(self, given: str, board: int, to_board: int, *, reason: str,
                    by: str = "director") -> ResultRecord:
        """The result entered for `board` was the play of `to_board` (boards mixed up at the table:
        2007 L15, 2017 L15): withdrawn from `board`, recorded on `to_board` with that board's
        vulnerability, in one transaction."""
        self.pin.require(given)
        why = _reason(reason)
        st = self.st
        assert st.session is not None
        if not isinstance(to_board, int) or to_board not in st.session.boards:
            raise Refused(f"board {to_board} is not one of this round's boards "
                          f"({', '.join(map(str, st.session.boards))})", "board.not_in_round", board=to_board)
        if to_board in st.played():
            raise Refused(f"board {to_board} already has a result here: withdraw it first", "board.played",
                          board=to_board)
        if to_board == st.board and (st.phase in ("frozen", "play", "confirm") or st.engine_events):
            raise Refused(f"board {to_board} is being bid at the table", "board.in_play", board=to_board)
        previous = latest(st, board)
        note = {"by": str(by)[:60], "reason": why, "previous": previous["key"]}
        withdrawn = results.withdrawn_record(previous, {**note, "moved_to": to_board}, self.clock())
        rec = results.moved_record(previous, to_board, next_revision(st, to_board), {**note, "moved_from": board},
                                   self.clock())
        with self.tx.tx():
            self.feed.result(withdrawn)
            self.feed.result(rec)
            self.tx.record("moved", {"withdrawn": withdrawn, "record": rec})
            if st.phase == "auction" and st.board == to_board:
                self.boards.next()  # the board waiting at the table is the one just recorded
        return rec


@handles("adjusted")
def on_adjusted(f: Fold, body: RecordBody) -> Effects:
    st = f.st
    st.done.append(body["record"])
    st.entry = None
    st.phase = "play"  # until the next 'board' or 'round_end' record, in the same transaction
    st.log.append({"what": "adjusted", "board": st.board, **body["record"]["adjusted"]})
    return Effects(checkpoint=True)


@handles("correction")
def on_correction(f: Fold, body: RecordBody) -> None:
    rec = body["record"]
    f.st.done.append(rec)
    f.st.log.append({"what": "correction", "board": rec["board"], "key": rec["key"]})


@handles("reruled")
def on_reruled(f: Fold, body: RecordBody) -> None:
    """A result agreed this round replaced by the TD's adjusted score (Law 12C1), a new revision."""
    rec = body["record"]
    f.st.done.append(rec)
    f.st.log.append({"what": "reruled", "board": rec["board"], "key": rec["key"], "kind": rec["adjusted"]["kind"]})


@handles("withdrawn")
def on_withdrawn(f: Fold, body: RecordBody) -> Effects:
    rec = body["record"]
    f.st.done.append(rec)
    f.st.log.append({"what": "withdrawn", "board": rec["board"], "key": rec["key"]})
    return Effects(checkpoint=True)


@handles("moved")
def on_moved(f: Fold, body: MovedBody) -> Effects:
    st = f.st
    st.done.append(body["withdrawn"])
    st.done.append(body["record"])
    st.log.append({"what": "moved", "from": body["withdrawn"]["board"], "board": body["record"]["board"]})
    return Effects(checkpoint=True)
