"""Floods at the station's door, as the attack that found the break made them: 4,400 sockets
that connect and say nothing (or start a TLS handshake and stall), from one address and from
200 (Linux routes all of 127/8 to loopback), over TLS and plain HTTP, while a tablet keeps
delivering with its real outbox client. The station's limits apply from the TCP accept: it
never runs short of file descriptors (here one with a small limit of 2,048), every delivery
gets through, and the memory a flood took is handed back afterwards.

Figures (file descriptors, RSS before/during/after, delivery times) are printed for
docs/station.md; what is asserted is behaviour: deliveries stored, descriptors kept within
the limit, memory back near where it was."""
import os
import re
import resource
import socket
import sqlite3
import ssl
import time

import pytest

from tablet_app.outbox import Deliverer, Outbox
from tablet_app.station_client import table_id

from .conftest import EVENT, StationProcess, result_record

pytestmark = [pytest.mark.slow, pytest.mark.server]

FLOOD = 4400
ONE = ["127.0.0.9"]
MANY = [f"127.0.1.{i}" for i in range(2, 202)]  # 22 sockets each: under the per-address cap
SMALL_LIMIT = 2048  # the TLS station's hard RLIMIT_NOFILE
RSS_MARGIN_MB = 32  # after a flood (before the door took its limits at accept: +1.3 GB, kept)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def client_hello() -> bytes:
    """The first bytes a real TLS client sends, less its last 20: the station waits for more."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    obj = ctx.wrap_bio(incoming, outgoing)
    with pytest.raises(ssl.SSLWantReadError):
        obj.do_handshake()
    return outgoing.read()[:-20]


class Tablet:
    """Table 1's tablet: its journal's outbox and the real deliverer (pinned over TLS), each
    delivery a new result sent and stored, its socket timeout 5 s (a stall is a failure)."""

    def __init__(self, st: StationProcess, url: str, tmp):
        self.url = url
        self.db = sqlite3.connect(tmp / "tablet.db")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.outbox = Outbox(self.db)
        self.deliverer = Deliverer(str(tmp / "tablet.db"), url, f"{EVENT}/A/1", st.keys[f"{EVENT}/A/1"],
                                   timeout=5.0)
        self.board = 0
        self.times: list[float] = []

    def deliver(self) -> None:
        self.board += 1
        rec = result_record(round_no=(self.board - 1) // 3 + 1, board=self.board)
        self.outbox.enqueue("result", rec["key"], rec)
        self.db.commit()
        t = time.monotonic()
        assert self.deliverer.send_one() is True, self.deliverer.last_error
        self.times.append(time.monotonic() - t)


def station_pid(st: StationProcess) -> int:
    assert st.proc is not None, "the station is not running"
    return st.proc.pid


def flood(st: StationProcess, tablet: Tablet, sources: list[str], first_bytes: bytes = b"") -> dict:
    """FLOOD sockets from `sources` held open while the tablet delivers (one delivery every
    1,000 sockets, three more once all are open), then closed. The station's peak descriptors
    and RSS while they are held."""
    pid = station_pid(st)
    socks, peak_fds, peak_rss = [], 0, 0.0
    try:
        for i in range(FLOOD):
            s = socket.socket()
            s.bind((sources[i % len(sources)], 0))
            s.settimeout(10)
            s.connect(("127.0.0.1", st.port))
            if first_bytes:
                s.send(first_bytes)
            socks.append(s)
            if i % 1000 == 999:
                tablet.deliver()
                peak_fds, peak_rss = max(peak_fds, open_fds(pid)), max(peak_rss, rss_mb(pid))
        for _ in range(3):
            tablet.deliver()
            peak_fds, peak_rss = max(peak_fds, open_fds(pid)), max(peak_rss, rss_mb(pid))
        assert table_id(tablet.url, 2) == f"{EVENT}/A/2"  # the setup client's health check too
    finally:
        for s in socks:
            s.close()
    return {"fds": peak_fds, "rss": peak_rss}


def settled(st: StationProcess, fds: int) -> float:
    """Wait (at most 30 s) until the station holds no more descriptors than before the flood;
    its RSS then."""
    pid = station_pid(st)
    deadline = time.monotonic() + 30
    while open_fds(pid) > fds + 4 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert open_fds(pid) <= fds + 4, "the flood's sockets are still held"
    time.sleep(0.5)
    return rss_mb(pid)


@pytest.fixture(autouse=True)
def enough_files():
    """This process opens 4,400 sockets: its soft limit raised to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard == resource.RLIM_INFINITY or hard >= FLOOD + 512, \
        f"the flood needs {FLOOD + 512} open files; this machine's hard limit is {hard}"
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def run(st: StationProcess, tablet: Tablet, floods: list[tuple[str, list[str], bytes]], limit: int | None) -> None:
    pid = station_pid(st)
    for _ in range(3):
        tablet.deliver()  # warm: the TLS and storage paths as in the evening
    base_fds, base_rss = open_fds(pid), rss_mb(pid)
    print(f"\n{st.extra or ['plain']}: baseline {base_fds} fds, RSS {base_rss:.0f} MB")
    for name, sources, first in floods:
        n = len(tablet.times)
        peak = flood(st, tablet, sources, first)
        after = settled(st, base_fds)
        took = tablet.times[n:]
        print(f"  {name}: during {peak['fds']} fds, RSS {peak['rss']:.0f} MB; after RSS {after:.0f} MB; "
              f"{len(took)} deliveries, slowest {max(took) * 1000:.0f} ms")
        if limit is not None:  # the station kept its reserve for the database and the pool
            assert peak["fds"] <= limit - 64, peak
        assert after <= base_rss + RSS_MARGIN_MB, (name, base_rss, after)
    out = st.out.decode(errors="replace")
    assert "Too many open files" not in out and "Traceback" not in out, out[-2000:]


def test_tls_floods_from_one_and_from_many_addresses_leave_the_tablets_served(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--tls"], max_files=SMALL_LIMIT).start()
    try:
        fp = re.search(r"fingerprint \(SHA-256\): ([0-9a-f]{64})", st.startup_text).group(1)
        tablet = Tablet(st, f"https://127.0.0.1:{st.port}/#sha256={fp}", tmp_path)
        run(st, tablet, [("silent, one address", ONE, b""), ("silent, 200 addresses", MANY, b""),
                         ("stalled TLS handshakes, 200 addresses", MANY, client_hello())], SMALL_LIMIT)
    finally:
        st.stop()


def test_plain_http_floods_from_one_and_from_many_addresses_leave_the_tablets_served(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    try:
        tablet = Tablet(st, st.url, tmp_path)
        run(st, tablet, [("silent, one address", ONE, b""), ("silent, 200 addresses", MANY, b"")], None)
    finally:
        st.stop()
