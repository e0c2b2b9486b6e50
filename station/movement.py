"""One table's movement, as the tablet's session setup reads it (GET /api/v1/movement).

The source is the movement the scoring program sent through the Data Connector (InitializeEvent
or UpdateMovement, table `dc_rounds`). `--tables` only gives tables their keys, not pairs or
boards, so a section the scoring program has not initialised has no movement: `NoMovement`.

The shape is the one `tablet_app.session.from_station` reads:

    {"event", "section", "tables", "current_round",
     "rounds": {"<round>": {"<table>": {"ns", "ew", "boards", "next"}}}}

`next` says where this table's NS pair, EW pair and boards go in the following round, in the
shape of `tablet_app.movement.next_positions` (what the round-end screen shows).
"""
from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple


class NoMovement(LookupError):
    """No movement for this table: the section was not initialised, or the table is not in it."""


class Slot(NamedTuple):
    table: int
    round: int
    low_board: int
    high_board: int
    ns: int
    ew: int

    @property
    def boards(self) -> list[int]:
        # 0/0: the scoring program sent the round without boards (it may add them later).
        if self.low_board < 1 or self.high_board < self.low_board:
            return []
        return list(range(self.low_board, self.high_board + 1))


def section_slots(store: Any, event: str, section: str) -> list[Slot]:
    """The section's movement from the scoring program's latest session that has this section.
    Two sessions of one event with the same letters (an afternoon session re-using A): the one
    initialised last is the one being played."""
    rows = store.query(
        "SELECT m.session_guid, s.created_at, m.table_no, m.round_no, m.low_board, m.high_board, "
        "m.pair_ns, m.pair_ew FROM dc_rounds m JOIN dc_sessions s ON s.session_guid = m.session_guid "
        "WHERE s.event = ? AND m.section = ?", (event, section))
    if not rows:
        return []
    latest = max((r[1], r[0]) for r in rows)
    return [Slot(*(int(x) for x in r[2:])) for r in rows if (r[1], r[0]) == latest]


def played(store: Any, event: str, section: str, table_no: int) -> set[tuple[int, int]]:
    """(round, board) pairs this table has a result for at the station."""
    return {(int(it["payload"]["round"]), int(it["payload"]["board"]))
            for it in store.items(event, "result", section=section, table_no=table_no)}


def for_table(store: Any, event: str, section: str, table_no: int) -> dict[str, Any]:
    return table_movement(event, section, table_no, section_slots(store, event, section),
                          played(store, event, section, table_no))


def table_movement(event: str, section: str, table_no: int, slots: Iterable[Slot],
                   done: AbstractSet[tuple[int, int]] = frozenset()) -> dict[str, Any]:
    """Pure: the section's slots -> this table's movement dict. `done` holds the (round, board)
    results the table already sent, to say which round it is on (`current_round`: the first
    round with a board still to play; null when every round is complete)."""
    slots = list(slots)
    if not slots:
        raise NoMovement(f"no movement yet for section {section}: the scoring program has not "
                         "initialised it through the Data Connector (or type the setup in at the table)")
    mine = sorted((s for s in slots if s.table == table_no), key=lambda s: s.round)
    if not mine:
        tables = sorted({s.table for s in slots})
        raise NoMovement(f"table {section}{table_no} is not in the scoring program's movement of section "
                         f"{section} (tables {', '.join(map(str, tables))})")
    by_round: dict[int, list[Slot]] = {}
    for s in slots:
        by_round.setdefault(s.round, []).append(s)
    rounds = sorted(by_round)
    mitchell = _mitchell_numbering(by_round)
    out: dict[str, dict[str, Any]] = {}
    for s in mine:
        later = [r for r in rounds if r > s.round]
        nxt = _next(s, by_round[later[0]], mitchell) if later else {"last_round": True}
        out[str(s.round)] = {str(table_no): {"ns": s.ns, "ew": s.ew, "boards": s.boards, "next": nxt}}
    current = next((s.round for s in mine if any((s.round, b) not in done for b in s.boards)), None)
    return {"event": event, "section": section, "tables": max(s.table for s in slots),
            "current_round": current, "rounds": out}


def numbered_per_direction(pairings: Iterable[tuple[Any, int, int]]) -> bool:
    """(round, ns, ew) of every table-round -> True when pair numbers are per direction. In a
    Mitchell NS 3 and EW 3 are two pairs, so a number on both sides in one round says so; in a
    Howell a number is one pair, who may change direction between rounds. The movement (next
    positions) and the exports (pair ids for scoring) both decide by this."""
    sides: dict[Any, tuple[set[int], set[int]]] = {}
    for rnd, ns, ew in pairings:
        ns_set, ew_set = sides.setdefault(rnd, (set(), set()))
        if ns:
            ns_set.add(ns)
        if ew:
            ew_set.add(ew)
    return any(ns_set & ew_set for ns_set, ew_set in sides.values())


def _mitchell_numbering(by_round: dict[int, list[Slot]]) -> bool:
    return numbered_per_direction((r, s.ns, s.ew) for r, slots in by_round.items() for s in slots)


def _next(s: Slot, following: list[Slot], mitchell: bool) -> dict[str, Any]:
    following = sorted(following, key=lambda x: x.table)

    def where(pair: int, seat: str) -> dict[str, Any]:
        for f in following:
            for n, fseat in ((f.ns, "NS"), (f.ew, "EW")):
                if n == pair and (fseat == seat or not mitchell):
                    return {"pair": pair, "table": f.table, "seat": fseat}
        return {"pair": pair, "table": None, "seat": None, "sits_out": True}

    boards = s.boards
    to = next((f.table for f in following if boards and f.boards == boards), None)
    return {"ns": where(s.ns, "NS"), "ew": where(s.ew, "EW"), "boards": {"boards": boards, "table": to}}
