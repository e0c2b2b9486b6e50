"""The Data Connector as the scoring program expects it, with the official
client as the scoring program over real HTTP and its own DTO validators on every reply."""
import json

import pytest
from bridgemate_dataconnector import DataConnectorClient, validate_result_dto
from bridgemate_dataconnector.dto import (
    Bm3LeadCardEntryOption,
    Bm3ViewResultsOption,
    Bridgemate2SettingsDTO,
    Bridgemate3SettingsDTO,
    DataConnectorResponseData,
    InitDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDTO,
)

from station.movement import Slot

from .conftest import EVENT, result_record
from .test_dataconnector import GUID, handrecord, pairs_init

pytestmark = pytest.mark.server  # starts the results station as a process

SLOTS = [Slot(t, 1, 1, 3, t, t + 10) for t in range(1, 5)]


def valid(dtos):
    for d in dtos:
        assert validate_result_dto(d), d.validation_messages
    return dtos


def scorer_for(st, init=None) -> DataConnectorClient:
    client = DataConnectorClient("club-7", st.token, st.url)
    assert client.initialize(init or pairs_init(SLOTS)).data_type == DataConnectorResponseData.OK
    return client


def test_a_result_on_the_wrong_board_is_withdrawn_and_the_scoring_program_sees_it(sqlite_station):
    """Table 1 entered its board 3 result on board 2; the TD withdraws it and enters it on board
    3. The scoring program gets the deletion (IsDeleted), the travellers and exports lose it."""
    st = sqlite_station
    scorer = scorer_for(st)
    wrong = result_record(board=2)
    assert st.post_item("result", wrong)[0] == 201
    [first] = valid(scorer.poll_for_results(GUID))
    assert (first.board_number, first.is_deleted) == (2, False)
    scorer.accept_queue_data(GUID, DataConnectorResponseData.Results)

    withdrawal = {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 2, "ns_pair": 1,
                  "ew_pair": 11, "withdrawn": True, "reason": "entered on the wrong board",
                  "entered_at": "2026-11-22T19:50:00Z", "key": f"{EVENT}/A/1/1/2/2"}
    assert st.post_item("result", withdrawal)[0] == 201
    assert st.post_item("result", result_record(board=3))[0] == 201
    got = valid(scorer.poll_for_results(GUID))
    assert [(r.board_number, r.is_deleted) for r in got] == [(2, True), (3, False)]
    assert {(r.board_number, r.is_deleted) for r in valid(scorer.poll_for_results(GUID, all=True))} == \
        {(2, True), (3, False)}

    # The table has not played board 2 any more; nobody's traveller or export shows it.
    status, mv = st.request("GET", "/api/v1/movement", headers=st.table_headers())
    assert mv["current_round"] == 1
    assert st.post_item("result", result_record(table=2, board=2))[0] == 201
    status, doc = st.request("GET", "/api/v1/boards/2/results", headers=st.table_headers(f"{EVENT}/A/2"))
    assert status == 200 and [r["table"] for r in doc["results"]] == [2]
    status, pbn = st.request("GET", f"/export/pbn?token={st.token}")
    assert status == 200 and pbn.count('[Board "2"]') == 1
    assert st.request("GET", f"/export/usebio?token={st.token}")[0] == 200


def test_a_withdrawal_must_be_a_later_revision_and_carry_no_result(sqlite_station):
    st = sqlite_station
    scorer_for(st)
    base = {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 2, "ns_pair": 1, "ew_pair": 11,
            "withdrawn": True, "entered_at": "2026-11-22T19:50:00Z"}
    assert st.post_item("result", {**base, "key": f"{EVENT}/A/1/1/2/1"})[0] == 422
    assert st.post_item("result", {**base, "contract": "4H", "key": f"{EVENT}/A/1/1/2/2"})[0] == 422
    assert st.post_item("result", {**base, "withdrawn": False, "key": f"{EVENT}/A/1/1/2/2"})[0] == 422


def test_an_assigned_score_goes_to_the_scoring_program_as_the_td_ruled_it(sqlite_station):
    """The table played 4H= (+420); the TD assigned 3NT by North, 9 tricks (2007 L12C1). The
    break: the ResultDTO carried 4H by South."""
    st = sqlite_station
    scorer = scorer_for(st)
    rec = result_record(adjusted={"kind": "assigned", "contract": "3NT", "declarer": "N", "tricks": 9,
                                  "law": "2007 L12C1"}, score_ns=400)
    assert st.post_item("result", rec)[0] == 201
    [dto] = valid(scorer.poll_for_results(GUID))
    assert (dto.level, dto.denomination, dto.declarer_direction, dto.total_tricks, dto.stake) == (3, 5, 1, 9, 0)
    assert dto.declaring_pair == dto.pair_north_south and dto.lead_card_rank == 0


def test_a_split_score_is_no_play_for_the_scoring_program(sqlite_station):
    st = sqlite_station
    scorer = scorer_for(st)
    rec = result_record(contract=None, declarer=None, tricks=None, score_ns=None, lead=None,
                        adjusted={"kind": "split", "ns": {"score_ns": 420}, "ew": {"score_ns": 140}})
    assert st.post_item("result", rec)[0] == 201
    [dto] = valid(scorer.poll_for_results(GUID))
    assert dto.level == -10


def two_section_init(method: int = ScoringGroupDTO.ScoringType_Pairs, game_type: int = SectionDTO.GameType_Pairs):
    sections = []
    for letters in ("A", "B"):
        tables = [TableDTO(session_guid=GUID, section_letters=letters, table_number=t, rounds=[
            RoundDTO(session_guid=GUID, section_letters=letters, table_number=t, round_number=1,
                     low_board_number=1, high_board_number=3, pair_ns=t, pair_ew=t + 10)]) for t in (1, 2)]
        sections.append(SectionDTO(session_guid=GUID, scoring_group_number=1, letters=letters, winners=2,
                                   game_type=game_type, tables=tables))
    group = ScoringGroupDTO(session_guid=GUID, scoring_group_number=1, scoring_method=method, sections=sections)
    session = SessionDTO(session_guid=GUID, name="Tuesday", year=2026, month=11, day=22, scoring_groups=[group])
    return InitDTO(commands=InitDTO.Command_Reset, club_id="club-7", sessions=[session])


def test_a_hand_record_for_one_section_serves_its_whole_scoring_group(tmp_path):
    """The client's documentation: one section of a scoring group suffices. The break: section
    B's boards had no deal (`N:- - - -`)."""
    from .conftest import StationProcess

    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--tables", "B:1-2"]).start()
    try:
        scorer = scorer_for(st, two_section_init())
        assert scorer.send_handrecords(GUID, [handrecord(1)]).data_type == DataConnectorResponseData.OK
        rec = result_record()
        rec.update(section="B", key=rec["key"].replace("/A/", "/B/"))
        assert st.post_item("result", rec)[0] == 201
        status, pbn = st.request("GET", f"/export/pbn?token={st.token}")
        assert status == 200
        deal = [line for line in pbn.splitlines() if line.startswith("[Deal ")]
        assert len(deal) == 1 and "AK4.K32.Q432.KJ2" in deal[0] and "-" not in deal[0]
    finally:
        st.stop()


def test_scoring_method_game_type_and_bridgemate_settings_reach_the_tablet(sqlite_station):
    st = sqlite_station
    init = two_section_init(ScoringGroupDTO.ScoringType_Imp2_Weighted, SectionDTO.GameType_Teams)
    init.bridgemate3_settings = [Bridgemate3SettingsDTO(
        session_guid=GUID, section_letters="A", bm3_view_results=Bm3ViewResultsOption.OwnResultAndOtherResults,
        bm3_lead_card_entry=Bm3LeadCardEntryOption.EnabledNoValidation, bm3_pi_ncode="7391",
        bm3_screen_brightness=4)]
    scorer = scorer_for(st, init)
    status, mv = st.request("GET", "/api/v1/movement", headers=st.table_headers())
    assert status == 200
    assert mv["scoring"] == {"method": "imps", "game_type": "teams", "scoring_group": 1}
    s = mv["settings"]
    assert (s["show_results"], s["lead_entry"], s["score_recap"]) == ("all", "enter", False)
    assert s["bm3"]["BM3ViewResults"] == 2 and "BM3PINcode" not in s["bm3"]
    assert "7391" not in json.dumps(mv)
    # Sent later for one section (Bridgemate 2 model): that section's tablets get it.
    bm2 = Bridgemate2SettingsDTO(session_guid=GUID, section_letters="B", show_results=False, show_own_result=True,
                                 lead_card=True, bm2_validate_lead_card=True, bm2_pi_ncode="7391")
    assert scorer.send_bridgemate2_settings(GUID, [bm2]).data_type == DataConnectorResponseData.OK
    st.request("GET", "/api/v1/movement", headers=st.table_headers())
    b_key = st.request("GET", f"/director?token={st.token}")[1]
    import re

    key = dict(re.findall(r"<td>([A-Z]+\d+)</td><td><code>([A-Z0-9-]+)</code>", b_key))["B1"]
    status, mv = st.request("GET", "/api/v1/movement", headers=st.table_headers(f"{EVENT}/B/1", key))
    assert status == 200 and (mv["settings"]["show_results"], mv["settings"]["lead_entry"]) == ("own", "validate")
    # A section without settings: an empty object.
    status, mv = st.request("GET", "/api/v1/movement", headers=st.table_headers(f"{EVENT}/A/2"))
    assert mv["settings"]["show_results"] == "all"
