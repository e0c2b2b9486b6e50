"""The controller as a process to be killed: reads one input per line on stdin, answers `ack N`.

    python tests/tablet/crash_child.py JOURNAL.db

Input lines are JSON: {"n": 7, "now": 123.4, "op": "box", "seat": "N", "kind": "call", "call": "1H",
"seq": 3, "box_ms": 3000} | {"op": "td", "choice": .., "call": ..} | {"op": "result", "tricks": ..}
| {"op": "confirm"} | {"op": "tick"} | {"op": "dump"}. The clock is the input's `now`, so a replay after any number
of kills must give exactly the state of a run with no kill.
"""
from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from tablet_app.controller import Controller, Refused  # noqa: E402

now = [0.0]
ctl = Controller(sys.argv[1], clock=lambda: now[0])
print(json.dumps({"started": True, "phase": ctl.phase}), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    now[0] = msg.get("now", now[0])
    op = msg["op"]
    out: dict = {"ack": msg.get("n")}
    try:
        if op == "setup":
            if ctl.session is None:
                ctl.setup(msg["session"])
        elif op == "box":
            out["r"] = ctl.box_event(msg["seat"], msg["kind"], call=msg.get("call"), seq=msg["seq"],
                                     box_ms=msg["box_ms"], epoch=msg.get("epoch", 1))
        elif op == "td":
            ctl.td_decide(msg["pin"], msg["choice"], msg.get("call"))
        elif op == "tick":
            out["r"] = ctl.tick()
        elif op == "result":
            ctl.enter_result(msg["tricks"], msg.get("lead"))
        elif op == "confirm":
            ctl.ew_confirm(True)
        elif op == "dump":
            rows = ctl.journal.conn.execute("SELECT item_key, payload FROM outbox ORDER BY id").fetchall()
            out["outbox"] = [[k, json.loads(p)] for k, p in rows]
            out["snapshot"] = ctl.snapshot()
            out["views"] = ctl.views()
    except Refused as exc:
        out["refused"] = str(exc)
    print(json.dumps(out), flush=True)
