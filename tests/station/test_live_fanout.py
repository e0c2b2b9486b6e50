"""The live feed's own process (station/live_fanout.py), which the station starts and feeds: killed
in the middle of an evening it is started again on the same port with the state as it stands, and
a spectator who reconnects with its Last-Event-ID misses nothing and gets nothing twice; its port
taken at start stops the station with the reason; the station's /live/ sends a spectator there."""
from __future__ import annotations

import contextlib
import http.client
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import pytest

from .conftest import ROOT, StationProcess
from .live_play import Spectator, calls_of
from .test_live_feed import event_item

pytestmark = [pytest.mark.server]

ONE = {"seat": "N", "call": "1C", "alerted": False, "stop": False, "think": 2.0}
TWO = {"seat": "E", "call": "1H", "alerted": False, "stop": False, "think": 3.0}
THREE = {"seat": "S", "call": "2C", "alerted": False, "stop": False, "think": 1.0}


def fanout_pid(st: StationProcess) -> int | None:
    """The station's child (Linux: /proc says a process's children)."""
    assert st.proc is not None
    kids: list[str] = []
    for task in pathlib.Path(f"/proc/{st.proc.pid}/task").iterdir():  # any thread may have started it
        try:
            kids += (task / "children").read_text().split()
        except OSError:  # a thread that has just ended
            continue
    return int(kids[0]) if kids else None


def nice(pid: int) -> int:
    return int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def gone(pid: int) -> bool:
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"  # ended, not yet reaped


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the child in /proc")
def test_the_live_feeds_process_killed_is_started_again_and_a_spectator_misses_nothing(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    spectator = Spectator(st.live_port).start()
    try:
        assert st.post_item("auction_event", event_item(1, [ONE], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 1 for _, c in calls_of(s, "A1", 1)), what="the first call")
        first = fanout_pid(st)
        assert first is not None
        assert nice(first) == min(19, nice(st.proc.pid) + 10)  # below the station: the tablets go first
        os.kill(first, signal.SIGKILL)
        # Calls made while it is down reach the spectator once it is back.
        assert st.post_item("auction_event", event_item(2, [ONE, TWO], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 2 for _, c in calls_of(s, "A1", 1)), what="the call made meanwhile")
        assert st.post_item("auction_event", event_item(3, [ONE, TWO, THREE], None, screens=False,
                                                         table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 3 for _, c in calls_of(s, "A1", 1)), what="the next call")
        again = fanout_pid(st)
        assert again is not None and again != first
        assert b"the live feed's process was started again on port" in st.out
        # Each event once, in order: the reconnect went on after the last one it had.
        seqs = [doc["seq"] for _, kind, doc in spectator.events if kind == "board"]
        assert seqs == sorted(set(seqs)) and [len(c) for _, c in calls_of(spectator, "A1", 1)] == [1, 2, 3]
        code, text = st.request("GET", "/live/A/1.lin")  # the station sends it to the new process
        assert code == 200 and "mb|1C|mb|1H|mb|2C|" in text
    finally:
        spectator.stop()
        st.stop()
    deadline = time.monotonic() + 30  # a hang guard: it stops with the station
    while not gone(again):
        assert time.monotonic() < deadline, "the live feed's process outlived the station"
        time.sleep(0.1)


def test_the_stations_live_addresses_send_a_spectator_to_the_live_feeds_port(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    try:
        assert st.live_port != st.port
        for path in ("/live/", "/live/A/1.lin?x=1", "/live/stream"):
            conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
            conn.request("GET", path, headers={"Host": f"venue-pc.local:{st.port}"})
            r = conn.getresponse()
            r.read()
            conn.close()
            # the name the spectator used, the live feed's port, the same path and query
            assert (r.status, r.getheader("Location")) == (307, f"http://venue-pc.local:{st.live_port}{path}")
        # The live feed's process serves the spectators only.
        conn = http.client.HTTPConnection("127.0.0.1", st.live_port, timeout=30)
        conn.request("GET", "/director")
        r = conn.getresponse()
        assert r.status == 404 and b"the spectators' page is /live/" in r.read()
        conn.close()
    finally:
        st.stop()


def test_the_live_feeds_port_taken_stops_the_station_with_the_reason(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        p = subprocess.run([sys.executable, "-m", "station", "--db", str(tmp_path / "station.db"), "--insecure-http",
                            "--host", "127.0.0.1", "--port", "0", "--live", "--live-port", str(port)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    finally:
        taken.close()
    assert p.returncode == 2, (p.stdout[-2000:], p.stderr)
    assert f"station: cannot start the live feed: cannot listen on 127.0.0.1:{port}" in p.stderr, p.stderr


def test_over_tls_the_live_feeds_process_serves_the_stations_certificate_and_plain_http_on_loopback(tmp_path):
    """The spectators reach the live feed as they reach the station (its certificate, the same
    fingerprint); a cache on this computer (nginx) asks its plain HTTP loopback port."""
    import hashlib
    import re
    import ssl

    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--tls", "--live"]).start()
    try:
        fingerprint = re.search(r"fingerprint \(SHA-256\): ([0-9a-f]{64})", st.startup_text)
        assert fingerprint and f"station: live feed https://127.0.0.1:{st.live_port}/live/" in st.startup_text
        pem = ssl.get_server_certificate(("127.0.0.1", st.live_port))
        assert hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest() == fingerprint.group(1)
        conn = http.client.HTTPSConnection("127.0.0.1", st.live_port, timeout=30,
                                           context=ssl._create_unverified_context())
        conn.request("GET", "/live/")
        r = conn.getresponse()
        assert r.status == 200 and b'id="state"' in r.read()
        conn.close()
        deadline = time.monotonic() + 30  # a hang guard: the line follows the live feed's address
        while b"live feed for a cache on this computer" not in st.out:
            assert time.monotonic() < deadline, st.out.decode()[-2000:]
            time.sleep(0.1)
        local = re.search(rb"live feed for a cache on this computer \(nginx\): http://127\.0\.0\.1:(\d+)/live/", st.out)
        assert local is not None
        conn = http.client.HTTPConnection("127.0.0.1", int(local.group(1)), timeout=30)
        conn.request("GET", "/live/A/1.lin")
        r = conn.getresponse()
        assert r.status == 200 and r.getheader("Cache-Control") == "public, max-age=1"
        conn.close()
    finally:
        st.stop()


def queued_in_pipe(pid: int) -> tuple[int, int]:
    """(bytes waiting, capacity) of the pipe on the process's standard input (Linux: opened anew
    through /proc, read nothing)."""
    import fcntl
    import struct
    import termios

    fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
    try:
        waiting = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
        return waiting, fcntl.fcntl(fd, 1032)  # F_GETPIPE_SZ
    finally:
        os.close(fd)


def writer_blocked(st: StationProcess) -> bool:
    """A thread of the station waits in the kernel to write to a pipe (Linux: its wchan), as its
    feed's writer does when the pipe to the live feed's process has no room for its next write."""
    assert st.proc is not None
    for task in pathlib.Path(f"/proc/{st.proc.pid}/task").iterdir():
        try:
            if (task / "wchan").read_text().endswith("pipe_write"):
                return True
        except OSError:  # a thread that has just ended
            continue
    return False


def pipe_full(st: StationProcess, pid: int) -> bool:
    """No room for another event's line in the pipe to the process: the station's writer waits on
    it, the pipe holding the events. Counted in bytes alone this depends on the lines' length: the
    kernel fills a pipe a page (4096 bytes) at a time and starts a new page for a line that does
    not fit the last one's room, so a full pipe of 546-byte lines held 60216 of its 65536 bytes."""
    waiting, capacity = queued_in_pipe(pid)
    return waiting > capacity // 2 and writer_blocked(st)


def post_until_the_pipe_is_full(st: StationProcess, child: int, more: int) -> list[tuple[int, int]]:
    """A call at each table's next board until the pipe to the (stopped) child is full, then `more`
    calls (40 lines are past the station's own write buffer: its writer then waits on the pipe):
    (table, board) of each, every one answered 201."""
    posted: list[tuple[int, int]] = []
    full_at = None
    for table, board in [(table, board) for board in range(2, 100) for table in range(1, 5)]:
        code, doc = st.post_item("auction_event", event_item(1, [ONE], None, screens=False, table=table, board=board))
        assert code == 201, doc
        posted.append((table, board))
        if full_at is None and pipe_full(st, child):
            full_at = len(posted)
        if full_at is not None and len(posted) >= full_at + more:
            return posted
    raise AssertionError("the pipe never filled: post more")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="stops the child found in /proc")
def test_a_stalled_live_feeds_process_never_holds_up_a_tablet_and_gets_every_event_once_in_order(tmp_path):
    """The tablets' deliveries never wait on the spectators: with the live feed's process stopped
    (SIGSTOP) and the station's pipe to it full, every post is still answered, and once it goes on
    the spectator gets each event made meanwhile exactly once, in the order the station made them."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    spectator = Spectator(st.live_port).start()
    child = None
    try:
        assert st.post_item("auction_event", event_item(1, [ONE], None, screens=False, table=1, board=1))[0] == 201
        spectator.wait(lambda s: any(len(c) == 1 for _, c in calls_of(s, "A1", 1)), what="the first call")
        child = fanout_pid(st)
        assert child is not None
        os.kill(child, signal.SIGSTOP)
        posted = post_until_the_pipe_is_full(st, child, more=40)
        # 40 posts answered with the pipe full; the child has read nothing of it
        assert pipe_full(st, child)
        assert spectator.boards()[-1][1]["board"] == 1
        os.kill(child, signal.SIGCONT)
        last = posted[-1]
        spectator.wait(lambda s: any(v["table_no"] == last[0] and v["board"] == last[1] for _, v in s.boards()),
                       what="the last event made while the child was stopped")
        views = [v for _, v in spectator.boards()]
        seqs = [doc["seq"] for _, kind, doc in spectator.events if kind == "board"]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # each once, in order, none missing
        assert [(v["table_no"], v["board"]) for v in views] == [(1, 1), *posted]
        assert fanout_pid(st) == child and b"started again" not in st.out  # the same child went on
    finally:
        if child is not None:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGCONT)
        spectator.stop()
        st.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="stops the child found in /proc")
def test_the_station_stops_when_asked_though_the_live_feeds_process_is_stalled(tmp_path):
    """The organiser's Ctrl-C (SIGTERM here) ends the station though the live feed's process has
    stopped reading (SIGSTOP, the pipe to it full): the writer blocked on that pipe does not hold
    the station up; the child is ended with it."""
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--live"]).start()
    child = None
    try:
        assert st.post_item("auction_event", event_item(1, [ONE], None, screens=False, table=1, board=1))[0] == 201
        child = fanout_pid(st)
        assert child is not None
        os.kill(child, signal.SIGSTOP)
        post_until_the_pipe_is_full(st, child, more=40)
        assert st.proc is not None
        st.proc.terminate()
        try:
            code = st.proc.wait(60)  # a hang guard: it stops in well under a second on an idle computer
        except subprocess.TimeoutExpired:
            raise AssertionError("the station did not stop: its writer waits on the stalled child") from None
        assert code == 0
        deadline = time.monotonic() + 30  # a hang guard: it ends with the station
        while not gone(child):
            assert time.monotonic() < deadline, "the stalled live feed's process outlived the station"
            time.sleep(0.1)
    finally:
        if child is not None:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGCONT)
        st.stop()
