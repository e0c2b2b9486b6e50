"""What the live feed needs to know of a board besides its auction, read from the station's store:
the players at the table, its room in a team match, which tables must finish the board before its
deal may be shown, and the deal itself (the scoring program's hand records).

Read at most every `TTL` seconds per session (the TD may set a match while the feed runs); a
store that cannot answer gives what is known (no names, no deal), never an error: the feed's
spectators are not the station's business to fail.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from shared_rules.types import SEATS

from . import exports, match_store, movement
from .matches import Match, Room
from .session_scope import SessionScope, scope

TTL = 10.0
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass
class SessionFacts:
    """One session (a tablet event id) as the feed reads it."""

    scope: SessionScope
    slots: dict[str, list[movement.Slot]] = field(default_factory=dict)   # section -> its movement
    matches: list[Match] = field(default_factory=list)
    deals: dict[tuple[str, int], str] = field(default_factory=dict)
    seats: dict[str, tuple[Any, dict]] = field(default_factory=dict)
    read_at: float = 0.0


class LiveContext:
    """The store's facts per session, cached. Thread-safe."""

    def __init__(self, store: Any, profile: str | None = None):
        self.store = store
        self.profile = profile
        self._lock = threading.Lock()
        self._sessions: dict[str, SessionFacts] = {}

    def session(self, tablet_event: str) -> SessionFacts:
        with self._lock:
            facts = self._sessions.get(tablet_event)
            if facts is not None and time.monotonic() - facts.read_at < TTL:
                return facts
        facts = self._read(tablet_event)
        with self._lock:
            self._sessions[tablet_event] = facts
        return facts

    def _read(self, tablet_event: str) -> SessionFacts:
        try:
            sc = scope(self.store, tablet_event)
        except Exception:  # noqa: BLE001 - a session the store cannot say: the tablet's own id
            sc = SessionScope(tablet_event=tablet_event, station_event=tablet_event)
        facts = SessionFacts(sc, read_at=time.monotonic())
        if sc.guid is None:
            return facts
        try:
            facts.slots = {s: movement.session_slots(self.store, sc.guid, s) for s in sc.sections}
            facts.matches = match_store.session_matches(self.store, sc.guid).matches
            facts.deals = exports.deals(self.store, sc)
            facts.seats = exports.seats(self.store, sc)
        except Exception:  # noqa: BLE001 - what could be read stays; the rest is unknown
            pass
        return facts

    # -- one board at one table -------------------------------------------------------------
    def players(self, tablet_event: str, section: str, table: int, round_no: int) -> dict[str, str]:
        """Seat -> name (the scoring program's players), else the pair numbers, else the seat: in
        English, as the LIN files write them (the page says them from `seating` in its language)."""
        names, pairs = self.seating(tablet_event, section, table, round_no)
        out = {}
        for seat in SEATS:
            if seat in names:
                out[seat] = names[seat]
            elif pairs is not None:
                out[seat] = f"{SEAT_NAMES[seat]} (pair {pairs['NS' if seat in 'NS' else 'EW']})"
            else:
                out[seat] = SEAT_NAMES[seat]
        return out

    def seating(self, tablet_event: str, section: str, table: int,
                round_no: int) -> tuple[dict[str, str], dict[str, int] | None]:
        """(seat -> name, for the seats the scoring program names; the pair numbers by side, "NS"
        and "EW", when the movement seats pairs at this table in this round, else None)."""
        facts = self.session(tablet_event)
        slot = next((s for s in facts.slots.get(section, []) if (s.table, s.round) == (table, round_no)), None)
        names: dict[str, str] = {}
        if slot is not None and section in facts.seats:
            try:
                people = facts.seats[section][0](section, table, round_no, slot.ns, slot.ew)
                names = {seat: p["full_name"] for seat, p in people.items() if p}
            except Exception:  # noqa: BLE001 - no names: the pair numbers
                names = {}
        return names, ({"NS": slot.ns, "EW": slot.ew} if slot is not None else None)

    def match_of(self, tablet_event: str, section: str, table: int, round_no: int) -> tuple[Match, str] | None:
        """The team match this table plays in that round and its room ("Open" or "Closed")."""
        room = Room(section, table, round_no)
        for m in self.session(tablet_event).matches:
            label = m.room_of(room)
            if label is not None:
                return m, label
        return None

    def comparison(self, tablet_event: str, section: str, table: int, round_no: int,
                   board: int) -> set[tuple[str, int, int]]:
        """Every (section, table, round) that plays this board and must have finished it before its
        deal and results are shown: both rooms of a team match; else every table of the session's
        movement that plays the board; without a movement, this table alone."""
        here = (section, table, round_no)
        facts = self.session(tablet_event)
        found = self.match_of(tablet_event, section, table, round_no)
        if found is not None:
            m = found[0]
            for seg in m.segments:
                rooms = {(x.room.section, x.room.table, x.room.round) for x in (seg.open, seg.closed)}
                if here in rooms and board in seg.boards:
                    return rooms
        groups = facts.scope.sections
        group = groups.get(section)
        out = {here}
        for sec, slots in facts.slots.items():
            if sec != section and (group is None or groups.get(sec) != group):
                continue
            out |= {(sec, s.table, s.round) for s in slots if s.low_board <= board <= s.high_board}
        return out

    def deal(self, tablet_event: str, section: str, board: int) -> str | None:
        return self.session(tablet_event).deals.get((section, board))
