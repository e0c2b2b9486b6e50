"""Attacks on the station's HTTP door, as someone on the club network made them:
idle-socket floods, connection bursts, unauthenticated bodies, hostile JSON. Real station
process, real sockets on 127.0.0.x (Linux routes all of 127/8 to loopback, so a test can
play several client addresses)."""
import http.client
import json
import socket
import threading

import pytest

from .conftest import EVENT, StationProcess, result_record

pytestmark = pytest.mark.server  # starts the results station as a process

IDLE_HEAD = b"POST /api/v1/items HTTP/1.1\r\n"  # a request line, and then nothing


def deliver(st: StationProcess, rec: dict, source: str, timeout: float = 5.0) -> int:
    """One tablet delivery from `source`, failing (socket.timeout) if the station takes longer
    than `timeout` seconds to answer."""
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=timeout, source_address=(source, 0))
    try:
        body = json.dumps({"kind": "result", "key": rec["key"], "payload": rec})
        conn.request("POST", "/api/v1/items", body, st.table_headers(f"{EVENT}/A/{rec['table']}"))
        return conn.getresponse().status
    finally:
        conn.close()


def open_idle(n: int, port: int, sources: list[str]) -> list[socket.socket]:
    socks = []
    for i in range(n):
        s = socket.socket()
        s.settimeout(10)
        s.bind((sources[i % len(sources)], 0))
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(IDLE_HEAD)
        except OSError:
            s.close()
            continue
        socks.append(s)
    return socks


@pytest.fixture
def station_x(tmp_path, request):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=getattr(request, "param", [])).start()
    yield st
    st.stop()


def test_a_delivery_gets_through_while_1100_idle_sockets_from_one_address_hold_the_door(station_x):
    socks = open_idle(1100, station_x.port, ["127.0.0.1"])
    try:
        assert deliver(station_x, result_record(), "127.0.0.2") == 201
    finally:
        for s in socks:
            s.close()


def test_a_delivery_gets_through_while_1100_idle_sockets_come_from_many_addresses(station_x):
    socks = open_idle(1100, station_x.port, [f"127.0.1.{i}" for i in range(1, 51)])
    try:
        assert len(socks) == 1100
        assert deliver(station_x, result_record(), "127.0.0.2") == 201
    finally:
        for s in socks:
            s.close()


@pytest.mark.parametrize("station_x", [["--head-timeout", "2"]], indirect=True)
def test_one_address_may_hold_only_so_many_connections(station_x):
    import select

    socks = open_idle(40, station_x.port, ["127.0.0.3"])
    try:
        # Every socket ends: the 8 over the limit at once with a 503, the 32 others when their
        # head is overdue (closed without a reply).
        first: dict[socket.socket, bytes] = {}
        for _ in range(200):
            waiting = [s for s in socks if s not in first]
            if not waiting:
                break
            ready, _, _ = select.select(waiting, [], [], 0.5)
            for s in ready:
                first[s] = s.recv(100)
        assert len(first) == 40
        assert sum(1 for data in first.values() if data.startswith(b"HTTP/1.1 503")) == 40 - 32
        assert sum(1 for data in first.values() if data == b"") == 32
    finally:
        for s in socks:
            s.close()


@pytest.mark.parametrize("station_x", [["--head-timeout", "1"]], indirect=True)
def test_a_socket_that_never_finishes_its_head_is_closed(station_x):
    [s] = open_idle(1, station_x.port, ["127.0.0.1"])
    with s:
        s.settimeout(20)
        got = b""
        while chunk := s.recv(1000):  # ends when the station closes the socket
            got += chunk
        assert got == b""  # closed without a reply: there was no request to answer


def test_a_burst_of_300_connections_is_neither_reset_nor_refused(station_x):
    failures, codes = [], []
    go = threading.Barrier(300)

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", station_x.port, timeout=30,
                                          source_address=(f"127.0.2.{i % 250 + 1}", 0))
        go.wait()
        try:
            conn.request("GET", "/api/v1/health")
            codes.append(conn.getresponse().status)
        except OSError as e:
            failures.append(repr(e))
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(300)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [] and codes == [200] * 300


def test_a_wrong_key_is_refused_before_the_body_is_sent(sqlite_station):
    st = sqlite_station
    head = (f"POST /api/v1/items HTTP/1.1\r\nHost: x\r\nX-Table: {EVENT}/A/1\r\n"
            "Authorization: Bearer WRONG-KEY\r\nContent-Type: application/json\r\n"
            "Content-Length: 200000\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", st.port), timeout=10) as s:
        s.sendall(head)  # and not one byte of the promised 200 kB
        reply = s.recv(4096)
    assert reply.startswith(b"HTTP/1.1 403")
    assert st.request("GET", "/api/v1/health")[1]["items"] == 0


def test_no_key_no_table_is_refused_before_the_body_is_sent(sqlite_station):
    head = b"POST /api/v1/items HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n"
    with socket.create_connection(("127.0.0.1", sqlite_station.port), timeout=10) as s:
        s.sendall(head)
        assert s.recv(4096).startswith(b"HTTP/1.1 401")


@pytest.mark.parametrize("body", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"kind": "result", "key": "k", "payload": {"board": ' + b"9" * 5000 + b"}}",
    b'{"kind": "result", "key": "k", "payload": {"board": 1e400}}',
    b'{"kind": "result", "key": "k", "payload": {"board": NaN}}',
    b'{"kind": ' * 100 + b'1' + b'}' * 100,
    b"\xff\xfe{}",
], ids=["100k-deep", "5000-digit-int", "1e400", "NaN", "deep-objects", "not-utf8"])
def test_hostile_json_is_a_400_and_stores_nothing(sqlite_station, body):
    st = sqlite_station
    code, doc = st.request("POST", "/api/v1/items", body, st.table_headers())
    assert code == 400 and "malformed JSON" in doc["error"]
    assert st.request("GET", "/api/v1/health")[1]["items"] == 0


@pytest.mark.parametrize("body", [b"[" * 100_000 + b"]" * 100_000,
                                  b'{"Command": ' + b"7" * 5000 + b"}"], ids=["100k-deep", "5000-digit-int"])
def test_hostile_json_to_the_data_connector_is_an_error_reply_not_a_500(sqlite_station, body):
    code, doc = sqlite_station.request("POST", "/dc-scoringprogram", body, {"Content-Type": "application/json"})
    from station.dataconnector import E_VALIDATION, ERROR

    assert code == 200 and doc["DataType"] == ERROR and doc["ErrorType"] == E_VALIDATION
    assert "Malformed" in json.loads(doc["SerializedData"])


def test_a_garbled_request_line_is_a_400(sqlite_station):
    with socket.create_connection(("127.0.0.1", sqlite_station.port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 400")


def test_a_huge_request_head_is_refused(sqlite_station):
    with socket.create_connection(("127.0.0.1", sqlite_station.port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 100_000 + b"\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 431")


def head_of(size: int) -> bytes:
    """A complete GET head of exactly `size` bytes."""
    start, end = b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ", b"\r\n\r\n"
    return start + b"a" * (size - len(start) - len(end)) + end


def send_head(port: int, data: bytes, pieces: int) -> bytes:
    """`data` in one write, or in `pieces` writes with pauses (each its own read at the station)."""
    import time

    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        step = -(-len(data) // pieces)
        for i in range(0, len(data), step):
            s.sendall(data[i:i + step])
            if pieces > 1:
                time.sleep(0.002)  # the thing tested: a slow sender, each piece its own read
        return s.recv(4096)


@pytest.mark.parametrize("pieces", [1, 200], ids=["one write", "200 writes"])
@pytest.mark.parametrize("size, status", [(16 * 1024, b"200"), (16 * 1024 + 1, b"431"), (20_000, b"431"),
                                          (60_000, b"431")])
def test_the_16_kib_head_limit_holds_however_the_bytes_arrive(sqlite_station, pieces, size, status):
    assert send_head(sqlite_station.port, head_of(size), pieces).startswith(b"HTTP/1.1 " + status)


def test_a_body_that_comes_with_its_head_does_not_count_against_the_head(sqlite_station):
    """15 kB of head and 3 kB of body in one write: the head is under its limit."""
    body = b"token=" + b"x" * 3000
    head = (b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            b"X-Pad: " + b"a" * 15_000 + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    assert send_head(sqlite_station.port, head + body, 1).startswith(b"HTTP/1.1 403")  # wrong token, read


def in_process_station(tmp_path):
    """A station served on a thread of this process over real HTTP, so a test can break its
    database under it (as a full disk does)."""
    from station.server import Station, StationConfig, make_server
    from station.store import Store

    store = Store(str(tmp_path / "station.db"))
    st = Station(store, StationConfig(host="127.0.0.1", port=0, event=EVENT, director_token="tok"))
    keys = st.register_tables(EVENT, "A", [1, 2])
    server = make_server(st)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return st, server, keys


def get(port: int, path: str, headers: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def test_health_says_trouble_when_the_disk_is_full_and_a_delivery_is_a_503(tmp_path):
    st, server, keys = in_process_station(tmp_path)
    port = server.server_address[1]
    try:
        assert get(port, "/api/v1/health") == (200, {"status": "ok", "event": EVENT, "items": 0, "problems": [],
                                                     "damaged": 0})
        # The disk fills up: SQLite can grow the file no further ("database or disk is full").
        pages = st.store._conn.execute("PRAGMA page_count").fetchone()[0]
        st.store._conn.execute(f"PRAGMA max_page_count = {pages}")
        st._probe = (0.0, None)  # no waiting for the next probe
        # Notes of the longest length the door takes: the item needs pages the file cannot get.
        rec = result_record(board=5, auction=[{"seat": "N", "call": "4H", "note": "x" * 1900}] + [
            {"seat": s, "call": "PASS", "note": "y" * 1900} for s in "ESW"])
        body = json.dumps({"kind": "result", "key": rec["key"], "payload": rec})
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", "/api/v1/items", body, {"X-Table": f"{EVENT}/A/1",
                                                     "Authorization": f"Bearer {keys[1]}"})
        resp = conn.getresponse()
        reply = json.loads(resp.read())
        conn.close()
        assert resp.status == 503 and "full" in reply["error"]  # the tablet keeps it and retries
        code, doc = get(port, "/api/v1/health")
        assert code == 503 and doc["status"] == "trouble"
        assert any("full" in p for p in doc["problems"]), doc
    finally:
        server.shutdown()
        st.store.close()


def test_health_says_trouble_when_the_database_takes_no_writes(tmp_path):
    st, server, _ = in_process_station(tmp_path)
    port = server.server_address[1]
    try:
        st.store._conn.execute("PRAGMA query_only = 1")  # as a read-only mount or file would
        code, doc = get(port, "/api/v1/health")
        assert code == 503 and doc["status"] == "trouble"
        assert any("does not take writes" in p for p in doc["problems"]), doc
    finally:
        server.shutdown()
        st.store._conn.execute("PRAGMA query_only = 0")
        st.store.close()
