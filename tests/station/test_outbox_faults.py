"""The tablet outbox against a real station: kill the station, drop replies, kill the
tablet's pump; afterwards every result is at the station exactly once."""
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from tablet_app.outbox import Deliverer, Outbox, OutboxError

from .conftest import EVENT, ROOT, StationProcess, result_record

pytestmark = pytest.mark.server  # starts the results station as a process


class ReplyDroppingProxy:
    """Forwards each request to the station, and for every `drop_every`-th one throws the
    station's reply away and closes the socket: the station stored it, the tablet never heard."""

    def __init__(self, target_port: int, drop_every: int = 3):
        self.target_port, self.drop_every = target_port, drop_every
        self.count = self.dropped = 0
        self.refused = 0  # requests that found the station down
        self._lock = threading.Lock()
        self.sock = socket.create_server(("127.0.0.1", 0))  # a free port, taken at once
        self.port = self.sock.getsockname()[1]
        self.running = True
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while self.running:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(client,), daemon=True).start()

    def _one(self, client):
        with client:
            f = client.makefile("rb")
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                line = f.readline()
                if not line:
                    return
                head += line
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = f.read(length)
            try:
                with socket.create_connection(("127.0.0.1", self.target_port), timeout=10) as up:
                    up.sendall(head + body)
                    reply = b""
                    while chunk := up.recv(65536):
                        reply += chunk
            except OSError:
                with self._lock:
                    self.refused += 1
                return  # station down: the tablet sees a closed connection
            self.count += 1
            if self.count % self.drop_every == 0:
                self.dropped += 1
                return
            client.sendall(reply)

    def close(self):
        self.running = False
        self.sock.close()


def station_keys(st) -> list[str]:
    import json
    import urllib.request

    # Read back through the station's own PBN-free path: health counts, then the director JSON.
    req = urllib.request.Request(f"{st.url}/director/status.json", headers={"Authorization": f"Bearer {st.token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        doc = json.load(r)
    return doc["stored_keys"]


def make_tablet_db(path, n: int, table: int = 1) -> list[str]:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    ob = Outbox(conn)
    keys = []
    for board in range(1, n + 1):
        rec = result_record(table=table, round_no=(board - 1) // 3 + 1, board=board)
        ob.enqueue("result", rec["key"], rec)
        keys.append(rec["key"])
    conn.commit()  # the caller commits, together with its journal write
    conn.close()
    return keys


def test_outbox_enqueue_does_not_commit_and_refuses_an_altered_replay(tmp_path):
    conn = sqlite3.connect(tmp_path / "j.db")
    ob = Outbox(conn)
    rec = result_record()
    assert ob.enqueue("result", rec["key"], rec) is True
    conn.rollback()  # the journal write failed: the queued item goes with it
    assert ob.counts()["pending"] == 0
    assert ob.enqueue("result", rec["key"], rec) is True
    conn.commit()
    assert ob.enqueue("result", rec["key"], rec) is False
    with pytest.raises(OutboxError, match="new revision"):
        ob.enqueue("result", rec["key"], dict(rec, tricks=9, score_ns=-50))
    with pytest.raises(OutboxError):
        ob.enqueue("gossip", "k", {})


@pytest.mark.parametrize("batch", [1, 4], ids=["one item a request", "batches of 4"])
def test_every_result_arrives_exactly_once_through_station_kills_and_dropped_replies(tmp_path, batch):
    db = str(tmp_path / "station.db")
    st = StationProcess(db, tmp_path).start()
    proxy = ReplyDroppingProxy(st.port, drop_every=3)
    tablet_db = str(tmp_path / "tablet.db")
    keys = make_tablet_db(tablet_db, 36)
    d = Deliverer(tablet_db, f"http://127.0.0.1:{proxy.port}", f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"],
                  timeout=5, min_backoff=0.05, max_backoff=0.4, batch_items=batch).start()
    try:
        for _ in range(2):  # kill the station twice while the tablet is delivering
            deadline = time.monotonic() + 30
            while d.pending() > 36 - 12 * (_ + 1):
                assert time.monotonic() < deadline, d.last_error
                time.sleep(0.01)  # how often it looks, not how long it waits
            refused = proxy.refused
            st.kill()
            deadline = time.monotonic() + 60  # only ends a hang
            while proxy.refused < refused + 2:  # the tablet keeps trying against a dead station
                assert time.monotonic() < deadline, d.last_error
                time.sleep(0.01)  # how often it looks, not how long it waits
            port = st.port
            st = StationProcess(db, tmp_path)
            st.port = port
            st.start()
        assert d.drain(60), d.last_error
        assert proxy.dropped >= (5 if batch == 1 else 2)  # the replies really were lost on the way
        got = station_keys(st)
        assert sorted(got) == sorted(keys)  # all of them, each exactly once
        conn = sqlite3.connect(tablet_db)
        assert Outbox(conn).counts() == {"pending": 0, "delivered": 36, "rejected": 0, "skipped": 0}
    finally:
        d.stop()
        proxy.close()
        st.stop()


PUMP = """
import sys, time
from tablet_app.outbox import Deliverer
d = Deliverer(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], min_backoff=0.05, max_backoff=0.2).start()
while True:
    time.sleep(1)
"""


def attempts_and_pending(tablet_db: str) -> tuple[int, int]:
    """The delivery attempts the tablet's outbox has counted (over all its items), and the items
    still to send."""
    conn = sqlite3.connect(tablet_db)
    try:
        return conn.execute("SELECT COALESCE(SUM(attempts), 0), COALESCE(SUM(state = 'pending'), 0) "
                            "FROM outbox").fetchone()
    finally:
        conn.close()


def test_killing_the_tablet_pump_mid_delivery_loses_and_duplicates_nothing(sqlite_station, tmp_path):
    st = sqlite_station
    tablet_db = str(tmp_path / "tablet.db")
    keys = make_tablet_db(tablet_db, 30, table=2)
    args = [tablet_db, st.url, f"{EVENT}/A/2", st.keys[f"{EVENT}/A/2"]]
    for _ in range(3):
        tried = attempts_and_pending(tablet_db)[0]
        pump = subprocess.Popen([sys.executable, "-c", PUMP, *args], cwd=ROOT)
        deadline = time.monotonic() + 60  # only ends a hang
        # the pump's first request under way (its attempt is counted before it is sent), or
        # nothing left to send: the cut falls inside a delivery, not before the pump started
        while (now := attempts_and_pending(tablet_db))[0] == tried and now[1]:
            assert time.monotonic() < deadline and pump.poll() is None, "the pump never tried"
            time.sleep(0.005)  # how often it looks, not how long it waits
        pump.kill()  # power cut on the tablet, possibly between the station's reply and our commit
        pump.wait()
    d = Deliverer(*args, min_backoff=0.05).start()
    try:
        assert d.drain(60), d.last_error
    finally:
        d.stop()
    assert sorted(station_keys(st)) == sorted(keys)


def test_an_item_the_station_refuses_is_kept_as_rejected_and_does_not_block_the_queue(sqlite_station, tmp_path):
    st = sqlite_station
    conn = sqlite3.connect(tmp_path / "t.db")
    ob = Outbox(conn)
    bad = result_record(board=1, score_ns=9999)  # not the Law 77 score of 4H made
    good = result_record(board=2)
    ob.enqueue("result", bad["key"], bad)
    ob.enqueue("result", good["key"], good)
    conn.commit()
    d = Deliverer(str(tmp_path / "t.db"), st.url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"]).start()
    try:
        assert d.drain()
    finally:
        d.stop()
    states = {i["key"]: (i["state"], i["error"]) for i in ob.items()}
    assert states[good["key"]][0] == "delivered"
    assert states[bad["key"]][0] == "rejected" and "Law 77" in states[bad["key"]][1]
    assert station_keys(st) == [good["key"]]


def test_wrong_table_key_is_retried_not_dropped(sqlite_station, tmp_path):
    st = sqlite_station
    keys = make_tablet_db(str(tmp_path / "t.db"), 2)
    d = Deliverer(str(tmp_path / "t.db"), st.url, f"{EVENT}/A/1", "TYPO-KEY", min_backoff=0.05)
    assert d.send_one() is None and "403" in d.last_error
    assert d.pending() == 2
    d2 = Deliverer(str(tmp_path / "t.db"), st.url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"]).start()
    try:
        assert d2.drain()
    finally:
        d2.stop()
    assert sorted(station_keys(st)) == sorted(keys)
