"""The controller as a process to be killed: reads one input per line on stdin, answers `ack N`.

    python tests/tablet/crash_child.py JOURNAL.db
    python tests/tablet/crash_child.py --fork-server

Input lines are JSON: {"n": 7, "now": 123.4, "op": "box", "seat": "N", "kind": "call", "call": "1H",
"seq": 3, "box_ms": 3000} | {"op": "td", "choice": .., "call": ..} | {"op": "result", "tricks": ..}
| {"op": "confirm"} | {"op": "tick"} | {"op": "dump"}. The clock is the input's `now`, so a replay after any number
of kills must give exactly the state of a run with no kill.

`--fork-server` reads lines `JOURNAL.db IN OUT` (IN and OUT named pipes) and answers each with the
pid of a child forked from it, which opens that journal and serves it on those pipes as the first
form does on stdin and stdout. The interpreter's start and the controller's imports are then made
once, not at every restart after a kill (about 0.25 s of CPU each); what a kill tests is all in
the child: a process of its own, killed with SIGKILL, and a new one that opens the journal.
"""
from __future__ import annotations

import json
import pathlib
import sys
from typing import TextIO

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from tablet_app.controller import Controller, Refused  # noqa: E402
from tests import fork_server  # noqa: E402


def serve(db: str, inp: TextIO, out: TextIO) -> None:
    now = [0.0]
    ctl = Controller(db, clock=lambda: now[0])
    print(json.dumps({"started": True, "phase": ctl.phase}), file=out, flush=True)
    for line in inp:
        msg = json.loads(line)
        now[0] = msg.get("now", now[0])
        op = msg["op"]
        ans: dict = {"ack": msg.get("n")}
        try:
            if op == "setup":
                if ctl.session is None:
                    ctl.setup(msg["session"])
            elif op == "box":
                ans["r"] = ctl.box_event(msg["seat"], msg["kind"], call=msg.get("call"), seq=msg["seq"],
                                         box_ms=msg["box_ms"], epoch=msg.get("epoch", 1))
            elif op == "td":
                ctl.td_decide(msg["pin"], msg["choice"], msg.get("call"))
            elif op == "tick":
                ans["r"] = ctl.tick()
            elif op == "result":
                ctl.enter_result(msg["tricks"], msg.get("lead"))
            elif op == "confirm":
                ctl.ew_confirm(True)
            elif op == "dump":
                rows = ctl.journal.conn.execute("SELECT item_key, payload FROM outbox ORDER BY id").fetchall()
                ans["outbox"] = [[k, json.loads(p)] for k, p in rows]
                ans["snapshot"] = ctl.snapshot()
                ans["views"] = ctl.views()
        except Refused as exc:
            ans["refused"] = str(exc)
        print(json.dumps(ans), file=out, flush=True)


def _serve_line(line: str) -> None:
    db, inp, outp = line.split()
    with open(inp) as i, open(outp, "w") as o:  # in this order: the test opens them so
        serve(db, i, o)


if __name__ == "__main__":
    if sys.argv[1] == "--fork-server":
        fork_server.serve(_serve_line)
    else:
        serve(sys.argv[1], sys.stdin, sys.stdout)
