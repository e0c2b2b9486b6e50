"""Station bench: what a club's scoring PC sees. Prints figures, never pass/fail.

0. The disk's own commit limit: fsyncs/s of a bare SQLite commit loop (WAL, synchronous=FULL)
   on the same filesystem: the floor one-commit-per-result ingest cannot beat.
1. Results ingested per second over real HTTP on loopback from 1, 16, 64 and 200 concurrent
   tablets (each from its own 127.0.x.y address, keep-alive, one result per request), with the
   slowest requests and connection errors; the station's server beside the stdlib
   ThreadingHTTPServer it replaced (`--http-server threading`), and over TLS with the tablets'
   pinned connection (tablet_app/http_transport.py).
2. Data Connector poll latency (p50/p99) with the official client, on a station holding a full
   100-table session: "poll new results" at steady state, and "poll all results".
3. Time to score a 100-table pairs session of 27 boards through the station: GET /export/usebio
   (gather the latest revisions, matchpoint with shared_rules.scoring, write the XML).
4. The director page (render, in process) at 10, 100 and 1,000 tables at the end of a
   27-board session (three auction logs and a result per board, a TD call per round).
"""
from __future__ import annotations

import http.client
import json
import pathlib
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgemate_dataconnector import DataConnectorClient  # noqa: E402
from bridgemate_dataconnector.dto import (  # noqa: E402
    DataConnectorResponseData,
    InitDTO,
    RoundDTO,
    ScoringGroupDTO,
    SectionDTO,
    SessionDTO,
    TableDTO,
)

from shared_rules.boards import dealer, vulnerability  # noqa: E402
from shared_rules.scoring import score  # noqa: E402
from tablet_app.http_transport import PinnedHTTPSConnection  # noqa: E402

EVENT = "bench-2026-11-22"
GUID = "B" * 32
TABLES, BOARDS, ROUNDS = 100, 27, 9


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_station(db: str, server: str = "asyncio", tls: bool = False) -> tuple[subprocess.Popen, int, dict, str]:
    port = free_port()
    security = ["--dc-local-port", "-1"] if tls else ["--insecure-http"]
    proc = subprocess.Popen([sys.executable, "-m", "station", "--db", db, "--port", str(port), "--host",
                             "127.0.0.1", "--event", EVENT, "--tables", f"A:1-{TABLES}", "--http-server", server,
                             *security],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = proc.stdout
    assert out is not None
    text = ""
    while "Data Connector licence key" not in text:
        line = out.readline()
        if not line:
            raise RuntimeError("station did not start:\n" + text)
        text += line
    threading.Thread(target=out.read, daemon=True).start()
    keys = dict(re.findall(r"table (\S+)  key (\S+)", text))
    m = re.search(r"licence key: (\S+)", text)
    assert m is not None
    token = m.group(1)
    fp = re.search(r"fingerprint \(SHA-256\): ([0-9a-f]{64})", text)
    if fp:  # the tablets' pin, carried to post_all in the keys
        keys["#pin"] = fp.group(1)
    return proc, port, keys, token


def record(rng: random.Random, table: int, board: int) -> dict:
    rnd = (board - 1) // 3 + 1
    vul = vulnerability(board)
    level, strain, decl = rng.randint(1, 6), rng.choice(["C", "D", "H", "S", "NT"]), rng.choice("NESW")
    contract = f"{level}{strain}"
    tricks = max(0, min(13, level + 6 + rng.randint(-2, 2)))
    rec = {"event": EVENT, "section": "A", "table": table, "round": rnd, "board": board,
           "ns_pair": table, "ew_pair": TABLES + table, "dealer": dealer(board), "vulnerability": vul,
           "contract": contract, "declarer": decl, "tricks": tricks, "lead": "SA",
           "score_ns": score(contract, decl, tricks, vul), "ew_confirmed": True, "adjusted": None,
           "auction": [{"seat": "N", "call": contract, "think": 3.0}] + [{"seat": s, "call": "PASS", "think": 1.0}
                                                                        for s in "ESW"],
           "irregularities": [], "td_calls": [], "entered_at": "2026-11-22T19:45:12Z"}
    rec["key"] = f"{EVENT}/A/{table}/{rnd}/{board}/1"
    return rec


def post_all(port: int, keys: dict, recs: list[dict], source: str = "127.0.0.1",
             latencies: list[float] | None = None, errors: list[str] | None = None) -> None:
    """One tablet: a keep-alive connection from `source`, one result per request. Errors are
    counted (and the connection reopened) when `errors` is given, else raised."""
    def connect() -> http.client.HTTPConnection:
        if "#pin" in keys:  # the tablet's own pinned TLS connection
            conn = PinnedHTTPSConnection("127.0.0.1", port, keys["#pin"], 60)
            conn.source_address = (source, 0)  # type: ignore[attr-defined]  # http.client's, set before connect
            return conn
        return http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))

    conn = connect()
    for rec in recs:
        tid = f"{EVENT}/A/{rec['table']}"
        body = json.dumps({"kind": "result", "key": rec["key"], "payload": rec})
        t0 = time.perf_counter()
        try:
            conn.request("POST", "/api/v1/items", body, {"X-Table": tid, "Authorization": f"Bearer {keys[tid]}",
                                                         "Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            if resp.status not in (200, 201):
                raise RuntimeError(f"HTTP {resp.status} for {rec['key']}")
        except (OSError, http.client.HTTPException, RuntimeError) as e:
            if errors is None:
                raise
            errors.append(type(e).__name__)
            conn.close()
            conn = connect()
            continue
        if latencies is not None:
            latencies.append(time.perf_counter() - t0)
    conn.close()


def ingest(port: int, keys: dict, recs: list[dict], clients: int) -> tuple[float, list[float], list[str]]:
    """(results/s, request latencies, errors) for `clients` tablets sending `recs` at once."""
    by_client = [recs[c::clients] for c in range(clients)]
    latencies: list[float] = []
    errors: list[str] = []
    threads = [threading.Thread(target=post_all, args=(port, keys, part, f"127.0.{10 + c // 250}.{c % 250 + 1}",
                                                       latencies, errors))
               for c, part in enumerate(by_client)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(latencies) / (time.perf_counter() - t0), latencies, errors


def disk_commits_per_second(directory: str, name: str = "floor.db", n: int = 300) -> float:
    """The floor: a bare SQLite commit loop, one row per commit, WAL + synchronous=FULL."""
    import sqlite3

    db = sqlite3.connect(str(pathlib.Path(directory) / name), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (x TEXT)")
    t0 = time.perf_counter()
    for i in range(n):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (?)", (str(i) * 100,))
        db.execute("COMMIT")
    rate = n / (time.perf_counter() - t0)
    db.close()
    return rate


LEVELS = [(1, 300), (16, 600), (64, 800), (200, 1000)]  # (tablets, results); 2700 in all


def ingest_levels(port: int, keys: dict, recs: list[dict], label: str, floor: float) -> None:
    start = 0
    for clients, n in LEVELS:
        rate, lat, errors = ingest(port, keys, recs[start:start + n], clients)
        start += n
        slow = sum(1 for x in lat if x >= 1.0)
        print(f"  {label:<26} {clients:>3} tablets: {rate:6.0f} results/s ({rate / floor:4.1f}x the disk's "
              f"commit limit), p50 {pct(lat, 50) * 1000:5.1f} ms, p99 {pct(lat, 99) * 1000:6.1f} ms, "
              f"max {max(lat) * 1000:6.0f} ms, {slow} requests >= 1 s, {len(errors)} errors"
              + (f" ({', '.join(sorted(set(errors)))})" if errors else ""), flush=True)


def init_event(client: DataConnectorClient) -> None:
    tables = []
    for t in range(1, TABLES + 1):
        rounds = [RoundDTO(session_guid=GUID, section_letters="A", table_number=t, round_number=r,
                           low_board_number=3 * r - 2, high_board_number=3 * r, pair_ns=t, pair_ew=TABLES + t)
                  for r in range(1, ROUNDS + 1)]
        tables.append(TableDTO(session_guid=GUID, section_letters="A", table_number=t, rounds=rounds))
    sec = SectionDTO(session_guid=GUID, scoring_group_number=1, letters="A", winners=2, game_type=10, tables=tables)
    grp = ScoringGroupDTO(session_guid=GUID, scoring_group_number=1, scoring_method=10, sections=[sec])
    ses = SessionDTO(session_guid=GUID, name="bench", year=2026, month=11, day=22, scoring_groups=[grp])
    r = client.initialize(InitDTO(commands=6, club_id="bench", sessions=[ses]))
    if r.data_type != DataConnectorResponseData.OK:
        raise RuntimeError(r.serialized_data)


def fs_type(path: str) -> str:
    """fsync cost depends on the filesystem: say which one the figure was measured on."""
    try:
        return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "unknown filesystem"


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def director_bench(tmp: str) -> None:
    """Render the director page for 10, 100, 1,000 tables at the end of a 27-board session."""
    from station import director
    from station.server import Station, StationConfig
    from station.store import Store, canonical, digest_of, hash_key

    rng = random.Random(7)
    for n_tables in (10, 100, 1000):
        store = Store(str(pathlib.Path(tmp) / f"director-{n_tables}.db"))
        st = Station(store, StationConfig(event=EVENT, director_token="t"))
        tables = [("A", t) for t in range(1, n_tables + 1)]
        keys = st.table_keys(EVENT, tables)
        rows: list[tuple[str, str, int, int, int, int | None, dict[str, Any]]] = []
        for t in range(1, n_tables + 1):
            for board in range(1, BOARDS + 1):
                rnd = (board - 1) // 3 + 1
                for seq, phase in enumerate(("bidding", "playing", "entering_result"), 1):
                    a = {"event": EVENT, "section": "A", "table": t, "round": rnd, "board": board, "seq": seq,
                         "phase": phase, "calls": [{"seat": "N", "call": "1NT"}] * 4, "at": "2026-11-22T19:41:00Z"}
                    rows.append((f"{EVENT}/A/{t}/{rnd}/{board}/auction/{seq}", "auction", t, rnd, board, None, a))
                r = record(rng, (t - 1) % TABLES + 1, board) | {"table": t}
                rows.append((f"{EVENT}/A/{t}/{rnd}/{board}/1", "result", t, rnd, board, 1, r))
                if board % 3 == 0:
                    c = {"event": EVENT, "section": "A", "table": t, "round": rnd, "board": board, "call": rnd,
                         "status": "resolved", "at": "2026-11-22T19:42:00Z", "note": "insufficient bid"}
                    rows.append((f"{EVENT}/A/{t}/td/{rnd}/resolved", "td_call", t, rnd, board, None, c))
        with store.transaction() as tx:
            tx.executemany("INSERT INTO table_keys (event, section, table_no, key_hash, issued_at) "
                           "VALUES (?, ?, ?, ?, ?)",
                           [(EVENT, s, t, hash_key(keys[(s, t)]), "2026-11-22T18:00:00Z") for s, t in tables])
            tx.executemany("INSERT INTO items (item_key, kind, event, section, table_no, round_no, board, revision, "
                           "digest, payload, received_at) VALUES (?, ?, ?, 'A', ?, ?, ?, ?, ?, ?, ?)",
                           [(k, kind, EVENT, t, rnd, b, rev, digest_of(p), canonical(p), "2026-11-22T19:45:12Z")
                            for k, kind, t, rnd, b, rev, p in rows])
        t0 = time.perf_counter()
        director.render(st, EVENT)  # the first view after a (re)start folds everything stored
        first = time.perf_counter() - t0
        times = []
        for i in range(10):  # then each 5-second refresh, with a few deliveries in between
            for k in range(3):
                r = record(rng, 1, 1) | {"table": 1 + (i * 3 + k) % n_tables}
                r["key"] = f"{EVENT}/A/{r['table']}/1/1/{2 + i}"
                store.put_item(r["key"], "result", r, event=EVENT, section="A", table_no=r["table"],
                               round_no=1, board=1, revision=2 + i)
            t0 = time.perf_counter()
            page = director.render(st, EVENT)
            times.append(time.perf_counter() - t0)
        print(f"  {n_tables:>5} tables ({len(rows)} items stored): refresh median {statistics.median(times) * 1000:6.1f}"
              f" ms, p90 {pct(times, 90) * 1000:6.1f} ms ({len(page) // 1024} kB page; goal < 200 ms at 1,000 "
              f"tables); first view after a restart {first * 1000:.0f} ms", flush=True)
        store.close()


def main() -> None:
    rng = random.Random(2026)
    recs = [record(rng, t, b) for b in range(1, BOARDS + 1) for t in range(1, TABLES + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        # The disk is shared with whatever else runs: the median of three short loops.
        floor = statistics.median(disk_commits_per_second(tmp, f"floor{i}.db") for i in range(3))
        print(f"disk commit limit: {floor:.0f} commits/s (bare SQLite commit loop, WAL, synchronous=FULL, "
              f"median of 3 x 300 commits; database on {fs_type(tmp)})")
        print("ingest (one result per request, SQLite WAL synchronous=FULL, HTTP keep-alive on loopback; "
              "a reply only after its commit is durable):", flush=True)
        old, old_port, old_keys, _ = start_station(str(pathlib.Path(tmp) / "old.db"), "threading")
        try:
            ingest_levels(old_port, old_keys, recs, "stdlib ThreadingHTTPServer", floor)
        finally:
            old.terminate()
            old.wait(10)
        proc, port, keys, token = start_station(str(pathlib.Path(tmp) / "bench.db"))
        try:
            ingest_levels(port, keys, recs, "station (asyncio + h11)", floor)
            client = DataConnectorClient("bench", token, f"http://127.0.0.1:{port}")
            init_event(client)
            t0 = time.perf_counter()
            first = client.poll_for_results(GUID)
            first_s = time.perf_counter() - t0
            client.accept_queue_data(GUID, DataConnectorResponseData.Results)
            lat_new = []
            for i in range(60):
                if i % 3 == 0:  # a few new results trickle in between polls, as during play
                    post_all(port, keys, [dict(r, key=r["key"][:-1] + "2") for r in recs[i:i + 1]])
                t0 = time.perf_counter()
                client.poll_for_results(GUID)
                lat_new.append((time.perf_counter() - t0) * 1000)
                client.accept_queue_data(GUID, DataConnectorResponseData.Results)
            lat_all = []
            for _ in range(10):
                t0 = time.perf_counter()
                got = client.poll_for_results(GUID, all=True)
                lat_all.append((time.perf_counter() - t0) * 1000)
            print(f"Data Connector poll (official client, {len(recs)} results stored): poll-new "
                  f"p50 {pct(lat_new, 50):.1f} ms, p99 {pct(lat_new, 99):.1f} ms; poll-all ({len(got)} results) "
                  f"p50 {pct(lat_all, 50):.0f} ms, p99 {pct(lat_all, 99):.0f} ms; first poll of "
                  f"{len(first)} results {first_s * 1000:.0f} ms")
            times = []
            for _ in range(5):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                t0 = time.perf_counter()
                conn.request("GET", f"/export/usebio?token={token}")
                body = conn.getresponse().read()
                times.append(time.perf_counter() - t0)
                conn.close()
            lines = body.count(b"<TRAVELLER_LINE>")
            print(f"score a {TABLES}-table, {BOARDS}-board pairs session through the station "
                  f"(GET /export/usebio: gather, matchpoint, XML; {lines} traveller lines): "
                  f"median {statistics.median(times):.2f} s, best {min(times):.2f} s (goal < 1 s)")
        finally:
            proc.terminate()
            proc.wait(10)
        tls, tls_port, tls_keys, _ = start_station(str(pathlib.Path(tmp) / "tls.db"), tls=True)
        try:
            ingest_levels(tls_port, tls_keys, recs, "station over TLS (pinned)", floor)
        finally:
            tls.terminate()
            tls.wait(10)
        print("director page (render in process, SQLite):", flush=True)
        director_bench(tmp)


if __name__ == "__main__":
    main()
