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
import json
import re
import time
from typing import Any

from .records import at_iso, td_call_facts
from .store import canonical, latest_results, utc_now

# ScoringProgramDataConnectorCommands
CONNECT, DISCONNECT, PING, INITIALIZE_EVENT, UPDATE_MOVEMENT = 1, 3, 4, 5, 6
PUT_PLAYERDATA, PUT_PARTICIPATIONS, PUT_HANDRECORDS = 11, 12, 13
POLL_NEW_RESULTS, POLL_NEW_PLAYERDATA, POLL_NEW_PARTICIPATIONS, POLL_NEW_HANDRECORDS = 19, 20, 21, 22
POLL_ALL_RESULTS, POLL_ALL_PLAYERDATA, POLL_ALL_PARTICIPATIONS, POLL_ALL_HANDRECORDS = 23, 24, 25, 26
ACCEPT_RESULTS, ACCEPT_PLAYERDATA, ACCEPT_PARTICIPATIONS, ACCEPT_HANDRECORDS = 27, 28, 29, 30
CONTINUE_EVENT = 31
POLL_NEW_TDCALLS, POLL_ALL_TDCALLS, ACCEPT_TDCALLS = 36, 37, 38
# DataConnectorResponseData
OK, ERROR, RESULTS, PLAYERDATA, PARTICIPATIONS, HANDRECORDS, TDCALLS = 1, 4, 12, 10, 11, 13, 21
# ErrorType
E_NONE, E_NODATA, E_VALIDATION, E_ENTRY_UNKNOWN, E_EXCEPTION, E_NOT_IMPLEMENTED = 0, 2, 5, 6, 7, 8

GUID_RE = re.compile(r"^[0-9A-F]{32}$")
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
EMPTY_POLLS = {POLL_NEW_PLAYERDATA: PLAYERDATA, POLL_ALL_PLAYERDATA: PLAYERDATA,
               POLL_NEW_PARTICIPATIONS: PARTICIPATIONS, POLL_ALL_PARTICIPATIONS: PARTICIPATIONS,
               POLL_NEW_HANDRECORDS: HANDRECORDS, POLL_ALL_HANDRECORDS: HANDRECORDS}
EMPTY_ACCEPTS = (ACCEPT_PLAYERDATA, ACCEPT_PARTICIPATIONS, ACCEPT_HANDRECORDS)


class DcError(Exception):
    def __init__(self, error_type: int, message: str):
        super().__init__(message)
        self.error_type = error_type
        self.message = message


def _reply(command: int, data_type: int, data: Any = None, *, session: str | None = None,
           last_id: int = 0, error_type: int = E_NONE, raw: str | None = None) -> dict:
    return {"RequestCommand": command, "DataType": data_type, "LastQueueItemId": last_id,
            "ErrorType": error_type, "SessionGuid": session,
            "SerializedData": raw if raw is not None else json.dumps(data)}


def handle(st: Any, body: bytes) -> dict:
    """One Data Connector request -> the response envelope (a dict to send as JSON)."""
    try:
        req = json.loads(body)
        if not isinstance(req, dict):
            raise ValueError("not an object")
    except ValueError as e:
        return _reply(0, ERROR, f"Malformed ScoringProgramRequest: {e}", error_type=E_VALIDATION)
    command = req.get("Command") if isinstance(req.get("Command"), int) else 0
    session = req.get("SessionGuid") or None
    try:
        licence = st.config.dc_licence_key or st.config.director_token
        if not req.get("ClubId") or req.get("LicenceKey") != licence:
            raise DcError(E_VALIDATION, "Unknown club id or licence key: use the licence key the "
                                        "station printed at start (also on the director page)")
        return _dispatch(st, command, session, req.get("SerializedData"))
    except DcError as e:
        return _reply(command, ERROR, e.message, session=session, error_type=e.error_type)
    except (ValueError, KeyError, TypeError) as e:
        return _reply(command, ERROR, f"Invalid data: {e}", session=session, error_type=E_VALIDATION)


def _data(serialized: Any, want: type) -> Any:
    if not isinstance(serialized, str) or not serialized.strip():
        raise DcError(E_NODATA, "Empty data")
    try:
        value = json.loads(serialized)
    except ValueError as e:
        raise DcError(E_VALIDATION, f"SerializedData is not JSON: {e}") from e
    if not isinstance(value, want):
        raise DcError(E_VALIDATION, f"SerializedData: expected a JSON {want.__name__}")
    return value


def _known_session(st: Any, session: str | None) -> str:
    if not session or not GUID_RE.match(session):
        raise DcError(E_VALIDATION, "The guid must be exactly 32 character long and can only contain "
                                    "capital A to F or digits 0 to 9.")
    rows = st.store.query("SELECT event FROM dc_sessions WHERE session_guid = ?", (session,))
    if not rows:
        raise DcError(E_ENTRY_UNKNOWN, f"Unknown session {session}: initialise the event first")
    return str(rows[0][0])


def _dispatch(st: Any, command: int, session: str | None, serialized: Any) -> dict:
    if command == PING:
        return _reply(command, OK, raw=serialized if isinstance(serialized, str) else json.dumps(""))
    if command in (CONNECT, DISCONNECT):
        return _reply(command, OK, "OK")
    if command == INITIALIZE_EVENT:
        return _reply(command, OK, _initialize(st, _data(serialized, dict)))
    if command == CONTINUE_EVENT:
        dto = _data(serialized, dict)
        guid = dto.get("EventGuid") or ""
        rows = st.store.query("SELECT session_guid FROM dc_sessions WHERE session_guid = ? OR payload LIKE ?",
                              (guid, f'%"EventGuid":"{guid}"%'))
        if not guid or not rows:
            raise DcError(E_ENTRY_UNKNOWN, f"Unknown event {guid!r}")
        return _reply(command, OK, f"Event {guid} continued")
    if command == UPDATE_MOVEMENT:
        event = _known_session(st, session)
        return _reply(command, OK, _update_movement(st, event, session, _data(serialized, dict)), session=session)
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
        n = _put_handrecords(st, session, _data(serialized, list))
        return _reply(command, OK, f"{n} handrecords stored", session=session)
    if command in (POLL_NEW_RESULTS, POLL_ALL_RESULTS, POLL_NEW_TDCALLS, POLL_ALL_TDCALLS):
        event = _known_session(st, session)
        return _poll(st, command, event, session)
    if command in (ACCEPT_RESULTS, ACCEPT_TDCALLS):
        _known_session(st, session)
        data_type = RESULTS if command == ACCEPT_RESULTS else TDCALLS
        last = _data(serialized, int)
        n = _accept(st, session, data_type, last)
        return _reply(command, OK, f"{n} queue items accepted", session=session)
    if command in EMPTY_POLLS:
        _known_session(st, session)
        return _reply(command, EMPTY_POLLS[command], [], session=session)
    if command in EMPTY_ACCEPTS:
        return _reply(command, OK, "0 queue items accepted", session=session)
    raise DcError(E_NOT_IMPLEMENTED, f"Command {command} is not supported by the bidding-box station")


# -- event setup -------------------------------------------------------------------------------
def _check_section(sec: dict, session: str) -> str:
    letters = sec.get("Letters")
    if not isinstance(letters, str) or not SECTION_RE.match(letters):
        raise DcError(E_VALIDATION, f"Invalid SectionLetters ({letters}). Valid values are: 'A-Z', 'AA-ZZ' or 'AAA','ZZZ'")
    for t in sec.get("Tables") or []:
        if not isinstance(t.get("TableNumber"), int) or t["TableNumber"] < 1:
            raise DcError(E_VALIDATION, f"Invalid TableNumber ({t.get('TableNumber')}) in section {letters}")
        for r in t.get("Rounds") or []:
            if not isinstance(r.get("RoundNumber"), int) or r["RoundNumber"] < 1:
                raise DcError(E_VALIDATION, f"Invalid RoundNumber ({r.get('RoundNumber')}) at table "
                                            f"{letters}{t['TableNumber']}")
    return letters


def _write_section(tx: Any, st: Any, event: str, session: str, group: int, method: int, sec: dict) -> None:
    letters = sec["Letters"]
    tx.execute("DELETE FROM dc_sections WHERE session_guid = ? AND section = ?", (session, letters))
    tx.execute("DELETE FROM dc_rounds WHERE session_guid = ? AND section = ?", (session, letters))
    tx.execute("INSERT INTO dc_sections (session_guid, section, scoring_group, scoring_method, game_type) "
               "VALUES (?, ?, ?, ?, ?)", (session, letters, group, method, int(sec.get("GameType") or 10)))
    for t in sec.get("Tables") or []:
        for r in t.get("Rounds") or []:
            tx.execute("INSERT INTO dc_rounds (session_guid, section, table_no, round_no, low_board, high_board, "
                       "pair_ns, pair_ew) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (session, letters, t["TableNumber"], r["RoundNumber"], int(r.get("LowBoardNumber") or 0),
                        int(r.get("HighBoardNumber") or 0), int(r.get("PairNS") or 0), int(r.get("PairEW") or 0)))


def _initialize(st: Any, init: dict) -> str:
    sessions = init.get("Sessions")
    if not isinstance(sessions, list) or not sessions:
        raise DcError(E_VALIDATION, "At least one session is required.")
    event = st.config.event
    plan = []
    for s in sessions:
        guid = s.get("SessionGuid")
        if not isinstance(guid, str) or not GUID_RE.match(guid):
            raise DcError(E_VALIDATION, "The guid must be exactly 32 character long and can only contain "
                                        "capital A to F or digits 0 to 9.")
        groups = s.get("ScoringGroups")
        if not isinstance(groups, list) or not groups:
            raise DcError(E_VALIDATION, f"Session {guid}: at least one scoring group is required.")
        for g in groups:
            for sec in g.get("Sections") or []:
                _check_section(sec, guid)
        plan.append((guid, s, groups))
    # Players and seats are checked before anything is written; player data first, since a
    # participation may name a player by number only.
    people = {}
    for guid, _s, _g in plan:
        players = _players(guid, [p for p in _list(init.get("PlayerData"))
                                  if isinstance(p, dict) and p.get("SessionGuid") == guid])
        seats = _participations(st, guid, [p for p in _list(init.get("Participations"))
                                           if isinstance(p, dict) and p.get("SessionGuid") == guid],
                                {p["number"] for p in players})
        people[guid] = (players, seats)
    tables = 0
    with st.store.transaction() as tx:
        for guid, s, groups in plan:
            tx.execute("DELETE FROM dc_sessions WHERE session_guid = ?", (guid,))
            tx.execute("DELETE FROM dc_sections WHERE session_guid = ?", (guid,))
            tx.execute("DELETE FROM dc_rounds WHERE session_guid = ?", (guid,))
            tx.execute("DELETE FROM dc_polled WHERE session_guid = ?", (guid,))
            if int(init.get("Commands") or 0) & 128:  # ClearData: the scorer starts its queues afresh
                tx.execute("DELETE FROM dc_accepted WHERE session_guid = ?", (guid,))
            tx.execute("INSERT INTO dc_sessions (session_guid, event, name, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                       (guid, event, s.get("Name"), canonical({**s, "EventGuid": init.get("EventGuid") or s.get("EventGuid")}),
                        utc_now()))
            for g in groups:
                for sec in g.get("Sections") or []:
                    _write_section(tx, st, event, guid, int(g.get("ScoringGroupNumber") or 1),
                                   int(g.get("ScoringMethod") or 10), sec)
                    tables += len(sec.get("Tables") or [])
    # Each table gets its key for this event (existing keys stay valid).
    for _guid, _s, groups in plan:
        for g in groups:
            for sec in g.get("Sections") or []:
                st.register_tables(event, sec["Letters"], [t["TableNumber"] for t in sec.get("Tables") or []])
    for guid, *_ in plan:
        hr = [h for h in init.get("Handrecords") or [] if h.get("SessionGuid") == guid]
        if hr:
            _put_handrecords(st, guid, hr)
        players, seats = people[guid]
        st.store.put_players(guid, players)
        st.store.put_participations(guid, seats)
    return f"Event initialized: {len(plan)} session(s), {tables} table(s) for event {event}"


def _update_movement(st: Any, event: str, session: str | None, dto: dict) -> str:
    sec = dict(dto)
    _check_section(sec, session or "")
    with st.store.transaction() as tx:
        if dto.get("IsDeleted"):
            tx.execute("DELETE FROM dc_sections WHERE session_guid = ? AND section = ?", (session, sec["Letters"]))
            tx.execute("DELETE FROM dc_rounds WHERE session_guid = ? AND section = ?", (session, sec["Letters"]))
            return f"Section {sec['Letters']} deleted"
        _write_section(tx, st, event, session, int(dto.get("ScoringGroupNumber") or 1),
                       int(dto.get("ScoringGroupScoringMethod") or 10), sec)
    st.register_tables(event, sec["Letters"], [t["TableNumber"] for t in sec.get("Tables") or []])
    return f"Movement of section {sec['Letters']} updated"


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


def _put_handrecords(st: Any, session: str | None, records: list) -> int:
    rows = []
    for h in records:
        if not isinstance(h, dict) or h.get("SessionGuid") != session:
            raise DcError(E_VALIDATION, "Each handrecord must carry the request's SessionGuid")
        section, board = h.get("SectionLetters"), h.get("BoardNumber")
        if not isinstance(board, int) or board < 1 or not isinstance(section, str):
            raise DcError(E_VALIDATION, f"Invalid handrecord board {board!r} / section {section!r}")
        hands = []
        for seat in ("North", "East", "South", "West"):
            suits = []
            for suit in ("Spades", "Hearts", "Diamonds", "Clubs"):
                cards = h.get(seat + suit)
                if not isinstance(cards, str) or not re.fullmatch(r"[AKQJT98765432]*", cards):
                    raise DcError(E_VALIDATION, f"Board {board}: {seat}{suit} must be cards from "
                                                "AKQJT98765432 (empty for a void)")
                suits.append(cards)
            hands.append(".".join(suits))
        cards_all = "".join(hands).replace(".", "")
        if len(cards_all) == 52 and any(len(x.replace(".", "")) != 13 for x in hands):
            raise DcError(E_VALIDATION, f"Board {board}: every hand needs 13 cards")
        rows.append((session, section, board, "N:" + " ".join(hands), canonical(h)))
    with st.store.transaction() as tx:
        for r in rows:
            tx.execute("DELETE FROM dc_handrecords WHERE session_guid = ? AND section = ? AND board = ?", r[:3])
            tx.execute("INSERT INTO dc_handrecords (session_guid, section, board, deal, payload) VALUES (?, ?, ?, ?, ?)", r)
    return len(rows)


# -- queues ---------------------------------------------------------------------------------------
def session_sections(st: Any, session: str) -> set[str]:
    return {r[0] for r in st.store.query("SELECT section FROM dc_sections WHERE session_guid = ?", (session,))}


def result_dto(session: str, rec: dict) -> dict:
    """A tablet result record (interfaces section 3) as a Data Connector ResultDTO."""
    ns, ew = rec["ns_pair"], rec["ew_pair"]
    dto = {"SessionGuid": session, "SectionLetters": rec["section"], "TableNumber": rec["table"],
           "RoundNumber": rec["round"], "BoardNumber": rec["board"], "ScoringDirection": 3, "IsDeleted": False,
           "PairNorthSouth": ns, "PairEastWest": ew, "DeclaringPair": ns, "DeclarerDirection": 0,
           "Level": 0, "Denomination": 0, "Stake": 0, "TotalTricks": 0, "LeadCardRank": 0, "LeadCardSuit": 0}
    adjusted = rec.get("adjusted") or {}
    contract = rec.get("contract")
    if adjusted.get("kind") == "artificial":
        dto["Level"] = ARTIFICIAL_LEVEL[(adjusted["ns"], adjusted["ew"])]
    elif contract and contract != "PASS":
        m = re.match(r"^([1-7])(NT|[CDHS])(X{0,2})$", contract)
        assert m is not None
        decl = rec["declarer"]
        dto.update(Level=int(m.group(1)), Denomination=DENOM_NUM[m.group(2)], Stake=len(m.group(3)),
                   DeclarerDirection=SEAT_NUM[decl], DeclaringPair=ns if decl in "NS" else ew,
                   TotalTricks=rec["tricks"])
    elif contract is None:
        dto["Level"] = -10  # no play (a weighted or split score is entered in the scoring program)
    lead = rec.get("lead")
    if lead:
        dto["LeadCardSuit"], dto["LeadCardRank"] = SUIT_NUM[lead[0]], RANK_NUM[lead[1:]]
    return dto


def td_call_dto(session: str, key: str, call: dict, received_at: str) -> dict:
    # Hour/minute of the call in the venue's local time (BCS shows them to the TD).
    at = at_iso(call.get("at") or received_at)
    status = td_call_facts(key, call)[1]
    try:
        t = time.localtime(calendar.timegm(time.strptime(at, "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        t = time.localtime()
    return {"SessionGuid": session, "SectionLetters": call["section"], "TableNumber": call["table"],
            "RoundNumber": max(1, int(call.get("round") or 1)), "Hour": t.tm_hour, "Minute": t.tm_min,
            "Status": TD_STATUS_NUM[status]}


def _poll(st: Any, command: int, event: str, session: str) -> dict:
    data_type = RESULTS if command in (POLL_NEW_RESULTS, POLL_ALL_RESULTS) else TDCALLS
    kind = "result" if data_type == RESULTS else "td_call"
    sections = session_sections(st, session)
    if command in (POLL_ALL_RESULTS, POLL_ALL_TDCALLS):
        items = [it for it in st.store.items(event, kind) if it["payload"]["section"] in sections]
        chosen = latest_results(items) if kind == "result" else items
    else:
        rows = st.store.query(
            "SELECT id, item_key, kind, received_at, payload FROM items i WHERE event = ? AND kind = ? "
            "AND NOT EXISTS (SELECT 1 FROM dc_accepted a WHERE a.session_guid = ? AND a.data_type = ? "
            "AND a.item_id = i.id) ORDER BY id", (event, kind, session, data_type))
        chosen = [it for it in ({"id": int(r[0]), "key": r[1], "kind": r[2], "received_at": r[3],
                                 "payload": json.loads(r[4])} for r in rows)
                  if it["payload"]["section"] in sections]
        with st.store.transaction() as tx:
            tx.execute("DELETE FROM dc_polled WHERE session_guid = ? AND data_type = ?", (session, data_type))
            tx.executemany("INSERT INTO dc_polled (session_guid, data_type, item_id) VALUES (?, ?, ?)",
                           [(session, data_type, it["id"]) for it in chosen])
    if kind == "result":
        dtos = [result_dto(session, it["payload"]) for it in chosen]
    else:
        dtos = [td_call_dto(session, it["key"], it["payload"], it["received_at"]) for it in chosen]
    last = max((it["id"] for it in chosen), default=0)
    return _reply(command, data_type, raw=json.dumps(dtos), session=session, last_id=last)


def _accept(st: Any, session: str | None, data_type: int, last_id: int) -> int:
    with st.store.transaction() as tx:
        rows = tx.execute("SELECT item_id FROM dc_polled WHERE session_guid = ? AND data_type = ? AND item_id <= ?",
                          (session, data_type, last_id)).fetchall()
        tx.executemany("INSERT INTO dc_accepted (session_guid, data_type, item_id) VALUES (?, ?, ?) "
                       "ON CONFLICT DO NOTHING", [(session, data_type, r[0]) for r in rows])
        tx.execute("DELETE FROM dc_polled WHERE session_guid = ? AND data_type = ? AND item_id <= ?",
                   (session, data_type, last_id))
    return len(rows)
