"""Fixtures for the station tests: a real station process on 127.0.0.1, SQLite or a real
PostgreSQL server started here, and a tiny HTTP client."""
from __future__ import annotations

import http.client
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from urllib.parse import urlsplit

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PG_BIN = pathlib.Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
EVENT = "club-2026-11-22"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StationProcess:
    """`python -m station` as the club runs it, in its own process (so tests can kill it)."""

    def __init__(self, db: str, tmp: pathlib.Path, extra: list[str] | None = None, event: str | None = EVENT,
                 max_files: int | None = None):
        self.db, self.tmp, self.extra, self.event = db, tmp, extra or [], event
        self.max_files = max_files  # the station's hard RLIMIT_NOFILE (a small computer's)
        # 0: the station takes a free port itself (no race with another run for a port picked
        # here); the one it took is kept, so a restart comes back on the same address
        self.port = 0
        self.live_port = 0
        self.proc: subprocess.Popen | None = None
        self.out = b""

    def start(self) -> StationProcess:
        cmd = [sys.executable, "-m", "station", "--db", self.db, "--port", str(self.port),
               "--host", "127.0.0.1", *(["--event", self.event] if self.event else []), "--tables", "A:1-4",
               *(["--dc-local-port", "0"] if "--tls" in self.extra else ["--insecure-http"]),
               *[x for x in self.extra if x != "--tls"],
               # the live feed's own process: any free port, then the same one again after a restart
               *(["--live-port", str(self.live_port)] if "--live" in self.extra else []),
               *(["--live-local-port", "0"] if "--live" in self.extra and "--tls" in self.extra else []),
               # PostgreSQL keeps no secrets: the station's file of them, one per database here
               *(["--secrets", str(self.tmp / (self.db.rsplit("/", 1)[-1] + ".secrets"))]
                 if self.db.startswith("postgresql://") and "--secrets" not in self.extra else [])]
        limit = None
        if self.max_files is not None:
            def limit(n=self.max_files):
                import resource
                resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     preexec_fn=limit)
        lines: list[str] = []
        out = self.proc.stdout
        assert out is not None
        deadline = time.monotonic() + 120  # only ends a hang
        while time.monotonic() < deadline:
            line = out.readline().decode()
            if not line:
                raise RuntimeError("station exited: " + "".join(lines))
            lines.append(line)
            if "listening on" in line:
                self.port = int(re.search(r"listening on \S+?://[^/]+:(\d+)/", line).group(1))  # type: ignore[union-attr]
                break
        text = "".join(lines)
        self.keys = dict(re.findall(r"table (\S+)  key (\S+)", text))
        self.token = ""
        while "director page" not in text:
            line = out.readline().decode()
            lines.append(line)
            text = "".join(lines)
        token = re.search(r"token=(\S+)", text)
        assert token is not None, text
        self.token = token.group(1)
        while "--live" in self.extra and "station: live feed" not in text:
            line = out.readline().decode()
            if not line:
                raise RuntimeError("station exited: " + text)
            lines.append(line)
            text = "".join(lines)
        found = re.search(r"station: live feed \S+?://[^/]+:(\d+)/", text)
        # the spectators' address (the live feed's own process), kept for a restart as the port is
        self.live_port = int(found.group(1)) if found else 0
        self.startup_text = text
        # Drain the rest of stdout in the background so the station never blocks on a full pipe;
        # kept in `out` (what the station logged).
        import threading

        def drain(stream=self.proc.stdout):
            while chunk := stream.read1(65536):
                self.out += chunk

        threading.Thread(target=drain, daemon=True).start()
        return self

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None, port: int | None = None) -> tuple[int, dict | str]:
        conn = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            data = resp.read().decode()
            set_cookie, location = resp.getheader("Set-Cookie"), resp.getheader("Location")
            if resp.status == 303 and set_cookie and location:
                # `?token=` logs in and redirects to the page without it, as a browser follows.
                cookie = set_cookie.split(";")[0]
                return self.request("GET", location, headers={**(headers or {}), "Cookie": cookie})
            if resp.status == 307 and location and method == "GET":
                # the live feed's own process, on its own port: followed as a browser does
                to = urlsplit(location)
                assert (to.scheme, to.hostname, to.port) == ("http", "127.0.0.1", self.live_port), location
                return self.request("GET", to.path + (f"?{to.query}" if to.query else ""), headers=headers,
                                    port=to.port)
            if resp.getheader("Content-Type", "").startswith("application/json"):
                return resp.status, json.loads(data)
            return resp.status, data
        finally:
            conn.close()

    def table_headers(self, table: str = f"{EVENT}/A/1", key: str | None = None) -> dict:
        return {"X-Table": table, "Authorization": f"Bearer {key if key is not None else self.keys[table]}",
                "Content-Type": "application/json"}

    def post_item(self, kind: str, payload: dict, table: str | None = None, key: str | None = None):
        table = table or f"{payload['event']}/{payload['section']}/{payload['table']}"
        body = json.dumps({"kind": kind, "key": payload["key"], "payload": payload}).encode()
        return self.request("POST", "/api/v1/items", body, self.table_headers(table, key))


class PostgresServer:
    def __init__(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="station-pg-"))
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def _run(self, args: list[str]) -> None:
        cmd = ["runuser", "-u", "postgres", "--", *args] if self.as_root else args
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def start(self) -> PostgresServer:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        data = self.dir / "data"
        self._run([str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                   "--no-sync", "-E", "UTF8"])
        for attempt in range(3):  # the free port found may be taken by another run meanwhile
            try:
                self._run([str(PG_BIN / "pg_ctl"), "-D", str(data), "-w", "-l", str(self.dir / "log"), "-o",
                           f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=on", "start"])
                return self
            except subprocess.CalledProcessError:
                if attempt == 2:
                    raise
                self.port = free_port()
        return self

    def new_database(self) -> str:
        import psycopg

        name = "station_" + uuid.uuid4().hex[:10]
        with psycopg.connect(self.url("postgres"), autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def url(self, db: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        try:
            self._run([str(PG_BIN / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop"])
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"PostgreSQL server binaries not found in {PG_BIN}: install Debian's postgresql "
                    "(scripts/setup-system.sh) to run the PostgreSQL station tests")
    if os.geteuid() == 0:
        import pwd

        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL as the postgres user")
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres OS user to run the server as")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg not installed: run `make setup`")
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.database)])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "station.db")
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def station(db_url, tmp_path):
    st = StationProcess(db_url, tmp_path).start()
    yield st
    st.stop()


@pytest.fixture
def sqlite_station(tmp_path):
    st = StationProcess(str(tmp_path / "station.db"), tmp_path).start()
    yield st
    st.stop()


def result_record(table: int = 1, round_no: int = 1, board: int = 1, revision: int = 1, **over) -> dict:
    rec = {"event": EVENT, "section": "A", "table": table, "round": round_no, "board": board,
           "ns_pair": table, "ew_pair": table + 10, "dealer": "N", "vulnerability": "None",
           "contract": "4H", "declarer": "S", "tricks": 10, "lead": "SA", "score_ns": 420,
           "ew_confirmed": True, "adjusted": None,
           "auction": [{"seat": "N", "call": "1H", "alerted": False, "stop": False, "think": 3.2},
                       {"seat": "E", "call": "PASS", "think": 1.0},
                       {"seat": "S", "call": "4H", "stop": True, "think": 5.0},
                       {"seat": "W", "call": "PASS", "think": 2.0},
                       {"seat": "N", "call": "PASS", "think": 1.0},
                       {"seat": "E", "call": "PASS", "think": 1.0}],
           "irregularities": [], "td_calls": [], "entered_at": "2026-11-22T19:45:12Z"}
    rec.update(over)
    rec["key"] = f"{EVENT}/A/{rec['table']}/{rec['round']}/{rec['board']}/{revision}"
    return rec


class Chromium:
    """A real headless Chromium, each run with a fresh profile of its own."""

    FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-dev-shm-usage"]

    def __init__(self, exe: str):
        self.exe = exe

    def run(self, args: list[str]) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as profile:
            return subprocess.run([self.exe, *self.FLAGS, f"--user-data-dir={profile}", *args],
                                  capture_output=True, text=True, timeout=60)

    def dump_dom(self, url: str) -> str:
        out = self.run(["--dump-dom", url])
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout


@pytest.fixture(scope="session")
def chromium() -> Chromium:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.skip("chromium not installed (scripts/setup-system.sh installs it): director page not rendered")
    return Chromium(exe)
