"""Which of the round's boards is on the table, and the round's end.

The players say which board is on the table (any of the round's boards, in any order: shared and
relayed boards); before its first call anyone may change it, after it only the director (PIN). A
board the movement does not give this table is refused before its first call (2007 L15, L17D;
2017 L15A, L15B). After a result the next board not yet played comes up; after the last, the
round ends (the `round_end` record and its handler are in `round_close.py`, with the
director's end of a round). A board's events make its table log (docs/table-log.md).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from tablet_app.control import board_engine
from tablet_app.control.director_pin import DirectorPin
from tablet_app.control.errors import Refused
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.state import TableState


def table_log(st: TableState, board: int | None = None) -> dict[str, Any]:
    """The board's table log (docs/table-log.md): one of this round's boards played or in play
    (default: the board in play, else the last one); Refused otherwise."""
    s = st.session
    if s is None or not st.board_events:
        raise Refused("no board has been played in this round yet", "board.none")
    n = board if board is not None else (st.current if st.current in st.board_events else list(st.board_events)[-1])
    if n not in st.board_events:
        raise Refused(f"board {n} has not been played in this round", "board.not_played", board=n)
    log: dict[str, Any] = {"profile": s.profile, "board": n}
    if s.policy is not None:
        log["policy"] = s.policy
    if s.no_alerts_by:
        log["no_alerts_by"] = list(s.no_alerts_by)
    if s.screens is not None:
        log["screens"] = s.screens  # the organiser's screens at this table: replay rules them too
    log["table"] = {"event": s.event, "section": s.section, "table": s.table, "round": s.round}
    log["events"] = [dict(e) for e in st.board_events[n]]
    return log


class BoardChoices(TypedDict):
    boards: list[int]
    played: list[int]
    current: int | None


class BoardBody(TypedDict):
    board: NotRequired[int]  # the board the players (or the TD) chose
    index: NotRequired[int]  # journals from before the choice took the round's boards in order
    started_at: float  # wall clock: the board's time starts here
    by: NotRequired[str | None]  # "players", "director", or None (the table's own next board)


class Boards:
    def __init__(self, st: TableState, tx: Transactions, pin: DirectorPin, clock: Callable[[], float]):
        self.st = st
        self.tx = tx
        self.pin = pin
        self.clock = clock

    def choices(self) -> BoardChoices:
        """The round's boards, those with a result here, and the board on the table."""
        s = self.st.session
        return {"boards": list(s.boards) if s else [], "played": self.st.played(), "current": self.st.board}

    def choose(self, n: Any, given_pin: str | None = None) -> None:
        st, s = self.st, self.st.session
        if s is None:
            raise Refused("no session yet: set up the round first", "board.no_session")
        if isinstance(n, str) and n.strip().isdigit():
            n = int(n.strip())
        if isinstance(n, bool) or not isinstance(n, int) or n not in s.boards:
            raise Refused(f"board {n} is not one of this round's boards at table {s.section}{s.table} "
                          f"({', '.join(map(str, s.boards))}): check the board in the tray "
                          "(2017 L15A, 2007 L15)", "board.not_in_round", board=n,
                          boards=",".join(map(str, s.boards)))
        if n in st.played():
            raise Refused(f"board {n} already has a result at this table", "board.played", board=n)
        if st.phase == "confirm":
            raise Refused("a result is waiting for East-West: confirm it first", "board.result_waiting")
        if n == st.board:
            return
        # round_end: a board whose result was withdrawn is taken up again, nothing is under way
        started = st.phase in ("frozen", "play") or (st.phase == "auction" and bool(st.engine_events))
        if started and given_pin is None:
            raise Refused("the auction has started: only the director can change the board", "board.started",
                          board=st.board)
        if started:
            self.pin.require(given_pin)
        self.tx.record("board", {"board": n, "started_at": self.clock(), "by": "director" if started else "players"})

    def next(self) -> None:
        """After a result: the next board not yet played, or the round's end."""
        st = self.st
        assert st.session is not None
        left = [b for b in st.session.boards if b not in st.played() and b != st.current]
        if left:
            self.tx.record("board", {"board": left[0], "started_at": self.clock(), "by": None})
        else:
            self.tx.record("round_end", {})


@handles("board")
def on_board(f: Fold, body: BoardBody) -> Effects:
    st = f.st
    assert st.session is not None
    n = body["board"] if "board" in body else st.session.boards[body["index"]]
    if n not in st.session.boards:
        raise ValueError(f"board {n} is not in the round")
    st.current = n
    st.board_started = float(body["started_at"])
    st.progress_seq = st.progress_of.get(n, 0)
    st.phase = "auction"
    st.entry = None
    st.last_t = 0.0
    st.released_t = 0.0
    board_engine.start(f)
    st.log.append({"what": "board", "board": st.board, "chosen_by": body.get("by")})
    return Effects(progress="bidding")
