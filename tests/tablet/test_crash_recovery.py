"""kill -9 the controller process at many random points of a scripted session; after each restart
the inputs not yet acknowledged are sent again (as a box re-sends its unacknowledged events, and
as a person repeats a touch the screen did not take). At the end the table must be exactly the
table of a run that was never killed: same auction, decisions and results, nothing lost, nothing
queued twice."""
import json
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from shared_rules.types import SEATS
from tests import fork_server

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SESSION = {"event": "crash-test", "section": "A", "table": 1, "round": 1, "boards": [1, 2],
           "ns_pair": 1, "ew_pair": 2, "profile": "dbf-2017", "policy": "record", "td_pin": "1357"}


def script():
    seqs = {s: 0 for s in SEATS}
    ops = [{"op": "setup", "session": SESSION}]

    def box(seat, call, kind="call"):
        seqs[seat] += 1
        ops.append({"op": "box", "seat": seat, "kind": kind, "call": call, "seq": seqs[seat] % 256,
                    "box_ms": seqs[seat] * 1000})

    def op(**kw):
        ops.append(kw)

    # board 1, dealer N: an insufficient bid ruled by the TD (2017 L27B1(a))
    box("N", "1NT")
    box("E", "1S")
    op(op="td", pin="1357", choice="replace", call="2S")
    op(op="td", pin="1357", choice="b1a")
    box("S", None, kind="alert")
    for seat, call in [("S", "3NT"), ("W", "P"), ("N", "P"), ("E", "P")]:
        box(seat, call)
    op(op="result", tricks=9, lead="SQ")
    op(op="confirm")
    # board 2, dealer E
    box("E", None, kind="stop")
    for seat, call in [("E", "2S"), ("S", "P"), ("W", "4S"), ("N", "X"), ("E", "P"), ("S", "P"), ("W", "P")]:
        box(seat, call)
    op(op="result", tricks=9)
    op(op="confirm")
    # The clock the child sees is the script's: 1.5 s between inputs.
    for i, o in enumerate(ops):
        o["n"] = i
        o["now"] = 1_795_339_000.0 + 1.5 * i
    return ops


class ForkServer:
    """crash_child.py --fork-server: one interpreter with the controller imported, which forks a
    child process per start (the restart after each kill)."""

    def __init__(self):
        self.p = subprocess.Popen([sys.executable, str(HERE / "crash_child.py"), "--fork-server"], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="crash_child_"))
        self.n = 0

    def start(self, db) -> tuple[int, pathlib.Path, pathlib.Path]:
        """A child serving `db`: its pid and the named pipes to its stdin and from its stdout."""
        self.n += 1
        inp, out = self.dir / f"in{self.n}", self.dir / f"out{self.n}"
        os.mkfifo(inp)
        os.mkfifo(out)
        self.p.stdin.write(f"{db} {inp} {out}\n")
        self.p.stdin.flush()
        return int(self.p.stdout.readline()), inp, out

    def close(self):
        self.p.stdin.close()
        self.p.wait(10)
        shutil.rmtree(self.dir)


_server: ForkServer | None = None


@pytest.fixture(autouse=True, scope="module")
def _fork_server_closed():
    yield
    global _server
    if _server is not None:
        _server.close()
        _server = None


class Child:
    """The controller in a process of its own, forked from the fork server."""

    def __init__(self, db):
        global _server
        if _server is None:
            _server = ForkServer()
        self.pid, inp, out = _server.start(db)
        self.exited = os.pidfd_open(self.pid)  # readable once the process has ended
        self.stdin = open(inp, "w")  # noqa: SIM115 - closed by kill or close
        self.stdout = open(out)  # noqa: SIM115
        first = self.stdout.readline()
        assert json.loads(first)["started"], first

    def send(self, msg):
        self.stdin.write(json.dumps(msg) + "\n")
        self.stdin.flush()

    def answer(self):
        line = self.stdout.readline()
        return json.loads(line) if line else None

    def _ended(self, timeout):
        fork_server.wait_ended(self.exited, self.pid, timeout)
        self.stdout.close()
        try:
            self.stdin.close()
        except BrokenPipeError:
            pass  # it had not read all we sent: it is gone, as it should be

    def kill(self):
        os.kill(self.pid, signal.SIGKILL)
        self._ended(60)

    def close(self):
        self.stdin.close()
        self._ended(10)


def run(db, ops, rng=None, kill_p=0.0):
    child = Child(db)
    kills = 0
    i = 0
    while i < len(ops):
        child.send(ops[i])
        if rng is not None and rng.random() < kill_p:
            time.sleep(rng.uniform(0, 0.004))  # somewhere inside (or just after) the write
            child.kill()
            kills += 1
            child = Child(db)
            continue  # not acknowledged: send the same input again
        ans = child.answer()
        assert ans is not None and ans["ack"] == ops[i]["n"]
        i += 1
    child.send({"op": "dump", "n": -1})
    final = child.answer()
    child.close()
    return final, kills


@pytest.mark.slow
def test_kill_9_at_random_points_loses_and_duplicates_nothing(tmp_path):
    ops = script()
    reference, _ = run(tmp_path / "ref.db", ops)
    results = [k for k, p in reference["outbox"] if "score_ns" in p]
    assert results == ["crash-test/A/1/1/1/1", "crash-test/A/1/1/2/1"]
    assert len(reference["outbox"]) > 8  # progress items and a TD decision's trail are queued too
    assert reference["snapshot"]["phase"] == "round_end"
    total_kills = 0
    for seed in range(3):
        final, kills = run(tmp_path / f"crash{seed}.db", ops, random.Random(seed), kill_p=0.35)
        total_kills += kills
        assert final["outbox"] == reference["outbox"], f"seed {seed}: results differ after {kills} kills"
        assert final["snapshot"] == reference["snapshot"], f"seed {seed}: table differs after {kills} kills"
        assert final["views"] == reference["views"]
    assert total_kills >= 15  # the test really killed the controller many times


def screens_script():
    """One board behind screens (wbf-screens-2017, tray after 2 s): tray passes between the
    calls, a screenmate alert, and a call out of rotation cancelled behind the screen."""
    session = {**SESSION, "boards": [1], "profile": "wbf-screens-2017", "tray_delay_s": 2.0}
    seqs = {s: 0 for s in SEATS}
    ops = [{"op": "setup", "session": session}]

    def box(seat, call, kind="call"):
        seqs[seat] += 1
        ops.append({"op": "box", "seat": seat, "kind": kind, "call": call, "seq": seqs[seat],
                    "box_ms": seqs[seat] * 1000})

    box("N", "1C")
    box("N", None, kind="alert")  # to East
    box("E", "P")
    ops.append({"op": "tick"})  # the tray passes to South-West
    box("S", None, kind="alert")  # to West
    box("S", "1H")
    box("W", "P")
    box("S", "1S")  # refused: the tray passed to North-East before it (journalled first)
    ops.append({"op": "tick"})  # nothing due
    box("E", "1S")  # out of rotation at North's turn, on North-East's side
    ops.append({"op": "td", "pin": "1357", "choice": "cancel"})  # behind the screen: no rectification
    for seat, call in [("N", "1S"), ("E", "P")]:
        box(seat, call)
    ops.append({"op": "tick"})
    for seat, call in [("S", "2S"), ("W", "P")]:
        box(seat, call)
    ops.append({"op": "tick"})
    for seat, call in [("N", "P"), ("E", "P")]:
        box(seat, call)
    ops.append({"op": "result", "tricks": 8})
    ops.append({"op": "confirm"})
    for i, o in enumerate(ops):
        o["n"] = i
        o["now"] = 1_795_339_000.0 + 1.5 * i
    return ops


@pytest.mark.slow
def test_wbf_screens_kill_9_with_the_tray_in_the_journal_loses_and_duplicates_nothing(tmp_path):
    ops = screens_script()
    reference, _ = run(tmp_path / "ref.db", ops)
    st = reference["snapshot"]["director_state"]  # the whole table (the tablet shows less)
    assert reference["snapshot"]["phase"] == "round_end" and st["contract"] == "2S"
    assert len(st["tray"]["passes"]) == 4 and st["calls"][0]["alerted_to"] == ["E", "W"]
    assert [i["resolution"] for i in st["irregularities"]] == ["cancelled_behind_screen"]
    total_kills = 0
    for seed in range(2):
        final, kills = run(tmp_path / f"crash{seed}.db", ops, random.Random(100 + seed), kill_p=0.35)
        total_kills += kills
        assert final["outbox"] == reference["outbox"], f"seed {seed}: results differ after {kills} kills"
        assert final["snapshot"] == reference["snapshot"], f"seed {seed}: table differs after {kills} kills"
        assert final["views"] == reference["views"]
    assert total_kills >= 6


def test_restart_mid_auction_and_mid_td_decision_restores_the_same_table(tmp_path):
    ops = script()
    db = tmp_path / "j.db"
    # stop after the insufficient bid (table frozen, TD decision pending)
    frozen_at = next(i for i, o in enumerate(ops) if o.get("call") == "1S") + 1
    child = Child(db)
    for o in ops[:frozen_at]:
        child.send(o)
        child.answer()
    child.send({"op": "dump", "n": -1})
    before = child.answer()
    child.kill()
    child = Child(db)
    child.send({"op": "dump", "n": -1})
    after = child.answer()
    child.close()
    assert before["snapshot"]["phase"] == "frozen"
    assert after["snapshot"] == before["snapshot"] and after["views"] == before["views"]
