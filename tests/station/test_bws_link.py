"""The club's choice of link at start (Data Connector or .bws), and when the scoring program last
read a result, as the director sees them. The scoring program is the official Data Connector
client over real HTTP, or the .bws file over the real ODBC path."""
from __future__ import annotations

import datetime
import json
import re
import sqlite3

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import (
    DataConnectorResponseData,
    ErrorType,
    ScoringProgramDataConnectorCommands,
    ScoringProgramRequest,
)

from .conftest import EVENT, StationProcess, result_record
from .test_bws_session import bws_station, create_bws, director, mitchell, result_record_for, rows, wait_for
from .test_dataconnector import GUID, init_dto

pytestmark = pytest.mark.server  # starts the results station as a process

# A zone far from UTC, given as a POSIX rule (no tz database needed): a time shown in UTC is
# five and a half hours off.
TZ = "IST-5:30"
OFFSET = datetime.timezone(datetime.timedelta(hours=5, minutes=30))


def local_now() -> datetime.datetime:
    return datetime.datetime.now(OFFSET).replace(tzinfo=None, microsecond=0)


def shown_at(page: str, label: str) -> datetime.datetime:
    m = re.search(re.escape(label) + r" (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", page)
    assert m, f"{label!r} with a time not on the page: {page[:3000]}"
    return datetime.datetime.fromisoformat(m.group(1))


def test_a_scoring_program_on_the_data_connector_of_a_bws_station_is_told_and_changes_nothing(tmp_path):
    """The club started the station on Ruter's .bws; someone also points a scoring program at the
    Data Connector. Every command gets the protocol's error reply saying so: the scoring program
    cannot put a second movement in place or take the results a second time."""
    bws = tmp_path / "Mandag.bws"
    create_bws(bws, rounds=1)
    st = bws_station(tmp_path, bws)
    try:
        table = f"{EVENT}/A/2"
        wait_for(lambda: st.request("GET", "/api/v1/movement", headers=st.table_headers(table))[0] == 200,
                 "the .bws movement")
        before = st.request("GET", "/api/v1/movement", headers=st.table_headers(table))[1]
        assert st.post_item("result", result_record_for(1, 1, 1))[0] == 201
        client = DataConnectorClient("club-7", st.token, st.url)
        # The client's connect() is a GET of the station's front page: no Data Connector greeting.
        replies = [client.connect(), client.ping(), client.initialize(init_dto())]
        assert replies[0].data_type == DataConnectorResponseData.Error
        assert ".bws link" in json.loads(replies[0].serialized_data)
        replies = replies[1:]
        for command in (ScoringProgramDataConnectorCommands.Connect,
                        ScoringProgramDataConnectorCommands.PollQueueForNewResults,
                        ScoringProgramDataConnectorCommands.PollQueueForAllResults):
            replies.append(client.send_request(ScoringProgramRequest(command=command, session_guid=GUID,
                                                                     serialized_data="")))
        for r in replies:
            assert r.data_type == DataConnectorResponseData.Error, r.to_dict()
            assert r.error_type == ErrorType.UnexpectedCommand
            assert ".bws link" in json.loads(r.serialized_data), r.serialized_data
        assert st.request("GET", "/api/v1/movement", headers=st.table_headers(table))[1] == before
        assert (before["rounds"]["1"]["2"]["ns"], before["rounds"]["1"]["2"]["ew"]) == mitchell(2, 1)[3:5]
        page = director(st)
        assert "Scoring program link: .bws file" in page and "the Data Connector is off" in page
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 1, "the result in the .bws")
    finally:
        st.stop()


def test_the_director_sees_when_the_scoring_program_last_took_a_result_from_the_data_connector(
        tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", TZ)
    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    try:
        client = DataConnectorClient("club-7", st.token, st.url)
        assert client.initialize(init_dto()).data_type == DataConnectorResponseData.OK
        page = director(st)
        assert "Tuesday pairs: 0 results taken by the scoring program, none taken yet, not polled yet" in page
        assert st.post_item("result", result_record(table=1, board=1, ns_pair=1, ew_pair=5))[0] == 201
        start = local_now()
        assert len(client.poll_for_results(GUID)) == 1
        polled = director(st)
        assert "none taken yet" in polled  # polled, not yet accepted: not read
        assert start <= shown_at(polled, "last asked at") <= local_now()
        start = local_now()
        assert client.accept_queue_data(GUID, DataConnectorResponseData.Results).data_type == \
            DataConnectorResponseData.OK
        end = local_now()
        page = director(st)
        assert "Tuesday pairs: 1 results taken by the scoring program" in page
        assert start <= shown_at(page, "last took one at") <= end
    finally:
        st.stop()


def test_the_director_sees_in_local_time_when_ruter_last_read_the_bws(tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", TZ)
    bws = tmp_path / "Tisdag.bws"
    create_bws(bws, rounds=1)
    st = bws_station(tmp_path, bws)
    try:
        assert st.post_item("result", result_record_for(1, 1, 1))[0] == 201
        wait_for(lambda: len(rows(bws, "ReceivedData")) == 1, "the result in the .bws")
        assert "not read by the scoring program yet" in director(st)
        start = local_now()
        db = sqlite3.connect(bws)
        db.execute("UPDATE [ReceivedData] SET [Processed] = 1")
        db.commit()
        db.close()
        page = wait_for(lambda: next((p for p in [director(st)] if "last read by the scoring program at" in p),
                                     None), "the read on the director page")
        # Seen within one look at the file (--bws-poll 0.5 s) of the read.
        assert start <= shown_at(page, "last read by the scoring program at") <= local_now()
        assert "(local time)" in page and "1 results in the file, 1 read" in page
    finally:
        st.stop()
