"""Where the tablet's CPU goes on the emulated point-to-point bench (bench/box_chip.py on_chip),
for a turn that grows through a run or with the machine's state:

    python bench/box_chip_profile.py [--calls 200] [--top 12]

One run of `on_chip` as bench_box.py runs it (the same GIL switch interval), with a sampler
thread outside the rig's threads. Every millisecond it reads the CPU clock of each of the
tablet's threads (the ones the one clock counts: the link's and the table loop's) and charges the
CPU each used since the last look to the Python stack that thread is in now: a thread that waits
(in select, on a condition) is charged nothing, one that computes or spins is charged its time.
A burst shorter than the look's interval is charged where the thread is at the next look (most
often its wait: the table loop's `master.wait`, the link's select), so the charge names a place
that computes or spins for longer than a millisecond, and counts the rest as the loop's wake-ups.
It also counts the garbage collector's passes in those threads. The charges are printed for the
first third of the run and for the last, by the innermost frames of the project, so that work
that grows with the boards played, or that shows only on a quiet machine, is named by its place.
"""
from __future__ import annotations

import argparse
import collections
import gc
import pathlib
import sys
import tempfile
import threading
import time
from types import FrameType

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.box_chip import load, on_chip  # noqa: E402

TABLET = ("linkmaster", "table-loop")  # the threads the one clock counts (hardware/emu/rig.py)
TICK_S = 0.001


def _where(f: FrameType | None, depth: int = 3) -> str:
    """The innermost `depth` frames of the repository's own code (the standard library's left
    out: a wait in threading.py is charged to the caller that waits)."""
    out: list[str] = []
    while f is not None and len(out) < depth:
        name = f.f_code.co_filename
        if "/lib/python" not in name:
            here = name.rsplit("/", 2)
            out.append(f"{'/'.join(here[-2:])}:{f.f_code.co_name}:{f.f_lineno}")
        f = f.f_back
    return " < ".join(out) or "(outside the repository)"


class Sampler:
    """Charges each tablet thread's CPU to the stack it is in (see the module's docstring)."""

    def __init__(self) -> None:
        self.charged: list[tuple[float, str, str, int]] = []  # (wall, thread, where, CPU ns)
        self.gc_ns: collections.Counter[str] = collections.Counter()
        self.gc_passes: collections.Counter[str] = collections.Counter()
        self._gc_t0: dict[int, int] = {}
        self._stop = threading.Event()
        self._last: dict[int, int] = {}
        self._thread = threading.Thread(target=self._run, name="profile-sampler", daemon=True)

    def start(self) -> None:
        gc.callbacks.append(self._gc)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        gc.callbacks.remove(self._gc)

    def _gc(self, phase: str, info: dict) -> None:
        t = threading.current_thread()
        if t.name not in TABLET:
            return
        if phase == "start":
            self._gc_t0[t.ident or 0] = time.thread_time_ns()
        else:
            self.gc_ns[t.name] += time.thread_time_ns() - self._gc_t0.pop(t.ident or 0, time.thread_time_ns())
            self.gc_passes[t.name] += 1

    def _run(self) -> None:
        while not self._stop.wait(TICK_S):
            frames = sys._current_frames()
            for t in threading.enumerate():
                if t.name not in TABLET or t.ident is None:
                    continue
                try:
                    cpu = time.clock_gettime_ns(time.pthread_getcpuclockid(t.ident))
                except OSError:
                    continue
                before = self._last.get(t.ident)
                self._last[t.ident] = cpu
                if before is not None and cpu > before:
                    self.charged.append((time.monotonic(), t.name, _where(frames.get(t.ident)), cpu - before))


def report(s: Sampler, top: int) -> None:
    if not s.charged:
        print("nothing charged")
        return
    t0, t1 = s.charged[0][0], s.charged[-1][0]
    third = (t1 - t0) / 3
    for label, lo, hi in (("first third", t0, t0 + third), ("last third", t1 - third, t1)):
        part = [c for c in s.charged if lo <= c[0] <= hi]
        total = sum(c[3] for c in part)
        print(f"{label} of the run ({hi - lo:.0f} s wall): the tablet's threads used {total / 1e6:.0f} ms of CPU")
        by: collections.Counter[tuple[str, str]] = collections.Counter()
        for _, name, where, ns in part:
            by[(name, where)] += ns
        for (name, where), ns in by.most_common(top):
            print(f"  {ns / 1e6:8.1f} ms {100 * ns / max(total, 1):5.1f} %  {name}: {where}")
    for name in TABLET:
        print(f"garbage collector in {name}: {s.gc_passes[name]} passes, {s.gc_ns[name] / 1e6:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--top", type=int, default=12)
    a = ap.parse_args()
    sys.setswitchinterval(0.0005)  # as bench_box.py runs the chip benches
    s = Sampler()
    s.start()
    with tempfile.TemporaryDirectory(prefix="box_chip_profile_") as tmp:
        r = on_chip(pathlib.Path(tmp) / "chip", a.calls, 1.0)
    s.stop()
    if r is None or not r.get("n"):
        print("not run:", (r or {}).get("failure", "the emulator is missing"))
        return
    print(f"{r['n']} calls, {r['boards']} boards, load {r['load0']:.1f}-{load():.1f}: the tablet's turn on the "
          f"chips' clock p50 {r['tablet_p50']:.2f}, p99 {r['tablet_p99']:.2f} ms; OK key down -> shown "
          f"p50 {r['p50']:.1f}, p99 {r['p99']:.1f} ms")
    for n, (first, last) in r.get("turn_threads", {}).items():
        print(f"  the turn's {n}: {first:.2f} -> {last:.2f} ms (p50, first quarter -> last quarter)")
    report(s, a.top)


if __name__ == "__main__":
    main()
