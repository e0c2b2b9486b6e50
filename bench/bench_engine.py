"""Replay throughput of the laws engine: calls per second over >= 100,000 generated auctions.

Auctions are generated deterministically (seeded) as real table logs: legal calls in rotation,
think times, some stops and alerts, on both editions' profiles. The figure is the median of
repeated timed runs of `shared_rules.replay.replay` over the whole corpus on one core.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, ".")

from shared_rules import auction  # noqa: E402
from shared_rules.calls import CALL_CODE, PASS, SEATS  # noqa: E402
from shared_rules.replay import replay  # noqa: E402
from shared_rules.table import EventError, Table  # noqa: E402

N_AUCTIONS = 100_000
RUNS = 3
PROFILES = ("fsb-2007", "dbf-2017", "wbf-screens-2017", "ebu", "acbl")


def generate(rng: random.Random, board: int, profile: str) -> dict[str, Any]:
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
            events.append({"t": t, "seat": SEATS[(seat + 2) % 4], "alert": True})
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
    table = Table(profile, board)
    names = ["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]
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
                e["call"] = rng.choice(names[:12])
        elif rng.random() < 0.06:
            e = {"t": t, "seat": rng.choice(SEATS), "call": rng.choice(names[:15])}
        else:
            legal = st["legal_calls"]
            e = {"t": t, "seat": st["next"], "call": "P" if rng.random() < 0.5 else rng.choice(legal[:8])}
        try:
            table.apply(e)
        except EventError:
            continue
        events.append(e)
    return {"profile": profile, "board": board, "events": events}


def main() -> None:
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

    # What the tablet waits for: one Table.apply (the event plus the full state dict it returns).
    lat: list[float] = []
    for log in corpus[:5000]:
        table = Table(log["profile"], log["board"])
        for e in log["events"]:
            t0 = time.perf_counter()
            table.apply(e)
            lat.append(time.perf_counter() - t0)
    lat.sort()
    pct = {p: lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1e6 for p in (50, 90, 99, 99.9)}
    print(f"Table.apply latency incl. state dict ({len(lat)} events): p50 {pct[50]:.0f} us, p90 {pct[90]:.0f} us, "
          f"p99 {pct[99]:.0f} us, p99.9 {pct[99.9]:.0f} us, max {lat[-1] * 1e6:.0f} us")


if __name__ == "__main__":
    main()
