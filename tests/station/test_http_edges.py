"""HTTP framing, concurrency and command-line edges of the station."""
import re
import socket
import subprocess
import sys
import threading

import pytest

from tablet_app.outbox import Deliverer

from .conftest import EVENT, ROOT, result_record

pytestmark = pytest.mark.server  # starts the results station as a process


def raw(station, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", station.port), timeout=10) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
            if b"\r\n\r\n" in out and b'"status"' in out:
                break
        return out


def test_same_key_sent_by_two_connections_at_once_is_stored_once(station):
    rec = result_record()
    codes = []

    def send():
        codes.append(station.post_item("result", rec)[0])

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200] * 7 + [201]
    assert station.request("GET", "/api/v1/health")[1]["items"] == 1


def test_chunked_or_unsized_bodies_unknown_paths_and_methods(sqlite_station):
    st = sqlite_station
    h = st.table_headers()
    hdr = "".join(f"{k}: {v}\r\n" for k, v in h.items())
    out = raw(st, (f"POST /api/v1/items HTTP/1.1\r\nHost: x\r\n{hdr}Transfer-Encoding: chunked\r\n\r\n"
                   "5\r\nhello\r\n0\r\n\r\n").encode())
    assert out.startswith(b"HTTP/1.1 411")
    out = raw(st, f"POST /api/v1/items HTTP/1.1\r\nHost: x\r\n{hdr}\r\n".encode())
    assert out.startswith(b"HTTP/1.1 411")
    assert st.request("GET", "/nothing-here")[0] == 404
    assert st.request("POST", "/director", b"{}", {"Content-Length": "2"})[0] == 405
    code, text = st.request("GET", "/")
    assert code == 200 and "Bridgemate dataconnector service version" in text
    assert st.request("GET", "/api/v1/health")[1]["items"] == 0


def test_deliverer_refuses_a_bad_station_url(tmp_path):
    import pytest

    with pytest.raises(ValueError, match="station_url"):
        Deliverer(str(tmp_path / "t.db"), "station:8080", f"{EVENT}/A/1", "k")


def test_cli_prints_keys_and_explains_bad_options(tmp_path):
    db = str(tmp_path / "s.db")
    run = subprocess.run([sys.executable, "-m", "station", "--db", db, "--event", EVENT, "--tables", "B:1-3,5",
                          "--no-serve"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0
    lines = [line for line in run.stdout.splitlines() if line.startswith("table ")]
    tables = [line.split()[1] for line in lines]
    fp = re.search(r"fingerprint \(SHA-256\): ([0-9a-f]{64})", run.stdout).group(1)
    assert tables == [f"{EVENT}/B/{t}" for t in (1, 2, 3, 5)]
    again = subprocess.run([sys.executable, "-m", "station", "--db", db, "--event", EVENT, "--tables", "B:1",
                            "--no-serve"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert [x for x in again.stdout.splitlines() if x.startswith("table ")][0] == lines[0]  # the TD can reprint a key
    assert f"TLS certificate fingerprint (SHA-256): {fp}" in again.stdout  # the same certificate
    from station.lan import lan_address

    assert f"tablets: station address https://{lan_address()}:8080/#sha256={fp}" in run.stdout
    bad = subprocess.run([sys.executable, "-m", "station", "--tables", "B1-3"], cwd=ROOT,
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "expected SECTION:TABLES" in bad.stderr
    nodb = subprocess.run([sys.executable, "-m", "station", "--db", str(tmp_path / "no" / "such" / "x.db"),
                           "--no-serve"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert nodb.returncode == 2 and "cannot open database" in nodb.stderr


def test_reissued_key_replaces_the_old_one(tmp_path):
    from .conftest import StationProcess

    db = str(tmp_path / "s.db")
    st = StationProcess(db, tmp_path).start()
    old, other = st.keys[f"{EVENT}/A/2"], st.keys[f"{EVENT}/A/1"]
    st.stop()
    st2 = StationProcess(db, tmp_path, extra=["--reissue", "A:2"]).start()
    try:
        new = st2.keys[f"{EVENT}/A/2"]
        assert new != old and st2.keys[f"{EVENT}/A/1"] == other  # the others keep theirs
        rec = result_record(table=2)
        assert st2.post_item("result", rec, key=old)[0] == 403
        assert st2.post_item("result", rec, key=new)[0] == 201
    finally:
        st2.stop()
