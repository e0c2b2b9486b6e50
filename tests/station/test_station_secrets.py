"""Secrets on the club network: the director token out of URLs and logs, constant-
time comparisons, no header injection through `?event=`."""
import hmac
import http.client
import json
import time
import urllib.parse

import pytest

from station.store import hash_key

from .conftest import EVENT, StationProcess, result_record
from .test_http_attacks import in_process_station

pytestmark = pytest.mark.server  # starts the results station as a process


def raw_get(st, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
    conn.request("GET", path, headers=headers or {})
    resp = conn.getresponse()
    resp.body = resp.read()  # type: ignore[attr-defined]  # kept with the response for the test
    conn.close()
    return resp


def login(st) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", st.port, timeout=30)
    conn.request("POST", "/login", urllib.parse.urlencode({"token": st.token}),
                 {"Content-Type": "application/x-www-form-urlencoded"})
    resp = conn.getresponse()
    resp.read()
    conn.close()
    cookie = resp.getheader("Set-Cookie")
    assert resp.status == 303 and resp.getheader("Location") == "/director" and cookie
    return cookie.split(";")[0]


def test_token_in_the_url_logs_in_once_and_is_dropped_from_the_address(sqlite_station):
    st = sqlite_station
    resp = raw_get(st, f"/director?token={st.token}&event={EVENT}")
    assert resp.status == 303 and resp.getheader("Location") == f"/director?event={EVENT}"
    cookie = resp.getheader("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and st.token not in cookie
    page = raw_get(st, resp.getheader("Location"), {"Cookie": cookie.split(";")[0]})
    assert page.status == 200 and st.token.encode() not in page.body  # no link carries it
    assert raw_get(st, "/director?token=wrong-token").status == 403
    assert raw_get(st, "/director", {"Cookie": "director=" + st.token}).status == 403  # the token is no cookie


def test_the_login_form_sets_the_cookie_and_refuses_a_wrong_token(sqlite_station):
    st = sqlite_station
    code, form = st.request("GET", "/login")
    assert code == 200 and 'type="password" name="token"' in form
    code, again = st.request("POST", "/login", b"token=guess", {"Content-Type": "application/x-www-form-urlencoded"})
    assert code == 403 and "Wrong token" in again
    cookie = login(st)
    assert raw_get(st, "/export/pbn", {"Cookie": cookie}).status == 200
    assert raw_get(st, "/director/status.json", {"Authorization": f"Bearer {st.token}"}).status == 200


def test_event_with_cr_lf_injects_no_header(sqlite_station):
    st = sqlite_station
    cookie = login(st)
    evil = urllib.parse.quote(f"{EVENT}\r\nSet-Cookie: director=forged\r\nX-Injected: 1")
    for path in ("/export/pbn", "/export/usebio"):
        resp = raw_get(st, f"{path}?event={evil}", {"Cookie": cookie})
        assert resp.status == 200
        assert resp.getheader("X-Injected") is None and resp.getheader("Set-Cookie") is None
        assert "\r" not in resp.getheader("Content-Disposition") and "\n" not in resp.getheader("Content-Disposition")
    resp = raw_get(st, f"/director?token={st.token}&event={evil}")  # the redirect keeps it encoded
    assert resp.status == 303 and resp.getheader("X-Injected") is None
    assert "\r" not in resp.getheader("Location") and "\n" not in resp.getheader("Location")


def test_the_token_never_reaches_the_access_log(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path, extra=["--access-log"]).start()
    try:
        assert raw_get(st, f"/director?token={st.token}").status == 303
        assert raw_get(st, f"/export/pbn?token={st.token}&event={EVENT}").status == 200  # a download
        assert st.post_item("result", result_record())[0] == 201
        deadline = time.monotonic() + 60  # the log lines are written by the station's process: wait for them
        while not (st.out.count(b'"GET /export/pbn" 200') and b'"POST /api/v1/items" 201' in st.out):
            assert time.monotonic() < deadline, st.out.decode()[-2000:]
            time.sleep(0.05)  # how often it looks, not how long it waits
    finally:
        st.stop()
    log = "\n".join(line for line in st.out.decode().splitlines() if '] "' in line)  # the access log
    assert '"GET /director" 303' in log and '"POST /api/v1/items" 201' in log
    assert st.token not in log and st.keys[f"{EVENT}/A/1"] not in log


def test_every_secret_is_compared_in_constant_time(tmp_path, monkeypatch):
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    st, server, keys = in_process_station(tmp_path)
    port = server.server_address[1]

    def request(method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(method, path, body, headers or {})
        resp = conn.getresponse()
        resp.read()
        conn.close()
        return resp.status

    def compared(secret: str) -> bool:
        return any(secret.encode() in (a if isinstance(a, bytes) else a.encode(),
                                       b if isinstance(b, bytes) else b.encode()) for a, b in calls)

    try:
        assert request("GET", "/director?token=tok-wrong") == 403
        assert compared("tok") and compared("tok-wrong")
        calls.clear()
        body = json.dumps({"Command": 1, "ClubId": "c", "LicenceKey": "lic-wrong", "SerializedData": ""})
        assert request("POST", "/dc-scoringprogram", body, {"Content-Type": "application/json"}) == 200
        assert compared("tok") and compared("lic-wrong")
        calls.clear()
        rec = result_record()
        body = json.dumps({"kind": "result", "key": rec["key"], "payload": rec})
        assert request("POST", "/api/v1/items", body, {"X-Table": f"{EVENT}/A/1",
                                                       "Authorization": "Bearer KEY-WRONG"}) == 403
        assert compared(hash_key("KEY-WRONG")) and compared(hash_key(keys[1]))
    finally:
        server.shutdown()
        st.store.close()


def test_a_copy_of_the_database_gives_away_no_secret(tmp_path):
    """Someone copies station.db (a backup on a USB stick): neither the director token nor the
    secret the table keys derive from is in it, and the secrets file is the owner's alone."""
    import os
    import sqlite3

    db = tmp_path / "station.db"
    old = sqlite3.connect(db)  # a database from before, with its secrets inside
    old.execute("CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    old.execute("INSERT INTO settings VALUES ('director_token', 'old-token-1234')")
    old.commit()
    old.close()
    st = StationProcess(str(db), tmp_path).start()
    try:
        assert st.token == "old-token-1234"  # moved out, not changed: printed keys stay valid
        key = st.keys[f"{EVENT}/A/1"]
        assert st.post_item("result", result_record())[0] == 201
    finally:
        st.stop()
    secrets_file = tmp_path / "station.db.secrets"
    kept = json.loads(secrets_file.read_text())
    assert set(kept) == {"director_token", "table_key_secret"}
    assert os.stat(secrets_file).st_mode & 0o077 == 0
    copied = b"".join(p.read_bytes() for p in tmp_path.glob("station.db*") if not p.name.endswith(".secrets")
                      and p.is_file())
    for secret in (*kept.values(), key):
        assert secret.encode() not in copied
    st = StationProcess(str(db), tmp_path).start()  # and the next start finds them again
    try:
        assert st.token == "old-token-1234" and st.keys[f"{EVENT}/A/1"] == key
    finally:
        st.stop()


def table_dump(url: str) -> str:
    """Every table of a PostgreSQL database as pg_dump writes it (what a shared server's
    backup, or anyone with read access to the database, gets)."""
    import subprocess

    from .conftest import PG_BIN

    r = subprocess.run([str(PG_BIN / "pg_dump"), "--data-only", "--inserts", url], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    # without the random `\restrict` guard lines pg_dump writes: two dumps of one database are equal
    return "".join(line for line in r.stdout.splitlines(True) if not line.startswith(("\\restrict", "\\unrestrict")))


def test_a_shared_postgresql_database_holds_no_secret(postgres, tmp_path):
    """The halls of an event share one PostgreSQL; whoever can read it (its backup, another
    hall's admin) must find neither the director token, nor the secret the table keys derive
    from, nor a table key. A database from before, with its token inside, has it moved out."""
    import os

    import psycopg

    url = postgres.new_database()
    with psycopg.connect(url, autocommit=True) as c:  # a station of an earlier version ran on it
        c.execute("CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        c.execute("INSERT INTO settings VALUES ('director_token', 'old-pg-token-5678')")
    hall = tmp_path / "hall-1.secrets"
    st = StationProcess(url, tmp_path, ["--secrets", str(hall)]).start()
    try:
        assert st.token == "old-pg-token-5678"  # moved out, not changed
        key = st.keys[f"{EVENT}/A/1"]
        assert st.post_item("result", result_record())[0] == 201
    finally:
        st.stop()
    kept = json.loads(hall.read_text())
    assert set(kept) == {"director_token", "table_key_secret"}
    assert os.stat(hall).st_mode & 0o077 == 0
    dump = table_dump(url)
    assert "INSERT INTO public.items" in dump and "INSERT INTO public.table_keys" in dump  # the evening is in it
    for secret in (*kept.values(), key):
        assert secret not in dump
    # the second hall's station, with a copy of the file: the same token and keys
    second = tmp_path / "hall-2.secrets"
    second.write_text(hall.read_text())
    second.chmod(0o600)
    st = StationProcess(url, tmp_path, ["--secrets", str(second)]).start()
    try:
        assert st.token == "old-pg-token-5678" and st.keys[f"{EVENT}/A/1"] == key
    finally:
        st.stop()


def refused_start(url: str, tmp_path, *extra: str) -> str:
    """`python -m station` that must stop at once with a message (exit 2, no traceback)."""
    import subprocess
    import sys

    from .conftest import ROOT

    r = subprocess.run([sys.executable, "-m", "station", "--db", url, "--port", "0", "--host", "127.0.0.1",
                        "--insecure-http", "--tables", "A:1-2", *extra], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stderr.startswith("station: "), r.stderr
    assert "key " not in r.stdout  # no table key printed from a guessed secret
    return r.stderr


def test_a_missing_or_wrong_secrets_file_is_a_clear_error(postgres, tmp_path):
    url = postgres.new_database()
    assert "--secrets FILE" in refused_start(url, tmp_path)  # PostgreSQL: no default place
    hall = tmp_path / "hall.secrets"
    StationProcess(url, tmp_path, ["--secrets", str(hall)]).start().stop()
    before = table_dump(url)
    # the second hall's computer was not given the file
    assert "copy that file here" in refused_start(url, tmp_path, "--secrets", str(tmp_path / "nowhere.secrets"))
    # another database's file (last week's, another event's)
    other_url = postgres.new_database()
    other = tmp_path / "other.secrets"
    StationProcess(other_url, tmp_path, ["--secrets", str(other)]).start().stop()
    assert "is not this database's" in refused_start(url, tmp_path, "--secrets", str(other))
    # a damaged copy, and one the whole computer can read
    damaged = tmp_path / "damaged.secrets"
    damaged.write_text(hall.read_text()[:-5])
    damaged.chmod(0o600)
    assert "is damaged" in refused_start(url, tmp_path, "--secrets", str(damaged))
    readable = tmp_path / "readable.secrets"
    readable.write_text(hall.read_text())
    readable.chmod(0o644)
    assert "chmod 600" in refused_start(url, tmp_path, "--secrets", str(readable))
    assert table_dump(url) == before  # nothing changed by a refused start
    st = StationProcess(url, tmp_path, ["--secrets", str(hall)]).start()  # the right one still works
    st.stop()


def test_a_sqlite_station_refuses_another_databases_secrets_file(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    StationProcess(str(a / "station.db"), a).start().stop()
    StationProcess(str(b / "station.db"), b).start().stop()
    (a / "station.db.secrets").write_bytes((b / "station.db.secrets").read_bytes())  # the wrong backup restored
    assert "is not this database's" in refused_start(str(a / "station.db"), tmp_path)


def test_a_lost_secrets_file_stops_the_station_until_the_club_asks_for_new_keys(tmp_path):
    """The secrets file is gone (a new computer, a cleaned folder): the station does not quietly
    make new keys that no tablet has; it says so, and makes new ones only when asked."""
    db = tmp_path / "station.db"
    st = StationProcess(str(db), tmp_path).start()
    st.stop()
    (tmp_path / "station.db.secrets").unlink()
    says = refused_start(str(db), tmp_path)
    assert "is in a secrets file that is not at" in says and "--new-secrets" in says
    again = StationProcess(str(db), tmp_path, ["--new-secrets"]).start()
    try:
        assert again.token != st.token and again.keys[f"{EVENT}/A/1"] != st.keys[f"{EVENT}/A/1"]
    finally:
        again.stop()
    StationProcess(str(db), tmp_path).start().stop()  # and from then on without it
