"""The Data Connector commands the official client (`bridgemate-dataconnector-client` 1.2.1) has
beyond setting up an event and pulling the queues, driven with that client over real HTTP:
UpdateMovement's added players and participations, UpdateScoringGroups, PutResults, PutTdCalls,
AddSession, GetMovement, GetAllMovements, ClearData; and malformed requests that change nothing."""
from __future__ import annotations

import json

from bridgemate_dataconnector import validate_section_dto
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    ErrorType,
    ParticipationDTO,
    PlayerDataDTO,
    ResultDTO,
    ScoringGroupDTO,
    ScoringProgramDataConnectorCommands,
    ScoringProgramRequest,
    SectionDTO,
    SectionUpdateDTO,
    SessionDTO,
    TableDirection,
    TableDTO,
    TdCallDTO,
)

from .conftest import EVENT, result_record
from .test_dataconnector import GUID, init_dto

OK, ERROR = DataConnectorResponseData.OK, DataConnectorResponseData.Error
C = ScoringProgramDataConnectorCommands
GUID2 = "ABCDEF0123456789ABCDEF0123456789"


def client(station):
    from bridgemate_dataconnector import DataConnectorClient

    c = DataConnectorClient("club-7", station.token, station.url)
    assert c.initialize(init_dto()).data_type == OK
    return c


def send(c, command, session: str | None, data) -> tuple:
    """A command the client does not wrap, through its public send_request."""
    r = c.send_request(ScoringProgramRequest(command=command, session_guid=session,
                                             serialized_data=data if isinstance(data, str) else json.dumps(data)))
    return r, json.loads(r.serialized_data) if r.serialized_data else None


def page(station) -> str:
    return station.request("GET", f"/director?token={station.token}")[1]


def section_update(tables, **kw) -> SectionUpdateDTO:
    return SectionUpdateDTO(session_guid=GUID, scoring_group_number=1, scoring_group_scoring_method=10,
                            letters="A", winners=2, game_type=10, tables=tables, **kw)


def movement_tables(c) -> list[TableDTO]:
    r, data = send(c, C.GetMovement, GUID, {"SessionGuid": GUID, "Letters": "A"})
    assert r.data_type == DataConnectorResponseData.Movement, data
    tables = SectionDTO.from_dict(data).tables
    assert tables is not None, data
    return tables


def tables_as(c, guid: str, letters: str, only=None) -> list[TableDTO]:
    """Section A's tables as another section's (another session's) movement."""
    out = []
    for t in movement_tables(c):
        if only is None or t.table_number in only:
            for r in t.rounds or []:
                r.session_guid, r.section_letters = guid, letters
            t.session_guid, t.section_letters = guid, letters
            out.append(t)
    return out


def seat(t: int, r: int, d: int, number: str) -> ParticipationDTO:
    return ParticipationDTO(session_guid=GUID, section_letters="A", table_number=t, round_number=r,
                            direction=TableDirection(d), player_number=number)


def test_update_movement_seats_a_late_player_who_shows_in_the_exports_and_on_the_page(sqlite_station):
    from .export_readers import conforming_text, games, tags
    from .test_export_standards import fetch

    st = sqlite_station
    c = client(st)
    players = [PlayerDataDTO(session_guid=GUID, player_number=str(100 + t * 4 + d), first_name="Anna",
                             last_name=f"Player{t}{d}") for t in range(1, 5) for d in range(1, 5)]
    assert c.send_player_data(GUID, players).data_type == OK
    # The seating of every round (explicit participations): in round 2 a late arrival, Lena
    # Late, takes North at table 1 (her number is new: AddedPlayers).
    seats = [seat(t, r, d, str(100 + t * 4 + d)) for t in range(1, 5) for r in (1, 2, 3) for d in range(1, 5)
             if (t, r, d) != (1, 2, 1)] + [seat(1, 2, 1, "999")]
    late = PlayerDataDTO(session_guid=GUID, player_number="999", first_name="Lena", last_name="Late")
    update = section_update(movement_tables(c), has_explicit_participations=True, participations=seats,
                            added_players=[late])
    r = c.update_movement(update)
    assert r.data_type == OK, r.serialized_data
    assert "1 player(s) added" in json.loads(r.serialized_data)
    # Table 1 plays round 1 (boards 1-3), then round 2 (boards 4-6, NS 1 v EW 6): the PBN export
    # names her North in round 2.
    for b in (1, 2, 3):
        assert st.post_item("result", result_record(table=1, board=b, ns_pair=1, ew_pair=5))[0] == 201
    assert st.post_item("result", result_record(table=1, round_no=2, board=4, ns_pair=1, ew_pair=6))[0] == 201
    [game] = [dict(tags(g)) for g in games(conforming_text(fetch(st, "/export/pbn"))) if dict(tags(g)).get("Round") == "2"]
    assert (game["Round"], game["North"], game["South"]) == ("2", "Late, Lena", "Player13, Anna")
    assert "Lena Late" in page(st)  # the director page: table 1 is on round 2
    # A participation naming a player nobody sent: refused, nothing stored.
    bad = section_update(movement_tables(c), has_explicit_participations=True, participations=[seat(2, 2, 1, "777")])
    r = c.update_movement(bad)
    assert r.data_type == ERROR and r.error_type == ErrorType.EntryUnknown and "777" in r.serialized_data
    assert "Lena Late" in page(st)


def test_update_scoring_groups_changes_the_method_and_refuses_an_unknown_section(sqlite_station):
    st = sqlite_station
    c = client(st)

    def method():
        code, mv = st.request("GET", "/api/v1/movement", headers=st.table_headers())
        assert code == 200
        return mv["scoring"]["method"]

    def group(number, method, letters=("A",), deleted=False):
        secs = [SectionDTO(session_guid=GUID, scoring_group_number=number, letters=s, winners=2, game_type=10,
                           tables=tables_as(c, GUID, s)) for s in letters]
        return ScoringGroupDTO(session_guid=GUID, scoring_group_number=number, scoring_method=method,
                               sections=None if deleted else secs, is_deleted=deleted)

    assert method() == "matchpoints"
    r = c.update_scoring_groups([group(2, ScoringGroupDTO.ScoringType_Imp3_Weighted)])
    assert r.data_type == OK, r.serialized_data
    assert method() == "imps"
    r = c.update_scoring_groups([group(3, ScoringGroupDTO.ScoringType_Pairs, ("A", "B"))])
    assert r.data_type == ERROR and r.error_type == ErrorType.EntryUnknown
    assert "section B" in r.serialized_data and "Nothing was changed" in r.serialized_data
    assert method() == "imps"
    r = c.update_scoring_groups([group(2, 10, deleted=True)])
    assert r.data_type == ERROR and "still has section(s) A" in r.serialized_data
    assert method() == "imps"


def test_put_results_and_td_calls_are_the_scoring_programs_own(station):
    c = client(station)
    assert station.post_item("result", result_record(table=1, board=1))[0] == 201
    mine = [ResultDTO(session_guid=GUID, section_letters="A", table_number=2, round_number=1, board_number=4,
                      scoring_direction=3, pair_north_south=2, pair_east_west=6, declaring_pair=6, level=4,
                      denomination=4, stake=0, declarer_direction=4, total_tricks=10),
            ResultDTO(session_guid=GUID, section_letters="A", table_number=3, round_number=1, board_number=7,
                      scoring_direction=3, pair_north_south=3, pair_east_west=7, declaring_pair=3,
                      level=ResultDTO.AvgPlusMin)]
    r = c.send_results(GUID, mine)
    assert r.data_type == OK, r.serialized_data
    call = TdCallDTO(session_guid=GUID, section_letters="A", table_number=4, round_number=1, hour=20, minute=5,
                     status=TdCallDTO.TdCallStatus_Launched)
    assert c.send_td_calls(GUID, [call]).data_type == OK
    # The scoring program's polls carry only what the tables sent.
    assert [(x.table_number, x.board_number) for x in c.poll_for_results(GUID, all=True)] == [(1, 1)]
    assert c.poll_for_td_calls(GUID, all=True) == []
    html = page(station)
    assert 'id="scorer-items"' in html and "board 4: 4S= W" in html and "board 7: Avg+/Avg-" in html
    assert "table A4, round 1: TD call launched at 20:05" in html
    # A result for a section the session lacks: refused whole, nothing stored.
    bad = [ResultDTO(**{**mine[0].__dict__, "board_number": 5}),
           ResultDTO(**{**mine[0].__dict__, "section_letters": "Q"})]
    r = c.send_results(GUID, bad)
    assert r.data_type == ERROR and r.error_type == ErrorType.EntryUnknown and "No section Q" in r.serialized_data
    assert "board 5:" not in page(station)


def test_add_session_to_the_event_and_get_its_movement(sqlite_station):
    st = sqlite_station
    c = client(st)
    def session_of(guid, letters="B"):
        section = SectionDTO(session_guid=guid, scoring_group_number=2, letters=letters, winners=2, game_type=10,
                             tables=tables_as(c, guid, letters, only=(1, 2)))
        return SessionDTO(event_guid=GUID, session_guid=guid, name="Tuesday evening", year=2026, month=11, day=22,
                          scoring_groups=[ScoringGroupDTO(session_guid=guid, scoring_group_number=2,
                                                          scoring_method=10, sections=[section])])

    session = session_of(GUID2)
    r, reply = send(c, C.AddSession, GUID, {"EventGuid": GUID, "Session": session.to_dict()})
    assert r.data_type == OK, reply
    r, sections = send(c, C.GetAllMovements, GUID2, "")
    assert r.data_type == DataConnectorResponseData.Movement
    [b] = [SectionDTO.from_dict(s) for s in sections]
    assert validate_section_dto(b), b.validation_messages
    assert (b.letters, [t.table_number for t in b.tables], b.scoring_group_number) == ("B", [1, 2], 2)
    assert [(x.round_number, x.low_board_number, x.pair_ns, x.pair_ew) for x in b.tables[0].rounds] == \
        [(x.round_number, x.low_board_number, x.pair_ns, x.pair_ew) for x in movement_tables(c)[0].rounds]
    assert f"{EVENT}.2" in page(st)  # the added session's tablets put this id in their keys
    # The same letters again, or an event nobody initialised: refused.
    again = session_of("1" * 32)
    again.scoring_groups[0].scoring_group_number = 3
    again.scoring_groups[0].sections[0].scoring_group_number = 3
    r, reply = send(c, C.AddSession, GUID, {"EventGuid": GUID, "Session": again.to_dict()})
    assert r.data_type == ERROR and "section B is the event's already" in reply
    r, reply = send(c, C.AddSession, GUID, {"EventGuid": GUID, "Session": session_of("1" * 32, "C").to_dict()})
    assert r.data_type == ERROR and "scoring group 2 is the event's already" in reply
    r, reply = send(c, C.AddSession, "2" * 32, {"Session": session.to_dict()})
    assert r.data_type == ERROR and r.error_type == ErrorType.EntryUnknown


def test_get_movement_returns_what_the_scoring_program_sent(sqlite_station):
    c = client(sqlite_station)
    sent = init_dto().sessions[0].scoring_groups[0].sections[0]
    r, data = send(c, C.GetMovement, GUID, {"SessionGuid": GUID, "Letters": "A"})
    got = SectionDTO.from_dict(data)
    assert validate_section_dto(got), got.validation_messages
    assert [(t.table_number, [(x.round_number, x.low_board_number, x.high_board_number, x.pair_ns, x.pair_ew)
                              for x in t.rounds]) for t in got.tables] == \
        [(t.table_number, [(x.round_number, x.low_board_number, x.high_board_number, x.pair_ns, x.pair_ew)
                           for x in t.rounds]) for t in sent.tables]
    r, data = send(c, C.GetMovement, GUID, {"SessionGuid": GUID, "Letters": "Z"})
    assert r.data_type == ERROR and r.error_type == ErrorType.EntryUnknown
    r, data = send(c, C.GetMovement, GUID, "[1, 2]")
    assert r.data_type == ERROR and r.error_type == ErrorType.Validation


def test_clear_data_empties_the_data_connector_and_keeps_the_tables_results(sqlite_station):
    st = sqlite_station
    c = client(st)
    assert st.post_item("result", result_record(table=1, board=1))[0] == 201
    assert len(c.poll_for_results(GUID)) == 1
    assert c.accept_queue_data(GUID, DataConnectorResponseData.Results).data_type == OK
    r, _ = send(c, C.ClearData, "", "")
    assert r.data_type == OK
    r = c.send_request(ScoringProgramRequest(command=C.PollQueueForNewResults, session_guid=GUID))
    assert r.data_type == ERROR and r.error_type == ErrorType.EntryUnknown
    assert st.request("GET", "/api/v1/movement", headers=st.table_headers())[0] == 404
    # Initialised again: the table's result is still there and offered again.
    assert c.initialize(init_dto()).data_type == OK
    assert [x.board_number for x in c.poll_for_results(GUID)] == [1]


def test_malformed_requests_change_nothing(sqlite_station):
    st = sqlite_station
    c = client(st)
    before = page(st)
    for command, data in ((C.UpdateScoringGroups, "{"), (C.UpdateScoringGroups, {"a": 1}), (C.PutResults, "7"),
                          (C.PutTdCalls, [{"SessionGuid": GUID, "SectionLetters": "A", "TableNumber": 0}]),
                          (C.AddSession, []), (C.UpdateScoringGroups, [])):
        r, reply = send(c, command, GUID, data)
        assert r.data_type == ERROR and r.error_type in (ErrorType.Validation, ErrorType.NoData), (command, reply)
    after = page(st)
    assert before.split("<h2>Tables")[1] == after.split("<h2>Tables")[1] and 'id="scorer-items"' not in after
