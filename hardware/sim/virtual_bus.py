"""An RS-485 line in virtual time: the tablet's real LinkMaster as bus master and the protocol's
own box endpoints (protocol/session.py BoxEndpoint, bus=True, the state machine the firmware
runs), with every byte's wire time, each box's turnaround and the USB bridge's latency timer,
on a clock that moves only when the master has settled (LinkMaster.settled). No thread's
wake-up decides anything: the same inputs give the same line, on a loaded machine or not, so a
test can assert the grant discipline (SPEC.md section 1) and that nobody talks over anybody.

    bus = VirtualBus(bridge_ms=16.0)
    bus.run_until(2.0)              # two seconds of line time
    bus.collisions, bus.frames()    # [(start s, end s, who, payload)], in line order
"""
from __future__ import annotations

import heapq
import itertools
import os
import time
from dataclasses import dataclass, field

from protocol.frame_tools import payloads
from protocol.session import BoxEndpoint
from tablet_app.link import BoxEvent, LinkMaster
from tablet_app.link.latency import Latency

SEATS = "NESW"
BAUD = 115200
BYTE_S = 10 / BAUD
HANG_S = 60.0  # a guard against a master that never settles, never a timing
T0 = 1.0       # the clock's start (line times are given from it)


class ManualClock:
    """The LinkMaster's clock, moved by the bus only."""

    sleep = staticmethod(time.sleep)

    def __init__(self) -> None:
        self.t = T0

    def monotonic(self) -> float:
        return self.t

    def ticks_ms(self) -> int:
        return int(self.t * 1000)


class _Port:
    """The master's end of the line: reads come from a pipe the bridge fills, writes go on the
    line at the clock's time."""

    def __init__(self, bus: VirtualBus, latency: Latency):
        self._bus = bus
        self._r, self.w = os.pipe()
        os.set_blocking(self._r, False)
        self.latency = latency

    def fileno(self) -> int:
        return self._r

    def write(self, data: bytes) -> int:
        self._bus.tablet_wrote(bytes(data))
        return len(data)

    def close(self) -> None:
        for fd in (self._r, self.w):
            try:
                os.close(fd)
            except OSError:
                pass


@dataclass(order=True)
class _Event:
    t: float
    k: int
    what: str = field(compare=False)
    data: object = field(compare=False, default=None)


class VirtualBus:
    def __init__(self, seats: str = SEATS, bridge_ms: float = 1.0, turnaround_ms: float = 1.0,
                 silent: str = ""):
        """bridge_ms: the USB bridge's latency timer (bytes from the boxes reach the master at
        its next tick); turnaround_ms: how long after a grant's last byte a box starts its
        reply (SPEC.md section 1 allows 5); silent: seats whose box is absent."""
        self.clock = ManualClock()
        self.bridge_s = bridge_ms / 1000
        self.turnaround_s = turnaround_ms / 1000
        self.boxes = {s: BoxEndpoint(s, bus=True, now=self.clock.ticks_ms()) for s in seats if s not in silent}
        self.line: list[tuple[float, float, str, bytes]] = []  # (start, end, who, bytes)
        self.collisions: list[tuple[float, str, str]] = []
        self._q: list[_Event] = []
        self._n = itertools.count()
        self._free = 0.0  # the line's last transmission ends
        self._owner = ""
        self._bridge: list[int] = []
        self.port = _Port(self, Latency("virtual", int(bridge_ms), "the virtual bus's bridge", bridge_ms <= 1))
        self.events: list[tuple[float, BoxEvent]] = []  # (line time, event) as the master gave them
        self.master = LinkMaster({s: "virtual" for s in SEATS}, clock=self.clock,
                                 open_port=lambda path, baud: self.port)

    def on_events(self, events: list[BoxEvent]) -> None:
        """The application's answer to the events the master delivers (none: a test sets it)."""

    # -- the line ----------------------------------------------------------------------------
    def _transmit(self, who: str, data: bytes, start: float) -> float:
        """`who` drives the line from `start` (after its own bytes still going out); anyone
        else's bytes on it then make a collision."""
        if who == self._owner:
            start = max(start, self._free)
        elif start < self._free:
            self.collisions.append((start - T0, who, self._owner))
        end = start + len(data) * BYTE_S
        self.line.append((start, end, who, data))
        if end > self._free:
            self._free, self._owner = end, who
        return end

    def tablet_wrote(self, data: bytes) -> None:
        end = self._transmit("tablet", data, self.clock.t)
        self._at(end, "box_rx", data)

    def _at(self, t: float, what: str, data: object = None) -> None:
        heapq.heappush(self._q, _Event(t, next(self._n), what, data))

    def _event(self, ev: _Event) -> None:
        ms = int(ev.t * 1000)
        if ev.what == "box_rx":
            for s, box in self.boxes.items():
                box.receive(ev.data, ms)
                if box.granted:
                    self._at(ev.t + self.turnaround_s, "box_tx", s)
        elif ev.what == "box_tx":
            f = self.boxes[str(ev.data)].output(ms)
            if f is not None:
                end = self._transmit(str(ev.data), bytes(f), ev.t)
                self._at(end, "bridge", bytes(f))
        elif ev.what == "bridge":  # the bytes wait for the latency timer's next tick
            self._bridge += list(ev.data)  # type: ignore[call-overload]
            tick = (int(ev.t / self.bridge_s) + 1) * self.bridge_s
            self._at(tick, "hand")
        elif ev.what == "hand" and self._bridge:
            os.write(self.port.w, bytes(self._bridge))
            self._bridge = []

    # -- time --------------------------------------------------------------------------------
    def settle(self) -> float:
        """Wait until the master has done all it does at the clock's time (the application
        taking the events it delivers: `on_events`): when it acts next."""
        deadline = time.monotonic() + HANG_S
        while True:
            evs = self.master.poll()
            if evs:
                self.events += [(self.clock.t - T0, e) for e in evs]
                self.on_events(evs)
                continue
            due = self.master.settled()
            if due is not None:
                return due
            if time.monotonic() > deadline:
                raise TimeoutError(f"the master did not settle at {self.clock.t:.6f} s")
            time.sleep(0.0002)

    def run_until(self, t_end: float) -> None:
        """Run the line for `t_end` seconds of its time from the start."""
        t_end += T0
        while self.clock.t < t_end:
            due = self.settle()
            nxt = self._q[0].t if self._q else float("inf")
            if nxt <= due:
                self.clock.t = max(self.clock.t, nxt)
                while self._q and self._q[0].t <= self.clock.t:
                    self._event(heapq.heappop(self._q))
            else:
                self.clock.t = min(due, t_end)
            self.master.wake()

    def frames(self) -> list[tuple[float, float, str, bytes]]:
        """Each whole frame on the line: (start s, end s, who, payload)."""
        out = []
        for start, end, who, data in self.line:
            for p in payloads(data):
                out.append((start - T0, end - T0, who, p))
        return out

    def close(self) -> None:
        self.master.close()
