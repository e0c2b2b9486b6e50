"""The tablet controller's cost per box event, on whichever tablet is first on the path: run by
bench_tablet.py on today's code and on the code before the structure work (commit 2b32f5b,
extracted to build/), each in its own process.

    python bench/tablet_workload.py ROOT      # prints one JSON object

ROOT is a directory holding `tablet_app`, `shared_rules` and `protocol`. The workload uses only
what both controllers have (`Controller(db, clock=...)`, `setup`, `box_event`, `views`,
`snapshot`, `estate`, `enter_result`, `ew_confirm`): fsb-2007 boards (alerts by partner, FSB
L115B), generated legal auctions; after a bid, sometimes partner's alert (taken) and sometimes
the bidder's own alert (refused: partner alerts). CPU microseconds of this process per box event
for what the tablet does with it: `box_event` (the controller, the engine, the journal's SQLite
work), the four boxes' `views()`, and the screen's snapshot (today published by `box_event`
itself; the baseline's app built it with `snapshot()` when it redrew, so that is called here).
The journal is in a RAM filesystem where there is one, so the disk's fsync does not blur the
controller's cost. The baseline tried every alert on a `copy.deepcopy` of the engine before
taking it; today's tablet gives it to `Table.step` once.
"""
from __future__ import annotations

import json
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time
from typing import Any

BIDS = [f"{lvl}{d}" for lvl in range(1, 8) for d in ("C", "D", "H", "S", "NT")]
ORDER = "NESW"  # both trees' seat order; this script must import nothing of the tree before ROOT
SESSION = {"event": "bench", "section": "A", "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 2,
           "profile": "fsb-2007", "policy": "record", "td_pin": "1234"}


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def auction(rng: random.Random) -> list[str]:
    calls: list[str] = []
    level = -1
    while not (len(calls) >= 4 and calls[-3:] == ["P"] * 3 and (level >= 0 or len(calls) == 4)):
        if level < 14 and rng.random() < 0.45:
            level = rng.randint(level + 1, min(14, level + 3))  # up to 3NT: below FSB L115B's 4C cut-off
            calls.append(BIDS[level])
        else:
            calls.append("P")
    return calls


def main(root: str, boards: int = 60) -> dict[str, Any]:
    sys.path.insert(0, root)
    from tablet_app.controller import Controller

    rng = random.Random(5)
    cost: dict[str, list[float]] = {"call": [], "alert": [], "refused_alert": []}
    clock = [1_795_339_000.0]
    ram = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=ram) as tmp:
        ctl = Controller(pathlib.Path(tmp) / "j.db", clock=lambda: clock[0])
        ctl.setup({**SESSION, "boards": list(range(1, boards + 1))})
        publishes = hasattr(ctl, "published")  # today's controller publishes the snapshot itself
        seq = 0

        def event(kind: str, seat: str, what: str, call: str | None = None) -> dict[str, Any]:
            nonlocal seq
            seq += 1
            clock[0] += rng.uniform(0.5, 3.0)
            t0 = time.process_time_ns()
            r = ctl.box_event(seat, kind, call=call, seq=seq, box_ms=seq * 10, epoch=1)
            ctl.views()
            if not publishes:
                ctl.snapshot()
            cost[what].append((time.process_time_ns() - t0) / 1000)
            return dict(r)

        for _ in range(boards):
            dealer = ORDER.index(ctl.estate["dealer"])
            for i, call in enumerate(auction(rng)):
                seat = ORDER[(dealer + i) % 4]
                assert event("call", seat, "call", call)["ok"]
                if call != "P" and rng.random() < 0.4:
                    partner = ORDER[(dealer + i + 2) % 4]
                    if rng.random() < 0.5:
                        assert event("alert", partner, "alert")["ok"]  # FSB L115B: partner alerts
                    else:
                        assert not event("alert", seat, "refused_alert")["ok"]  # not the bidder himself
            ctl.enter_result(None if ctl.estate["status"] == "passed_out" else 8)
            ctl.ew_confirm(True)
        ctl.close()
    out: dict[str, Any] = {"root": root}
    for what, xs in cost.items():
        # `each`: every event's cost in order (the workload is the same in every process), for
        # bench_tablet.py's least cost of each event over the rounds
        out[what] = {"n": len(xs), "p50": statistics.median(xs), "p99": pct(xs, 99), "each": [round(x, 1) for x in xs]}
    return out


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
