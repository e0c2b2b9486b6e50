"""One clock for the emulated chips and the real tablet (EmuTable(tablet=...), bench/box_chip.py).

The chips run many times slower than real time, and the tablet's threads wake when the machine
lets them. For the tablet's timing on the chips' clock to be the tablet's own, and not the
harness's or the machine's, the two take turns:

- **The chips stand while the tablet works.** They stop (emu.js) when the USB bridge hands the
  tablet bytes, when they reach the time the tablet said it would next act by itself (its
  reply window closing, a grant, a retransmit or heartbeat: `LinkMaster.settled()`), and when a
  driver asks (`pinned()`: the bench keys another seat's call into the controller, starts the
  next board).
- **The tablet's clock counts only its own work.** During a stop at chip time S it reads
  max(S, where it was) plus the CPU time its threads (the link thread, the table loop) have
  used since the stop began: the laws engine, the journal's statements, the views, the link's
  decisions, whatever the machine's load, and not the time its threads waited for a core or for
  the GIL (nor the journal's fsync: waiting for the disk is no CPU time; bench_tablet measures
  the tablet's real path on the wall clock). So its threads take no turn on a timer of the
  machine's, whose CPU would count once per few ms of however long the machine made a stop
  last (hardware/emu/rig.py: the table loop takes a turn for an event, the link waits with no
  timeout and is woken by its bytes or by the stop at its due time).
- **Every byte the tablet writes is stamped with its clock at the write** (`EmuPort`: the
  LinkMaster's port) and enters the line at that chip time: its decision time plus its compute
  time, never the time a harness thread happened to read it.
- **The stop ends when the tablet has settled**: it has read what it was handed, its link
  thread waits in select with nothing due at its clock's time, the table loop is out of its
  step and no driver holds the chips. Its clock then stands at that value until the next stop,
  and the chips run on to the time it will next act, at most.

So the tablet never acts while the chips run (every write lands at its own stamp: `late` counts
the ones that did not, which only a wall-clock timer of the application could cause), and a
bus master that keeps the protocol's timing keeps it on the line.
"""
from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

# the longest the chips wait for the tablet to settle: a guard against a hang, never a timing
HOLD_MAX_S = 60.0
POLL_S = 0.0003  # how often a stop looks whether the tablet has settled (wall)


class Tablet(Protocol):
    """What the clock needs of the tablet side (hardware/emu/rig.py EmuRig)."""

    def settled(self) -> float | None:
        """None while the tablet has work in hand; else the time (its clock, seconds) at which
        it will next act by itself (math.inf: never)."""

    def threads(self) -> list[threading.Thread]:
        """The threads whose CPU time is the tablet's time."""

    def wake(self) -> None:
        """Make the tablet look at its clock (the chips stopped at its due time)."""


def _cpu_ns(t: threading.Thread) -> int | None:
    """The CPU time a live thread has used (its POSIX thread CPU clock)."""
    if t.ident is None or not t.is_alive():
        return None
    try:
        return time.clock_gettime_ns(time.pthread_getcpuclockid(t.ident))
    except OSError:
        return None


@dataclass
class Stop:
    """One stop of the chips: at chip time `at_us`, the tablet's clock starting from `base_us`."""
    at_us: int
    base_us: int
    why: str  # "start", "bridge" (bytes handed to the tablet), "due" (its own time), "driver"
    t0: float  # wall time it began
    ready: bool = True  # everything the chips handed over is on the tablet's lines
    # counted threads: ident -> (thread, its CPU at the start, the latest reading)
    threads: dict[int, tuple[threading.Thread, int, int]] = field(default_factory=dict)
    done_ns: int = 0  # CPU of the threads that stopped counting during it (a driver's)
    done_by: dict[str, int] = field(default_factory=dict)  # ... by thread name

    def count(self, t: threading.Thread) -> None:
        if t.ident is not None and t.ident not in self.threads:
            cpu = _cpu_ns(t)
            if cpu is not None:
                self.threads[t.ident] = (t, cpu, cpu)

    def uncount(self, t: threading.Thread) -> None:
        self.used_ns()
        got = self.threads.pop(t.ident or 0, None)
        if got is not None:
            self.done_ns += got[2] - got[1]
            self.done_by[t.name] = self.done_by.get(t.name, 0) + got[2] - got[1]

    def used_ns(self) -> int:
        """CPU the counted threads used since the stop began (a thread that ended counts what
        it had used when last read)."""
        n = self.done_ns
        for ident, (t, cpu0, last) in self.threads.items():
            now = _cpu_ns(t)
            if now is not None and now > last:
                last = now
                self.threads[ident] = (t, cpu0, last)
            n += last - cpu0
        return n

    def by_thread_us(self) -> dict[str, int]:
        """The CPU each counted thread used in the stop so far (us, by thread name), for a bench
        that asks which of the tablet's threads its time went to."""
        self.used_ns()
        out = {name: ns // 1000 for name, ns in self.done_by.items()}
        for t, cpu0, last in self.threads.values():
            out[t.name] = out.get(t.name, 0) + (last - cpu0) // 1000
        return out


@dataclass(frozen=True)
class StopRecord:
    at_us: int      # chip time the chips stood at
    why: str
    wall_s: float   # how long they stood (wall)
    used_us: int    # the tablet's time it took (its clock: from max(at, where it was) to the end)
    ahead_us: int = 0  # how far the tablet's clock stood ahead of the chips when the stop began
    by_thread: dict[str, int] = field(default_factory=dict)  # used_us by thread name (CPU, us)


class OneClock:
    """The tablet's clock and the chips' stops (see the module's docstring). `send` writes a
    line to emu.js; `unread()` counts the bytes handed to the tablet it has not read yet."""

    def __init__(self, send: Callable[[str], None], unread: Callable[[], int]):
        self._send = send
        self._unread = unread
        self._tablet: Tablet | None = None
        self._lock = threading.Lock()     # the clock's state
        self._pin_lock = threading.Lock()  # a release against a driver's pin: one at a time
        self._cv = threading.Condition()
        self._stop: Stop | None = None
        self._frozen_us = 0               # the tablet's clock while the chips run
        self._freeze: int | None = None   # its clock held while the release is decided
        self._pins = 0
        self._pin_seq = 0
        self._pins_stood: set[int] = set()
        self._closed = False
        self.stops: list[StopRecord] = []
        self.forced = 0   # stops ended by HOLD_MAX_S (the tablet never settled)
        self.late: list[tuple[int, int]] = []  # (chip us, us late) of writes the chips had passed
        self.writes = 0
        threading.Thread(target=self._run, name="one-clock", daemon=True).start()

    # -- the tablet side ---------------------------------------------------------------------
    def attach(self, tablet: Tablet | None) -> None:
        """The tablet whose clock this is (None: detached, before its threads end)."""
        with self._lock:
            self._tablet = tablet
            if self._stop is not None and tablet is not None:
                for t in tablet.threads():
                    self._stop.count(t)

    def now_us(self) -> int:
        """The tablet's time on the chips' clock."""
        with self._lock:
            if self._freeze is not None:
                return self._freeze
            st = self._stop
            if st is None:
                return self._frozen_us
            if self._tablet is not None:
                for t in self._tablet.threads():
                    st.count(t)
            return st.base_us + st.used_ns() // 1000

    def standing(self) -> bool:
        return self._stop is not None

    # -- emu.js's side -----------------------------------------------------------------------
    def stopped_at(self, us: int, why: str, pin: int = 0, ready: bool = True) -> None:
        """The chips stand at chip time `us` (a Y or H line); `pin`: the driver's request it
        answers. ready=False: bytes handed over are still on their way to the tablet's lines
        (a Y line; emu.js's `H us bridge` after the last of them makes the stop ready)."""
        wake = None
        with self._lock:
            if self._stop is not None:
                self._stop.ready = self._stop.ready or ready
            else:
                self._stop = Stop(us, max(us, self._frozen_us), why, time.monotonic(), ready=ready)
                if self._tablet is not None:
                    for t in self._tablet.threads():
                        self._stop.count(t)
                    if why == "due":
                        wake = self._tablet.wake
        with self._cv:
            if pin:
                self._pins_stood.add(pin)
            self._cv.notify_all()
        if wake is not None:
            wake()

    def late_write(self, us: int, late_us: int) -> None:
        self.late.append((us, late_us))

    # -- a driver that acts on the tablet while the chips stand ---------------------------------
    @contextlib.contextmanager
    def pinned(self, timeout: float = 120.0) -> Iterator[None]:
        """The chips stand (a stop of its own, or the one in progress, held on) until the block
        ends; the calling thread's CPU time counts as the tablet's meanwhile."""
        with self._pin_lock:
            self._pins += 1
            self._pin_seq += 1
            k = self._pin_seq
            self._send(f"B {k}")
        me = threading.current_thread()
        try:
            with self._cv:
                deadline = time.monotonic() + timeout
                while k not in self._pins_stood:
                    left = deadline - time.monotonic()
                    if left <= 0 or self._closed:
                        raise TimeoutError("the emulated chips did not stop")
                    self._cv.wait(min(left, 0.2))
                self._pins_stood.discard(k)
            with self._lock:
                if self._stop is not None:
                    self._stop.count(me)
            yield
        finally:
            with self._lock:
                if self._stop is not None:
                    self._stop.uncount(me)
            with self._pin_lock:
                self._pins -= 1
            with self._cv:
                self._cv.notify_all()

    # -- ending stops ------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._closed:
            with self._cv:
                while self._stop is None and not self._closed:
                    self._cv.wait(0.2)
            st = self._stop
            if st is None:
                continue
            while not self._try_release(st):
                if time.monotonic() - st.t0 > HOLD_MAX_S:
                    self.forced += 1
                    self._release(st, None)
                    break
                with self._cv:
                    self._cv.wait(POLL_S)

    def _try_release(self, st: Stop) -> bool:
        with self._pin_lock:
            if self._pins or self._closed or not st.ready:
                return self._closed
            with self._lock:
                if self._tablet is None:
                    return False
                tablet = self._tablet
                self._freeze = now = st.base_us + st.used_ns() // 1000
            try:
                due = tablet.settled() if self._unread() == 0 else None
            except Exception:  # the tablet's state read mid-change: not settled yet
                due = None
            if due is None or due * 1e6 <= now:
                with self._lock:
                    self._freeze = None
                return False
            self._release(st, due)
            return True

    def _release(self, st: Stop, due: float | None) -> None:
        """The chips go on (to the tablet's due time, if it has one); its clock stands."""
        with self._lock:
            end = self._freeze if self._freeze is not None else st.base_us + st.used_ns() // 1000
            self._frozen_us = end
            self._freeze = None
            self._stop = None
            by_thread = st.by_thread_us()
        self.stops.append(StopRecord(st.at_us, st.why, time.monotonic() - st.t0, end - st.base_us,
                                     st.base_us - st.at_us, by_thread))
        if due is None or not math.isfinite(due):
            self._send("A")
        else:
            self._send(f"A {math.ceil(due * 1e6)}")

    def close(self) -> None:
        self._closed = True
        with self._cv:
            self._cv.notify_all()


class EmuPort:
    """The tablet's end of an emulated line in lockstep, as LinkMaster opens it
    (`LinkMaster(open_port=table.open_port)`): the tablet reads the bytes the line hands it from
    `fileno()` (a pipe's read end) as from a serial port; each write goes to the emulator with
    the tablet's clock at that moment (never where a harness thread would read it, whose wake-up
    would decide where it lands)."""

    def __init__(self, path: str, fd: int, write: Callable[[bytes], None],
                 closed: Callable[[], None]):
        self.path = path
        self._fd = fd
        self._write = write
        self._closed = closed
        self.latency: object = None  # the bridge's latency timer, as the rig models it

    def fileno(self) -> int:
        return self._fd

    def write(self, data: bytes) -> int:
        if self._fd < 0:
            raise OSError("port closed")
        self._write(bytes(data))
        return len(data)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
            self._closed()
