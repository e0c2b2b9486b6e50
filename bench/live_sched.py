"""Where the 1,000 spectators' cost to the station's ingest comes from, on one station in one run
(`python bench/bench_live.py --parts sched`; Linux, as root: a process is switched back from
SCHED_IDLE). Runs several minutes and prints figures, never pass/fail.

On a loaded machine the other load moves the tablets' posts by more, from one 30 s run to the
next, than 1,000 spectators do, so run-to-run ratios cannot tell their cost. Here one station
serves 100 tables at a player's pace and 1,000 spectators throughout, and every `WINDOW_S` the
scheduling of the spectators' client processes and of the live feed's process is switched, in
rotation (the floor, a warm-up, the others shuffled); each post counts for the state it began
in (not within `SETTLE_S` of a switch), so every state sees the same machine, interleaved. The
states:

- floor: the spectators' processes and the live feed's process stopped (SIGSTOP): what the
  station costs itself. The station's writer then waits on its pipe; the tablets never do
  (tests/station/test_live_fanout.py). A warm-up state after it (the live feed's process
  catching up) is not counted.
- as run: both at nice 10, as `bench live` runs the crowd and the station starts its child;
- clients idle: the spectators' processes idle-scheduled (SCHED_IDLE: they stand for phones on
  other computers), the live feed's process at nice 10;
- both idle: the live feed's process idle-scheduled too.

For each: the tablets' posts p50 / p90 / p99, how long the station's threads waited for a core
per post (/proc/PID/task/*/schedstat), and the 4 timed spectators' call-to-screen p50 / p99.
"""
from __future__ import annotations

import bisect
import contextlib
import os
import pathlib
import random
import signal
import tempfile
import threading
import time
from typing import Any

WINDOW_S = 2.0
SETTLE_S = 0.1      # posts begun this soon after a switch count for no state
STATES = ("floor", "warm-up", "as run", "clients idle", "both idle")


def _threads(pid: int) -> list[int]:
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def _schedule(pid: int, idle: bool) -> None:
    """Every thread of `pid` idle-scheduled, or back to the ordinary policy (its nice kept)."""
    policy = os.SCHED_IDLE if idle else os.SCHED_OTHER
    for tid in _threads(pid):
        try:
            os.sched_setscheduler(tid, policy, os.sched_param(0))
        except ProcessLookupError:
            continue  # a thread that has just ended


def _waited_s(pid: int) -> float:
    total = 0
    for tid in _threads(pid):
        try:
            total += int(pathlib.Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def available() -> str | None:
    """Why this part cannot run here, or None."""
    if not hasattr(os, "SCHED_IDLE") or not pathlib.Path("/proc/self/schedstat").exists():
        return "it needs Linux (SCHED_IDLE, /proc/PID/schedstat)"
    if os.geteuid() != 0:
        return "it needs root (a process is switched back from SCHED_IDLE)"
    return None


def interleaved(bl: Any, seconds: float = 240.0, crowd_size: int = 1000) -> None:
    """`bl` is bench_live (its Station, crowd, tablets and spectators); prints one line a state."""
    with tempfile.TemporaryDirectory() as tmp:
        st = bl.Station(pathlib.Path(tmp), 100)
        try:
            _measure(bl, st, seconds, crowd_size)
        finally:
            st.stop()


def _measure(bl: Any, st: Any, seconds: float, crowd_size: int) -> None:
    crowds = bl.start_crowd(st.live_port, crowd_size)
    try:
        fan = st.fanout_pid()
        pids = [c.pid for c in crowds] + ([fan] if fan else [])
        spectators = bl.Spectators(st.live_port, 4)
        time.sleep(1.0)
        timeline: list[tuple[float, str]] = []
        waited: dict[str, float] = dict.fromkeys(STATES, 0.0)
        done = threading.Event()

        def switch(state: str) -> None:
            stopped = state == "floor"
            for pid in pids:
                os.kill(pid, signal.SIGSTOP if stopped else signal.SIGCONT)
            for c in crowds:
                _schedule(c.pid, state in ("clients idle", "both idle"))
            if fan:
                _schedule(fan, state == "both idle")

        def rotate() -> None:
            # Each cycle: the floor, its warm-up, then the others in a shuffled order (no state
            # always nearest the floor's catch-up)
            rng, cycle = random.Random(1), list[str]()
            while not done.is_set():
                if not cycle:
                    rest = list(STATES[2:])
                    rng.shuffle(rest)
                    cycle = [*STATES[:2], *rest]
                state = cycle.pop(0)
                switch(state)
                timeline.append((time.time(), state))
                w0 = _waited_s(st.proc.pid)
                done.wait(WINDOW_S)
                waited[state] += _waited_s(st.proc.pid) - w0

        took_s: list[float] = []
        try:
            rotator = threading.Thread(target=rotate, daemon=True)
            rotator.start()
            made = bl.paced(st, 100, seconds, took_s)  # (table, board, calls, began), in step with took_s
            done.set()
            rotator.join(WINDOW_S + 10)
        finally:
            done.set()
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
        bl.latencies(made, spectators)  # until the spectators have seen every call (or 30 s)
        with spectators.lock:
            seen = dict(spectators.seen)
        _report(bl, made, took_s, timeline, waited, seen, seconds, crowd_size)
    finally:
        for c in crowds:
            with contextlib.suppress(OSError):
                os.kill(c.pid, signal.SIGCONT)
        bl.end_crowd(crowds)


def _report(bl: Any, made: list[tuple[int, int, int, float]], took_s: list[float], timeline: list[tuple[float, str]],
            waited: dict[str, float], seen: dict[tuple[int, int, int], float], seconds: float, crowd_size: int) -> None:
    """One line a state: each post (and each call's arrival at the spectators) in the state it began in."""
    starts = [t for t, _ in timeline]

    def state_of(at: float, settle: float) -> str | None:
        k = bisect.bisect_right(starts, at) - 1
        if k < 0 or at - starts[k] < settle:
            return None
        return timeline[k][1]

    took: dict[str, list[float]] = {s: [] for s in STATES}
    counted: dict[str, int] = dict.fromkeys(STATES, 0)
    for (_, _, _, at), dt in zip(made, took_s, strict=True):
        s = state_of(at, 0.0)
        if s is not None:
            counted[s] += 1
        if state_of(at, SETTLE_S) is not None:
            took[s].append(dt)  # type: ignore[index]
    shown: dict[str, list[float]] = {s: [] for s in STATES}
    for t, b, n, at in made:
        s = state_of(at, 0.0)
        if s is not None and (t, b, n) in seen:
            shown[s].append(seen[(t, b, n)] - at)

    def ms(xs: list[float], p: float) -> str:
        return f"{bl.pct(xs, p) * 1000:.1f}"

    print(f"where the spectators' cost comes from: one station, 100 tables at a player's pace, {crowd_size} "
          f"spectators, the scheduling switched every {WINDOW_S:g} s in rotation (the rest shuffled) for {seconds:g} s (load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):", flush=True)
    for s in STATES:
        if s == "warm-up":
            continue
        print(f"  {s}: the tablets' posts ({len(took[s])}) p50 {ms(took[s], 50)} ms, p90 {ms(took[s], 90)} ms, "
              f"p99 {ms(took[s], 99)} ms; the station's threads waited "
              f"{waited[s] * 1000 / max(counted[s], 1):.2f} ms a post for a core" + (
                  "" if s == "floor" else f"; the spectators' call to screen p50 {ms(shown[s], 50)} ms, p99 "
                                          f"{ms(shown[s], 99)} ms"), flush=True)
