"""Probe (also run by tests/e2e/test_kill_tablet.py): kill -9 the whole tablet process (controller + LinkMaster + runner) with
four real boxes connected, at random moments just after a box's key press, restart it on the
same journal, and count calls lost (the box must be keyed again) and calls duplicated.

    .venv/bin/python tests/e2e/kill_probe.py [SEEDS] [MAX_DELAY_MS]

It measures the crash window docs/tablet.md describes: with `LinkMaster(ack_on_commit=False)` a box
event is acknowledged when its frame arrives, before the controller has journalled it, and a kill
in between loses the call (6 lost in 125 kills, 2026-11-22). The tablet now opens the link with
`ack_on_commit=True` and acknowledges only after the journal commit; `ACK_ON_COMMIT=0` in the
environment measures the old way; SLOW_JOURNAL_MS=N delays each journal write by N ms, as
a tablet's slow flash storage would, which widens the window. Duplicates must always be 0 (the journal recognises re-sent
events).
"""
from __future__ import annotations

import json
import os
import pathlib
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from functools import partial

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hardware.sim.boxes import Boxes, Screen  # noqa: E402
from hardware.sim.link import SimLink  # noqa: E402
from hardware.sim.table import tokens  # noqa: E402
from shared_rules.types import SEATS  # noqa: E402
from tests import fork_server  # noqa: E402

HANG_S = 60.0  # how long to look for what a box shows: only ends a hang


def shows(sc: Screen, n: int, turn: bool = False) -> bool:
    """The box shows an auction of n calls (and, with `turn`, that it is its turn)."""
    return len(sc.calls) == n and (not turn or sc.status == "YOUR TURN")


# The tablet process: forked, at each start, from a server that has Python started and the tablet
# imported (the restarts after the kills cost no interpreter start and no imports); each child
# opens the journal and the link itself and is a process of its own, killed with SIGKILL. The
# server reads [journal, ports, ack_on_commit, slow_journal_s, fifo] lines and answers the child's
# pid; the child writes "up" into the fifo once its link is open.
SERVER = """
import json, sys, time
sys.path.insert(0, ROOT)
from tablet_app.controller import Controller
from tablet_app.journal import Journal
from tablet_app.link import LinkMaster
from tablet_app.runner import TableRunner


def tablet(db, ports, ack_on_commit, slow, up):
    _append = Journal.append

    def slow_append(self, kind, body):
        time.sleep(slow)  # a tablet's flash storage: fsync takes milliseconds, not microseconds
        return _append(self, kind, body)

    Journal.append = slow_append
    ctl = Controller(db)
    if ctl.session is None:
        ctl.setup({"event": "probe", "section": "A", "table": 1, "round": 1, "boards": [1], "ns_pair": 1,
                   "ew_pair": 2, "profile": "dbf-2017", "policy": "record", "td_pin": "2468"})
    runner = TableRunner(ctl, link=LinkMaster(ports, ack_on_commit=ack_on_commit))
    with open(up, "w") as f:
        f.write("up\\n")
    while True:
        runner.step(0.005)


from tests import fork_server

fork_server.serve(lambda line: tablet(*json.loads(line)))
""".replace("ROOT", repr(str(ROOT)))


class Tablet:
    """A tablet process forked by the server (SERVER above)."""

    def __init__(self, server: subprocess.Popen, args: list, up: pathlib.Path):
        assert server.stdin is not None and server.stdout is not None
        os.mkfifo(up)
        server.stdin.write(json.dumps([*args, str(up)]) + "\n")
        server.stdin.flush()
        self.pid = int(server.stdout.readline())
        self.exited = os.pidfd_open(self.pid)  # readable once the process has ended
        with open(up) as f:  # opened by the child once its link is up
            f.readline()
        up.unlink()

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        fork_server.wait_ended(self.exited, self.pid, HANG_S)
AUCTION = ["1C", "1D", "1H", "1S", "P", "P", "P"]


def run(seed: int, max_delay: float, work: pathlib.Path, ack_on_commit: bool = True,
        slow_journal: float = 0.0) -> tuple[int, int, int]:
    db = work / f"j{seed}.db"
    link = SimLink().start()
    boxes = Boxes(link.box_ports, work / f"boxes{seed}", link=link)
    boxes.start()

    server = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=ROOT)
    starts = [0]

    def start() -> Tablet:
        starts[0] += 1
        return Tablet(server, [str(db), link.tablet_ports, ack_on_commit, slow_journal],
                      work / f"up{seed}-{starts[0]}")

    rng = random.Random(seed)
    p = start()
    kills = lost = 0
    try:
        for i, call in enumerate(AUCTION):
            seat = SEATS[i % 4]
            boxes.wait_screen(seat, partial(shows, n=i, turn=True), timeout=HANG_S)
            boxes.press(seat, tokens(call))
            if rng.random() < 0.7:
                time.sleep(rng.uniform(0, max_delay))
                p.kill()
                kills += 1
                p = start()
            try:
                # a call the box forgot never shows: the limit only says when to stop looking
                boxes.wait_screen(seat, partial(shows, n=i + 1), timeout=HANG_S)
            except TimeoutError:
                lost += 1
                boxes.press(seat, tokens(call))  # the player sees it missing and keys it again
                boxes.wait_screen(seat, partial(shows, n=i + 1), timeout=HANG_S)
        conn = sqlite3.connect(db)
        calls = [json.loads(b)["ev"].get("call") for (b,) in conn.execute("SELECT body FROM journal WHERE kind='event'")]
        conn.close()
        dups = len(calls) - len(AUCTION)
    finally:
        p.kill()
        assert server.stdin is not None
        server.stdin.close()
        server.wait(10)
        boxes.stop()
        link.close()
    return kills, lost, dups


def main() -> int:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    max_delay = (float(sys.argv[2]) if len(sys.argv) > 2 else 12.0) / 1000
    totals = [0, 0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(seeds):
            for k, v in enumerate(run(seed, max_delay, pathlib.Path(tmp), os.environ.get("ACK_ON_COMMIT", "1") == "1",
                                             float(os.environ.get("SLOW_JOURNAL_MS", "0")) / 1000)):
                totals[k] += v
    print(f"kills {totals[0]}, calls lost {totals[1]}, calls duplicated {totals[2]}")
    return 0 if totals[1] == totals[2] == 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
