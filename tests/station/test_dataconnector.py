"""The Bridgemate Data Connector protocol, with the official client
(`bridgemate-dataconnector-client`) acting as the scoring program over real HTTP."""
import pytest
from bridgemate_dataconnector import DataConnectorClient, validate_result_dto, validate_td_call_dto
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    ErrorType,
    HandrecordDTO,
    InitDTO,
    ResultDTO,
    RoundDTO,
    ScoringGroupDTO,
    ScoringProgramDataConnectorCommands,
    ScoringProgramRequest,
    SectionDTO,
    SessionDTO,
    TableDTO,
    TdCallDTO,
)

from station.movement import Slot

from .conftest import EVENT, result_record

GUID = "0123456789ABCDEF0123456789ABCDEF"
DEAL_N = ("AK4", "K32", "Q432", "KJ2")
DEAL_E = ("QJ98", "AQJ", "K65", "A43")
DEAL_S = ("T76", "T9876", "A", "Q765")
DEAL_W = ("532", "54", "JT987", "T98")


def pairs_init(slots, guid: str = GUID, name: str = "Tuesday pairs",
               method: int = ScoringGroupDTO.ScoringType_Pairs, game_type: int = 10) -> InitDTO:
    """One section A as a scoring program initialises it (Data Connector InitDTO): `slots` are
    station.movement.Slot (table, round, boards, pairs), in table order; pairs scoring unless
    `method` says otherwise."""
    tables: dict[int, list[RoundDTO]] = {}
    for s in slots:
        tables.setdefault(s.table, []).append(
            RoundDTO(session_guid=guid, section_letters="A", table_number=s.table, round_number=s.round,
                     low_board_number=s.low_board, high_board_number=s.high_board, pair_ns=s.ns,
                     pair_ew=s.ew))
    tabs = [TableDTO(session_guid=guid, section_letters="A", table_number=t, rounds=rs)
            for t, rs in tables.items()]
    section = SectionDTO(session_guid=guid, scoring_group_number=1, letters="A", winners=2, game_type=game_type,
                         tables=tabs)
    group = ScoringGroupDTO(session_guid=guid, scoring_group_number=1, scoring_method=method, sections=[section])
    session = SessionDTO(session_guid=guid, name=name, year=2026, month=11, day=22,
                         scoring_groups=[group])
    return InitDTO(commands=InitDTO.Command_Reset | InitDTO.Command_StartReading, club_id="club-7",
                   sessions=[session])


def init_dto(tables: int = 4, rounds: int = 3, boards_per_round: int = 3) -> InitDTO:
    slots = []
    for t in range(1, tables + 1):
        for r in range(1, rounds + 1):
            low = ((t + r - 2) % rounds) * boards_per_round + 1
            slots.append(Slot(t, r, low, low + boards_per_round - 1, t, tables + ((t + r - 2) % tables) + 1))
    return pairs_init(slots)


def handrecord(board: int, guid: str = GUID) -> HandrecordDTO:
    h = HandrecordDTO(session_guid=guid, scoring_group_number=1, section_letters="A", board_number=board)
    for seat, hand in (("north", DEAL_N), ("east", DEAL_E), ("south", DEAL_S), ("west", DEAL_W)):
        for suit, cards in zip(("spades", "hearts", "diamonds", "clubs"), hand, strict=True):
            setattr(h, f"{seat}_{suit}", cards)
    return h


@pytest.fixture
def scorer(station):
    client = DataConnectorClient("club-7", station.token, station.url)
    assert client.initialize(init_dto()).data_type == DataConnectorResponseData.OK
    return client


def test_connect_and_ping_with_the_official_client(station):
    client = DataConnectorClient("club-7", station.token, station.url)
    assert client.connect().data_type == DataConnectorResponseData.OK
    assert client.ping().data_type == DataConnectorResponseData.OK


def test_wrong_licence_key_is_refused(station):
    client = DataConnectorClient("club-7", "not-the-key", station.url)
    r = client.initialize(init_dto())
    assert r.data_type == DataConnectorResponseData.Error and "licence key" in r.serialized_data
    assert client.poll_for_results(GUID) == []


def test_initialise_event_registers_every_table_and_rejects_a_bad_guid(station):
    client = DataConnectorClient("club-7", station.token, station.url)
    bad = init_dto()
    bad.sessions[0].session_guid = "not-a-guid"
    r = client.initialize(bad)
    assert r.data_type == DataConnectorResponseData.Error and r.error_type == ErrorType.Validation
    big = init_dto(tables=6)
    assert client.initialize(big).data_type == DataConnectorResponseData.OK
    # Tables 5 and 6 were not given on the command line: the init made them known, with keys.
    code, page = station.request("GET", f"/director?token={station.token}")
    assert code == 200 and ">A6<" in page


def test_results_flow_to_the_scoring_program_and_are_accepted_once(station, scorer):
    assert scorer.send_handrecords(GUID, [handrecord(b) for b in range(1, 10)]).data_type == \
        DataConnectorResponseData.OK
    assert station.post_item("result", result_record(table=1, board=1))[0] == 201
    passed = result_record(table=2, board=4, contract="PASS", declarer=None, tricks=None, lead=None,
                           score_ns=0)
    assert station.post_item("result", passed)[0] == 201
    doubled = result_record(table=3, board=7, contract="3NTX", declarer="W", tricks=7, lead="HT",
                            vulnerability="EW", score_ns=500)
    assert station.post_item("result", doubled)[0] == 201
    results = scorer.poll_for_results(GUID)
    assert len(results) == 3
    assert all(validate_result_dto(r) for r in results), [r.validation_messages for r in results]
    by_table = {r.table_number: r for r in results}
    r1 = by_table[1]
    assert (r1.level, r1.denomination, r1.stake, r1.declarer_direction, r1.total_tricks) == (4, 3, 0, 3, 10)
    assert (r1.declaring_pair, r1.lead_card_suit, r1.lead_card_rank) == (1, 4, 14)
    assert by_table[2].level == ResultDTO.ContractLevel_Pass
    r3 = by_table[3]
    assert (r3.level, r3.denomination, r3.stake, r3.declarer_direction) == (3, 5, 1, 4)
    assert (r3.declaring_pair, r3.lead_card_suit, r3.lead_card_rank) == (r3.pair_east_west, 3, 10)
    # Not accepted yet: the same items come again (a crashed scorer loses nothing).
    assert len(scorer.poll_for_results(GUID)) == 3
    assert scorer.accept_queue_data(GUID, DataConnectorResponseData.Results).data_type == \
        DataConnectorResponseData.OK
    assert scorer.poll_for_results(GUID) == []
    # A result arriving after the poll is delivered next time; accepting does not swallow it.
    assert station.post_item("result", result_record(table=4, board=2))[0] == 201
    new = scorer.poll_for_results(GUID)
    assert [r.table_number for r in new] == [4]
    assert len(scorer.poll_for_results(GUID, all=True)) == 4


def test_2017_L79C_corrected_result_reaches_the_scorer_as_a_new_queue_item(station, scorer):
    assert station.post_item("result", result_record(board=1))[0] == 201
    scorer.poll_for_results(GUID)
    scorer.accept_queue_data(GUID, DataConnectorResponseData.Results)
    fixed = result_record(board=1, revision=2, tricks=9, score_ns=-50)
    assert station.post_item("result", fixed)[0] == 201
    [r] = scorer.poll_for_results(GUID)
    assert r.total_tricks == 9
    assert [x.total_tricks for x in scorer.poll_for_results(GUID, all=True)] == [9]


def test_2017_L12C2_artificial_scores_map_to_bridgemate_average_levels(station, scorer):
    art = result_record(board=2, contract=None, declarer=None, tricks=None, lead=None, score_ns=None,
                        adjusted={"kind": "artificial", "ns": "avg+", "ew": "avg-"})
    assert station.post_item("result", art)[0] == 201
    [r] = scorer.poll_for_results(GUID)
    assert r.level == ResultDTO.AvgPlusMin and validate_result_dto(r)


def test_td_calls_are_pulled_by_the_scoring_program(station, scorer):
    call = {"event": EVENT, "section": "A", "table": 2, "round": 1, "board": 4, "call": 1,
            "status": "launched", "at": "2026-11-22T19:40:00Z", "key": f"{EVENT}/A/2/td/1/launched"}
    assert station.post_item("td_call", call)[0] == 201
    [c] = scorer.poll_for_td_calls(GUID)
    assert (c.table_number, c.round_number, c.status) == (2, 1, TdCallDTO.TdCallStatus_Launched)
    assert validate_td_call_dto(c)
    scorer.accept_queue_data(GUID, DataConnectorResponseData.TdCalls)
    assert scorer.poll_for_td_calls(GUID) == []


def test_unknown_session_and_unsupported_command_get_clear_errors(station, scorer):
    other = "F" * 32
    r = scorer.send_handrecords(other, [])
    assert r.data_type == DataConnectorResponseData.Error
    assert scorer.poll_for_results(other) == []
    r = scorer.send_results(GUID, [ResultDTO(session_guid=GUID)])  # no section, table, board
    assert r.data_type == DataConnectorResponseData.Error and r.error_type == ErrorType.Validation
    r = scorer.send_request(ScoringProgramRequest(command=ScoringProgramDataConnectorCommands.ManageBCS,
                                                  session_guid=GUID, serialized_data="{}"))
    assert r.data_type == DataConnectorResponseData.Error and r.error_type == ErrorType.NotImplemented
