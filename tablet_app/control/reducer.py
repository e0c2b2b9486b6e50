"""The reducer: one function per journal record kind, and what applying a record means for the station.

A part that journals a record kind defines its handler beside the code that writes it, with
`@handles("kind")`; `apply` finds it here. The live path (`journal_tx.Transactions.record`) and
the replay at start call the same `apply`, so a restarted tablet is the table that was played.

A handler changes `Fold.st` and nothing else (no I/O): what must happen exactly once for a record
(an item for the station, a checkpoint) it returns as `Effects`, which only the live path acts on.
Which changes give the station an item is decided here, for replay and live alike, so the item
numbers a restarted tablet uses continue where they were.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tablet_app.control.state import Rules, TableState

Due = tuple[int, str]  # (director call number, "launched" | "resolved")


@dataclasses.dataclass
class Effects:
    """What the live path does after a record is applied, in the same transaction."""

    progress: str | None = None  # an "auction" item for the station's director page (its phase)
    td: list[Due] = dataclasses.field(default_factory=list)  # director call items
    checkpoint: bool = False  # a safe point: the WAL is folded into the main file after the commit


NOTHING = Effects()


@dataclasses.dataclass
class Fold:
    """What a record is applied to: the table, where its engines come from, and whether this is
    the replay at start (which builds an engine's state only when something reads it)."""

    st: TableState
    rules: Rules
    replaying: bool = False


Handler = Callable[[Fold, Any], Effects | None]
HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the handler of journal records of `kind` (one per kind)."""

    def register(fn: Handler) -> Handler:
        if kind in HANDLERS:
            raise ValueError(f"journal record kind {kind!r} has two handlers")
        HANDLERS[kind] = fn
        return fn

    return register


def apply(f: Fold, kind: str, body: dict[str, Any]) -> Effects:
    """Apply one journal record. Raises (KeyError, ValueError, ...) for a record it cannot apply;
    the replay reports it as JournalDamaged, the live path as a refusal."""
    handler = HANDLERS.get(kind)
    if handler is None:
        raise ValueError(f"unknown journal record kind {kind!r}")
    st = f.st
    before = st.phase
    fx = handler(f, body) or NOTHING
    if st.phase == before and fx is NOTHING:
        return NOTHING  # nearly every record: no progress step, no director call, no safe point
    if fx is NOTHING:
        fx = Effects()
    if fx.progress is not None:
        st.progress_seq += 1
        if st.current is not None:
            st.progress_of[st.current] = st.progress_seq
    # The director calls the station follows (open on its director page until resolved).
    if st.phase == "frozen" and before != "frozen":
        fx.td.append(_table_calls_the_director(st, body))
    elif before == "frozen" and st.phase != "frozen":
        fx.td.extend(resolve(st, lambda c: bool(c.get("auto"))))
    return fx


def _table_calls_the_director(st: TableState, body: dict[str, Any]) -> Due:
    """An irregularity froze the table: the tablet itself calls the director."""
    pending = st.estate.get("pending") or {}
    reason = pending.get("kind") or st.estate.get("status")
    law = pending.get("law") or st.estate.get("status_law")
    note = str(reason).replace("_", " ") + (f" ({law})" if law else "")  # for the director page
    st.td_calls.append({"seat": None, "t": (body.get("ev") or {}).get("t"), "board": st.board,
                        "reason": reason, "note": note, "auto": True, "place": st.place()})
    return (len(st.td_calls), "launched")


def resolve(st: TableState, which: Callable[[Any], bool]) -> list[Due]:
    """Mark the open calls `which` selects resolved. Each is replaced, never edited: a result
    record or a published snapshot holding the call keeps it as it stood."""
    due: list[Due] = []
    for n, c in enumerate(st.td_calls, 1):
        if c.get("status") != "resolved" and which(c):
            st.td_calls[n - 1] = {**c, "status": "resolved"}
            due.append((n, "resolved"))
    return due
