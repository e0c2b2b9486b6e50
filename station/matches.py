"""Team matches: which two tables play a match, which room is open, which team is home.

A match is known in one of two ways (docs/station.md "Team matches"):
- from the scoring program's movement: a teams section (Data Connector SectionDTO GameType 30)
  whose RoundDTOs name the teams (`TeamNS`, `TeamEW`, else the pair numbers, which Bridgemate
  movements of a teams section give as team numbers) and, optionally, the table where the
  teammates play the same boards (`MatesTableSectionLetters`, `MatesTableTableNumber`,
  `MatesTableRoundNumber`); without that, the other room is the table where the same two teams
  sit the other way round on the same boards;
- from the TD (`python -m station match`): two tables named as open and closed room, or a whole
  section declared a teams section (a `.bws` has no field that says so: its `RoundData` pairs
  are the team numbers, as TabScore reads them).

The home team is the team sitting North-South at the first table of the match (by section,
then table) unless the TD names it; the open room is the one where the home team sits
North-South (FSB 104A) unless the TD names the rooms (FSB 110A: the TD says which room is
closed). Pure functions here; the store's rows are read by `station/match_store.py`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .notices import Notice, NoticeCode

C = NoticeCode


class MatchError(ValueError):
    """A match the tables cannot play as one: the rooms play different boards, a team sits in
    only one room, a table named twice. Nothing is stored. `notice`: the code and values the
    director page says in the TD's language (station/notices.py); None for the TD's command's
    own errors (its output is English)."""

    def __init__(self, why: Notice | str):
        super().__init__(str(why))
        self.notice = why if isinstance(why, Notice) else None


@dataclass(frozen=True, order=True)
class Room:
    """One table in one round: where one half of a board's comparison is played."""

    section: str
    table: int
    round: int

    @property
    def name(self) -> str:
        return f"{self.section}{self.table}"

    def text(self) -> str:
        return f"table {self.section}{self.table} round {self.round}"

    def at(self, prefix: str = "") -> dict[str, str | int]:
        """The room as a notice's parameters (`room`, `round`; `prefix` for another room's)."""
        return {(prefix + "_round" if prefix else "round"): self.round, (prefix or "room"): self.name}


@dataclass(frozen=True)
class TeamSlot:
    room: Room
    boards: tuple[int, ...]
    team_ns: int
    team_ew: int
    mates: Room | None = None  # the Data Connector's MatesTable*: where the teammates play these boards

    @property
    def teams(self) -> tuple[int, int]:
        return (self.team_ns, self.team_ew)


@dataclass(frozen=True)
class Segment:
    """The same boards in both rooms."""

    open: TeamSlot
    closed: TeamSlot

    @property
    def boards(self) -> tuple[int, ...]:
        return self.open.boards


@dataclass(frozen=True)
class Match:
    home: int
    away: int
    segments: tuple[Segment, ...]
    source: str = "movement"  # "movement" or "td"

    @property
    def boards(self) -> list[int]:
        return sorted({b for s in self.segments for b in s.boards})

    @property
    def ident(self) -> str:
        """Stable name: the open and closed tables of its first segment and its teams."""
        s = self.segments[0]
        return f"{s.open.room.name}-{s.closed.room.name}:{self.home}v{self.away}"

    def rooms(self) -> set[Room]:
        return {x.room for s in self.segments for x in (s.open, s.closed)}

    def tables(self) -> set[tuple[str, int]]:
        return {(r.section, r.table) for r in self.rooms()}

    def home_ns(self, seg: Segment) -> tuple[TeamSlot, TeamSlot]:
        """(slot where the home team sits NS, slot where it sits EW)."""
        return (seg.open, seg.closed) if seg.open.team_ns == self.home else (seg.closed, seg.open)

    def room_of(self, room: Room) -> str | None:
        """"Open" or "Closed" for one of its rooms."""
        for s in self.segments:
            if s.open.room == room:
                return "Open"
            if s.closed.room == room:
                return "Closed"
        return None


ROOM_RE = re.compile(r"^([A-Z]{1,3})(\d{1,3})$")


def parse_room(text: str) -> tuple[str, int]:
    """"A1" -> ("A", 1): a table named as on the director page."""
    m = ROOM_RE.match(text.strip().upper())
    if not m:
        raise MatchError(f"{text!r} is not a table: give section letters and table number, e.g. A1 or B12")
    return m.group(1), int(m.group(2))


def _check_pair(a: TeamSlot, b: TeamSlot) -> None:
    if a.boards != b.boards:
        raise MatchError(Notice.of(C.MATCH_BOARDS_DIFFER, **a.room.at(), boards=_boards(a.boards), **b.room.at("other"),
                                   other_boards=_boards(b.boards), ns=a.team_ns, ew=a.team_ew))
    if (b.team_ns, b.team_ew) != (a.team_ew, a.team_ns):
        only_a = sorted(set(a.teams) - set(b.teams))
        only_b = sorted(set(b.teams) - set(a.teams))
        if only_a or only_b:
            raise MatchError(Notice.of(C.MATCH_ONE_ROOM, **a.room.at(), ns=a.team_ns, ew=a.team_ew,
                                       **b.room.at("other"), other_ns=b.team_ns, other_ew=b.team_ew,
                                       teams=only_a + only_b))
        raise MatchError(Notice.of(C.MATCH_NS_TWICE, team=a.team_ns, **a.room.at(), **b.room.at("other")))


def _boards(bs: Sequence[int]) -> str:
    return f"{bs[0]}-{bs[-1]}" if bs and list(bs) == list(range(bs[0], bs[-1] + 1)) else ", ".join(map(str, bs)) or "none"


def _other_room(s: TeamSlot, slots: Sequence[TeamSlot], by_room: dict[Room, TeamSlot], used: set[Room]) -> TeamSlot:
    if s.mates is not None:
        other = by_room.get(s.mates)
        if other is None:
            raise MatchError(Notice.of(C.MATCH_MATES_MISSING, **s.room.at(), **s.mates.at("other")))
        if other.mates is not None and other.mates != s.room:
            raise MatchError(Notice.of(C.MATCH_MATES_DISAGREE, **s.room.at(), **other.room.at("other"),
                                       **other.mates.at("third")))
        return other
    swapped = [o for o in slots if o.room != s.room and o.room not in used and o.teams == (s.team_ew, s.team_ns)]
    same = [o for o in swapped if o.boards == s.boards]
    if same:
        return min(same, key=lambda o: (o.room.round != s.room.round, o.room))
    if swapped:
        return min(swapped, key=lambda o: (o.room.round != s.room.round, o.room))  # _check_pair says why
    shares = [o for o in slots if o.room != s.room and o.room.round == s.room.round and set(o.teams) & set(s.teams)]
    if shares:
        return shares[0]  # a team at two tables against different opponents: _check_pair names it
    raise MatchError(Notice.of(C.MATCH_NO_OTHER_ROOM, **s.room.at(), ns=s.team_ns, ew=s.team_ew,
                               boards=_boards(s.boards)))


def derive(slots: Iterable[TeamSlot]) -> list[Match]:
    """The matches a teams movement holds (MatchError when it holds an impossible one). Slots
    without two teams (a sit-out, an empty table) take no part."""
    live = sorted((s for s in slots if s.team_ns and s.team_ew and s.boards), key=lambda s: s.room)
    by_room = {s.room: s for s in live}
    used: set[Room] = set()
    pairs: list[tuple[TeamSlot, TeamSlot]] = []
    for s in live:
        if s.room in used:
            continue
        if s.team_ns == s.team_ew:
            raise MatchError(Notice.of(C.MATCH_PLAYS_ITSELF, **s.room.at(), team=s.team_ns))
        other = _other_room(s, live, by_room, used)
        if other.room in used:
            raise MatchError(Notice.of(C.MATCH_ROOM_TWICE, **other.room.at()))
        _check_pair(s, other)
        used |= {s.room, other.room}
        pairs.append((s, other))
    grouped: dict[frozenset[int], list[tuple[TeamSlot, TeamSlot]]] = {}
    for a, b in pairs:
        grouped.setdefault(frozenset(a.teams), []).append((a, b))
    out = []
    for group in grouped.values():
        home, away = group[0][0].team_ns, group[0][0].team_ew
        segs = tuple(Segment(a, b) if a.team_ns == home else Segment(b, a) for a, b in group)
        out.append(Match(home, away, segs, "movement"))
    return out


def td_match(slots: Iterable[TeamSlot], open_room: tuple[str, int], closed_room: tuple[str, int],
             rounds: Sequence[int] | None = None, home: int | None = None) -> Match:
    """A match the TD names: `open_room` and `closed_room` tables (FSB 110A: the TD says which
    room is closed), in `rounds` (default: every round both tables seat two teams), the home
    team `home` (default: the team sitting NS in the open room, FSB 104A)."""
    if open_room == closed_room:
        raise MatchError(Notice.of(C.MATCH_BOTH_ROOMS, table=f"{open_room[0]}{open_room[1]}"))
    live = [s for s in slots if s.team_ns and s.team_ew and s.boards]
    at = {(s.room.section, s.room.table, s.room.round): s for s in live}
    mine = sorted({s.room.round for s in live if (s.room.section, s.room.table) == open_room})
    theirs = {s.room.round for s in live if (s.room.section, s.room.table) == closed_room}
    wanted = list(rounds) if rounds else [r for r in mine if r in theirs]
    if not wanted:
        raise MatchError(Notice.of(C.MATCH_NO_COMMON_ROUND, open=f"{open_room[0]}{open_room[1]}",
                                   closed=f"{closed_room[0]}{closed_room[1]}"))
    segs = []
    for r in wanted:
        a, b = at.get((*open_room, r)), at.get((*closed_room, r))
        if a is None or b is None:
            missing = open_room if a is None else closed_room
            raise MatchError(Notice.of(C.MATCH_NO_TEAMS_IN_ROUND, table=f"{missing[0]}{missing[1]}", round=r))
        _check_pair(a, b)
        segs.append(Segment(a, b))
    teams = set(segs[0].open.teams)
    if any(set(s.open.teams) != teams for s in segs):
        raise MatchError(Notice.of(C.MATCH_ROUNDS_DIFFER))
    home = segs[0].open.team_ns if home is None else home
    if home not in teams:
        raise MatchError(Notice.of(C.MATCH_HOME_ABSENT, team=home, teams=sorted(teams)))
    away = (teams - {home}).pop()
    return Match(home, away, tuple(segs), "td")


def combine(derived: Sequence[Match], named: Sequence[Match]) -> list[Match]:
    """The TD's matches replace the movement's matches that share a room with them; two of the
    TD's own that share a room are a MatchError."""
    seen: dict[Room, Match] = {}
    for m in named:
        for r in m.rooms():
            if r in seen:
                raise MatchError(Notice.of(C.MATCH_SET_TWICE, **r.at(), first=seen[r].ident, second=m.ident))
            seen[r] = m
    taken = set(seen)
    return [m for m in derived if not (m.rooms() & taken)] + list(named)
