"""A result is never refused for space (station/store.py ROOMS): results, TD calls and progress
snapshots each have their own room per table and session, so a table that sent thousands of
snapshots still has its results stored; a table flooding results beyond any session's bound
gets a clear 507, which the tablet's outbox keeps and retries instead of dropping.

The attack that found the break: snapshots and results shared one quota of 2,000 items per
table, so after 2,000 snapshots the table's result got 413, which the tablet takes as final."""
import http.client
import json
import sqlite3
import threading
import time

import pytest

from shared_rules.records import Result
from station import store as store_module
from station.server import MAX_BATCH_ITEMS, Station, StationConfig, make_server
from station.store import ROOMS, Room, Store
from tablet_app.outbox import Deliverer, Outbox

from .conftest import EVENT, result_record


def snapshot(seq: int) -> dict:
    return {"event": EVENT, "section": "A", "table": 1, "round": 1, "board": 1, "seq": seq, "phase": "bidding",
            "calls": [], "at": "2026-11-22T19:41:00Z"}


def td_call(n: int) -> dict:
    return {"kind": "td_call", "key": f"{EVENT}/A/1/1/1/td/{n}", "event": EVENT, "section": "A", "table": 1,
            "round": 1, "board": 1, "seat": "E", "t": 4.0, "reason": None, "at": 1790000000.0}


class Poster:
    """One keep-alive connection posting items as one table (thousands of items in seconds)."""

    def __init__(self, port: int, key: str, table: str = f"{EVENT}/A/1"):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"X-Table": table, "Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def post(self, kind: str, key: str, payload: dict) -> tuple[int, dict]:
        self.conn.request("POST", "/api/v1/items", json.dumps({"kind": kind, "key": key, "payload": payload}),
                          self.headers)
        resp = self.conn.getresponse()
        return resp.status, json.loads(resp.read())

    def post_batch(self, items: list[tuple[str, str, dict]]) -> list[tuple[int, dict]]:
        """Several items in one request (POST /api/v1/items/batch, each stored or refused exactly
        as alone): (status, answer) of each."""
        body = json.dumps({"items": [{"kind": k, "key": key, "payload": p} for k, key, p in items]})
        self.conn.request("POST", "/api/v1/items/batch", body, self.headers)
        resp = self.conn.getresponse()
        doc = json.loads(resp.read())
        assert resp.status == 200, doc
        return [(r["status"], r) for r in doc["results"]]

    def close(self) -> None:
        self.conn.close()


def test_a_result_after_more_snapshots_than_the_old_quota_is_stored(station):
    room = ROOMS["auction"].items
    assert room >= 2000
    poster = Poster(station.port, station.keys[f"{EVENT}/A/1"])
    try:
        # the room filled in batches (as a tablet's outbox sends them): 2,000 requests one by one
        # took most of this test's time and tested nothing more
        for first in range(1, room + 1, MAX_BATCH_ITEMS):
            seqs = range(first, min(first + MAX_BATCH_ITEMS, room + 1))
            answers = poster.post_batch([("auction", f"{EVENT}/A/1/1/1/auction/{seq}", snapshot(seq)) for seq in seqs])
            assert [status for status, _ in answers] == [201] * len(seqs), (first, answers)
        # The progress room is full: the next snapshot is dropped (413, the tablet forgets it) ...
        status, reply = poster.post("auction", f"{EVENT}/A/1/1/1/auction/{room + 1}", snapshot(room + 1))
        assert status == 413 and "progress snapshots" in reply["error"] and "limit per table" in reply["error"]
        # ... and the table's result and TD call go to their own rooms.
        rec = result_record()
        status, reply = poster.post("result", rec["key"], rec)
        assert (status, reply["status"]) == (201, "stored")
        call = td_call(1)
        assert poster.post("td_call", call["key"], call)[0] == 201
    finally:
        poster.close()
    status, doc = station.request("GET", f"/director/status.json?token={station.token}")
    assert [(r["table"], r["board"]) for r in doc["results"]] == [(1, 1)]


def test_a_table_flooding_results_beyond_any_sessions_bound_gets_a_clear_error(sqlite_station):
    st = sqlite_station
    room = ROOMS["result"].items
    poster = Poster(st.port, st.keys[f"{EVENT}/A/1"])
    try:
        # A result corrected over and over (Law 79C: each correction is the next revision).
        for revision in range(1, room + 1):
            rec = result_record(revision=revision)
            status, reply = poster.post("result", rec["key"], rec)
            assert status == 201, (revision, reply)
        rec = result_record(revision=room + 1)
        status, reply = poster.post("result", rec["key"], rec)
        assert status == 507
        why = reply["error"]
        assert why.startswith(f"table A1 has stored {room} results (results, corrections and withdrawals)")
        assert f"in {EVENT}: the limit per table and session is {room} items and 16 MB" in why
        assert why.endswith("nothing was stored (tell the TD)")
        # Nothing of it was stored; the table's TD calls and snapshots still go; so do other tables'.
        call = td_call(1)
        assert poster.post("td_call", call["key"], call)[0] == 201
        assert poster.post("auction", f"{EVENT}/A/1/1/1/auction/1", snapshot(1))[0] == 201
    finally:
        poster.close()
    assert st.post_item("result", result_record(table=2))[0] == 201
    status, doc = st.request("GET", f"/director/status.json?token={st.token}")
    assert f"{EVENT}/A/1/1/1/{room + 1}" not in doc["stored_keys"]
    [refusal] = [r for r in doc["refusals"] if r["table"] == "A1"]
    assert refusal["status"] == 507 and refusal["key"] == f"{EVENT}/A/1/1/1/{room + 1}"


def test_a_room_is_counted_once_for_a_database_from_before_the_rooms(tmp_path):
    """A station from before the rooms counted every kind together (`table_usage`): the first
    item into a room counts what the table already stored of that kind."""
    s = Store(str(tmp_path / "station.db"))
    try:
        for seq in (1, 2, 3):
            p = snapshot(seq)
            s.put_item(f"{EVENT}/A/1/1/1/auction/{seq}", "auction", p, event=EVENT, section="A", table_no=1,
                       round_no=1, board=1, revision=None)
        with s.transaction() as tx:  # as a database from before the rooms has it
            tx.execute("DELETE FROM table_rooms")
        p = snapshot(4)
        s.put_item(f"{EVENT}/A/1/1/1/auction/4", "auction", p, event=EVENT, section="A", table_no=1, round_no=1,
                   board=1, revision=None)
        rec = result_record()
        s.put_item(rec["key"], "result", rec, event=EVENT, section="A", table_no=1, round_no=1, board=1,
                   revision=1)
        rows = s.query("SELECT kind, items FROM table_rooms ORDER BY kind")
        assert [(k, int(n)) for k, n in rows] == [("auction", 4), ("result", 1)]
    finally:
        s.close()


def in_process_station(tmp_path):
    store = Store(str(tmp_path / "station.db"))
    st = Station(store, StationConfig(host="127.0.0.1", port=0, event=EVENT, director_token="tok"))
    keys = st.register_tables(EVENT, "A", [1])
    server = make_server(st)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return st, server, keys


def test_the_tablets_outbox_keeps_and_retries_a_result_the_station_has_no_room_for(tmp_path, monkeypatch):
    # A station whose results room holds two (the real one holds 1,000: test_rooms above).
    monkeypatch.setitem(store_module.ROOMS, "result", Room("results (results, corrections and withdrawals)", 2,
                                                           16 * 1024 * 1024))
    st, server, keys = in_process_station(tmp_path)
    db = tmp_path / "tablet.db"
    conn = sqlite3.connect(db)
    outbox = Outbox(conn)
    for board in (1, 2, 3):
        outbox.put(Result.from_json(result_record(board=board)))
    conn.commit()
    tid = f"{EVENT}/A/1"
    d = Deliverer(str(db), f"http://127.0.0.1:{server.server_address[1]}", tid, keys[1],
                  min_backoff=0.02, max_backoff=0.05).start()
    try:
        # Boards 1 and 2 are taken; board 3 is refused for room, again and again, and never dropped.
        def refused_twice() -> bool:
            pending = outbox.items("pending")
            return outbox_counts(db).get("delivered") == 2 and len(pending) == 1 and pending[0]["attempts"] >= 2

        wait_for(refused_twice)
        [waiting] = outbox.items("pending")
        assert waiting["key"] == f"{EVENT}/A/1/1/3/1"
        assert waiting["error"].startswith("HTTP 507: table A1 has stored 2 results")
        [refused] = outbox.delivery()["refused"]
        assert (refused["status"], refused["retrying"]) == (507, True)
        assert outbox.items("rejected") == []
        # The TD makes room (a station with the real room): the same item is taken.
        monkeypatch.setitem(store_module.ROOMS, "result", Room("results", 1000, 16 * 1024 * 1024))
        assert d.drain(), d.last_error
    finally:
        d.stop()
        conn.close()
        server.shutdown()
        st.store.close()
    assert outbox_counts(db) == {"delivered": 3}


def wait_for(cond, limit: float = 120.0) -> None:
    """Until `cond()` holds; the limit only stops a test that would hang (it is no timing goal)."""
    deadline = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < deadline, "the outbox never got there"
        time.sleep(0.05)


def outbox_counts(db) -> dict:
    with sqlite3.connect(db) as c:
        return dict(c.execute("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall())


@pytest.mark.parametrize("kind, status", [("result", 507), ("td_call", 507), ("auction", 413)])
def test_each_kind_has_its_own_room_and_a_full_one_says_so(tmp_path, monkeypatch, kind, status):
    for k in ROOMS:
        monkeypatch.setitem(store_module.ROOMS, k, Room(ROOMS[k].what, 1, 16 * 1024 * 1024))
    st, server, keys = in_process_station(tmp_path)
    items = {"result": [result_record(board=b) for b in (1, 2)],
             "td_call": [td_call(n) for n in (1, 2)],
             "auction": [dict(snapshot(n), key=f"{EVENT}/A/1/1/1/auction/{n}") for n in (1, 2)]}
    poster = Poster(server.server_address[1], keys[1])
    try:
        for k, (first, _) in items.items():
            assert poster.post(k, first["key"], first)[0] == 201
        second = items[kind][1]
        code, reply = poster.post(kind, second["key"], second)
        assert code == status and ROOMS[kind].what in reply["error"]
    finally:
        poster.close()
        server.shutdown()
        st.store.close()


class OlderStation:
    """A station from before the rooms: a table's full quota answered 413 for any item. It
    takes nothing the first `full` times, then stores; it has no batches (404)."""

    def __init__(self, full: int):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.full = full
        self.seen: list[tuple[str, int]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if self.path.endswith("/batch"):
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if len(outer.seen) < outer.full:
                    status, reply = 413, {"error": "table A1 has stored 2000 items, the limit per table"}
                else:
                    status, reply = 201, {"status": "stored", "key": body["key"]}
                outer.seen.append((body["kind"], status))
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def test_an_older_stations_413_for_a_result_is_retried_and_for_a_snapshot_is_final(tmp_path):
    old = OlderStation(full=3)
    db = tmp_path / "tablet.db"
    conn = sqlite3.connect(db)
    outbox = Outbox(conn)
    outbox.enqueue("auction", f"{EVENT}/A/1/1/1/auction/1", dict(snapshot(1), key=f"{EVENT}/A/1/1/1/auction/1"))
    outbox.put(Result.from_json(result_record(board=1)))
    conn.commit()
    d = Deliverer(str(db), f"http://127.0.0.1:{old.server.server_address[1]}", f"{EVENT}/A/1", "key",
                  min_backoff=0.02, max_backoff=0.05).start()
    try:
        wait_for(lambda: outbox_counts(db).get("delivered") == 1)
    finally:
        d.stop()
        conn.close()
        old.server.shutdown()
    # the snapshot was dropped (413 is final for it); the result was refused twice for room and
    # kept, then taken
    assert outbox_counts(db) == {"rejected": 1, "delivered": 1}
    assert [s for k, s in old.seen if k == "result"] == [413, 413, 201]
