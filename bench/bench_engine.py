"""Replay throughput of the laws engine: calls per second over >= 100,000 generated auctions.

First, the engine beside the one before its restructure (commit 2b32f5b, extracted with `git
archive` into build/): the same workload (bench/engine_workload.py) on each, in its own process,
interleaved: replay rates, and the tablet's cost per call and per alert (then `check` + `apply`,
and an alert tried on a deep copy of the engine; now one `Table.step`).

Auctions are generated deterministically (seeded) as real table logs: legal calls in rotation,
think times, some stops and alerts, on both editions' profiles. The figure is the median of
repeated timed runs of `shared_rules.replay.replay` over the whole corpus on one core.

The tablet's restart is measured on its own path: a journal written by a real
`tablet_app.controller.Controller` fed as the link runner feeds it (one record per box call, with
the box's sequence number and clock), then the time a new Controller takes from opening the file to
the first screen's snapshot (hash chain checked, every record applied, the outbox checked). Short
and long auctions are both timed, so a cost that grows with the auction's length shows as a
ratio above 1.
"""
from __future__ import annotations

import json
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, ".")

from bench import baseline  # noqa: E402
from bench.engine_workload import PROFILES, generate, generate_irregular  # noqa: E402
from shared_rules.calls import BID_NAME, MAX_LEGAL_RANK  # noqa: E402
from shared_rules.outcome import Accepted, Refused  # noqa: E402
from shared_rules.replay import replay  # noqa: E402
from shared_rules.table import Table  # noqa: E402
from shared_rules.types import SEATS  # noqa: E402

N_AUCTIONS = 100_000
RUNS = 3
ROOT = pathlib.Path(__file__).resolve().parent.parent
# The engine before the restructure into rule objects and Table.step: the same workload runs on
# it, from build/, beside today's.
BASELINE = baseline.BASELINE


SESSION = {"event": "bench", "section": "A", "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 2,
           "profile": "fsb-2007", "policy": "record", "td_pin": "1234"}
BIDS = BID_NAME[:MAX_LEGAL_RANK + 1]  # 1C..7NT


def short_auction(rng: random.Random) -> list[str]:
    """A club auction: 4 to 20 calls or so."""
    calls: list[str] = []
    rank = -1
    while not (len(calls) >= 4 and calls[-3:] == ["P"] * 3 and (rank >= 0 or len(calls) == 4)):
        if rank < len(BIDS) - 1 and rng.random() < 0.45:
            rank = rng.randint(rank + 1, min(len(BIDS) - 1, rank + 4))
            calls.append(BIDS[rank])
        else:
            calls.append("P")
    return calls


def long_auction() -> list[str]:
    """The longest kind of auction: every bid from 1C up, each doubled and redoubled (142 calls)."""
    calls: list[str] = []
    for bid in BIDS:
        calls += [bid, "X", "XX", "P"]
    return calls + ["P", "P"]


def write_journal(path: pathlib.Path, auctions: list[list[str]]) -> int:
    from tablet_app.controller import Controller

    clock = [1_795_339_000.0]
    ctl = Controller(path, clock=lambda: clock[0])
    ctl.setup({**SESSION, "boards": list(range(1, len(auctions) + 1))})
    n = 0
    box_seq = dict.fromkeys(SEATS, 0)
    for calls in auctions:
        dealer = SEATS.index(ctl.estate["dealer"])
        for i, call in enumerate(calls):
            clock[0] += 3.0
            seat = SEATS[(dealer + i) % 4]
            box_seq[seat] += 1  # as a box sends it (tablet_app/runner.py): its seq and its own clock
            r = ctl.box_event(seat, "call", call=call, seq=box_seq[seat], box_ms=int(clock[0] * 1000) % 2**32)
            assert r["ok"], r
            n += 1
        ctl.enter_result(None if ctl.estate["status"] == "passed_out" else 8)
        ctl.ew_confirm(True)
    ctl.close()
    return n


class TimedTable(Table):
    """Table whose step and state add their time to `spent` (perf_counter: cheap to read, unlike
    CPU time)."""

    spent = 0.0

    _inside = False  # time the outermost call only

    def _timed(self, fn: Any, *args: Any) -> Any:
        if TimedTable._inside:
            return fn(*args)
        TimedTable._inside = True
        t0 = time.perf_counter()
        try:
            return fn(*args)
        finally:
            TimedTable._inside = False
            TimedTable.spent += time.perf_counter() - t0

    def step(self, event: Any) -> Accepted | Refused:  # the tablet's one call per event
        return self._timed(super().step, event)

    def state(self) -> dict[str, Any]:  # built when the tablet reads it (a board's end, the last)
        return self._timed(super().state)


def tablet_restart() -> None:
    """The journal replay a restarted tablet does, through the Controller itself."""
    from tablet_app.controller import Controller

    rng = random.Random(11)
    rates: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, auctions in (("short", [short_auction(rng) for _ in range(400)]), ("long", [long_auction()] * 40)):
            path = pathlib.Path(tmp) / f"{name}.db"
            n = write_journal(path, auctions)
            times, walls, engine = [], [], []
            for _ in range(5):
                # CPU time of this process: the figure should not depend on what else the shared
                # machine runs (the replay is CPU-bound; the journal file is in the page cache).
                # The tablet's own Controller, as it starts: opened, replayed, its first screen read.
                t0, w0 = time.process_time(), time.perf_counter()
                ctl = Controller(path)
                ctl.snapshot()
                ctl.close()
                times.append(time.process_time() - t0)
                walls.append(time.perf_counter() - w0)
                # The engine's share, from a start of its own (interleaved): TimedTable adds two
                # clock reads per event, which the rate above must not pay.
                TimedTable.spent = 0.0
                w0 = time.perf_counter()
                Controller(path, engine_factory=TimedTable).close()
                engine.append(TimedTable.spent / (time.perf_counter() - w0))
            rates[name] = n / statistics.median(times)
            print(f"tablet restart replay ({name} auctions: {len(auctions)} boards, {n} calls, "
                  f"{n / len(auctions):.0f} calls per board): {rates[name]:,.0f} calls/s CPU time "
                  f"({n / statistics.median(walls):,.0f} wall; median of 5 Controller starts) — goal >= 50,000 calls/s")
            print(f"  of which the engine (Table.step and the states the tablet reads): {statistics.median(engine):.0%}")
    print(f"  cost per call, long auctions / short auctions: {rates['short'] / rates['long']:.2f} "
          "(1.00 = linear in the auction's length)")


def taken_throughput(corpus: list[dict[str, Any]]) -> None:
    """The fsb-2007 auctions of the corpus replayed as they are and with `"taken": true` on every
    call, as the tablet logs box calls under fsb-2007 (FSB L112C): both take the fast path, so the
    two rates should match."""
    plain = [log for log in corpus if log["profile"] == "fsb-2007"]
    taken = [{**log, "events": [{**e, "taken": True} if "call" in e else e for e in log["events"]]} for log in plain]
    n = sum(1 for log in plain for e in log["events"] if "call" in e)
    times: dict[str, list[float]] = {"plain": [], "taken": []}
    for _ in range(5):  # interleaved, and CPU time, so the shared machine's load hits both alike
        for name, logs in (("plain", plain), ("taken", taken)):
            t0 = time.process_time()
            for log in logs:
                replay(log)
            times[name].append(time.process_time() - t0)
    rates = {name: n / statistics.median(ts) for name, ts in times.items()}
    print(f"fsb-2007 replay ({len(plain)} auctions, {n} calls): plain calls {rates['plain']:,.0f} calls/s, "
          f"every call \"taken\": true (FSB L112C) {rates['taken']:,.0f} calls/s "
          f"(ratio {rates['plain'] / rates['taken']:.2f}; 1.00 = no extra cost; CPU time, median of 5)")


def baseline_engine() -> pathlib.Path | None:
    """The baseline's shared_rules, extracted once with `git archive` into build/ (bench/baseline.py)."""
    return baseline.extract("engine", ("shared_rules",), "shared_rules/table.py")


def old_beside_new(rounds: int = 3) -> None:
    """The same workload (bench/engine_workload.py) on the baseline engine and on today's, each
    in its own process, the two interleaved round by round (the shared machine's load hits both
    alike); CPU time, the rates each the best of 3 runs, the medians of the rounds."""
    old_root = baseline_engine()
    if old_root is None:
        return
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for _ in range(rounds):
        for name, root in (("old", old_root), ("new", ROOT)):
            out = subprocess.run([sys.executable, str(ROOT / "bench" / "engine_workload.py"), str(root)],
                                 cwd=ROOT, capture_output=True, text=True, check=True).stdout
            runs[name].append(json.loads(out))

    def med(name: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[name])

    n = runs["new"][0]
    print(f"old ({BASELINE}) beside new: the same workload in its own process, {rounds} interleaved rounds, "
          "medians, CPU time (rates: best of 3 runs in each round)")
    for key, what, unit in (("replay_calls_per_s", f"replay, 20,000 generated auctions ({n['calls']:,} calls)", "calls/s"),
                            ("irregular_events_per_s", f"replay, 2,000 auctions full of irregularities "
                             f"({n['irregular_events']:,} events)", "events/s")):
        old, new = med("old", key), med("new", key)
        print(f"  {what}: old {old:,.0f} {unit}, new {new:,.0f} {unit}; new/old {new / old:.2f} (>= 1.00: no slower)")
    for key, what in (("call", "check + apply (old), step + its state (new)"),
                      ("alert", "apply on a deep copy + apply (old), step + its state (new)")):
        old, new = med("old", f"{key}_us"), med("new", f"{key}_us")
        print(f"  the tablet's path per {key} ({n[f'tablet_{key}s']:,} {key}s; {what}): old {old:.1f} us "
              f"(p99 {med('old', f'{key}_p99_us'):.1f}), new {new:.1f} us (p99 {med('new', f'{key}_p99_us'):.1f}); "
              f"old/new {old / new:.1f}")


def main() -> None:
    old_beside_new()
    tablet_restart()
    rng = random.Random(2026)
    t0 = time.perf_counter()
    corpus = [generate(rng, 1 + i % 32, PROFILES[i % len(PROFILES)]) for i in range(N_AUCTIONS)]
    gen_s = time.perf_counter() - t0
    n_calls = sum(1 for log in corpus for e in log["events"] if "call" in e)
    n_events = sum(len(log["events"]) for log in corpus)
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        for log in corpus:
            replay(log)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    print(f"corpus: {N_AUCTIONS} auctions, {n_calls} calls, {n_events} events (generated in {gen_s:.1f} s, seed 2026)")
    print(f"replay throughput: {n_calls / med:,.0f} calls/s (median of {RUNS} runs; min {n_calls / max(times):,.0f}, "
          f"max {n_calls / min(times):,.0f}) — goal >= 50,000 calls/s")
    print(f"replay throughput: {N_AUCTIONS / med:,.0f} auctions/s; {med / N_AUCTIONS * 1e6:.1f} us per auction incl. final state")
    taken_throughput(corpus)

    # The rare path: auctions with irregularities, TD rulings, rolled-back refusals.
    rng = random.Random(7)
    irregular = [generate_irregular(rng, 1 + i % 32, PROFILES[i % 2]) for i in range(10_000)]
    n_irr = sum(len(replay(log)["irregularities"]) for log in irregular)
    n_ev = sum(len(log["events"]) for log in irregular)
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        for log in irregular:
            replay(log)
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    print(f"irregular corpus: 10000 auctions (fsb-2007, dbf-2017), {n_ev} events, {n_irr} irregularities: "
          f"{n_ev / med:,.0f} events/s (median of {RUNS} runs)")

    # What the tablet waits for: one Table.step per event and the state it reads.
    steps: dict[str, list[float]] = {"call": [], "alert": []}
    for log in corpus[:5000]:
        table = Table(log["profile"], log["board"])
        for e in log["events"]:
            t0 = time.perf_counter()
            got = table.step(e)
            if isinstance(got, Accepted):
                got.state  # noqa: B018 (read, as the tablet does)
            steps["alert" if "alert" in e else "call"].append(time.perf_counter() - t0)
    for kind, xs in steps.items():
        xs.sort()
        pct = {p: xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1e6 for p in (50, 99)}
        print(f"Table.step latency per {kind}, incl. its state ({len(xs)} {kind}s): p50 {pct[50]:.0f} us, "
              f"p99 {pct[99]:.0f} us")


if __name__ == "__main__":
    main()
