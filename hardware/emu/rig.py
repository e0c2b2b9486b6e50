"""A table of boxes on emulated RP2040s (hardware/emu) behind the tablet's real LinkMaster,
controller, runner and laws engine. The runner turns in a thread; `paused()` stops it so that a
test can act between a box's frame and the tablet's acknowledgement (the LinkMaster acks a box
event only after the runner has journalled it: ack_on_commit)."""
from __future__ import annotations

import contextlib
import pathlib
import time
from typing import Any

from hardware.emu.harness import EmuTable
from tablet_app.controller import Controller
from tablet_app.demo import Loop
from tablet_app.link import LinkMaster
from tablet_app.runner import TableRunner

SESSION = {"event": "club-2026-11-24", "section": "A", "table": 1, "round": 1, "boards": [1, 2],
           "ns_pair": 1, "ew_pair": 2, "profile": "dbf-2017", "td_pin": "2468", "tables": 3}


class _SomeSeats:
    """The LinkMaster for a table where only some seats have a box (lean tests): views for the
    other seats go nowhere."""

    def __init__(self, master: LinkMaster, seats: str):
        self._m = master
        self._seats = seats

    def __getattr__(self, name: str) -> Any:
        return getattr(self._m, name)

    def send_state(self, seat: str, view: dict) -> None:
        if seat in self._seats:
            self._m.send_state(seat, view)

    def connected(self, seat: str) -> bool:
        return seat in self._seats and self._m.connected(seat)

    def state_acked(self, seat: str) -> bool:
        return seat not in self._seats or self._m.state_acked(seat)


class EmuRig:
    def __init__(self, workdir: pathlib.Path, seats: str = "N", bus: bool = False,
                 session: dict[str, Any] | None = None, frames: bool = False,
                 extra_config: dict | None = None):
        self.emu = EmuTable(workdir / "emu", seats, bus=bus, frames=frames, extra_config=extra_config)
        self.master = LinkMaster(self.emu.ports, ack_on_commit=True)
        self.ctl = Controller(workdir / "journal.db")
        self.ctl.setup({**SESSION, **(session or {})})
        link = self.master if len(seats) == 4 else _SomeSeats(self.master, seats)
        self.runner = TableRunner(self.ctl, link=link)
        self._loop = Loop(self.runner)  # the table loop in a thread, as the demo runs it
        self.lock = self._loop.lock

    @contextlib.contextmanager
    def paused(self):
        with self.lock:
            yield

    def calls(self) -> list[str]:
        with self.lock:
            return [c["call"] for c in self.ctl.estate.get("calls", [])]

    def wait_calls(self, want: list[str], timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self.calls() != want:
            if time.monotonic() > deadline:
                raise TimeoutError(f"tablet has {self.calls()}, want {want}")
            time.sleep(0.05)

    def close(self) -> None:
        self._loop.stop()
        self.master.close()
        self.ctl.close()
        self.emu.close()
