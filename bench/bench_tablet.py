"""The table tablet: app cold start to a usable auction screen, and the controller's cost per event.

- Cold start: wall time from starting `python -m tablet_app.app` (a fresh process: Python, Kivy,
  the window, the journal replay) to the first frame with the auction screen drawn, under Xvfb.
  Median and max of several starts.
- Real path: confirm key on a box -> every box showing the call, through the real Kivy app
  (woken by the link thread), controller, journal and engine, on the simulated link at 115200
  baud (its relay in its own process, as a tablet's UARTs are the kernel's) with four
  MicroPython unix-port boxes (bench/app_latency_child.py), p50 / p99 beside the
  wire floor (the call frame plus one STATE frame), at a player's pace (OK 300 ms after the call
  is chosen: the goal's figure) and under stress (20 ms: calls arrive while the app still draws
  the previous one). `python bench/bench_tablet.py --stages` runs
  only this, 200 calls, and adds where each call's time goes (bench/app_stages.py); further
  options go to bench/app_latency_child.py (--inproc-relay, --poll-watch, --gap=MS: the setups
  compared; --station: a station process and the tablet's outbox delivering to it meanwhile). Beside the figure: how many cores other processes kept busy during the run.
- Per event: one box call through `Controller.box_event` (engine, journal commit with fsync, as
  in production) plus `views()` for the four boxes, i.e. what the runner does per event.
  Median and p99 over many generated auctions; the journal-free part is shown separately.
- Journal commit mark (tablet_app/journal.py): what writing the mark adds to each commit (the
  commit with its fsync beside it) and what checking it adds to a restart's journal check.
"""
from __future__ import annotations

import json
import os
import pathlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, ".")

from bench import baseline  # noqa: E402
from shared_rules.types import SEATS  # noqa: E402
from tablet_app.controller import Controller  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIDS = [f"{lvl}{d}" for lvl in range(1, 8) for d in ("C", "D", "H", "S", "NT")]
SESSION = {"event": "bench", "section": "A", "table": 1, "round": 1, "ns_pair": 1, "ew_pair": 2,
           "profile": "dbf-2017", "policy": "record", "td_pin": "1234"}


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def legal_auction(rng: random.Random) -> list[str]:
    calls: list[str] = []
    level = -1
    while True:
        if len(calls) >= 4 and calls[-3:] == ["P"] * 3 and (level >= 0 or len(calls) == 4):
            return calls
        if level < len(BIDS) - 1 and rng.random() < 0.45:
            level = rng.randint(level + 1, min(len(BIDS) - 1, level + 4))
            calls.append(BIDS[level])
        else:
            calls.append("P")


def per_event(boards: int = 150) -> None:
    rng = random.Random(7)
    costs: list[float] = []
    views_only: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        clock = [1_795_339_000.0]
        ctl = Controller(pathlib.Path(tmp) / "j.db", clock=lambda: clock[0])
        ctl.setup({**SESSION, "boards": list(range(1, boards + 1))})
        for _ in range(boards):
            dealer = SEATS.index(ctl.estate["dealer"])
            for i, call in enumerate(legal_auction(rng)):
                clock[0] += rng.uniform(0.5, 8)
                seat = SEATS[(dealer + i) % 4]
                t0 = time.perf_counter()
                r = ctl.box_event(seat, "call", call=call)
                ctl.views()
                t1 = time.perf_counter()
                ctl.views()
                t2 = time.perf_counter()
                assert r["ok"], r
                costs.append(t1 - t0)
                views_only.append(t2 - t1)
            ctl.enter_result(None if ctl.estate["status"] == "passed_out" else 8)
            ctl.ew_confirm(True)
        ctl.close()
    print(f"controller per event (box call -> engine -> journal fsync -> 4 views), {len(costs)} events: "
          f"median {statistics.median(costs) * 1000:.2f} ms, p99 {pct(costs, 99) * 1000:.2f} ms")
    print(f"  of which views for 4 boxes: median {statistics.median(views_only) * 1000:.3f} ms, "
          f"p99 {pct(views_only, 99) * 1000:.3f} ms")


def journal_mark(n: int = 400, records: int = 3000) -> None:
    from tablet_app.journal import MARK_SUFFIX, Journal

    body = {"ev": {"t": 2.5, "seat": "N", "call": "1NT"}, "box": {"seq": 7, "ms": 123456}}
    with tempfile.TemporaryDirectory(dir=".") as tmp:  # the disk the tablet's journal is on
        j = Journal(pathlib.Path(tmp) / "j.db")
        commits, marks = [], []
        for _ in range(n):
            t0 = time.perf_counter()
            j.append("event", body)
            t1 = time.perf_counter()
            j._write_mark()
            marks.append(time.perf_counter() - t1)
            commits.append(t1 - t0)
        with j.transaction():
            for _ in range(records - n):
                j.append("event", body)
        opens: dict[bool, list[float]] = {True: [], False: []}
        mark = pathlib.Path(str(j.path) + MARK_SUFFIX)
        text = mark.read_bytes()
        j.close()
        for _ in range(7):
            for with_mark in (True, False):
                if with_mark:
                    mark.write_bytes(text)
                else:
                    mark.unlink()
                t0 = time.perf_counter()
                again = Journal(j.path)
                again.verified()
                opens[with_mark].append(time.perf_counter() - t0)
                again.close()
    print(f"journal commit (append with fsync), {n} commits: median {statistics.median(commits) * 1000:.2f} ms, "
          f"p99 {pct(commits, 99) * 1000:.2f} ms; the commit mark's write: median "
          f"{statistics.median(marks) * 1e6:.1f} us, p99 {pct(marks, 99) * 1e6:.1f} us "
          f"({statistics.median(marks) / statistics.median(commits) * 100:.2f} % of a commit)")
    print(f"journal open and check, {records} records: with its mark median {statistics.median(opens[True]) * 1000:.1f}"
          f" ms, without {statistics.median(opens[False]) * 1000:.1f} ms")


def start_xvfb() -> tuple[subprocess.Popen | None, str | None]:
    exe = shutil.which("Xvfb")
    if exe is None:
        return None, None
    r, w = os.pipe()
    proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    return proc, f":{number}" if number else None


def cold_start(runs: int = 5) -> None:
    xvfb, display = start_xvfb()
    if xvfb is None or display is None:
        print("app cold start: not measured (Xvfb is not installed)")
        return
    times: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            setup = pathlib.Path(tmp) / "setup.json"
            setup.write_text(json.dumps({**SESSION, "boards": [1, 2, 3]}))
            env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(pathlib.Path(tmp) / "kivy")}
            for i in range(runs + 1):  # the first start also writes Kivy's config: not counted
                t0 = time.perf_counter()
                p = subprocess.Popen([sys.executable, "-m", "tablet_app.app", "--db", f"{tmp}/j{i}.db",
                                      "--setup", str(setup), "--ports", "none", "--exit-when-ready"],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                line = p.stdout.readline() if p.stdout else ""
                dt = time.perf_counter() - t0  # to the first drawn frame, not to the exit
                p.wait(60)
                if "ready" not in line:
                    print("app cold start: the app did not come up")
                    return
                if i:
                    times.append(dt)
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    print(f"app cold start to a usable auction screen (Xvfb, software GL), {runs} starts: "
          f"median {statistics.median(times):.2f} s, max {max(times):.2f} s")


def busy_cpu_s() -> float | None:
    """CPU seconds the whole machine has spent busy since boot (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = v[3] + (v[4] if len(v) > 4 else 0)  # idle + iowait
    return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def children_cpu_s() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_app_path(n_calls: int = 200, stages: bool = False, setup: tuple[str, ...] = (),
                 root: pathlib.Path = ROOT) -> dict[str, Any]:
    """One run of bench/app_latency_child.py in the tree at `root` (today's, or the baseline's
    in build/ with today's driver copied in): its JSON, with `others`, the cores other processes
    kept busy meanwhile; {"error": ...} when it could not run."""
    busy0, ours0, t0 = busy_cpu_s(), children_cpu_s(), time.monotonic()
    xvfb, display = start_xvfb()
    if xvfb is None or display is None:
        return {"error": "Xvfb is not installed"}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(pathlib.Path(tmp) / "kivy")}
            p = subprocess.run([sys.executable, str(root / "bench" / "app_latency_child.py"), str(n_calls), tmp,
                                *(["--stages"] if stages else []), *setup],
                               cwd=root, env=env, capture_output=True, text=True, timeout=900)
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(10)
    # the bench's own processes (app, boxes, relay, Xvfb) have all been waited for: what else the
    # machine ran meanwhile took CPU from them (the bench needs about one of the two cores)
    busy1, wall = busy_cpu_s(), time.monotonic() - t0
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    res: dict[str, Any] = json.loads(lines[-1]) if lines else {"error": p.stderr[-500:]}
    if busy0 is not None and busy1 is not None:
        res["others"] = (busy1 - busy0 - (children_cpu_s() - ours0)) / wall
    return res


def app_path(n_calls: int = 200, stages: bool = False, setup: tuple[str, ...] = ()) -> None:
    """setup: the child's options for comparisons (--inproc-relay, --poll-watch, --gap=MS)."""
    res = run_app_path(n_calls, stages, setup)
    if "error" in res:
        print(f"real app path: not measured ({res['error']})")
        return
    others = res.get("others")
    lat, floor = res["lat"], res["floor"]
    gap = next((o.split("=", 1)[1] for o in setup if o.startswith("--gap=")), None)
    pace = (f"stress: OK {gap} ms after the call is chosen, while the app still draws the previous call"
            if gap is not None and float(gap) < 300 else
            f"a player's pace: OK {gap or 300} ms after the call is chosen")
    print(f"real app path, confirm key -> all 4 boxes show the call (Kivy app woken by the link thread, "
          f"journal fsync, engine; simulated link 115200 baud, MicroPython unix-port boxes; {pace}), "
          f"{len(lat)} calls: p50 {pct(lat, 50):.1f} ms, p99 {pct(lat, 99):.1f} ms, max {max(lat):.1f} ms"
          + (" (goal p99 <= 12 ms)" if "stress" not in pace else ""))
    print(f"  wire floor (call frame + STATE frame): mean {statistics.mean(floor):.2f} ms; "
          f"p50 / floor = {pct(lat, 50) / statistics.mean(floor):.1f}x, p99 / floor = {pct(lat, 99) / statistics.mean(floor):.1f}x")
    if res.get("relay_nice") is not None:
        print(f"  the simulated link's relay (the UARTs and their interrupt handler) ran at nice {res['relay_nice']}"
              + ("" if res["relay_nice"] < 0 else " (raising its priority was not permitted here)"))
    if others is not None:
        print(f"  other processes on this machine during the run: {max(0.0, others):.2f} of {os.cpu_count()} cores "
              f"busy (the figures above are for an otherwise idle machine only when this is near 0)")
    if "delivered" in res:
        print(f"  with a station: the outbox's own thread delivered {res['delivered']} items to a station process "
              f"meanwhile (--station)")
    for line in res.get("stages", []):
        print("  " + line)


def least_cost(runs: dict[str, list[dict[str, Any]]]) -> None:
    """Each event's least CPU time over the rounds, then its p50 and p99. The workload is the same
    in every round, so what stays is the event's own cost (a long auction, a collection of the
    garbage collector, which fall on the same events every time); what the other processes of a
    loaded machine add to a round (being descheduled, cold caches) falls on other events each
    time and goes. The figure above is what one round shows."""
    rounds = {name: [r for r in rs if r["call"].get("each")] for name, rs in runs.items()}
    if not all(len(rs) > 1 for rs in rounds.values()):
        return
    parts = []
    for what, words in (("call", "a call"), ("alert", "an alert taken"), ("refused_alert", "an alert refused")):
        least = {name: [min(xs) for xs in zip(*(r[what]["each"] for r in rs), strict=True)]
                 for name, rs in rounds.items()}
        p = {name: (pct(xs, 50), pct(xs, 99)) for name, xs in least.items()}
        parts.append(f"{words}: old p50 {p['old'][0]:.0f} us, p99 {p['old'][1]:.0f} us; new p50 {p['new'][0]:.0f} us, "
                     f"p99 {p['new'][1]:.0f} us; new/old p50 {p['new'][0] / p['old'][0]:.2f}, "
                     f"p99 {p['new'][1] / p['old'][1]:.2f}")
    print(f"  each event's least CPU time over the {len(rounds['new'])} rounds (what the machine's load adds to a "
          "round removed):\n    " + "\n    ".join(parts))


# What the baseline's tree needs for the real path, and today's driver scripts copied into it.
BASELINE_PATHS = ("tablet_app", "shared_rules", "protocol", "firmware", "hardware", "bench")
DRIVER = ("app_latency_child.py", "screen_watcher.py", "app_stages.py", "tablet_workload.py")


def old_beside_new(rounds: int = 3) -> None:
    """The tablet before the structure work (bench/baseline.py) beside today's: the controller's
    CPU cost per call and per alert (bench/tablet_workload.py, `rounds` interleaved processes
    each: the medians of the rounds' p50 and p99, then each event's least cost over the rounds),
    then the real path at a player's pace, old then new (p99 and the ratio new/old)."""
    old_root = baseline.extract("tablet", BASELINE_PATHS, "tablet_app/controller.py", DRIVER)
    if old_root is None:
        return
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for _ in range(rounds):
        for name, root in (("old", old_root), ("new", ROOT)):
            out = subprocess.run([sys.executable, str(ROOT / "bench" / "tablet_workload.py"), str(root)],
                                 cwd=ROOT, capture_output=True, text=True, check=True, timeout=600).stdout
            runs[name].append(json.loads(out))

    def med(name: str, what: str, p: str) -> float:
        return statistics.median(r[what][p] for r in runs[name])

    print(f"old ({baseline.BASELINE}, before the structure work) beside new, the controller per box event "
          f"(tablet_workload.py: fsb-2007, Controller.box_event, CPU time, journal on a RAM disk; medians of "
          f"{rounds} interleaved processes):")
    n = runs["new"][0]
    for what, words in (("call", "a call"), ("alert", "an alert taken (partner's, FSB L115B)"),
                        ("refused_alert", "an alert refused (the bidder's own, FSB L115B)")):
        old, new = med("old", what, "p50"), med("new", what, "p50")
        print(f"  {words}, {n[what]['n']} events: old p50 {old:.0f} us (p99 {med('old', what, 'p99'):.0f}), "
              f"new p50 {new:.0f} us (p99 {med('new', what, 'p99'):.0f}); new/old {new / old:.2f}")
    least_cost(runs)
    res = {name: run_app_path(root=root) for name, root in (("old", old_root), ("new", ROOT))}
    if any("error" in r for r in res.values()):
        print("real app path, old beside new: not measured (" +
              "; ".join(f"{k}: {r['error']}" for k, r in res.items() if "error" in r) + ")")
        return
    p99 = {k: pct(r["lat"], 99) for k, r in res.items()}
    p50 = {k: pct(r["lat"], 50) for k, r in res.items()}
    busy = ", ".join(f"{k} {r['others']:.2f}" for k, r in res.items() if r.get("others") is not None)
    print(f"real app path at a player's pace, the same driver on each tree ({len(res['new']['lat'])} calls, "
          f"old then new): old p50 {p50['old']:.1f} ms, p99 {p99['old']:.1f} ms; new p50 {p50['new']:.1f} ms, "
          f"p99 {p99['new']:.1f} ms; p99 new/old {p99['new'] / p99['old']:.2f}"
          + (f" (other processes kept {busy} of {os.cpu_count()} cores busy)" if busy else ""))


if __name__ == "__main__":
    if "--stages" in sys.argv[1:]:
        app_path(stages=True, setup=tuple(a for a in sys.argv[1:] if a != "--stages"))
        raise SystemExit(0)
    per_event()
    journal_mark()
    old_beside_new()
    app_path()
    app_path(setup=("--gap=20",))
    cold_start()
