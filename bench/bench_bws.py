""".bws bridge bench: writing a club evening into the scoring program's file. Prints figures,
never pass/fail.

A 30-table, 9-round, 3-board Mitchell (810 results with their auctions) stored at the station,
then one pass of the bridge through ODBC (unixODBC + the SQLite ODBC driver, synchronous=FULL):
results written per second from scratch, beside the peer: the same rows inserted through the
same driver with one transaction per result and no bookkeeping (what BCS itself would cost).
Then a pass with nothing new (what every look at the file costs during the evening), and the
file replaced mid-evening (docs/bws.md "The file replaced, missing or unreadable"): a compacted
copy that has every row (each item looked for, nothing written), and a fresh file of the same
session (every result written into it again).
"""
from __future__ import annotations

import glob
import os
import pathlib
import shutil
import sqlite3
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared_rules.boards import dealer, vulnerability  # noqa: E402
from shared_rules.scoring import score  # noqa: E402
from station.bws import Bridge, schema  # noqa: E402
from station.bws.boardlog import BoardLog  # noqa: E402
from station.bws.odbc import Bws, insert_sql  # noqa: E402
from station.records import validate_item  # noqa: E402
from station.server import Station, StationConfig  # noqa: E402
from station.store import Store  # noqa: E402

EVENT, T, R, B = "club-2026-11-23", 30, 9, 3


def driver() -> str | None:
    found = sorted(glob.glob("/usr/lib/*/odbc/libsqlite3odbc.so"))
    return found[0] if found else None


def make_bws(path: str) -> None:
    db = sqlite3.connect(path)
    for s in schema.ddl("sqlite"):
        db.execute(s)
    db.execute("INSERT INTO [Section] ([ID], [Letter]) VALUES (1, 'A')")
    for t in range(1, T + 1):
        db.execute("INSERT INTO [Tables] ([Section], [Table]) VALUES (1, ?)", (t,))
        for r in range(1, R + 1):
            low = ((t - 1 + r - 1) % T) * B + 1
            db.execute("INSERT INTO [RoundData] ([Section], [Table], [Round], [NSPair], [EWPair], [LowBoard], "
                       "[HighBoard]) VALUES (1, ?, ?, ?, ?, ?, ?)", (t, r, t, (t + r) % T + 1, low, low + B - 1))
    db.commit()
    db.close()


def records() -> list[dict]:
    out = []
    for t in range(1, T + 1):
        for r in range(1, R + 1):
            low = ((t - 1 + r - 1) % T) * B + 1
            for b in range(low, low + B):
                seats = ["NESW"[("NESW".index(dealer(b)) + i) % 4] for i in range(6)]
                rec = {"event": EVENT, "section": "A", "table": t, "round": r, "board": b, "ns_pair": t,
                       "ew_pair": (t + r) % T + 1, "dealer": dealer(b), "vulnerability": vulnerability(b),
                       "contract": "4H", "declarer": seats[0], "tricks": 10, "lead": "ST",
                       "score_ns": score("4H", seats[0], 10, vulnerability(b)), "ew_confirmed": True,
                       "adjusted": None, "irregularities": [], "td_calls": [],
                       "auction": [{"seat": s, "call": c} for s, c in zip(seats, ["1H", "P", "4H", "P", "P", "P"],
                                                                          strict=True)],
                       "entered_at": "2026-11-23T19:45:12Z"}
                rec["key"] = f"{EVENT}/A/{t}/{r}/{b}/1"
                out.append(rec)
    return out


def main() -> None:
    so = driver()
    if so is None:
        print("SQLite ODBC driver not installed (scripts/setup-system.sh): bench skipped")
        return
    odbc = f"Driver={so};Database={{path}};Timeout=5000;SyncPragma=FULL"
    tmp = tempfile.mkdtemp(prefix="bench-bws-")
    recs = records()
    # The peer: the same rows, one transaction per result, nothing else.
    peer = os.path.join(tmp, "peer.bws")
    make_bws(peer)
    rows = []
    for rec in recs:
        log = BoardLog(1, rec["table"], rec["round"], rec["board"], rec["dealer"])
        rows.append(log.apply({"id": 1, "kind": "result", "key": rec["key"], "payload": rec}))
    with Bws(peer, odbc) as bws:
        t0 = time.perf_counter()
        for r in rows:
            bws.write([insert_sql(t, v) for t, v in r])
        peer_s = time.perf_counter() - t0
    # The bridge.
    path = os.path.join(tmp, "club.bws")
    make_bws(path)
    store = Store(os.path.join(tmp, "station.db"))
    st = Station(store, StationConfig(event=EVENT, director_token="bench"))
    for rec in recs:
        store.put_item(rec["key"], "result", rec, **validate_item("result", rec["key"], rec))
    bridge = Bridge(st, path, odbc=odbc, say=lambda _s: None)
    t0 = time.perf_counter()
    state = bridge.run_once()
    first = time.perf_counter() - t0
    assert state["error"] is None and state["written"] == len(recs), state
    idle = []
    for _ in range(5):
        t0 = time.perf_counter()
        bridge.run_once()
        idle.append(time.perf_counter() - t0)
    idle.sort()
    n = len(recs)
    print(f"results written from scratch: {n} in {first:.2f} s = {n / first:.0f} results/s "
          f"(peer, bare inserts: {n / peer_s:.0f} results/s; bridge/peer time {first / peer_s:.2f})")
    print(f"a look with nothing new: median {1000 * idle[len(idle) // 2]:.0f} ms over 5")
    # Compacted (a new file with every row), then re-created empty (the same session).
    copy = os.path.join(tmp, "compacted.bws")
    shutil.copy(path, copy)
    os.replace(copy, path)
    t0 = time.perf_counter()
    state = bridge.run_once()
    found = time.perf_counter() - t0
    assert state["error"] is None and state["last_replaced"]["found"] == n, state
    fresh = os.path.join(tmp, "fresh.bws")
    make_bws(fresh)
    os.replace(fresh, path)
    t0 = time.perf_counter()
    state = bridge.run_once()
    again = time.perf_counter() - t0
    assert state["error"] is None and state["last_replaced"]["rewritten"] == n, state
    print(f"the file replaced: a compacted copy with every row {found:.2f} s ({n} results looked for, none "
          f"written); a fresh file {again:.2f} s = {n / again:.0f} results/s written again "
          f"(from scratch/again time {first / again:.2f})")
    store.close()


if __name__ == "__main__":
    main()
