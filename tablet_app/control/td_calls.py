"""The calls for the director: a box's TD key, UNDO after a confirmed call (Law 25), a wrong PIN,
and the table's own call when an irregularity freezes it (`reducer.apply`).

Every call of the session is numbered from 1 (the station's key) and stays open on the station's
director page until it is resolved: the table's own call when the table is no longer frozen, the
others when the director has seen to them on this table's console (`td_attended`), also after the
table has moved on to the next round (calls outlive the round in the journal).
"""
from __future__ import annotations

from typing import TypedDict, cast

from tablet_app.control.reducer import Effects, Fold, handles, resolve
from tablet_app.control.state import BoxId, TableState, TdCall


class TdCallBody(TypedDict, total=False):
    """A `td_call` record: a box's TD key, or its UNDO after a confirmed call."""

    seat: str
    t: float
    board: int | None
    box: BoxId | None
    reason: str  # "change_of_call" for UNDO; none for the TD key


class AttendedBody(TypedDict):
    t: float  # wall clock


def board_calls(st: TableState) -> list[TdCall]:
    """Director calls made on the board in play (calls of earlier rounds are kept too)."""
    return [c for c in st.td_calls if c.get("board") == st.board and c["place"] == st.place()]


def open_calls(st: TableState) -> list[TdCall]:
    """Director calls from the boxes of the board in play not yet attended, newest last (for
    the console; the tablet's own calls at an irregularity are the console's subject)."""
    return [c for c in board_calls(st) if not c.get("auto") and not c.get("pin") and c.get("status") != "resolved"]


def held(st: TableState) -> bool:
    """The auction waits for the director: a box called him (TD key, or UNDO after a confirmed
    call) on the board in play, and he has not yet dismissed the call (`td_attended`)."""
    return st.phase in ("auction", "frozen") and bool(open_calls(st))


def any_unattended(st: TableState) -> bool:
    return any(not c.get("auto") and c.get("status") != "resolved" for c in st.td_calls)


@handles("td_call")
def on_td_call(f: Fold, body: TdCallBody) -> Effects | None:
    st = f.st
    st.td_calls.append(cast(TdCall, {**body, "place": st.place()}))
    st.log.append({"what": "td_call", "board": st.board, **body})
    return Effects(td=[(len(st.td_calls), "launched")]) if st.session is not None else None


@handles("td_attended")
def on_td_attended(f: Fold, body: AttendedBody) -> Effects:
    st = f.st
    if st.current is not None:
        st.released_t = max(0.0, round(float(body["t"]) - st.board_started, 2))
    st.log.append({"what": "td_attended", "board": st.board, "t": body["t"]})
    return Effects(td=resolve(st, lambda c: not c.get("auto")))
