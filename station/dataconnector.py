"""The Bridgemate Data Connector HTTP protocol (BCS 5), server side, at POST /dc-scoringprogram.

A scoring program that talks to Bridgemate Control Software through the Data Connector can talk
to the station instead: it initialises the event (sessions, sections, tables, rounds, boards),
sends hand records, and pulls the tables' results and TD calls from queues it accepts.

Wire format (from the official client, `bridgemate-dataconnector-client` 1.2.1): the body is a
ScoringProgramRequest {Command, ClubId, LicenceKey, SessionGuid, SerializedData}; the reply is a
ScoringProgramResponse {RequestCommand, DataType, LastQueueItemId, ErrorType, SessionGuid,
SerializedData}, always with HTTP 200 (the client retries anything else five times). Errors are
DataType 4 (Error) with a JSON string in SerializedData, as BCS does.

Queue semantics: "poll new" returns the items the scoring program has not accepted yet and
remembers them; "accept" with the LastQueueItemId of that poll marks exactly those as done. A
poll that is never accepted is simply returned again (nothing is lost on a crashed scorer).
"""
from __future__ import annotations

import calendar
import datetime
import hmac
import json
import re
import sys
import time
from typing import Any, cast

from bridgemate_dataconnector.dto import (
    Bridgemate2SettingsDTO,
    Bridgemate3SettingsDTO,
    ContinueDTO,
    DataConnectorResponseData,
    ErrorType,
    HandrecordDTO,
    InitDTO,
    ResultDTO,
    ScoringProgramDataConnectorCommands,
    ScoringProgramResponse,
    SectionUpdateDTO,
    TdCallDTO,
)
from bridgemate_dataconnector.validation import (
    validate_bridgemate2_settings_dto,
    validate_bridgemate3_settings_dto,
    validate_continue_dto,
    validate_handrecord_dto,
    validate_init_dto,
    validate_section_update_dto,
)

from . import match_store
from .http_json import JsonError, loads_limited
from .records import at_iso, td_call_facts
from .store import canonical, latest_results, numbered, utc_now
from .stored import COLUMNS, read_rows

# ScoringProgramDataConnectorCommands
CONNECT, DISCONNECT, PING, INITIALIZE_EVENT, UPDATE_MOVEMENT = 1, 3, 4, 5, 6
PUT_PLAYERDATA, PUT_PARTICIPATIONS, PUT_HANDRECORDS, PUT_BM2_SETTINGS, PUT_BM3_SETTINGS = 11, 12, 13, 14, 15
POLL_NEW_RESULTS, POLL_NEW_PLAYERDATA, POLL_NEW_PARTICIPATIONS, POLL_NEW_HANDRECORDS = 19, 20, 21, 22
POLL_ALL_RESULTS, POLL_ALL_PLAYERDATA, POLL_ALL_PARTICIPATIONS, POLL_ALL_HANDRECORDS = 23, 24, 25, 26
ACCEPT_RESULTS, ACCEPT_PLAYERDATA, ACCEPT_PARTICIPATIONS, ACCEPT_HANDRECORDS = 27, 28, 29, 30
CONTINUE_EVENT = 31
POLL_NEW_TDCALLS, POLL_ALL_TDCALLS, ACCEPT_TDCALLS = 36, 37, 38
# DataConnectorResponseData
OK, ERROR, RESULTS, PLAYERDATA, PARTICIPATIONS, HANDRECORDS, TDCALLS = 1, 4, 12, 10, 11, 13, 21
# ErrorType
E_NONE, E_NODATA, E_VALIDATION, E_ENTRY_UNKNOWN, E_EXCEPTION, E_NOT_IMPLEMENTED = 0, 2, 5, 6, 7, 8
E_UNEXPECTED_COMMAND = 13
BWS_MODE = ("This station runs the .bws link (Ruter, Magic Contest: started with --bws): the Data "
            "Connector is off, so no result is served twice. Read the results from the .bws in the "
            "scoring program, or restart the station without --bws to use the Data Connector.")

GUID_RE = re.compile(r"^[0-9A-F]{32}$")
# What the station holds (a table id has three digits; boards and rounds as in the tablets' records).
MAX_TABLE, MAX_ROUND, MAX_BOARD, MAX_PAIR, MAX_BOARDS_PER_ROUND = 999, 99, 999, 9999, 64
SECTION_RE = re.compile(r"^([A-Z])\1{0,2}$")
SEAT_NUM = {"N": 1, "E": 2, "S": 3, "W": 4}
DENOM_NUM = {"C": 1, "D": 2, "H": 3, "S": 4, "NT": 5}
SUIT_NUM = {"C": 1, "D": 2, "H": 3, "S": 4}
RANK_NUM = {"T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14, **{str(n): n for n in range(2, 10)}}
# ResultDTO Level for artificial scores (L12C2): (NS, EW) -> -1..-9
ARTIFICIAL_LEVEL = {(ns, ew): -(3 * i + j + 1) for i, ns in enumerate(("avg-", "avg", "avg+"))
                    for j, ew in enumerate(("avg-", "avg", "avg+"))}
TD_STATUS_NUM = {"launched": 1, "in_progress": 2, "resolved": 3, "deferred": 4}
# Polls of data that only a scoring program produces: the station has none to give back.
EMPTY_POLLS = {POLL_NEW_HANDRECORDS: HANDRECORDS, POLL_ALL_HANDRECORDS: HANDRECORDS}
EMPTY_ACCEPTS = (ACCEPT_HANDRECORDS,)
# The player numbers the tables entered (station/table_players.py).
PLAYER_POLLS = (POLL_NEW_PLAYERDATA, POLL_ALL_PLAYERDATA, POLL_NEW_PARTICIPATIONS, POLL_ALL_PARTICIPATIONS)
PLAYER_ACCEPTS = (ACCEPT_PLAYERDATA, ACCEPT_PARTICIPATIONS)


class DcError(Exception):
    def __init__(self, error_type: int, message: str):
        super().__init__(message)
        self.error_type = error_type
        self.message = message


def _reply(command: int, data_type: int, data: Any = None, *, session: str | None = None,
           last_id: int = 0, error_type: int = E_NONE, raw: str | None = None) -> dict:
    # The official client's envelope class: the reply's wire format is the reference's. The
    # command is echoed as the client sent it, a number the enum may not know; `to_dict` sends
    # all three numbers as int(...), so plain ints stand in for the enums.
    return ScoringProgramResponse(request_command=cast(ScoringProgramDataConnectorCommands, command),
                                  data_type=cast(DataConnectorResponseData, data_type),
                                  last_queue_item_id=last_id,
                                  error_type=cast(ErrorType, error_type), session_guid=session,
                                  serialized_data=raw if raw is not None else json.dumps(data)).to_dict()


def handle(st: Any, body: bytes) -> dict:
    """One Data Connector request -> the response envelope (a dict to send as JSON). Whatever the
    request, the reply is an envelope (HTTP 200): the client retries anything else five times."""
    try:
        req = loads_limited(body)  # the door's limits (station/http_json.py)
    except JsonError as e:
        return _reply(0, ERROR, f"Malformed ScoringProgramRequest: {str(e)[:200]}", error_type=E_VALIDATION)
    return handle_request(st, req)


def handle_request(st: Any, req: Any) -> dict:
    """`handle` for a request body already parsed with the door's limits."""
    if not isinstance(req, dict):
        return _reply(0, ERROR, "Malformed ScoringProgramRequest: not an object", error_type=E_VALIDATION)
    command = req.get("Command")
    if not isinstance(command, int):
        command = 0
    session = req.get("SessionGuid") if isinstance(req.get("SessionGuid"), str) and req.get("SessionGuid") else None
    try:
        licence = st.config.dc_licence_key or st.config.director_token
        if not req.get("ClubId") or not isinstance(req.get("LicenceKey"), str) or \
                not hmac.compare_digest(req["LicenceKey"].encode(), licence.encode()):
            raise DcError(E_VALIDATION, "Unknown club id or licence key: use the licence key the "
                                        "station printed at start (also on the director page)")
        if st.store.setting("integration") == "bws":
            # The club chose the .bws at start: a scoring program that also initialised a
            # movement here would get every result twice (docs/bws.md).
            raise DcError(E_UNEXPECTED_COMMAND, BWS_MODE)
        return _dispatch(st, command, session, req.get("SerializedData"))
    except DcError as e:
        return _reply(command, ERROR, e.message, session=session, error_type=e.error_type)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, OverflowError) as e:
        # Data of the wrong shape that got past the checks: refused, nothing was written (every
        # write is one transaction after the checks).
        return _reply(command, ERROR, f"Invalid data: {type(e).__name__}: {str(e)[:200]}", session=session,
                      error_type=E_VALIDATION)
    except Exception as e:  # storage trouble (disk full ...): still the protocol's reply, nothing half-written
        return _reply(command, ERROR, f"Station error: {type(e).__name__}: {str(e)[:200]}", session=session,
                      error_type=E_EXCEPTION)


def _data(serialized: Any, want: type) -> Any:
    if not isinstance(serialized, str) or not serialized.strip():
        raise DcError(E_NODATA, "Empty data")
    try:
        value = loads_limited(serialized)
    except JsonError as e:
        raise DcError(E_VALIDATION, f"SerializedData is not JSON: {str(e)[:200]}") from e
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        raise DcError(E_VALIDATION, f"SerializedData: expected a JSON {want.__name__}")
    return value


def _checked(cls: Any, data: Any, validator: Any, what: str) -> Any:
    """The official client's DTO from the request data, checked by the client's own validator
    (the Data Connector's rules: strict guids, section letters, 52 distinct cards ...)."""
    if not isinstance(data, dict):
        raise DcError(E_VALIDATION, f"{what}: expected a JSON object")
    dto = cls.from_dict(data)
    if hasattr(dto, "alternative_data_folder"):
        dto.alternative_data_folder = None  # a BCS folder on the scoring PC; never looked up here
    if validator is not None and not validator(dto):
        msgs = dto.validation_messages or ["invalid"]
        raise DcError(E_VALIDATION, f"{what}: " + "; ".join(str(m) for m in msgs[:5])[:1000])
    return dto


def _known_session(st: Any, session: str | None) -> str:
    """The session's id in the tablets' keys (docs/station.md "Events and sessions")."""
    if not session or not GUID_RE.match(session):
        raise DcError(E_VALIDATION, "The guid must be exactly 32 character long and can only contain "
                                    "capital A to F or digits 0 to 9.")
    rows = st.store.query("SELECT s.event, i.tablet_event FROM dc_sessions s LEFT JOIN dc_session_ids i "
                          "ON i.session_guid = s.session_guid WHERE s.session_guid = ?", (session,))
    if not rows:
        raise DcError(E_ENTRY_UNKNOWN, f"Unknown session {session}: initialise the event first")
    return str(rows[0][1] or rows[0][0])


def _dispatch(st: Any, command: int, session: str | None, serialized: Any) -> dict:
    if command == PING:
        return _reply(command, OK, raw=serialized if isinstance(serialized, str) else json.dumps(""))
    if command in (CONNECT, DISCONNECT):
        return _reply(command, OK, "OK")
    if command == INITIALIZE_EVENT:
        return _reply(command, OK, _initialize(st, _data(serialized, dict)))
    if command == CONTINUE_EVENT:
        dto = _checked(ContinueDTO, _data(serialized, dict), validate_continue_dto, "ContinueEvent")
        guid = dto.event_guid or ""
        if not GUID_RE.match(guid):
            raise DcError(E_VALIDATION, "EventGuid: 32 characters, capital A-F or digits 0-9")
        rows = st.store.query("SELECT session_guid FROM dc_session_ids WHERE event_guid = ? OR session_guid = ?",
                              (guid, guid))
        if not rows:
            raise DcError(E_ENTRY_UNKNOWN, f"Unknown event {guid!r}")
        return _reply(command, OK, f"Event {guid} continued")
    if command == UPDATE_MOVEMENT:
        _known_session(st, session)
        return _reply(command, OK, _update_movement(st, session, _data(serialized, dict)), session=session)
    if command == PUT_PLAYERDATA:
        _known_session(st, session)
        players = _players(session, _data(serialized, list))
        st.store.put_players(session, players)
        return _reply(command, OK, f"{len(players)} players stored", session=session)
    if command == PUT_PARTICIPATIONS:
        _known_session(st, session)
        seats = _participations(st, session, _data(serialized, list))
        st.store.put_participations(session, seats)
        return _reply(command, OK, f"{len(seats)} participations stored", session=session)
    if command == PUT_HANDRECORDS:
        _known_session(st, session)
        assert session is not None  # _known_session refuses a missing one
        rows = _handrecord_rows(st, {session: _groups_of(st, session)}, _data(serialized, list))
        with st.store.transaction() as tx:
            _write_handrecords(tx, rows)
        return _reply(command, OK, f"{len(rows)} handrecords stored", session=session)
    if command in (PUT_BM2_SETTINGS, PUT_BM3_SETTINGS):
        _known_session(st, session)
        model = 2 if command == PUT_BM2_SETTINGS else 3
        rows = _settings_rows({session}, model, _data(serialized, list))
        with st.store.transaction() as tx:
            _write_settings(tx, rows)
        return _reply(command, OK, f"Bridgemate {model} settings stored for {len(rows)} section(s)",
                      session=session)
    if command in (POLL_NEW_RESULTS, POLL_ALL_RESULTS, POLL_NEW_TDCALLS, POLL_ALL_TDCALLS):
        event = _known_session(st, session)
        assert session is not None
        return _poll(st, command, event, session)
    if command in (ACCEPT_RESULTS, ACCEPT_TDCALLS):
        _known_session(st, session)
        data_type = RESULTS if command == ACCEPT_RESULTS else TDCALLS
        last = _data(serialized, int)
        n = _accept(st, session, data_type, last)
        return _reply(command, OK, f"{n} queue items accepted", session=session)
    if command in PLAYER_POLLS or command in PLAYER_ACCEPTS:
        from . import table_players

        event = _known_session(st, session)
        assert session is not None
        if command in PLAYER_POLLS:
            return table_players.poll(st, command, event, session)
        n = table_players.accept(st, command, session, _data(serialized, int))
        return _reply(command, OK, f"{n} queue items accepted", session=session)
    if command in EMPTY_POLLS:
        _known_session(st, session)
        return _reply(command, EMPTY_POLLS[command], [], session=session)
    if command in EMPTY_ACCEPTS:
        return _reply(command, OK, "0 queue items accepted", session=session)
    from . import dc_scorer

    if command in dc_scorer.COMMANDS:
        return dc_scorer.dispatch(st, command, session, serialized)
    raise DcError(E_NOT_IMPLEMENTED, f"Command {command} is not supported by the bidding-box station")


# -- event setup -------------------------------------------------------------------------------
def _int_in(value: Any, name: str, lo: int, hi: int) -> int:
    if value is None:
        value = 0
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DcError(E_VALIDATION, f"{name} ({value!r}) must be a whole number {lo}..{hi}")
    return value


def _check_section(sec: Any) -> str:
    """Ranges the station can hold (beyond the client's own rules): table ids have three digits,
    board numbers and rounds as in the tablets' records, and no round of more than
    MAX_BOARDS_PER_ROUND boards (a range of 10^7 boards is a typing error, not a movement)."""
    if not isinstance(sec, dict):
        raise DcError(E_VALIDATION, "Section: expected an object")
    letters = sec.get("Letters")
    if not isinstance(letters, str) or not SECTION_RE.match(letters):
        raise DcError(E_VALIDATION, f"Invalid SectionLetters ({letters}). Valid values are: 'A-Z', 'AA-ZZ' or 'AAA','ZZZ'")
    _int_in(sec.get("GameType"), f"GameType of section {letters}", 0, 99)
    tables = sec.get("Tables") or []
    if not isinstance(tables, list) or len(tables) > MAX_TABLE:
        raise DcError(E_VALIDATION, f"Tables of section {letters}: at most {MAX_TABLE}")
    seen: set[tuple[int, int]] = set()
    for t in tables:
        if not isinstance(t, dict):
            raise DcError(E_VALIDATION, f"Section {letters}: a table must be an object")
        tno = _int_in(t.get("TableNumber"), f"TableNumber in section {letters}", 1, MAX_TABLE)
        rounds = t.get("Rounds") or []
        if not isinstance(rounds, list) or len(rounds) > MAX_ROUND:
            raise DcError(E_VALIDATION, f"Rounds of table {letters}{tno}: at most {MAX_ROUND}")
        for r in rounds:
            if not isinstance(r, dict):
                raise DcError(E_VALIDATION, f"Table {letters}{tno}: a round must be an object")
            rno = _int_in(r.get("RoundNumber"), f"RoundNumber at table {letters}{tno}", 1, MAX_ROUND)
            where = f"table {letters}{tno} round {rno}"
            if (tno, rno) in seen:
                raise DcError(E_VALIDATION, f"{where} is given twice")
            seen.add((tno, rno))
            low = _int_in(r.get("LowBoardNumber"), f"LowBoardNumber of {where}", 0, MAX_BOARD)
            high = _int_in(r.get("HighBoardNumber"), f"HighBoardNumber of {where}", 0, MAX_BOARD)
            if (low or high) and not (1 <= low <= high and high - low < MAX_BOARDS_PER_ROUND):
                raise DcError(E_VALIDATION, f"Boards {low}-{high} of {where}: a round has 1..{MAX_BOARDS_PER_ROUND} "
                                            "boards numbered from 1 (0-0 for none)")
            for side in ("PairNS", "PairEW", "TeamNS", "TeamEW"):
                _int_in(r.get(side), f"{side} of {where}", 0, MAX_PAIR)
            _int_in(r.get("MatesTableTableNumber"), f"MatesTableTableNumber of {where}", 0, MAX_TABLE)
            _int_in(r.get("MatesTableRoundNumber"), f"MatesTableRoundNumber of {where}", 0, MAX_ROUND)
            mates = r.get("MatesTableSectionLetters")
            if mates is not None and mates != "" and not (isinstance(mates, str) and SECTION_RE.match(mates)):
                raise DcError(E_VALIDATION, f"MatesTableSectionLetters of {where} ({mates!r}) must be section letters")
    return letters


def _write_section(tx: Any, session: str, group: int, method: int, sec: dict) -> None:
    letters = sec["Letters"]
    tx.execute("DELETE FROM dc_sections WHERE session_guid = ? AND section = ?", (session, letters))
    tx.execute("DELETE FROM dc_rounds WHERE session_guid = ? AND section = ?", (session, letters))
    tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
               "VALUES (?, ?, ?, ?, ?)", (session, letters, group, method, int(sec.get("GameType") or 10)))
    tx.executemany("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                   "pair_ns, pair_ew) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [(session, letters, t["TableNumber"], r["RoundNumber"], int(r.get("LowBoardNumber") or 0),
                     int(r.get("HighBoardNumber") or 0), int(r.get("PairNS") or 0), int(r.get("PairEW") or 0))
                    for t in sec.get("Tables") or [] for r in t.get("Rounds") or []])
    match_store.write_dc_teams(tx, session, sec)  # team matches (station/matches.py)


def _check_teams(sections: list[dict], stored: list | None = None) -> None:
    """A teams movement whose matches cannot be played (rooms on different boards, a team in one
    room only) is refused before anything is written (docs/station.md "Team matches")."""
    try:
        match_store.check_dc_sections(sections, stored)
    except match_store.MatchError as e:
        raise DcError(E_VALIDATION, f"Team match: {e}. Nothing was changed.") from e


def station_event(st: Any, tx: Any, scorer_event: str, session: dict) -> str:
    """The station event a scoring-program event belongs to: the one the director named at start
    (`--event`), else one per scoring-program event, `club-<session date>` (`-2`, `-3` ... for a
    second event on that date). Never an earlier day's event by default."""
    if st.config.extra.get("event_named", True):
        return str(st.config.event)
    row = tx.execute("SELECT event FROM dc_event_ids WHERE scorer_event = ?", (scorer_event,)).fetchone()
    if row:
        return str(row[0])
    try:
        day = datetime.date(session.get("Year") or 0, session.get("Month") or 0, session.get("Day") or 0)
    except (TypeError, ValueError):
        day = datetime.date.today()
    base = f"club-{day.isoformat()}"
    used = {r[0] for r in tx.execute("SELECT event FROM dc_event_ids").fetchall()}
    event = next(e for e in numbered(base, "-") if e not in used)
    tx.execute("INSERT INTO dc_event_ids (scorer_event, event, created_at) VALUES (?, ?, ?)",
               (scorer_event, event, utc_now()))
    return event


def _initialize(st: Any, init: dict) -> str:
    """Atomic: everything is checked first (the client's own validators, then the station's
    ranges), then written in one transaction; a bad hand record changes nothing."""
    dto = _checked(InitDTO, init, validate_init_dto, "InitializeEvent")
    plan = []
    groups_of: dict[str, dict[str, int]] = {}
    for s in init["Sessions"]:
        guid = s["SessionGuid"]
        groups_of[guid] = {}
        for g in s["ScoringGroups"]:
            _int_in(g.get("ScoringMethod"), "ScoringMethod", 0, 99)
            for sec in g.get("Sections") or []:
                groups_of[guid][_check_section(sec)] = int(g.get("ScoringGroupNumber") or 1)
        _check_teams([sec for g in s["ScoringGroups"] for sec in g.get("Sections") or []])
        plan.append((guid, s))
    hand_rows = _handrecord_rows(st, groups_of, init.get("Handrecords") or [])
    settings = _settings_rows(set(groups_of), 2, init.get("Bridgemate2Settings") or []) + \
        _settings_rows(set(groups_of), 3, init.get("Bridgemate3Settings") or [])
    # Players and seats are checked before anything is written; player data first, since a
    # participation may name a player by number only.
    people = {}
    for guid, _s in plan:
        players = _players(guid, [p for p in _list(init.get("PlayerData"))
                                  if isinstance(p, dict) and p.get("SessionGuid") == guid])
        seats = _participations(st, guid, [p for p in _list(init.get("Participations"))
                                           if isinstance(p, dict) and p.get("SessionGuid") == guid],
                                {p["number"] for p in players})
        people[guid] = (players, seats)
    scorer_event = dto.event_guid or plan[0][0]
    tables = 0
    with st.store.transaction() as tx:
        event = station_event(st, tx, scorer_event, plan[0][1])
        for guid, s in plan:
            for table in ("dc_sessions", "dc_sections", "dc_rounds", "dc_polled", "dc_handrecords", "dc_settings"):
                tx.execute(f"DELETE FROM {table} WHERE session_guid = ?", (guid,))
            if int(init.get("Commands") or 0) & 128:  # ClearData: the scorer starts its queues afresh
                tx.execute("DELETE FROM dc_accepted WHERE session_guid = ?", (guid,))
            tx.execute("INSERT INTO dc_sessions (session_guid, event, name, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                       (guid, event, s.get("Name"), canonical({**s, "EventGuid": init.get("EventGuid") or s.get("EventGuid"),
                                                               "ClubId": init.get("ClubId")}),
                        utc_now()))
            st.store.assign_session_id(tx, event, guid, dto.event_guid or s.get("EventGuid"))
            for g in s["ScoringGroups"]:
                for sec in g.get("Sections") or []:
                    _write_section(tx, guid, int(g.get("ScoringGroupNumber") or 1), int(g.get("ScoringMethod") or 10), sec)
                    tables += len(sec.get("Tables") or [])
        _write_handrecords(tx, hand_rows)
        _write_settings(tx, settings)
    if not st.config.extra.get("event_named", True):
        st.config.event = event  # the station's event is now the scoring program's
        st.store.use_event(event, datetime.date.today().isoformat())
    # Each table gets its key for this event (existing keys stay valid).
    for _guid, s in plan:
        for g in s["ScoringGroups"]:
            for sec in g.get("Sections") or []:
                st.register_tables(event, sec["Letters"], [t["TableNumber"] for t in sec.get("Tables") or []])
    for guid, _s in plan:
        players, seats = people[guid]
        st.store.put_players(guid, players)
        st.store.put_participations(guid, seats)
    return f"Event initialized: {len(plan)} session(s), {tables} table(s) for event {event}"


def _update_movement(st: Any, session: str | None, data: dict) -> str:
    assert session is not None
    _checked(SectionUpdateDTO, data, validate_section_update_dto, "UpdateMovement")
    if data.get("SessionGuid") not in (None, session):
        raise DcError(E_VALIDATION, "UpdateMovement: SessionGuid differs from the request's")
    letters = _check_section(data)
    if not data.get("IsDeleted"):
        _check_teams([data], match_store.stored_slots(st.store, session, match_store.teams_sections(st.store, session)))
    group = _int_in(data.get("ScoringGroupNumber") or 1, "ScoringGroupNumber", 1, 999)
    method = _int_in(data.get("ScoringGroupScoringMethod") or 10, "ScoringGroupScoringMethod", 0, 99)
    rows = st.store.query("SELECT event FROM dc_sessions WHERE session_guid = ?", (session,))
    event = str(rows[0][0])
    # Players who arrive late (AddedPlayers) and where everyone sits (Participations), checked
    # before anything is written: a participation may name a player added in the same update.
    added = _players(session, _list(data.get("AddedPlayers")))
    seats = _participations(st, session, _list(data.get("Participations")), {p["number"] for p in added})
    explicit = bool(data.get("HasExplicitParticipations"))
    with st.store.transaction() as tx:
        if data.get("IsDeleted"):
            tx.execute("DELETE FROM dc_sections WHERE session_guid = ? AND section = ?", (session, letters))
            tx.execute("DELETE FROM dc_rounds WHERE session_guid = ? AND section = ?", (session, letters))
            tx.execute("DELETE FROM dc_round_teams WHERE session_guid = ? AND section = ?", (session, letters))
            return f"Section {letters} deleted"
        _write_section(tx, session, group, method, data)
        st.store.write_players(tx, session, added)
        if explicit:
            # The update carries the section's whole seating, every round: it replaces the stored one.
            tx.execute("DELETE FROM dc_participations WHERE session_guid = ? AND section = ?", (session, letters))
        st.store.write_participations(tx, session, seats)
    st.register_tables(event, letters, [t["TableNumber"] for t in data.get("Tables") or []])
    people = f"; {len(added)} player(s) added, {len(seats)} participation(s) stored" if added or seats else ""
    return f"Movement of section {letters} updated{people}"


def _list(v: Any) -> list:
    return v if isinstance(v, list) else []


def _name(v: Any, what: str, required: bool = False) -> str | None:
    if v is None or v == "":
        if required:
            raise DcError(E_VALIDATION, f"{what} is required")
        return None
    if not isinstance(v, str) or len(v) > 100:
        raise DcError(E_VALIDATION, f"{what} must be text of at most 100 characters")
    return v


def _players(session: str | None, dtos: list) -> list[dict]:
    """PlayerDataDTOs -> rows for Store.put_players (checked before anything is stored)."""
    out = []
    for d in dtos:
        if not isinstance(d, dict) or d.get("SessionGuid") != session:
            raise DcError(E_VALIDATION, "Each player must carry the request's SessionGuid")
        out.append({"number": _name(d.get("PlayerNumber"), "PlayerNumber", required=True),
                    "first_name": _name(d.get("FirstName"), "FirstName"),
                    "last_name": _name(d.get("LastName"), "LastName", required=True),
                    "country_code": _name(d.get("CountryCode"), "CountryCode")})
    return out


def _participations(st: Any, session: str | None, dtos: list, also_known: set | None = None) -> list[dict]:
    """ParticipationDTOs -> rows for Store.put_participations: a player by number (sent before
    as player data) or by name, an emptied seat (IsRemoval), or a swap with the partner."""
    known = set(st.store.players(session or "")) | (also_known or set())
    out = []
    for d in dtos:
        if not isinstance(d, dict) or d.get("SessionGuid") != session:
            raise DcError(E_VALIDATION, "Each participation must carry the request's SessionGuid")
        section, table, rnd = d.get("SectionLetters"), d.get("TableNumber"), d.get("RoundNumber") or 0
        direction = d.get("Direction")
        if not isinstance(section, str) or not SECTION_RE.match(section):
            raise DcError(E_VALIDATION, f"Invalid SectionLetters ({section})")
        if not isinstance(table, int) or isinstance(table, bool) or not 1 <= table <= 999:
            raise DcError(E_VALIDATION, f"Invalid TableNumber ({table})")
        if not isinstance(rnd, int) or isinstance(rnd, bool) or not 0 <= rnd <= 999:
            raise DcError(E_VALIDATION, f"Invalid RoundNumber ({rnd})")
        if direction not in (1, 2, 3, 4):
            raise DcError(E_VALIDATION, f"Invalid Direction ({direction}): 1 North, 2 East, 3 South, 4 West")
        number = _name(d.get("PlayerNumber"), "PlayerNumber")
        row = {"section": section, "table": table, "round": max(rnd, 1), "direction": "NESW"[direction - 1],
               "number": number, "first_name": None, "last_name": None, "country_code": None,
               "remove": bool(d.get("IsRemoval")), "swap": bool(d.get("IsPlayerSwap"))}
        if number is not None and number not in known:
            raise DcError(E_ENTRY_UNKNOWN, f"Player {number} is unknown: send its player data first")
        if number is None and not row["remove"]:
            row.update(first_name=_name(d.get("FirstName"), "FirstName"),
                       last_name=_name(d.get("LastName"), "LastName", required=not row["swap"]),
                       country_code=_name(d.get("CountryCode"), "CountryCode"))
        out.append(row)
    return out


HAND_FIELDS = [f"{seat}{suit}" for seat in ("North", "East", "South", "West")
               for suit in ("Spades", "Hearts", "Diamonds", "Clubs")]


def _groups_of(st: Any, session: str | None) -> dict[str, int]:
    return {r[0]: int(r[1]) for r in st.store.query(
        "SELECT section, scoring_group FROM dc_sections WHERE session_guid = ?", (session,))}


def _handrecord_rows(st: Any, groups_of: dict[str, dict[str, int]], records: Any) -> list[tuple]:
    """Checked hand records -> rows for every section they cover. The client's documentation:
    a hand record for one section of a scoring group is enough, so it is kept for each section
    of that group (a section's own hand record wins over its group's)."""
    if not isinstance(records, list) or len(records) > MAX_BOARD * 26:
        raise DcError(E_VALIDATION, "Handrecords: expected a list")
    own: dict[tuple, tuple] = {}
    shared: dict[tuple, tuple] = {}
    for h in records:
        dto = _checked(HandrecordDTO, h, validate_handrecord_dto, "Handrecord")
        session, section, board = dto.session_guid, dto.section_letters, dto.board_number
        if session not in groups_of:
            raise DcError(E_VALIDATION, f"Handrecord of board {board}: SessionGuid must be the request's session")
        _int_in(board, "Handrecord BoardNumber", 1, MAX_BOARD)
        sections = groups_of[session]
        if section not in sections:
            raise DcError(E_ENTRY_UNKNOWN, f"Handrecord of board {board}: no section {section} in session {session}")
        if dto.scoring_group_number and dto.scoring_group_number != sections[section]:
            # A scoring group naming a section it does not have: the deal would go to the wrong
            # group's sections. Refused whole (nothing is written before every record is checked).
            raise DcError(E_ENTRY_UNKNOWN, f"Handrecord of board {board}: scoring group {dto.scoring_group_number} "
                                           f"has no section {section} (section {section} is in scoring group "
                                           f"{sections[section]})")
        hands = [".".join(h[seat + suit] for suit in ("Spades", "Hearts", "Diamonds", "Clubs"))
                 for seat in ("North", "East", "South", "West")]
        deal = "N:" + " ".join(hands)
        own[(session, section, board)] = (session, section, board, deal, canonical(h))
        for other, group in sections.items():
            if group == sections[section] and other != section:
                shared[(session, other, board)] = (session, other, board, deal, canonical(h))
    return list({**shared, **own}.values())


def _write_handrecords(tx: Any, rows: list[tuple]) -> None:
    for r in rows:
        tx.execute("DELETE FROM dc_handrecords WHERE session_guid = ? AND section = ? AND board = ?", r[:3])
    tx.executemany("INSERT INTO dc_handrecords (session_guid, section, board, deal, payload) VALUES (?, ?, ?, ?, ?)",
                   rows)


def _settings_rows(sessions: set, model: int, records: Any) -> list[tuple]:
    cls, validator = ((Bridgemate2SettingsDTO, validate_bridgemate2_settings_dto) if model == 2
                      else (Bridgemate3SettingsDTO, validate_bridgemate3_settings_dto))
    if not isinstance(records, list) or len(records) > 1000:
        raise DcError(E_VALIDATION, f"Bridgemate{model}Settings: expected a list")
    rows = []
    for r in records:
        dto = _checked(cls, r, validator, f"Bridgemate{model}Settings")
        if dto.session_guid not in sessions or not isinstance(dto.section_letters, str) or \
                not SECTION_RE.match(dto.section_letters):
            raise DcError(E_VALIDATION, f"Bridgemate{model}Settings: SessionGuid and SectionLetters of a known session")
        rows.append((dto.session_guid, dto.section_letters, model, canonical(dto.to_dict())))
    return rows


def _write_settings(tx: Any, rows: list[tuple]) -> None:
    for r in rows:
        tx.execute("DELETE FROM dc_settings WHERE session_guid = ? AND section = ? AND model = ?", r[:3])
    tx.executemany("INSERT INTO dc_settings (session_guid, section, model, payload) VALUES (?, ?, ?, ?)", rows)


# -- queues ---------------------------------------------------------------------------------------
def session_sections(st: Any, session: str) -> set[str]:
    return {r[0] for r in st.store.query("SELECT section FROM dc_sections WHERE session_guid = ?", (session,))}


def result_dto(session: str, rec: dict) -> dict:
    """A tablet result record (interfaces section 3) as a Data Connector ResultDTO, built with the
    official client's own class so the wire format is the reference's.

    - a withdrawal (`withdrawn: true`, a result on the wrong board taken back): IsDeleted;
    - an artificial score (2007/2017 L12C2): Level -1..-9;
    - an assigned score (L12C1) with a contract: that contract, as the TD ruled it, not the
      table's own; an assigned score given only as points, a weighted or a split score: no play
      (Level -10), the scoring program takes the ruling from the TD;
    - otherwise the table's result (Level 0 for a passed-out board)."""
    ns, ew = rec["ns_pair"], rec["ew_pair"]
    dto = ResultDTO(session_guid=session, section_letters=rec["section"], table_number=rec["table"],
                    round_number=rec["round"], board_number=rec["board"],
                    scoring_direction=ResultDTO.ScoringDirection_NSEW, pair_north_south=ns, pair_east_west=ew,
                    declaring_pair=ns)
    if rec.get("withdrawn"):
        dto.is_deleted = True
        return dto.to_dict()
    adjusted = rec.get("adjusted") or {}
    played = rec
    if adjusted.get("kind") == "assigned" and adjusted.get("contract"):
        played = adjusted
    elif adjusted:
        played = {}
    contract = played.get("contract")
    if adjusted.get("kind") == "artificial":
        dto.level = ARTIFICIAL_LEVEL[(adjusted["ns"], adjusted["ew"])]
    elif contract and contract != "PASS":
        m = re.match(r"^([1-7])(NT|[CDHS])(X{0,2})$", contract)
        assert m is not None
        decl = played["declarer"]
        dto.level, dto.denomination, dto.stake = int(m.group(1)), DENOM_NUM[m.group(2)], len(m.group(3))
        dto.declarer_direction, dto.total_tricks = SEAT_NUM[decl], played["tricks"]
        dto.declaring_pair = ns if decl in "NS" else ew
    elif contract is None:
        dto.level = ResultDTO.ContractLevel_NoPLay
    lead = rec.get("lead") if played is rec else None
    if lead:
        dto.lead_card_suit, dto.lead_card_rank = SUIT_NUM[lead[0]], RANK_NUM[lead[1:]]
    return dto.to_dict()


def td_call_dto(session: str, key: str, call: dict, received_at: str) -> dict:
    # Hour/minute of the call in the venue's local time (BCS shows them to the TD).
    at = at_iso(call.get("at") or received_at)
    status = td_call_facts(key, call)[1]
    try:
        t = time.localtime(calendar.timegm(time.strptime(at, "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, OverflowError):
        t = time.localtime()
    return TdCallDTO(session_guid=session, section_letters=call["section"], table_number=call["table"],
                     round_number=max(1, int(call.get("round") or 1)), hour=t.tm_hour, minute=t.tm_min,
                     status=TD_STATUS_NUM[status]).to_dict()


def _poll(st: Any, command: int, event: str, session: str) -> dict:
    data_type = RESULTS if command in (POLL_NEW_RESULTS, POLL_ALL_RESULTS) else TDCALLS
    kind = "result" if data_type == RESULTS else "td_call"
    sections = session_sections(st, session)
    # A row the station cannot read is left out (the director page lists it: station/stored.py),
    # and so is one the official DTO cannot be made of: the other results still go.
    if command in (POLL_ALL_RESULTS, POLL_ALL_TDCALLS):
        items = [it for it in st.store.items(event, kind) if it["payload"]["section"] in sections]
        chosen = _convertible(latest_results(items, withdrawn=True) if kind == "result" else items, session)
        with st.store.transaction() as tx:
            _note_read(tx, session, data_type, "polled_at")
    else:
        rows = st.store.query(
            f"SELECT {COLUMNS} FROM items i WHERE event = ? AND kind = ? "
            "AND NOT EXISTS (SELECT 1 FROM dc_accepted a WHERE a.session_guid = ? AND a.data_type = ? "
            "AND a.item_id = i.id) ORDER BY id", (event, kind, session, data_type))
        chosen = _convertible([it for it in read_rows(rows)[0] if it["payload"]["section"] in sections], session)
        with st.store.transaction() as tx:
            tx.execute("DELETE FROM dc_polled WHERE session_guid = ? AND data_type = ?", (session, data_type))
            tx.executemany("INSERT INTO dc_polled (session_guid, data_type, item_id) VALUES (?, ?, ?)",
                           [(session, data_type, it["id"]) for it, _ in chosen])
            _note_read(tx, session, data_type, "polled_at")
    dtos = [dto for _, dto in chosen]
    last = max((it["id"] for it, _ in chosen), default=0)
    return _reply(command, data_type, raw=json.dumps(dtos), session=session, last_id=last)


def _convertible(items: list[dict], session: str) -> list[tuple[dict, dict]]:
    """(item, its DTO) of each item a DTO can be made of; a row an older station stored with
    values the DTO has no place for (an artificial score without its two sides) is left out."""
    out = []
    for it in items:
        try:
            dto = result_dto(session, it["payload"]) if it["kind"] == "result" else \
                td_call_dto(session, it["key"], it["payload"], it["received_at"])
        except (KeyError, TypeError, ValueError, AssertionError, AttributeError, IndexError) as e:
            print(f"station: {it['kind']} {it['key']!r} left out of the scoring program's poll: {e!r}",
                  file=sys.stderr, flush=True)
            continue
        out.append((it, dto))
    return out


def _accept(st: Any, session: str | None, data_type: int, last_id: int) -> int:
    with st.store.transaction() as tx:
        rows = tx.execute("SELECT item_id FROM dc_polled WHERE session_guid = ? AND data_type = ? AND item_id <= ?",
                          (session, data_type, last_id)).fetchall()
        tx.executemany("INSERT INTO dc_accepted (session_guid, data_type, item_id) VALUES (?, ?, ?) "
                       "ON CONFLICT DO NOTHING", [(session, data_type, r[0]) for r in rows])
        tx.execute("DELETE FROM dc_polled WHERE session_guid = ? AND data_type = ? AND item_id <= ?",
                   (session, data_type, last_id))
        if rows:
            _note_read(tx, session, data_type, "accepted_at")
    return len(rows)


def _note_read(tx: Any, session: str | None, data_type: int, column: str) -> None:
    """When the scoring program last polled (`polled_at`) or took (`accepted_at`) items of a
    queue: the director page's "last read" (station/bws/status.py)."""
    assert column in ("polled_at", "accepted_at")
    tx.execute("INSERT INTO dc_reads (session_guid, data_type) VALUES (?, ?) ON CONFLICT DO NOTHING",
               (session, data_type))
    tx.execute(f"UPDATE dc_reads SET {column} = ? WHERE session_guid = ? AND data_type = ?",
               (utc_now(), session, data_type))
