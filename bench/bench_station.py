"""Station bench: what a club's scoring PC sees. Prints figures, never pass/fail.

1. Results ingested per second into SQLite (WAL, synchronous=FULL: one fsync per result) over
   real HTTP on loopback, from 1 and from 4 concurrent tablets.
2. Data Connector poll latency (p50/p99) with the official client, on a station holding a full
   100-table session: "poll new results" at steady state, and "poll all results".
3. Time to score a 100-table pairs session of 27 boards through the station: GET /export/usebio
   (gather the latest revisions, matchpoint with shared_rules.scoring, write the XML).
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

EVENT = "bench-2026-11-22"
GUID = "B" * 32
TABLES, BOARDS, ROUNDS = 100, 27, 9


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_station(db: str) -> tuple[subprocess.Popen, int, dict, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "station", "--db", db, "--port", str(port), "--host",
                             "127.0.0.1", "--event", EVENT, "--tables", f"A:1-{TABLES}"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    text = ""
    while "Data Connector licence key" not in text:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("station did not start:\n" + text)
        text += line
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    keys = dict(re.findall(r"table (\S+)  key (\S+)", text))
    token = re.search(r"licence key: (\S+)", text).group(1)
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


def post_all(port: int, keys: dict, recs: list[dict]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)  # keep-alive, like a tablet
    for rec in recs:
        tid = f"{EVENT}/A/{rec['table']}"
        body = json.dumps({"kind": "result", "key": rec["key"], "payload": rec})
        conn.request("POST", "/api/v1/items", body, {"X-Table": tid, "Authorization": f"Bearer {keys[tid]}",
                                                     "Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        if resp.status != 201:
            raise RuntimeError(f"HTTP {resp.status} for {rec['key']}")
    conn.close()


def ingest(port: int, keys: dict, recs: list[dict], clients: int) -> float:
    by_client = [[r for r in recs if r["table"] % clients == c] for c in range(clients)]
    threads = [threading.Thread(target=post_all, args=(port, keys, part)) for part in by_client]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(recs) / (time.perf_counter() - t0)


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


def main() -> None:
    rng = random.Random(2026)
    recs = [record(rng, t, b) for b in range(1, BOARDS + 1) for t in range(1, TABLES + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        proc, port, keys, token = start_station(str(pathlib.Path(tmp) / "bench.db"))
        try:
            n1 = 400
            rate1 = ingest(port, keys, recs[:n1], clients=1)
            rate4 = ingest(port, keys, recs[n1:], clients=4)
            print(f"ingest: {rate1:.0f} results/s from 1 tablet ({n1} results), {rate4:.0f} results/s from "
                  f"4 concurrent tablets ({len(recs) - n1} results); SQLite WAL synchronous=FULL, "
                  f"one durable commit per result, HTTP on loopback; database on {fs_type(tmp)}")
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


if __name__ == "__main__":
    main()
