"""The result: North enters the tricks (and the lead), East-West confirm (FSB 98A), and the board's
traveller once the station has the table's own result (2007 L16C1, 2017 L16D1).

Contract and declarer come from the engine; the score is shown before East-West confirm. On their
confirmation the result record is journalled and queued in one transaction, then the next board
starts or the round ends; "not agreed" sends it back to North.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from tablet_app import results, traveller
from tablet_app.control import td_calls
from tablet_app.control.boards import Boards
from tablet_app.control.errors import Refused
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.state import Entry, ResultRecord, TableState
from tablet_app.control.station_feed import StationFeed


class Preview(TypedDict):
    """The result as North entered it, for East-West to confirm (`snapshot()["result"]`)."""

    board: int | None
    contract: str
    declarer: str | None
    vulnerability: str | None
    tricks: int | None
    lead: str | None
    label: str
    score_ns: NotRequired[int]


class Traveller(TypedDict):
    board: int
    round: int | None
    key: str
    rows: list[dict[str, Any]]


class TravellerView(TypedDict):
    """`snapshot()["traveller"]`: the board's results at every table, and the pairs' running scores."""

    board: int
    rows: list[dict[str, Any]]
    recap: dict[str, Any] | None


class ConfirmBody(TypedDict):
    accepted: bool
    record: NotRequired[ResultRecord]


def latest(st: TableState, board: Any) -> ResultRecord:
    """The board's standing result this round; Refused if it has none (or it was withdrawn)."""
    recs = [r for r in st.done if r["board"] == board]
    if not recs or recs[-1].get("withdrawn"):
        raise Refused(f"board {board} has no result at this table this round", "board.no_result", board=board)
    return recs[-1]


def next_revision(st: TableState, board: int) -> int:
    """The revision a new record of `board` this round takes: 1, or one past the last (a board
    whose result was withdrawn or moved away and is then played again must not reuse the key the
    station already holds with the old content)."""
    return results.next_revision(st.done, board)


class ResultEntry:
    def __init__(self, st: TableState, tx: Transactions, boards: Boards, feed: StationFeed,
                 clock: Callable[[], float]):
        self.st = st
        self.tx = tx
        self.boards = boards
        self.feed = feed
        self.clock = clock
        # The station's travellers of boards this table has played, fetched at the I/O edge after
        # its own result was stored there (set_traveller): memory only, the station keeps them.
        self.travellers: dict[int, Traveller] = {}

    def enter(self, tricks: int | None, lead: str | None = None) -> Preview:
        st = self.st
        if st.phase not in ("play", "confirm"):
            raise Refused("the result can be entered when the auction is over")
        if st.phase == "confirm":
            raise Refused("a result is already waiting for East-West to confirm")
        assert st.session is not None
        asked = st.session.setting("lead_entry")
        if asked == "none":
            lead = None  # the club does not ask for the lead (Bridgemate setting)
        tricks, lead = results.check_entry(st.estate, tricks, lead)
        if lead is None and asked in ("enter", "validate") and results.contract_of(st.estate)[0] != "PASS":
            raise Refused("enter the opening lead: the club's settings ask for it", "result.lead_missing")
        self.tx.record("result", {"tricks": tricks, "lead": lead, "entered_at": self.clock()})
        return self.preview() or {}  # type: ignore[return-value]  # "confirm" always has a preview

    def preview(self) -> Preview | None:
        st = self.st
        if st.phase not in ("play", "confirm") or not st.estate:
            return None
        contract, declarer = results.contract_of(st.estate)
        tricks = st.entry["tricks"] if st.entry else None
        preview: Preview = {
            "board": st.board,
            "contract": contract,
            "declarer": declarer,
            "vulnerability": st.estate.get("vulnerability"),
            "tricks": tricks,
            "lead": st.entry["lead"] if st.entry else None,
            "label": results.tricks_label(contract, tricks),
        }
        if st.entry is not None:
            preview["score_ns"] = results.compute_score(st.estate, tricks)
        return preview

    def confirm(self, accepted: bool = True) -> ResultRecord | None:
        """East-West confirm (FSB 98A): the result is journalled and queued in one transaction."""
        st = self.st
        if st.phase != "confirm" or st.entry is None or st.session is None or st.board is None:
            raise Refused("there is no result waiting for East-West")
        if not accepted:
            self.tx.record("confirm", {"accepted": False})
            return None
        entry = st.entry
        rec = results.record(st.session.to_dict(), st.estate, st.board, entry["tricks"], entry["lead"],
                             entry["entered_at"], next_revision(st, st.board))
        rec["td_calls"] = [dict(c) for c in td_calls.board_calls(st)]  # as they stand now
        with self.tx.tx():
            self.feed.result(rec)
            self.tx.record("confirm", {"accepted": True, "record": rec})
            self.boards.next()
        return rec

    # -- the traveller (Bridgemate settings) ---------------------------------------------------
    def own_result(self, key: str) -> ResultRecord | None:
        """The table's own confirmed (or adjusted) result stored under `key`, if it is the board's
        latest and not withdrawn."""
        rec = next((r for r in self.st.latest_results().values() if r.get("key") == key), None)
        return None if rec is None or rec.get("withdrawn") else rec

    def set_traveller(self, key: str, rows: list[dict[str, Any]]) -> bool:
        """The station's results of the board this table's result `key` was on. Ignored (False) for
        a key that is not the table's own standing result, or when the club shows no other results."""
        s = self.st.session
        own = self.own_result(key)
        if s is None or own is None or s.setting("show_results") not in ("all", "round_end"):
            return False
        if not any(r.get("table") == s.table and r.get("section") == s.section for r in rows):
            return False  # the station's copy lacks our own result: not the board we played
        entry: Traveller = {"board": own["board"], "round": own.get("round"), "key": key,
                            "rows": traveller.rows(rows)}
        # a new dict, not an edit: a published snapshot may hold the old one
        self.travellers = {**self.travellers, own["board"]: entry}
        return True

    def traveller_view(self) -> TravellerView | None:
        """The last board of this round with a result and a traveller, when the club's
        `show_results` shows it now; with `score_recap` the pairs' running scores."""
        st, s = self.st, self.st.session
        if s is None or not traveller.shown(s.setting("show_results"), st.phase):
            return None
        held = self.travellers
        latest_recs = st.latest_results()  # a withdrawn or corrected board: its last revision
        boards = [b for b, r in latest_recs.items() if b in held and held[b]["key"] == r["key"]]
        if not boards:
            return None
        t = held[boards[-1]]
        out: TravellerView = {"board": t["board"], "rows": [dict(r) for r in t["rows"]], "recap": None}
        if s.setting("score_recap"):
            lines = {b: v["rows"] for b, v in held.items()}
            out["recap"] = {"ns": traveller.running_score(lines, s.ns_pair, "NS", s.per_direction),
                            "ew": traveller.running_score(lines, s.ew_pair, "EW", s.per_direction)}
        return out


@handles("result")
def on_result(f: Fold, body: Entry) -> Effects:
    st = f.st
    st.entry = {"tricks": body["tricks"], "lead": body["lead"], "entered_at": body["entered_at"]}
    st.phase = "confirm"
    st.log.append({"what": "result", "board": st.board, **body})
    return Effects(progress="entering_result")


@handles("confirm")
def on_confirm(f: Fold, body: ConfirmBody) -> Effects | None:
    st = f.st
    st.entry = None
    st.phase = "play"  # until the next 'board' or 'round_end' record
    if not body["accepted"]:
        st.log.append({"what": "disputed", "board": st.board})
        return None
    rec = body["record"]
    st.done.append(rec)
    st.log.append({"what": "confirmed", "board": st.board, "score_ns": rec["score_ns"]})
    return Effects(checkpoint=True)
