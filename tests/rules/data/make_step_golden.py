"""Write `step_golden.json.gz`: table logs and what the engine of the baseline commit made of them.

The logs are the law-case tests' own (every table the scenario and law tests in tests/rules build,
recorded while they ran: `--logs FILE`) and seeded random table sessions (calls in and out of
turn, alerts, the tray, TD answers and TD findings, on every profile and both policies), refused
events included. For each log the file keeps what the engine of the time said, event by event:

- `replay`: what `Table.apply` did with every event of the log, in order (a replay): a digest of
  the state, or the refusal's message;
- `tablet`: what the tablet did with every event before `Table.step` existed: a call `check`ed
  first and refused when the verdict said so (`prevent`, the stop lock of FSB L116B, a stopped
  auction), an alert tried on a deep copy of the engine and refused when it raised
  `alert_not_permitted` or `alert_by_wrong_player` (FSB L115), then `apply`: the digest of the
  state, the irregularities the event raised (entries new in the list: an L33 reordering replaces
  the call out of rotation by `simultaneous_calls`) and the timing flags it added, or the message
  of the refusal.

It is run once, against the baseline engine (`git archive 2b32f5b shared_rules`), and the file
is kept: tests/rules/test_step.py checks the new engine against it.

    python tests/rules/data/make_step_golden.py --engine BASELINE_DIR --logs LOGS.json step_golden.json.gz
"""
from __future__ import annotations

import argparse
import copy
import gzip
import hashlib
import json
import random
import sys
from typing import Any

PROFILES = ("fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl")
CALLS = ["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
FORBIDDEN_ALERT = ("alert_not_permitted", "alert_by_wrong_player")


def digest(state: dict[str, Any]) -> str:
    """A short, stable fingerprint of a state dict (its canonical JSON)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def random_session(rng: random.Random, table_cls: Any, error: type[Exception], n: int = 30) -> dict[str, Any]:
    profile = rng.choice(PROFILES)
    board = rng.randint(1, 16)
    log: dict[str, Any] = {"profile": profile, "board": board, "events": []}
    if rng.random() < 0.3:
        log["policy"] = rng.choice(["record", "prevent"])
    if profile == "fsb-2007" and rng.random() < 0.3:
        log["no_alerts_by"] = [rng.choice(["NS", "EW"])]
    table = table_cls(profile, board, log.get("policy"), tuple(log.get("no_alerts_by", ())))
    t = 0.0
    last_call: dict[str, Any] | None = None
    for _ in range(n):
        state = table.state()
        t = round(t + rng.choice([0.0, 0.2, 1.0, 4.0, 9.0, 12.0, 20.0]), 3)
        what = rng.choice(["turn"] * 6 + ["any", "any", "alert", "alert", "td", "td", "confirm", "tray", "finding"])
        e: dict[str, Any]
        if what == "td" and state["pending"]:
            opt = rng.choice(state["pending"]["options"])
            e = {"t": t, "td": state["pending"]["kind"], "choice": opt["id"]}
            if opt.get("needs_call") or rng.random() < 0.1:
                e["call"] = rng.choice(CALLS[:14])
        elif what == "alert":
            e = {"t": t, "seat": rng.choice("NESW"), "alert": True}
        elif what == "tray":
            e = {"t": t, "tray": True}
        elif what == "confirm" and last_call is not None:
            e = {"t": t, "seat": last_call["seat"], "call": last_call["call"]}
        elif what == "finding":
            kind = rng.choice(["correct_call", "misinformation_change", "exposed_cards", "wrong_board_call",
                               "wrong_board", "cancel_board"])
            e = {"t": t, "td": kind}
            if kind in ("correct_call", "misinformation_change"):
                e.update(seat=rng.choice("NESW"), call=rng.choice(CALLS[:14]))
            elif kind == "exposed_cards":
                e.update(seat=rng.choice("NESW"), cards=rng.sample(["SK", "H7", "DT", "C2", "SA"], rng.randint(1, 2)),
                         led=rng.random() < 0.2)
            elif kind == "wrong_board_call":
                e.update(seat=rng.choice("NESW"))
            elif kind == "wrong_board":
                e.update(played_before=rng.random() < 0.5)
        else:
            seat = state["next"] if what == "turn" and state["next"] else rng.choice("NESW")
            legal = state["legal_calls"] or CALLS
            pool = legal[:8] if rng.random() < 0.85 else CALLS + ["8C", "8NT"]
            e = {"t": t, "seat": seat, "call": rng.choice(pool)}
            if e["call"][0].isdigit() and rng.random() < 0.4:
                e["stop"] = True
            if profile in ("fsb-2007", "ebu") and rng.random() < 0.3:
                e["taken"] = rng.random() < 0.8
            last_call = e
        try:
            table.apply(e)
        except error:
            pass
        log["events"].append(e)
    return log


def replay_run(log: dict[str, Any], table_cls: Any, error: type[Exception]) -> list[Any]:
    table = table_cls(log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())))
    out: list[Any] = []
    for e in log["events"]:
        try:
            out.append(digest(table.apply(copy.deepcopy(e))))
        except error as exc:
            out.append("!" + str(exc))
    return out


def tablet_run(log: dict[str, Any], table_cls: Any, error: type[Exception]) -> list[Any]:
    table = table_cls(log["profile"], log["board"], log.get("policy"), tuple(log.get("no_alerts_by", ())))
    state = table.state()
    out: list[Any] = []
    for e in log["events"]:
        try:
            verdict = table.check(copy.deepcopy(e))
        except error as exc:
            verdict = "!" + str(exc)
        is_call = isinstance(e, dict) and "call" in e and "td" not in e
        if is_call and isinstance(verdict, dict) and verdict["action"] == "refuse":
            out.append({"check": verdict, "refused": [verdict["kind"], verdict["law"]]})
            continue
        if isinstance(e, dict) and "alert" in e and "td" not in e:
            try:
                tried = copy.deepcopy(table).apply(copy.deepcopy(e))
            except error:
                tried = None
            flag = tried and next((f for f in tried["timing"][len(state["timing"]):]
                                   if f["kind"] in FORBIDDEN_ALERT), None)
            if flag:
                out.append({"check": verdict, "refused": [flag["kind"], flag["law"]]})
                continue
        before = {id(x) for x in table._irregularities}  # the baseline's own list: what is new after
        try:
            new = table.apply(copy.deepcopy(e))
        except error as exc:
            out.append({"check": verdict, "error": str(exc)})
            continue
        item: dict[str, Any] = {"check": verdict, "state": digest(new),
                                "irregularities": [dict(x) for x in table._irregularities if id(x) not in before],
                                "timing": new["timing"][len(state["timing"]):]}
        out.append(item)
        state = new
    # what is None or empty is left out: the file stays small
    return [{k: v for k, v in item.items() if v not in (None, [])} for item in out]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True, help="a directory holding the baseline's shared_rules")
    ap.add_argument("--logs", required=True, help="the law-case tests' recorded logs (JSON list)")
    ap.add_argument("--random", type=int, default=160, help="how many random sessions to add")
    ap.add_argument("out")
    args = ap.parse_args(argv)
    sys.path.insert(0, args.engine)
    from shared_rules.table import EventError, Table  # the baseline's

    with open(args.logs, encoding="utf-8") as fh:
        logs = json.load(fh)
    # a log that is the start of a longer one with the same setting says nothing more
    keyed = [(json.dumps({k: v for k, v in log.items() if k != "events"}, sort_keys=True), log) for log in logs]
    kept = []
    for key, log in keyed:
        ev = json.dumps(log["events"])[:-1]
        if not any(k == key and other is not log and len(other["events"]) > len(log["events"])
                   and json.dumps(other["events"]).startswith(ev) for k, other in keyed):
            kept.append(log)
    rng = random.Random(20261127)
    kept += [random_session(rng, Table, EventError) for _ in range(args.random)]
    cases = [{"log": log, "replay": replay_run(log, Table, EventError), "tablet": tablet_run(log, Table, EventError)}
             for log in kept]
    text = "[\n" + ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases) + "\n]\n"
    # gzip without a time stamp: the same logs give the same bytes
    with open(args.out, "wb") as fh:
        fh.write(gzip.compress(text.encode(), mtime=0) if args.out.endswith(".gz") else text.encode())
    print(f"{len(cases)} logs, {sum(len(c['log']['events']) for c in cases)} events -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
