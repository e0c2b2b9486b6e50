"""Events and sessions as clubs run them, over real HTTP with the official
Data Connector client as the scoring program and the tablet's own station reader."""
import datetime
import json
import re
import sqlite3
from typing import Any

import pytest
from bridgemate_dataconnector import DataConnectorClient
from bridgemate_dataconnector.dto import DataConnectorResponseData

from station.movement import Slot
from tablet_app.station_client import session_from_station

from .conftest import EVENT, StationProcess, result_record
from .test_dataconnector import init_dto, pairs_init

pytestmark = pytest.mark.server  # starts the results station as a process

AFTERNOON = "A0000000000000000000000000000001"
EVENING = "E0000000000000000000000000000002"
# Both sessions: section A, four tables, boards 1-3 at every table in round 1.
SLOTS = [Slot(t, 1, 1, 3, t, t + 10) for t in range(1, 5)]


def session_result(event: str, table: int = 1, board: int = 1, **over) -> dict:
    rec = result_record(table=table, board=board, **over)
    rec["event"] = event
    rec["key"] = rec["key"].replace(EVENT, event, 1)
    return rec


def post(st: StationProcess, rec: dict, key: str) -> tuple[int, Any]:
    body = json.dumps({"kind": "result", "key": rec["key"], "payload": rec}).encode()
    return st.request("POST", "/api/v1/items", body,
                      st.table_headers(f"{rec['event']}/{rec['section']}/{rec['table']}", key))


def movement(st: StationProcess, table_id: str, key: str) -> tuple[int, Any]:
    return st.request("GET", "/api/v1/movement", headers=st.table_headers(table_id, key))


def test_the_evening_session_reuses_section_A_without_colliding_with_the_afternoon(sqlite_station):
    """The breaks: the evening's A1 round 1 board 1 was refused with 409 and the evening's poll
    returned the afternoon's result; then, a session initialised while the afternoon still ran
    took over the afternoon's tablets at their next request."""
    st = sqlite_station
    key = st.keys[f"{EVENT}/A/1"]
    scorer = DataConnectorClient("club-7", st.token, st.url)
    assert scorer.initialize(pairs_init(SLOTS, AFTERNOON, "Tuesday afternoon")).data_type == DataConnectorResponseData.OK
    status, mv = movement(st, f"{EVENT}/A/1", key)
    assert status == 200 and mv["event"] == EVENT and mv["session"] == AFTERNOON
    assert post(st, session_result(mv["event"]), key)[0] == 201                      # 4H= 420

    # The evening is initialised while A1 still has boards 2 and 3 of the afternoon to play.
    assert scorer.initialize(pairs_init(SLOTS, EVENING, "Tuesday evening")).data_type == DataConnectorResponseData.OK
    for asked in (f"/api/v1/movement?session={AFTERNOON}", "/api/v1/movement"):  # new tablet, old tablet
        status, mv = st.request("GET", asked, headers=st.table_headers(f"{EVENT}/A/1", key))
        assert status == 200 and mv["session"] == AFTERNOON and mv["event"] == EVENT, asked
    # The TD says: the tablet is given the evening's id (director page) and is in the evening.
    status, mv = movement(st, f"{EVENT}.2/A/1", key)
    assert status == 200 and mv["session"] == EVENING and mv["event"] == f"{EVENT}.2"
    assert mv["current_round"] == 1                      # the afternoon's board 1 is not this session's
    evening = session_result(mv["event"], tricks=11, score_ns=450)                  # 4H+1
    status, reply = post(st, evening, key)               # the same table key
    assert status == 201, reply
    # Once A1 has played the afternoon's boards, the plain id sets a new tablet up in the evening.
    for board in (2, 3):
        assert post(st, session_result(EVENT, board=board), key)[0] == 201
    status, mv = movement(st, f"{EVENT}/A/1", key)
    assert status == 200 and mv["session"] == EVENING and mv["event"] == f"{EVENT}.2"
    assert movement(st, f"{EVENT}.2/A/1", key)[1]["session"] == EVENING
    # The director page says which id each session's tablets use (for a setup typed in).
    page = st.request("GET", f"/director?token={st.token}")[1]
    assert re.search(rf"Tuesday afternoon \(A\): table id <code>{EVENT}/", page)
    assert re.search(rf"Tuesday evening \(A\): table id <code>{EVENT}\.2/", page)

    [pm] = scorer.poll_for_results(EVENING)
    assert (pm.table_number, pm.board_number, pm.total_tricks) == (1, 1, 11)
    assert [r.board_number for r in scorer.poll_for_results(AFTERNOON)] == [1, 2, 3]
    assert [r.total_tricks for r in scorer.poll_for_results(EVENING, all=True)] == [11]

    # Law 16 gate and travellers stay within the session too.
    st2_key = st.keys[f"{EVENT}/A/2"]
    assert post(st, session_result(f"{EVENT}.2", table=2, tricks=9, score_ns=-50), st2_key)[0] == 201
    status, board = st.request("GET", "/api/v1/boards/1/results", headers=st.table_headers(f"{EVENT}.2/A/2", st2_key))
    assert status == 200 and sorted(r["tricks"] for r in board["results"]) == [9, 11]


def test_a_hand_typed_evening_tablet_with_a_stranger_session_id_is_refused(sqlite_station):
    """A session's own id takes the table's key only for a session the scoring program sent."""
    st = sqlite_station
    key = st.keys[f"{EVENT}/A/1"]
    scorer = DataConnectorClient("club-7", st.token, st.url)
    scorer.initialize(pairs_init(SLOTS, AFTERNOON))
    status, _ = post(st, session_result(f"{EVENT}.7"), key)
    assert status == 403


def _set_last_event(db: str, event: str, day: str) -> None:
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        c.executemany("INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)",
                      [("event", event), ("event_day", day)])


def test_started_as_the_readme_says_the_station_does_not_reuse_last_weeks_event(tmp_path):
    db = str(tmp_path / "station.db")
    _set_last_event(db, "club-2026-11-15", "2026-11-15")
    st = StationProcess(db, tmp_path, event=None).start()
    try:
        today = datetime.date.today().isoformat()
        assert st.request("GET", "/api/v1/health")[1]["event"] == f"club-{today}"
        assert f"club-{today}/A/1" in st.keys
    finally:
        st.stop()


def _director_keys(st: StationProcess) -> dict[str, str]:
    status, html = st.request("GET", f"/director?token={st.token}")
    assert status == 200 and isinstance(html, str)
    return dict(re.findall(r"<td>([A-Z]+\d+)</td><td><code>([A-Z0-9-]+)</code>", html))


def test_without_event_the_scoring_programs_events_each_get_their_own(tmp_path):
    """A station serving two events of the scoring program (same date): neither leaks into the
    other's polls or movements."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, event=None).start()
    try:
        scorer = DataConnectorClient("club-7", st.token, st.url)
        first = pairs_init(SLOTS, AFTERNOON, "Club pairs")
        first.sessions[0].year, first.sessions[0].month, first.sessions[0].day = 2026, 11, 22
        assert scorer.initialize(first).data_type == DataConnectorResponseData.OK
        assert st.request("GET", "/api/v1/health")[1]["event"] == "club-2026-11-22"
        key = _director_keys(st)["A1"]
        status, mv = movement(st, "club-2026-11-22/A/1", key)
        assert status == 200 and mv["event"] == "club-2026-11-22"
        assert post(st, session_result("club-2026-11-22"), key)[0] == 201

        second = pairs_init(SLOTS, EVENING, "Junior pairs")
        second.sessions[0].year, second.sessions[0].month, second.sessions[0].day = 2026, 11, 22
        assert scorer.initialize(second).data_type == DataConnectorResponseData.OK
        event2 = "club-2026-11-22-2"
        assert st.request("GET", "/api/v1/health")[1]["event"] == event2
        key2 = _director_keys(st)["A1"]
        status, mv = movement(st, f"{event2}/A/1", key2)
        assert status == 200 and mv["event"] == event2 and mv["current_round"] == 1
        assert scorer.poll_for_results(EVENING) == []
        assert len(scorer.poll_for_results(AFTERNOON)) == 1
        # The first event's key is not the second's.
        assert movement(st, f"{event2}/A/1", key)[0] == 403
    finally:
        st.stop()


def test_refused_deliveries_are_listed_per_table_after_a_restart(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    try:
        bad = result_record(table=3, score_ns=999)
        assert st.post_item("result", bad)[0] == 422
        st.stop()
        st.start()
        status, doc = st.request("GET", f"/director/status.json?token={st.token}")
        assert status == 200
        [r] = doc["refusals"]
        assert r["table"] == "A3" and r["status"] == 422 and "Law 77" in r["error"] and r["key"] == bad["key"]
    finally:
        st.stop()


def test_the_clubs_profile_reaches_the_tablet_with_its_movement(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--profile", "dbf-2017",
                                                                           "--director-pin", "2468"]).start()
    try:
        DataConnectorClient("club-7", st.token, st.url).initialize(init_dto())
        key = st.keys[f"{EVENT}/A/2"]
        status, mv = movement(st, f"{EVENT}/A/2", key)
        assert status == 200 and mv["profile"] == "dbf-2017"
        assert mv["scoring"] == {"method": "matchpoints", "game_type": "pairs", "scoring_group": 1}
        session = session_from_station(st.url, "2", key)
        assert session.profile == "dbf-2017" and session.event == EVENT
        assert "2468" not in json.dumps(mv)  # nothing of the PIN travels (test_director_pin.py)
    finally:
        st.stop()


def test_an_unknown_profile_is_refused_at_start(tmp_path):
    import subprocess
    import sys

    from .conftest import ROOT

    out = subprocess.run([sys.executable, "-m", "station", "--db", str(tmp_path / "s.db"), "--no-serve",
                          "--profile", "fsb-1999"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "not a regulation profile" in out.stderr


def test_a_station_upgraded_mid_event_keeps_the_movement_it_was_sent(tmp_path):
    """A database written before sessions had ids (no dc_session_ids row): the tablets still get
    their movement, under the event they already use."""
    from station.store import SCHEMA

    db = str(tmp_path / "station.db")
    with sqlite3.connect(db) as c:
        for ddl in SCHEMA:
            c.execute(ddl.format(serial="INTEGER PRIMARY KEY AUTOINCREMENT"))
        c.execute("INSERT INTO dc_sessions VALUES (?, ?, ?, ?, ?)",
                  (AFTERNOON, EVENT, "Tuesday", json.dumps({"SessionGuid": AFTERNOON}), "2026-11-22T12:00:00Z"))
        c.execute("INSERT INTO dc_sections VALUES (?, 'A', 1, 10, 10)", (AFTERNOON,))
        c.executemany("INSERT INTO dc_rounds VALUES (?, 'A', ?, 1, 1, 3, ?, ?)",
                      [(AFTERNOON, t, t, t + 10) for t in range(1, 5)])
    st = StationProcess(db, tmp_path).start()
    try:
        status, mv = movement(st, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"])
        assert status == 200 and mv["event"] == EVENT and mv["session"] == AFTERNOON
        assert mv["rounds"]["1"]["1"]["boards"] == [1, 2, 3]
    finally:
        st.stop()
