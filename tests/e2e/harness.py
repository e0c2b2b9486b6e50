"""A real table for end-to-end tests: four firmware boxes on MicroPython behind the simulated link
(hardware/sim), the LinkMaster over pyserial, and the tablet's own controller and runner.

The runner loop runs in a thread; the test thread takes `table.lock` around every direct
controller call (the TD console and result entry are the tablet's own screens, not boxes).
"""
from __future__ import annotations

import pathlib
import threading
import time
from typing import Any

from hardware.sim.boxes import Boxes
from hardware.sim.link import SimBus, SimLink
from hardware.sim.table import tokens
from shared_rules.types import SEATS
from tablet_app.controller import Controller
from tablet_app.link import LinkMaster
from tablet_app.runner import TableRunner

HANG_S = 60.0  # the waits' limit: it only ends a hang (a busy machine is slow, not wrong)


class Rig:
    """Link, boxes and LinkMaster: started once per module (starting MicroPython costs time)."""

    def __init__(self, workdir: pathlib.Path, bus: bool = False):
        self.link: SimBus | SimLink
        if bus:
            # RS-485: one shared half-duplex line, the boxes speak only when the tablet grants
            bus_line = self.link = SimBus(seed=5).start()
            self.boxes = Boxes(bus_line.box_ports, workdir, extra_args=["--bus"])
            ports = {s: bus_line.tablet_port for s in SEATS}
        else:
            link = self.link = SimLink().start()
            self.boxes = Boxes(link.box_ports, workdir, link=link)
            ports = link.tablet_ports
        self.boxes.start()
        self.master = LinkMaster(ports, ack_on_commit=True)

    def close(self) -> None:
        self.master.close()
        self.boxes.stop()
        self.link.close()


class E2ETable:
    def __init__(self, rig: Rig, db: pathlib.Path, session: dict[str, Any]):
        self.rig = rig
        self.boxes = rig.boxes
        self.lock = threading.RLock()
        # the controller's clock (the engine's event times, the stop wait the boxes get) can be
        # moved on (`advance`) where a test would otherwise sit through a wait in real time
        self.skew = 0.0
        self.ctl = Controller(db, clock=lambda: time.time() + self.skew)
        self.ctl.setup(session)
        self.runner = TableRunner(self.ctl, link=rig.master)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        for s in SEATS:
            self.boxes.wait_screen(s, lambda sc: f"Bd{session['boards'][0]} " in sc.text, timeout=HANG_S)

    def _loop(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                self.runner.step(0)
            time.sleep(0.005)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.ctl.close()

    # -- helpers -------------------------------------------------------------------------------
    def advance(self, seconds: float) -> None:
        """Move the table's clock on by `seconds` (the boxes count on their own clocks)."""
        with self.lock:
            self.skew += seconds

    def state(self) -> dict[str, Any]:
        with self.lock:
            return self.ctl.estate

    def ncalls(self) -> int:
        return len(self.state().get("calls", []))

    def wait(self, pred, timeout: float = HANG_S, what: str = "condition"):
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                if pred(self.ctl):
                    return
            if time.monotonic() > deadline:
                with self.lock:
                    raise TimeoutError(f"{what} not met in {timeout}s; phase {self.ctl.phase}, "
                                       f"calls {[c['call'] for c in self.ctl.estate.get('calls', [])]}, "
                                       f"log tail {self.ctl.log[-3:]}")
            time.sleep(0.01)

    def key(self, seat: str, call: str) -> None:
        """Key a call on a box without waiting for its turn (an irregularity may be the point)."""
        self.boxes.press(seat, tokens(call))

    def call(self, seat: str, call: str, timeout: float = HANG_S) -> None:
        """Wait until the box shows its turn with the auction up to date, key the call, wait until
        the tablet has journalled it."""
        n = self.ncalls()
        self.boxes.wait_screen(seat, lambda sc: sc.status == "YOUR TURN" and len(sc.calls) == n, timeout)
        with self.lock:
            before = self.ctl.journal.count()
        self.key(seat, call)
        self.wait(lambda c: c.journal.count() > before, timeout, f"{seat} {call} journalled")

    def auction(self, dealer: str, calls: list[str]) -> None:
        i = SEATS.index(dealer)
        for k, c in enumerate(calls):
            self.call(SEATS[(i + k) % 4], c)

    def all_boxes_show(self, calls: list[str], timeout: float = HANG_S) -> None:
        for s in SEATS:
            self.boxes.wait_screen(s, lambda sc: sc.plain_calls == calls, timeout)
