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

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple

from shared_rules.records import RefusalCode, Refused


class NoMovement(LookupError):
    """No movement for this table: the section was not initialised, or the table is not in it.
    `refused`: which, as the code and parameters the tablet says in its language."""

    def __init__(self, message: str, refused: Refused | None = None):
        super().__init__(message)
        self.refused = refused


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


class SessionRef(NamedTuple):
    guid: str
    tablet_event: str   # the event id this session's tablets put in their keys
    scoring_group: int
    scoring_method: int
    game_type: int


def session_for(store: Any, event: str, section: str, table_no: int | None = None,
                guid: str | None = None) -> SessionRef | None:
    """The scoring program's session a table asking for its movement belongs to.

    - `guid` (the SessionGuid the tablet was set up with, `?session=` on the request): that
      session, whatever the scoring program initialised since. A tablet stays in its session.
    - `<event>.<n>` (a later session's own id): that session.
    - the station event (a tablet set up with the plain id, or an old tablet that sends no
      session): the first session, in the order the scoring program initialised them, in
      which this table still has a board to play; when it has played all of them, the one
      initialised last. A table in the middle of a session is never moved into a session
      initialised meanwhile (docs/station.md "Events and sessions")."""
    rows = _section_sessions(store, event, section)
    if guid is not None:
        mine = [r for r in rows if r.guid == guid]
        return mine[0] if mine else None
    own = [r for r in rows if r.tablet_event == event and r.tablet_event != _station_event(store, event)]
    if own:
        return own[0]
    if not rows:
        return None
    if table_no is not None:
        for r in rows:
            if _still_to_play(store, r, section, table_no):
                return r
    return rows[-1]


def _station_event(store: Any, event: str) -> str:
    rows = store.query("SELECT event FROM dc_session_ids WHERE tablet_event = ?", (event,))
    return str(rows[0][0]) if rows else event


def _order(ref: SessionRef, station_event: str) -> int:
    """A session's place in its station event: 1 for the first (its id is the event), n for
    `<event>.<n>` (ids are given in the order the scoring program initialised the sessions)."""
    m = re.fullmatch(re.escape(station_event) + r"\.(\d+)", ref.tablet_event)
    return int(m.group(1)) if m else 1


def _section_sessions(store: Any, event: str, section: str) -> list[SessionRef]:
    """The sessions with this section of the station event `event` belongs to, oldest first."""
    station_event = _station_event(store, event)
    rows = store.query(
        "SELECT i.session_guid, i.tablet_event, x.scoring_group, x.scoring_method, x.game_type, i.created_at "
        "FROM dc_session_ids i JOIN dc_sections x ON x.session_guid = i.session_guid AND x.section = ? "
        "WHERE i.event = ?", (section, station_event))
    refs = [(SessionRef(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])), str(r[5])) for r in rows]
    refs.sort(key=lambda rc: (_order(rc[0], station_event), rc[1]))
    return [ref for ref, _ in refs]


def _still_to_play(store: Any, ref: SessionRef, section: str, table_no: int) -> bool:
    """Whether the session's movement gives this table a board it has no result for (a round
    without two pairs, a sit-out, is nothing to play)."""
    slots = [s for s in session_slots(store, ref.guid, section, table_no) if s.ns and s.ew]
    done = played(store, ref.tablet_event, section, table_no)
    return any((s.round, b) not in done for s in slots for b in s.boards)


def item_session(store: Any, event: str, section: str) -> SessionRef | None:
    """The session an item with this event id and section is stored for: the one whose tablets
    use this id (no guessing by time), None when the scoring program has sent no such session."""
    rows = store.query(
        "SELECT i.session_guid, i.tablet_event, x.scoring_group, x.scoring_method, x.game_type "
        "FROM dc_session_ids i JOIN dc_sections x ON x.session_guid = i.session_guid AND x.section = ? "
        "WHERE i.tablet_event = ?", (section, event))
    return SessionRef(str(rows[0][0]), str(rows[0][1]), *(int(x) for x in rows[0][2:])) if rows else None


def session_slots(store: Any, session: str, section: str, table_no: int | None = None) -> list[Slot]:
    """The section's slots in the session (one table's when `table_no` is given)."""
    sql = ("SELECT table_no, round_no, low_board, high_board, pair_ns, pair_ew FROM dc_rounds "
           "WHERE session_guid = ? AND section = ?")
    params: tuple = (session, section)
    if table_no is not None:
        sql, params = sql + " AND table_no = ?", (*params, table_no)
    return [Slot(*(int(x) for x in r)) for r in store.query(sql, params)]


def section_slots(store: Any, event: str, section: str) -> list[Slot]:
    """The section's movement for a tablet id's event (`session_for`)."""
    ref = session_for(store, event, section)
    return session_slots(store, ref.guid, section) if ref else []


def played(store: Any, event: str, section: str, table_no: int) -> set[tuple[int, int]]:
    """(round, board) pairs this table has a result for at the station (withdrawn ones not)."""
    from .store import latest_results

    return {(int(it["payload"]["round"]), int(it["payload"]["board"]))
            for it in latest_results(store.items(event, "result", section=section, table_no=table_no))}


def started(store: Any, event: str, section: str, table_no: int) -> int:
    """The latest round the table said it moved to (its round-start items), 0 for none: the
    players confirmed the pairs of that round, or the director set it up (docs/station.md
    "Law 16 at the station")."""
    rounds = [it["payload"].get("round") for it in store.items(event, "round", section=section, table_no=table_no)]
    return max((r for r in rounds if isinstance(r, int) and not isinstance(r, bool)), default=0)


def gate(store: Any, event: str, section: str, table_no: int, round_no: int | None, board: int | None) -> str | None:
    """Why a table may not post or read a result for this round and board, or None. Only where
    the scoring program sent a movement for the table's session: a table set up by hand with
    `--tables` keys alone has no movement to hold it to (docs/station.md)."""
    ref = item_session(store, event, section)
    if ref is None:
        return None
    slots = session_slots(store, ref.guid, section, table_no)
    if not slots:
        return f"table {section}{table_no} is not in the scoring program's movement of section {section}"
    if round_no is None:
        if any(board in s.boards for s in slots):
            return None
        return f"board {board} is not in the movement of table {section}{table_no}"
    slot = next((s for s in slots if s.round == round_no), None)
    if slot is None or board not in slot.boards:
        given = ", ".join(map(str, slot.boards)) if slot else "none"
        return (f"board {board} is not played at table {section}{table_no} in round {round_no} "
                f"(the movement gives boards {given})")
    return None


SCORING_METHODS = {10: "matchpoints", 20: "imps", 21: "imps", 22: "imps", 25: "imps", 26: "imps",
                   27: "imps", 30: "cross_imps", 31: "cross_imps", 35: "cross_imps", 36: "cross_imps",
                   40: "team_imps", 50: "team_vp", 51: "team_vp", 60: "bam", 70: "patton"}
GAME_TYPES = {10: "pairs", 20: "individual", 30: "teams"}


def session_guids(store: Any, event: str) -> list[str]:
    """The scoring program's sessions whose tablets use this event id (their hand records and
    movements are the ones an export or page of that id shows)."""
    return [str(r[0]) for r in store.query("SELECT session_guid FROM dc_session_ids WHERE tablet_event = ? "
                                           "ORDER BY created_at", (event,))]


def sessions(store: Any, event: str) -> list[dict[str, Any]]:
    """The scoring program's sessions of a station event, oldest first: {name, guid, id (what
    their tablets put in their keys), sections}. For the director page, so a tablet set up by
    hand in a later session gets that session's id."""
    rows = store.query("SELECT i.session_guid, i.tablet_event, s.name, x.section FROM dc_session_ids i "
                       "JOIN dc_sessions s ON s.session_guid = i.session_guid LEFT JOIN dc_sections x "
                       "ON x.session_guid = i.session_guid WHERE i.event = ? ORDER BY i.created_at, x.section",
                       (event,))
    out: dict[str, dict[str, Any]] = {}
    for guid, tablet_event, name, section in rows:
        d = out.setdefault(guid, {"name": name, "guid": guid, "id": tablet_event, "sections": []})
        if section:
            d["sections"].append(section)
    return list(out.values())


def event_scoring(store: Any, event: str) -> dict[str, dict[str, Any]]:
    """Section -> {"method", "game_type", "scoring_group"} of the scoring program's session whose
    tablets use this event id (what the exports score by: matchpoints or IMPs, pairs or teams)."""
    rows = store.query(
        "SELECT x.section, x.scoring_method, x.game_type, x.scoring_group FROM dc_session_ids i "
        "JOIN dc_sections x ON x.session_guid = i.session_guid WHERE i.tablet_event = ?", (event,))
    return {str(r[0]): {"method": SCORING_METHODS.get(int(r[1]), str(r[1])),
                        "game_type": GAME_TYPES.get(int(r[2]), str(r[2])), "scoring_group": int(r[3])}
            for r in rows}


PIN_FIELDS = ("BM2PINcode", "BM3PINcode")  # the Bridgemates' TD PIN is not handed to every table key


def settings_for(store: Any, session: str, section: str) -> dict[str, Any]:
    """The Bridgemate settings the scoring program sent for the section: the DTOs as sent, by
    model (`bm2`, `bm3`: the Data Connector's own field names, PIN codes left out), and what a
    tablet needs of them in plain words (docs/station.md "Bridgemate settings"):
    `show_results` ("none", "own", "all" after each board, "round_end"), `lead_entry`
    ("none", "enter", "validate"), `score_recap` (bool), `next_seating` (bool)."""
    import json

    out: dict[str, Any] = {}
    for model, payload in store.query("SELECT model, payload FROM dc_settings WHERE session_guid = ? "
                                      "AND section = ?", (session, section)):
        dto = {k: v for k, v in json.loads(payload).items() if k not in PIN_FIELDS and k != "ValidationMessages"}
        out[f"bm{int(model)}"] = dto
    if not out:
        return {}
    bm2, bm3 = out.get("bm2", {}), out.get("bm3", {})
    if bm3:  # the newer model wins where both are sent
        show = {0: "none", 1: "own", 2: "all", 3: "round_end"}.get(int(bm3.get("BM3ViewResults") or 0), "none")
        lead = {0: "none", 1: "enter"}.get(int(bm3.get("BM3LeadCardEntry") or 0), "validate")
        recap, seating = bool(bm3.get("BM3ScoreRecap")), bool(bm3.get("BM3NextSeatings"))
    else:
        show = "all" if bm2.get("ShowResults") else "own" if bm2.get("ShowOwnResult") else "none"
        lead = ("validate" if bm2.get("BM2ValidateLeadCard") else "enter") if bm2.get("LeadCard") else "none"
        recap, seating = bool(bm2.get("BM2ScoreRecap")), bool(bm2.get("BM2NextSeatings"))
    out.update(show_results=show, lead_entry=lead, score_recap=recap, next_seating=seating)
    return out


def for_table(store: Any, event: str, section: str, table_no: int, profile: str | None = None,
              guid: str | None = None) -> dict[str, Any]:
    """The table's movement in its session (`session_for`: `guid` is the session the tablet was
    set up with)."""
    ref = session_for(store, event, section, table_no, guid)
    if ref is None and guid is not None:
        raise NoMovement(f"session {guid} has no section {section} at this station: the scoring program "
                         "has not sent it, or has deleted it",
                         Refused.of(RefusalCode.MOVEMENT_NO_SESSION, section=section))
    slots = session_slots(store, ref.guid, section) if ref else []
    tablet_event = ref.tablet_event if ref else event
    out = table_movement(tablet_event, section, table_no, slots, played(store, tablet_event, section, table_no),
                         started(store, tablet_event, section, table_no))
    assert ref is not None  # table_movement raised NoMovement without slots
    out.update(session=ref.guid, profile=profile, scoring=event_scoring(store, ref.tablet_event).get(section),
               settings=settings_for(store, ref.guid, section))
    from .match_store import in_open_match
    if in_open_match(store, ref.tablet_event, section, table_no) and out["settings"].get("show_results") in ("all", "round_end"):
        # A team match: the other room's results are not shown before the match is over (2007
        # L16C1 / 2017 L16D1, FSB 110B), whatever the club's Bridgemate setting says.
        out["settings"] = {**out["settings"], "show_results": "own", "club_show_results": out["settings"]["show_results"]}
    return out


def table_movement(event: str, section: str, table_no: int, slots: Iterable[Slot],
                   done: AbstractSet[tuple[int, int]] = frozenset(), begun: int = 0) -> dict[str, Any]:
    """Pure: the section's slots -> this table's movement dict. `done` holds the (round, board)
    results the table already sent, to say which round it is on (`current_round`: the first
    round with a board still to play, or the round the table last started (`begun`, its
    round-start items) when that is later; null when every round is complete)."""
    slots = list(slots)
    if not slots:
        raise NoMovement(f"no movement yet for section {section}: the scoring program has not "
                         "initialised it through the Data Connector (or type the setup in at the table)",
                         Refused.of(RefusalCode.MOVEMENT_NOT_YET, section=section))
    mine = sorted((s for s in slots if s.table == table_no), key=lambda s: s.round)
    if not mine:
        tables = sorted({s.table for s in slots})
        raise NoMovement(f"table {section}{table_no} is not in the scoring program's movement of section "
                         f"{section} (tables {', '.join(map(str, tables))})",
                         Refused.of(RefusalCode.MOVEMENT_NO_TABLE, table=f"{section}{table_no}", tables=tables))
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
    if current is not None and begun > current and any(s.round == begun for s in mine):
        current = begun
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
