"""The laws engine's workload, on whichever engine is first on the path: the generated corpora
(bench_engine.py uses them too) and, run as a script, the timings bench_engine.py compares between
the engine of today and the engine before the restructure (commit 2b32f5b, extracted to build/).

    python bench/engine_workload.py ENGINE_ROOT      # prints one JSON object

ENGINE_ROOT is a directory holding a `shared_rules` package. The workload uses only what both
engines have (`replay`, `Table.apply/check/state`), and `Table.step` where there is one:

- replay: calls/s of `replay.replay` over generated auctions (the lean path; CPU time, best of 3);
- irregular: events/s of `replay.replay` over auctions full of irregularities and TD rulings;
- call, alert: the tablet's cost per event, CPU microseconds. Before `step` the tablet asked
  `check` and then `apply` for a call, and for an alert `apply` on a `copy.deepcopy` of the
  engine (to learn whether the profile forbids it) and then `apply`; with `step` it is one
  `step` and the state it reads (`Accepted.state`).
"""
from __future__ import annotations

import copy
import random
import statistics
import sys
import time
from typing import Any

PROFILES = ("fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl")
_FORBIDDING = ("alert_not_permitted", "alert_by_wrong_player")  # FSB L115: the tablet refuses it
NAMES = ["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]


def generate(rng: random.Random, board: int, profile: str) -> dict[str, Any]:
    """A legal auction as a table log: think times, some stops and alerts."""
    from shared_rules import auction
    from shared_rules.calls import CALL_CODE, PASS, SEATS

    dealer = (board - 1) % 4
    seq: list[tuple[int, int]] = []
    events: list[dict[str, Any]] = []
    t = 0.0
    seat = dealer
    while True:
        legal = auction.legal_calls(seq, seat)
        call = "P" if rng.random() < 0.5 else rng.choice(legal[: 8])
        t += round(rng.uniform(0.5, 12.0), 1)
        e: dict[str, Any] = {"t": t, "seat": SEATS[seat], "call": call}
        if call[0].isdigit() and rng.random() < 0.3:
            e["stop"] = True
        events.append(e)
        seq.append((seat, CALL_CODE[call]))
        if call[0].isdigit() and rng.random() < 0.1:
            t += 0.3
            # Behind screens the caller alerts his own call to his screenmate (partner has not
            # seen it yet: the engine refuses his alert); at an open table partner alerts.
            alerter = seat if "screens" in profile else (seat + 2) % 4
            events.append({"t": t, "seat": SEATS[alerter], "alert": True})
        trailing = 0
        for _, c in reversed(seq):
            if c != PASS:
                break
            trailing += 1
        has_bid = any(c != PASS for _, c in seq)
        if (has_bid and trailing == 3) or trailing == 4:
            break
        seat = (seat + 1) % 4
    return {"profile": profile, "board": board, "events": events}


def generate_irregular(rng: random.Random, board: int, profile: str) -> dict[str, Any]:
    """An auction with irregularities and their rulings, driven through a Table so every event in
    the log is one the engine accepts: mostly legal calls, sometimes a call by a random seat, the
    TD answering with a random option."""
    from shared_rules.calls import SEATS
    from shared_rules.table import EventError, Table

    table = Table(profile, board)
    events: list[dict[str, Any]] = []
    t = 0.0
    for _ in range(80):
        st = table.state()
        if st["status"] in ("ended", "passed_out"):
            break
        t += 1.0
        e: dict[str, Any]
        if st["pending"]:
            opt = rng.choice(st["pending"]["options"])
            e = {"t": t, "td": st["pending"]["kind"], "choice": opt["id"]}
            if opt.get("needs_call"):
                e["call"] = rng.choice(NAMES[:12])
        elif rng.random() < 0.06:
            e = {"t": t, "seat": rng.choice(SEATS), "call": rng.choice(NAMES[:15])}
        else:
            legal = st["legal_calls"]
            e = {"t": t, "seat": st["next"], "call": "P" if rng.random() < 0.5 else rng.choice(legal[:8])}
        try:
            table.take(e)  # as a log takes it (both engines have it)
        except EventError:
            continue
        events.append(e)
    return {"profile": profile, "board": board, "events": events}


def _rate(n: int, fn: Any, runs: int = 3) -> float:
    """Per CPU second, the best of `runs`: what the code costs, less what a loaded machine adds."""
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return n / min(times)


def tablet_costs(corpus: list[dict[str, Any]]) -> dict[str, list[float]]:
    """CPU microseconds per event on the tablet's path, calls and alerts apart."""
    from shared_rules.table import EventError, Table

    costs: dict[str, list[float]] = {"call": [], "alert": []}
    clock = time.process_time_ns
    for log in corpus:
        table = Table(log["profile"], log["board"])
        state = table.state()  # the tablet always holds the state of the last event
        for e in log["events"]:
            kind = "alert" if "alert" in e else "call"
            t0 = clock()
            try:
                state = _tablet_event(table, state, e)
            except EventError:
                pass  # refused: the tablet's journal never holds it
            costs[kind].append((clock() - t0) / 1000)
    return costs


def _tablet_event(table: Any, state: dict[str, Any], e: dict[str, Any]) -> dict[str, Any]:
    """One event on the tablet's path; the state the tablet holds after it."""
    if hasattr(table, "step"):  # one pass
        got = table.step(e)
        return got.state if hasattr(got, "state") else state
    if "alert" not in e:  # the engine before step: check, then apply
        verdict = table.check(e)
        return state if verdict and verdict["action"] == "refuse" else table.apply(e)
    n = len(state["timing"])
    tried = copy.deepcopy(table).apply(e)  # the tablet's preview of an alert on a copy
    if any(f["kind"] in _FORBIDDING for f in tried["timing"][n:]):
        return state
    return table.apply(e)


def main(root: str) -> dict[str, Any]:
    sys.path.insert(0, root)
    import shared_rules
    from shared_rules.replay import replay

    rng = random.Random(2026)
    corpus = [generate(rng, 1 + i % 32, PROFILES[i % len(PROFILES)]) for i in range(20_000)]
    n_calls = sum(1 for log in corpus for e in log["events"] if "call" in e)
    rng = random.Random(7)
    irregular = [generate_irregular(rng, 1 + i % 32, PROFILES[i % 2]) for i in range(2_000)]
    n_events = sum(len(log["events"]) for log in irregular)
    # the tablet's path on the auctions without screens or a stop lock (so every call of the
    # replay log is one the tablet takes): dbf-2017, ebu, acbl; ebu's and acbl's cut-off refuses
    # some alerts, in both engines
    costs = tablet_costs([log for log in corpus[:8000] if log["profile"] in ("dbf-2017", "ebu", "acbl")])
    return {
        "engine": shared_rules.__file__,
        "replay_calls_per_s": _rate(n_calls, lambda: [replay(log) for log in corpus]),
        "irregular_events_per_s": _rate(n_events, lambda: [replay(log) for log in irregular]),
        "call_us": statistics.median(costs["call"]),
        "call_p99_us": sorted(costs["call"])[int(0.99 * len(costs["call"]))],
        "alert_us": statistics.median(costs["alert"]),
        "alert_p99_us": sorted(costs["alert"])[int(0.99 * len(costs["alert"]))],
        "calls": n_calls, "irregular_events": n_events, "tablet_calls": len(costs["call"]),
        "tablet_alerts": len(costs["alert"]),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(main(sys.argv[1])))
