"""Data Connector commands beyond the event's setup and the tables' queues (station/dataconnector.py
dispatches here): what the scoring program changes during the evening, asks back, or clears.

Each command as the Data Connector's documentation describes it (the official client
`bridgemate-dataconnector-client` 1.2.1 and its developer's guide; docs/station.md):

- UpdateScoringGroups (8): ScoringGroupDTOs of one session. Each group's sections move to it and
  take its scoring method; a group listed without its other sections still changes their
  method; a group marked IsDeleted must have no section left. A group naming a section the
  session does not have is refused (EntryUnknown) and nothing changes.
- PutResults (10), PutTdCalls (39): results and TD calls the scoring program sends the other way
  (to the Bridgemates). They are stored as the scoring program's (table dc_scorer_items), shown
  on the director page, and never returned in the scoring program's polls, which carry only
  what the tables sent.
- AddSession (7): an AddSessionDTO (EventGuid, Session, PlayerData, Participations, Handrecords,
  Bridgemate settings) for an event initialised before; set up as InitializeEvent sets up a
  session, the new session's tablets getting the next id of the event (`<event>.2` ...). Section
  letters and scoring-group numbers must be new to the event (the guide: no duplicates).
- GetMovement (32): a SectionDTO naming SessionGuid and Letters -> that section's movement as a
  SectionDTO (DataType Movement). GetAllMovements (33) -> every section of the session, an array
  of SectionDTO (DataType Movement too: see docs/station.md for why).
- ClearData (35): the Data Connector's data goes (movements, players, hand records, settings,
  what the scoring program put, its queue marks); the tables' results, TD calls and auctions,
  the table keys and each session's id stay. After it the scoring program initialises again and
  every stored result is offered again.

Every request is checked whole before anything is written (the client's own validators, then
the station's ranges); a bad one changes nothing.
"""
from __future__ import annotations

from typing import Any

from bridgemate_dataconnector.dto import (
    ResultDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDTO,
    TdCallDTO,
)
from bridgemate_dataconnector.validation import (
    validate_result_dto,
    validate_scoring_group_dto,
    validate_session_dto,
    validate_td_call_dto,
)

from . import dataconnector as dc
from .movement import numbered_per_direction

ADD_SESSION, UPDATE_SCORING_GROUPS, PUT_RESULTS, PUT_TDCALLS = 7, 8, 10, 39
GET_MOVEMENT, GET_ALL_MOVEMENTS, CLEAR_DATA = 32, 33, 35
COMMANDS = (ADD_SESSION, UPDATE_SCORING_GROUPS, PUT_RESULTS, PUT_TDCALLS, GET_MOVEMENT, GET_ALL_MOVEMENTS,
            CLEAR_DATA)
MOVEMENT = 14  # DataConnectorResponseData.Movement
# What ClearData removes: the Data Connector's own data, never the tables' items nor the ids
# the tablets' keys carry (dc_session_ids, dc_event_ids, table_keys).
CLEARED = ("dc_sessions", "dc_sections", "dc_rounds", "dc_handrecords", "dc_settings", "dc_players",
           "dc_participations", "dc_polled", "dc_accepted", "dc_reads", "dc_scorer_items", "dc_round_teams")


def dispatch(st: Any, command: int, session: str | None, serialized: Any) -> dict:
    if command == CLEAR_DATA:
        return dc._reply(command, dc.OK, clear_data(st), session=session)
    if command == ADD_SESSION:
        return dc._reply(command, dc.OK, add_session(st, session, dc._data(serialized, dict)), session=session)
    dc._known_session(st, session)
    assert session is not None
    if command == UPDATE_SCORING_GROUPS:
        return dc._reply(command, dc.OK, update_scoring_groups(st, session, dc._data(serialized, list)),
                         session=session)
    if command in (PUT_RESULTS, PUT_TDCALLS):
        kind = "result" if command == PUT_RESULTS else "td_call"
        rows = _scorer_rows(st, session, kind, dc._data(serialized, list))
        with st.store.transaction() as tx:
            st.store.put_scorer_items(tx, session, kind, rows)
        what = "results" if kind == "result" else "TD calls"
        return dc._reply(command, dc.OK, f"{len(rows)} {what} from the scoring program stored (shown on the "
                                         "director page; the tables' own are not changed)", session=session)
    if command == GET_MOVEMENT:
        wanted = dc._data(serialized, dict)
        if wanted.get("SessionGuid") not in (None, session):
            raise dc.DcError(dc.E_VALIDATION, "GetMovement: SessionGuid differs from the request's")
        letters = wanted.get("Letters")
        [section] = movements(st, session, letters if isinstance(letters, str) else "")
        return dc._reply(command, MOVEMENT, section, session=session)
    return dc._reply(command, MOVEMENT, movements(st, session), session=session)


# -- scoring groups ---------------------------------------------------------------------------------
def update_scoring_groups(st: Any, session: str, data: list) -> str:
    groups = [dc._checked(ScoringGroupDTO, g, validate_scoring_group_dto, "UpdateScoringGroups") for g in data]
    if not groups:
        raise dc.DcError(dc.E_NODATA, "UpdateScoringGroups: no scoring group sent")
    known = {r[0]: (int(r[1]), int(r[2])) for r in st.store.query(
        "SELECT section, scoring_group, scoring_method FROM dc_sections WHERE session_guid = ?", (session,))}
    assign = dict(known)
    methods: dict[int, int] = {}
    moved: dict[str, int] = {}
    for g in groups:
        if g.session_guid != session:
            raise dc.DcError(dc.E_VALIDATION, f"Scoring group {g.scoring_group_number}: SessionGuid must be the "
                                              "request's session")
        if g.scoring_group_number > 999:
            raise dc.DcError(dc.E_VALIDATION, f"ScoringGroupNumber ({g.scoring_group_number}) must be 1..999")
        if g.is_deleted:
            continue
        methods[g.scoring_group_number] = g.scoring_method
        for sec in g.sections or []:
            if sec.letters not in known:
                raise dc.DcError(dc.E_ENTRY_UNKNOWN, f"Scoring group {g.scoring_group_number} names section "
                                                     f"{sec.letters}, which session {session} does not have: add "
                                                     "it with UpdateMovement first. Nothing was changed.")
            if moved.setdefault(sec.letters, g.scoring_group_number) != g.scoring_group_number:
                raise dc.DcError(dc.E_VALIDATION, f"Section {sec.letters} is in two scoring groups "
                                                  f"({moved[sec.letters]} and {g.scoring_group_number})")
    for letters, (group, method) in known.items():
        number = moved.get(letters, group)
        assign[letters] = (number, methods.get(number, method))
    for g in groups:
        left = sorted(s for s, (n, _) in assign.items() if n == g.scoring_group_number)
        if g.is_deleted and left:
            raise dc.DcError(dc.E_VALIDATION, f"Scoring group {g.scoring_group_number} still has section(s) "
                                              f"{', '.join(left)}: assign them to another group first. Nothing "
                                              "was changed.")
    with st.store.transaction() as tx:
        for letters, (number, method) in assign.items():
            tx.execute("UPDATE dc_sections SET scoring_group = ?, scoring_method = ? WHERE session_guid = ? "
                       "AND section = ?", (number, method, session, letters))
    return f"Scoring groups updated: {', '.join(f'{s} in {n} ({m})' for s, (n, m) in sorted(assign.items()))}"


# -- what the scoring program puts -------------------------------------------------------------------
def _scorer_rows(st: Any, session: str, kind: str, data: list) -> list[dict]:
    sections = dc.session_sections(st, session)
    if len(data) > 10_000:
        raise dc.DcError(dc.E_VALIDATION, "at most 10000 items in one request")
    rows = []
    for d in data:
        if kind == "result":
            dto = dc._checked(ResultDTO, d, validate_result_dto, "PutResults")
            board = dc._int_in(dto.board_number, "BoardNumber", 1, dc.MAX_BOARD)
        else:
            dto = dc._checked(TdCallDTO, d, validate_td_call_dto, "PutTdCalls")
            board = 0
        if dto.session_guid != session:
            raise dc.DcError(dc.E_VALIDATION, "Each item must carry the request's SessionGuid")
        if dto.section_letters not in sections:
            raise dc.DcError(dc.E_ENTRY_UNKNOWN, f"No section {dto.section_letters} in session {session}")
        rows.append({"section": dto.section_letters,
                     "table": dc._int_in(dto.table_number, "TableNumber", 1, dc.MAX_TABLE),
                     "round": dc._int_in(dto.round_number, "RoundNumber", 1, dc.MAX_ROUND),
                     "board": board, "payload": dto.to_dict()})
    return rows


# -- sessions --------------------------------------------------------------------------------------
def add_session(st: Any, event_guid: str | None, data: dict) -> str:
    """AddSession: the request's SessionGuid is the event's guid (its single session's guid when
    the event was initialised with one session and no EventGuid)."""
    if not event_guid or not dc.GUID_RE.match(event_guid):
        raise dc.DcError(dc.E_VALIDATION, "AddSession: the request's SessionGuid must be the event's guid "
                                          "(32 characters, capital A-F or digits 0-9)")
    sessions = [r[0] for r in st.store.query(
        "SELECT session_guid FROM dc_session_ids WHERE event_guid = ? OR session_guid = ? OR event_guid IN "
        "(SELECT event_guid FROM dc_session_ids WHERE session_guid = ?)", (event_guid, event_guid, event_guid))]
    if not sessions:
        raise dc.DcError(dc.E_ENTRY_UNKNOWN, f"Unknown event {event_guid}: initialise it first")
    if data.get("EventGuid") not in (None, event_guid):
        raise dc.DcError(dc.E_VALIDATION, "AddSession: EventGuid differs from the request's SessionGuid")
    raw = data.get("Session")
    if not isinstance(raw, dict):
        raise dc.DcError(dc.E_NODATA, "AddSession: the Session is required")
    raw = {**raw, "EventGuid": raw.get("EventGuid") or event_guid}
    dto = SessionDTO.from_dict(raw)
    if not validate_session_dto(dto, for_adding=True):
        raise dc.DcError(dc.E_VALIDATION, "AddSession: " + "; ".join(dto.validation_messages or [])[:1000])
    if dto.event_guid != event_guid:
        raise dc.DcError(dc.E_VALIDATION, "AddSession: the session's EventGuid differs from the event's")
    if dto.session_guid in sessions or st.store.query("SELECT 1 FROM dc_session_ids WHERE session_guid = ?",
                                                      (dto.session_guid,)):
        raise dc.DcError(dc.E_VALIDATION, f"AddSession: session {dto.session_guid} exists already")
    marks = ",".join("?" for _ in sessions)
    taken = st.store.query(f"SELECT section, scoring_group FROM dc_sections WHERE session_guid IN ({marks})",
                           sessions)
    letters = {r[0] for r in taken}
    groups = {int(r[1]) for r in taken}
    for g in dto.scoring_groups or []:
        if g.scoring_group_number in groups:
            raise dc.DcError(dc.E_VALIDATION, f"AddSession: scoring group {g.scoring_group_number} is the event's "
                                              "already: an added session's groups are its own")
        for sec in g.sections or []:
            if sec.letters in letters:
                raise dc.DcError(dc.E_VALIDATION, f"AddSession: section {sec.letters} is the event's already: "
                                                  "no two sections of an event have the same letters")
    init = {"EventGuid": event_guid, "Commands": 0, "Sessions": [raw],
            **{k: data.get(k) for k in ("PlayerData", "Participations", "Handrecords", "Bridgemate2Settings",
                                        "Bridgemate3Settings") if data.get(k) is not None}}
    done = dc._initialize(st, init)
    return "Session added: " + done.removeprefix("Event initialized: ")


# -- movements ------------------------------------------------------------------------------------
def movements(st: Any, session: str, only: str | None = None) -> list[dict]:
    """The session's sections (or the one named `only`) as SectionDTOs with their tables and rounds."""
    sections = st.store.query("SELECT section, scoring_group, game_type FROM dc_sections WHERE session_guid = ? "
                              "ORDER BY section", (session,))
    if only is not None:
        sections = [r for r in sections if r[0] == only]
        if not sections:
            raise dc.DcError(dc.E_ENTRY_UNKNOWN, f"No section {only!r} in session {session}")
    out = []
    for letters, group, game_type in sections:
        rounds = st.store.query("SELECT table_no, round_no, low_board, high_board, pair_ns, pair_ew FROM dc_rounds "
                                "WHERE session_guid = ? AND section = ? ORDER BY table_no, round_no",
                                (session, letters))
        tables: dict[int, list[RoundDTO]] = {}
        for t, r, low, high, ns, ew in rounds:
            tables.setdefault(int(t), []).append(RoundDTO(
                session_guid=session, section_letters=letters, table_number=int(t), round_number=int(r),
                low_board_number=int(low), high_board_number=int(high), pair_ns=int(ns), pair_ew=int(ew)))
        two = numbered_per_direction((r[1], int(r[4]), int(r[5])) for r in rounds)
        out.append(SectionDTO(session_guid=session, scoring_group_number=int(group), letters=letters,
                              winners=2 if two else 1, game_type=int(game_type),
                              tables=[TableDTO(session_guid=session, section_letters=letters, table_number=t,
                                               rounds=rs) for t, rs in tables.items()]).to_dict())
    return out


# -- ClearData ------------------------------------------------------------------------------------
def clear_data(st: Any) -> str:
    with st.store.transaction() as tx:
        for table in CLEARED:
            tx.execute(f"DELETE FROM {table}")
    return ("Data Connector data cleared (movements, players, hand records, settings, the scoring "
            "program's results and TD calls, queue marks); the tables' results are kept and will be "
            "offered again once the event is initialised")
