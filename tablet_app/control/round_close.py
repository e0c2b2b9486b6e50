"""The director ends the table's round from the console and moves it to the next one.

A round ends when the director says so (2007 and 2017 Law 8B1: "a round ends when the Director
gives the signal for the start of the following round"), and the movement he gives is his
instruction how players and boards move (Law 8A1). The players move on by themselves only after
the round's last board (`TableSetup.next_round`); the director may end it at any point, with the
PIN or his sitting's token, in one input: the round's end and the next round's setup are
journalled in one transaction, with the next round's `round` item for the station (`by:
director`), the item the players' own move sends, which opens that round at the station's Law 16
gate (docs/station.md).

What the round leaves without a result from this table (docs/laws/choices.md #42): the board in
play (its auction, its play, or a result North entered that East-West had not confirmed) is
abandoned, and a board not started stays unplayed. The tablet sends no result and no score for
them: the director awards the adjusted score (2007 and 2017 Law 12C) in the scoring program,
where he knows whose fault the lack of time was, or has a postponed board played later (Law 8B2).
The `round_end` record names them, and the tablet's log keeps them.

A ruling the director has not finished (docs/laws/choices.md #42, its last paragraph): while the
table waits for him (a pending decision of Laws 25-39, L9B2, or an auction the engine stopped for
an adjusted score he has not awarded) the end is refused unless he says he leaves the ruling
(`leave_ruling`), as the console does only after showing it; the `round_end` record then names
the ruling as it stood (`ruling`: its board, kind, Law, offender, who it waited for).
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from shared_rules.types import Status
from tablet_app.control.director_pin import DirectorPin
from tablet_app.control.errors import Refused
from tablet_app.control.journal_tx import Transactions
from tablet_app.control.reducer import Effects, Fold, handles
from tablet_app.control.setup import TableSetup
from tablet_app.control.state import TableState
from tablet_app.session import Session


class Ruling(TypedDict):
    """A ruling the director has not finished on the board in play: the engine's pending decision
    (`kind` a `shared_rules.types.Decision`, `asks` "td" or "lho": the offender's LHO may still
    call over it), or `kind` "adjusted_score" when the engine stopped the auction for an adjusted
    score he has not awarded (`asks` "td"; `law` the engine's)."""

    board: int
    kind: str
    law: str
    seat: str | None  # the offender
    asks: str
    call: str | None  # the irregular call


class Unfinished(TypedDict):
    """What the round leaves without a result from this table if it ends now."""

    round: int
    in_play: int | None  # the board on the table with calls, play or an unconfirmed result
    without_result: list[int]  # every board of the round without a standing result (in_play too)
    ruling: Ruling | None  # a ruling not finished on the board in play


def pending_ruling(st: TableState) -> Ruling | None:
    """The ruling the table waits for on the board in play (the table is frozen), if any."""
    if st.phase != "frozen" or st.board is None:
        return None
    pending = st.estate.get("pending")
    if pending:
        return {"board": st.board, "kind": str(pending["kind"]), "law": str(pending.get("law") or ""),
                "seat": pending.get("seat"), "asks": str(pending.get("asks") or "td"), "call": pending.get("call")}
    if st.estate.get("status") != Status.ADJUSTED_SCORE:
        return None
    adjusted = st.estate.get("adjusted_score") or {}
    # the auction stopped for an adjusted score (2007 L17D2, L15C; 2017 L15A2(a), L15B1)
    return {"board": st.board, "kind": "adjusted_score", "law": str(adjusted.get("law") or ""),
            "seat": None, "asks": "td", "call": None}


class RoundEndBody(TypedDict, total=False):
    """A `round_end` record: empty when the round's last board ended it; the director's end
    says so and names what it left (older journals have the empty body only)."""

    by: str  # "director"
    in_play: int | None
    without_result: list[int]
    ruling: NotRequired[Ruling]  # the ruling he left unfinished, only when there was one


class RoundClose:
    def __init__(self, st: TableState, tx: Transactions, pin: DirectorPin, setup: TableSetup):
        self.st = st
        self.tx = tx
        self.pin = pin
        self.setup = setup

    def unfinished(self) -> Unfinished | None:
        """The round's boards the director's end would leave without a result; None before a
        setup."""
        st, s = self.st, self.st.session
        if s is None:
            return None
        played = set(st.played())
        started = st.phase in ("frozen", "play", "confirm") or (st.phase == "auction" and bool(st.engine_events))
        in_play = st.board if started and st.board not in played else None
        return {"round": s.round, "in_play": in_play, "without_result": [b for b in s.boards if b not in played],
                "ruling": pending_ruling(st)}

    def end(self, given: str, session: Session | None = None, leave_ruling: bool = False) -> None:
        """The director ends the round (`given`: the PIN or his sitting's token) and, with
        `session`, starts that round, the table's next (refused, nothing journalled: another
        table's round, `round.other_table`; not after this one, `round.not_next`; a setup the
        station refuses, SetupError). Without `session` the table waits at the round's end for
        the director's setup. A round already over moves on with `session` alone. While a ruling
        is not finished (`unfinished()["ruling"]`) it is refused, `round.ruling_pending`, unless
        `leave_ruling`: the director has seen it and ends the round without it."""
        self.pin.require(given)
        st = self.st
        left = self.unfinished()
        if left is None:
            raise Refused("there is no round to end: set the table up first", "round.none")
        if session is None and st.phase == "round_end":
            raise Refused("the round is over already: set up the next round", "round.ended")
        ruling = left["ruling"]
        if ruling is not None and not leave_ruling:
            raise Refused(f"a ruling is not finished on board {ruling['board']}: {ruling['kind'].replace('_', ' ')} "
                          f"({ruling['law']}); finish it first, or end the round leaving it",
                          "round.ruling_pending", board=ruling["board"], kind=ruling["kind"], law=ruling["law"])
        prepared = None
        if session is not None:
            self.setup.check_next(session)
            prepared = self.setup.prepare(session)  # the station's check, before the transaction
        with self.tx.tx():
            if st.phase != "round_end":
                body: RoundEndBody = {"by": "director", "in_play": left["in_play"],
                                      "without_result": left["without_result"]}
                if ruling is not None:
                    body["ruling"] = ruling
                self.tx.record("round_end", dict(body))
            if prepared is not None:
                self.setup.start(prepared, "director")


@handles("round_end")
def on_round_end(f: Fold, body: dict[str, Any]) -> Effects:
    """The round is over: after its last board, or when the director ended it. Ended while the
    table waited for his ruling (which he chose to leave: the body's `ruling`, kept in the log),
    the table's own call is resolved with it (`reducer.apply`: the table is no longer frozen); the
    boxes' calls stay open until he dismisses them."""
    st = f.st
    st.phase = "round_end"
    st.current = None
    st.log.append({"what": "round_end", **body})
    return Effects(checkpoint=True)
