"""Durable, idempotent ingestion over real HTTP, on SQLite and on a real PostgreSQL."""
import json

import pytest

from .conftest import EVENT, StationProcess, result_record

pytestmark = pytest.mark.server  # starts the results station as a process


def stored(station) -> list:
    code, doc = station.request("GET", "/api/v1/health")
    assert code == 200
    return doc["items"]


def test_result_is_stored_once_and_a_retry_after_a_lost_reply_is_not_a_duplicate(station):
    rec = result_record()
    code, doc = station.post_item("result", rec)
    assert (code, doc["status"]) == (201, "stored")
    # The tablet never saw the reply and sends the same item again.
    code, doc2 = station.post_item("result", rec)
    assert (code, doc2["status"], doc2["id"]) == (200, "duplicate", doc["id"])
    assert stored(station) == 1


def test_2017_L79C_replay_with_altered_content_is_rejected_409_and_stored_nowhere(station):
    rec = result_record()
    assert station.post_item("result", rec)[0] == 201
    altered = dict(rec, tricks=11, score_ns=450)
    code, doc = station.post_item("result", altered)
    assert code == 409 and "new revision" in doc["error"]
    assert stored(station) == 1
    # The correction as a new revision (Law 79C) is accepted beside the original.
    rev2 = result_record(revision=2, tricks=11, score_ns=450)
    assert station.post_item("result", rev2)[0] == 201
    assert stored(station) == 2


def test_unknown_table_bad_key_missing_auth_are_refused_and_nothing_stored(station):
    rec = result_record()
    body = json.dumps({"kind": "result", "key": rec["key"], "payload": rec}).encode()
    code, doc = station.request("POST", "/api/v1/items", body,
                                station.table_headers(f"{EVENT}/A/1", key="WRONG-KEY"))
    assert code == 403 and "wrong key" in doc["error"]
    code, doc = station.request("POST", "/api/v1/items", body,
                                station.table_headers(f"{EVENT}/A/9", key=station.keys[f"{EVENT}/A/1"]))
    assert code == 403
    code, doc = station.request("POST", "/api/v1/items", body, {"Content-Type": "application/json"})
    assert code == 401 and "X-Table" in doc["error"]
    # Another event's table with this event's key.
    code, doc = station.request("POST", "/api/v1/items", body,
                                station.table_headers("other-event/A/1", key=station.keys[f"{EVENT}/A/1"]))
    assert code == 403
    assert stored(station) == 0


def test_a_table_cannot_send_another_tables_result(station):
    rec = result_record(table=2)
    code, doc = station.post_item("result", rec, table=f"{EVENT}/A/1")
    assert code == 403 and "its own items" in doc["error"]
    assert stored(station) == 0


def test_malformed_json_oversized_body_and_bad_records_get_clear_errors(station):
    h = station.table_headers()
    code, doc = station.request("POST", "/api/v1/items", b"{not json", h)
    assert code == 400 and "malformed JSON" in doc["error"]
    code, doc = station.request("POST", "/api/v1/items", b"[1, 2]", h)
    assert code == 400
    big = json.dumps({"kind": "result", "key": "x", "payload": {"pad": "x" * 400_000}}).encode()
    code, doc = station.request("POST", "/api/v1/items", big, h)
    assert code == 413 and "limit" in doc["error"]
    for bad, field in [(dict(result_record(), contract="4Z"), "contract"),
                       (dict(result_record(), tricks=14), "tricks"),
                       (dict(result_record(), vulnerability="Both"), "vulnerability"),
                       (dict(result_record(), declarer=None), "declarer"),
                       (dict(result_record(), auction=[{"seat": "N", "call": "8H"}]), "auction[0].call"),
                       (dict(result_record(), key=f"{EVENT}/A/1/1/2/1"), "key")]:
        code, doc = station.post_item("result", bad, table=f"{EVENT}/A/1")
        assert code == 422 and field in doc["error"], (field, doc)
    code, doc = station.request("POST", "/api/v1/items",
                                json.dumps({"kind": "gossip", "key": "k", "payload": {}}).encode(), h)
    assert code == 422 and "kind" in doc["error"]
    assert stored(station) == 0


def test_passed_out_board_and_artificial_adjusted_score_are_accepted(station):
    passed = result_record(board=2, contract="PASS", declarer=None, tricks=None, lead=None, score_ns=0,
                           auction=[{"seat": s, "call": "PASS"} for s in "NESW"])
    assert station.post_item("result", passed)[0] == 201
    art = result_record(board=3, contract=None, declarer=None, tricks=None, lead=None, score_ns=None,
                        adjusted={"kind": "artificial", "ns": "avg+", "ew": "avg-", "law": "2017 L12C2"},
                        auction=[])
    assert station.post_item("result", art)[0] == 201


def test_td_calls_and_auction_logs_travel_with_their_own_keys(station):
    td = {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 1, "call": 1,
          "status": "launched", "at": "2026-11-22T19:40:00Z"}
    td["key"] = f"{EVENT}/A/1/td/1/launched"
    assert station.post_item("td_call", td)[0] == 201
    auc = {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 1, "seq": 1,
           "phase": "bidding", "calls": [{"seat": "N", "call": "1NT", "alerted": False}],
           "at": "2026-11-22T19:41:00Z"}
    auc["key"] = f"{EVENT}/A/1/1/1/auction/1"
    assert station.post_item("auction", auc)[0] == 201
    assert station.post_item("auction", auc)[0] == 200
    # The tablet's own form (tablet_app.controller): one item when the call is made.
    tablet_form = {"kind": "td_call", "key": f"{EVENT}/A/1/1/2/td/0", "event": EVENT, "section": "A",
                   "table": 1, "round": 1, "board": 2, "seat": "E", "t": 4.2, "reason": None,
                   "at": 1790000000.0}
    assert station.post_item("td_call", tablet_form)[0] == 201
    assert stored(station) == 3


def test_an_acknowledged_result_survives_kill_9_of_the_station(db_url, tmp_path):
    st = StationProcess(db_url, tmp_path).start()
    try:
        for board in range(1, 6):
            assert st.post_item("result", result_record(board=board))[0] == 201
        st.kill()  # no shutdown, no flush: SIGKILL right after the last reply
        st2 = StationProcess(db_url, tmp_path)
        st2.port = st.port
        st2.start()
        try:
            assert stored(st2) == 5
            assert st2.post_item("result", result_record(board=5))[0] == 200
        finally:
            st2.stop()
    finally:
        st.stop()


def test_2017_L16D1_board_results_only_shown_to_a_table_that_has_played_it(sqlite_station):
    st = sqlite_station
    assert st.post_item("result", result_record(table=1, board=7))[0] == 201
    h2 = st.table_headers(f"{EVENT}/A/2")
    code, doc = st.request("GET", "/api/v1/boards/7/results", headers=h2)
    assert code == 403 and "Law 16" in doc["error"]
    code, doc = st.request("GET", "/api/v1/boards/7/results", headers=st.table_headers(f"{EVENT}/A/1"))
    assert code == 200 and [r["table"] for r in doc["results"]] == [1]
    assert st.post_item("result", result_record(table=2, board=7))[0] == 201
    code, doc = st.request("GET", "/api/v1/boards/7/results", headers=h2)
    assert code == 200 and sorted(r["table"] for r in doc["results"]) == [1, 2]


def test_multi_hall_two_stations_on_one_postgresql_store_each_result_once(postgres, tmp_path):
    import threading

    url = postgres.new_database()
    hall1 = StationProcess(url, tmp_path).start()
    hall2 = StationProcess(url, tmp_path).start()
    try:
        assert hall1.keys == hall2.keys  # one event, one set of table keys
        recs = [result_record(board=b) for b in range(1, 11)]
        codes = []

        def deliver(st):
            for r in recs:
                codes.append(st.post_item("result", r)[0])

        threads = [threading.Thread(target=deliver, args=(st,)) for st in (hall1, hall2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert codes.count(201) == 10 and codes.count(200) == 10
        assert stored(hall1) == stored(hall2) == 10
    finally:
        hall1.stop()
        hall2.stop()
