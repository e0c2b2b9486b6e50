"""A table of boxes on emulated RP2040s (hardware/emu) behind the tablet's real LinkMaster,
controller, runner and laws engine. The runner turns in a thread; `paused()` stops it so that a
test can act between a box's frame and the tablet's acknowledgement (the LinkMaster acks a box
event only after the runner has journalled it: ack_on_commit).

The emulated chips run slower than real time (four boxes: about 1/8 on this machine), so the
LinkMaster's timers (retransmit 40 ms, heartbeat, link loss, the bus's reply window) run on the
table's chip clock, not the wall's: a box then looks to the tablet exactly as fast as it is. On
the wall clock a retransmit every 40 ms would reach a box every 4 ms of its time, faster than it
can take a frame, and bury it (`LinkMaster(clock=ChipClock(emu))`). Only the link's clock is; the laws engine, the journal
and the runner keep the wall clock."""
from __future__ import annotations

import contextlib
import pathlib
import threading
import time
from collections.abc import Iterator
from typing import Any

from hardware.emu.harness import ChipBudget, EmuTable, Screen
from hardware.emu.lockstep import EmuPort
from hardware.sim.table import tokens
from tablet_app.controller import Controller
from tablet_app.link import LinkMaster
from tablet_app.link.latency import Latency
from tablet_app.link.master import TICK_S, open_serial
from tablet_app.runner import RunnerThread, TableRunner

SESSION = {"event": "club-2026-11-24", "section": "A", "table": 1, "round": 1, "boards": [1, 2],
           "ns_pair": 1, "ew_pair": 2, "profile": "dbf-2017", "td_pin": "2468", "tables": 3}


def round_shown(sc: Screen) -> list[str]:
    """The last calls as the box's display shows them, in time order (the newest last), suits
    as letters, marks (! for the STOP card, * alerted) taken off."""
    return [s.call for s in sc.slots]


def last_round(auction: list[str], dealer: str = "N") -> list[str]:
    """What round_shown should read for `auction`: its last four calls in time order (the
    layout of hardware/display.md), P for a pass. (`dealer` no longer matters: kept for the
    callers.)"""
    return ["P" if c in ("P", "Pass") else c for c in auction[-4:]]


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

    def send_states(self, views: dict[str, dict], commit: bool = False) -> None:
        self._m.send_states({s: v for s, v in views.items() if s in self._seats}, commit=commit)

    def connected(self, seat: str) -> bool:
        return seat in self._seats and self._m.connected(seat)

    def state_acked(self, seat: str) -> bool:
        return seat not in self._seats or self._m.state_acked(seat)


class ChipClock:
    """The LinkMaster's clock (`LinkMaster(clock=...)`) on the emulated table's chip time. In
    lockstep it stands while the link waits and the chips wake the link at its time (lockstep.py):
    the link looks at it on no timer of the machine's (`tick_s` None, WallClock)."""

    sleep = staticmethod(time.sleep)

    def __init__(self, emu: EmuTable):
        self._emu = emu
        self.tick_s: float | None = None if emu.one is not None else TICK_S

    def monotonic(self) -> float:
        return self._emu.tablet_us() / 1e6

    def ticks_ms(self) -> int:
        return self._emu.tablet_us() // 1000


class CountedSerial:
    """Not in lockstep: the tablet's pyserial port, each write told to the emulated table first
    (EmuTable.tablet_wrote), whose clock for the tablet then stands until the bytes are on the
    chips' wire."""

    def __init__(self, emu: EmuTable, path: str, baud: int):
        self._emu = emu
        self._ser = open_serial(path, baud)

    def write(self, data: bytes) -> int | None:
        self._emu.tablet_wrote(len(data))
        try:
            return self._ser.write(data)
        except Exception:
            self._emu.tablet_wrote(-len(data))  # not written: nothing on its way
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ser, name)


class _WokenLoop:
    """The table loop in a thread, woken by the link thread when an event arrives (as the app
    is: its Kivy clock is woken by the link), not on a 5 ms poll like the demo's RunnerThread.

    In lockstep the tablet's clock counts its threads' CPU time while the chips stand
    (lockstep.py), so the loop takes a turn only for an event (or one the journal could not take
    yet), never on a timer of the machine's: a turn with nothing to do (the views of four seats
    built and found unchanged, about a ms) every few ms of wall time would put the tablet's
    clock ahead of the chips by as much as the machine made the stop last, on a loaded machine
    past a reply window whose reply was still in the bridge. A driver's change is pushed by
    `EmuRig.acting`."""

    WAIT_S = 0.1  # only how soon stop() is seen; an event wakes the loop at once

    def __init__(self, runner: TableRunner, master: LinkMaster):
        self.runner = runner
        self.master = master
        self.lock = threading.RLock()
        self.held: list[Any] | None = None  # events taken and not journalled (EmuRig.holding)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.master.wait(self.WAIT_S) and not self.runner.retry:
                continue
            with self.lock:
                if self.held is not None:
                    self.held += self.master.poll()
                else:
                    self.runner.step(0)

    def stop(self) -> None:
        """Ends the loop after its turn and waits for it (as RunnerThread.stop: the caller
        closes the controller next, which must not happen under a turn still running)."""
        self._stop.set()
        self.thread.join()


class EmuRig:
    def __init__(self, workdir: pathlib.Path, seats: str = "N", bus: bool = False,
                 session: dict[str, Any] | None = None, frames: bool = False,
                 extra_config: dict | None = None, hold_ms: int = 60, display: str = "spi",
                 bridge_ms: float | None = None, lockstep: bool = False, absent: str = "",
                 tablet_free: bool = False, snapshots: pathlib.Path | None = None):
        """absent: on a bus, seats the tablet polls on the line too whose boxes are not there
        (it grants each only every BUS_ABSENT_S: tablet_app/link/master.py), so that one box
        can be alone on a bus, granted back to back (the tablet takes a port of one seat for
        point to point). bridge_ms: model the USB bridge's latency timer (hardware/emu/harness.py); lockstep
        (with a bridge): the tablet on the chips' clock (hardware/emu/lockstep.py): the chips
        stand while it works, its time counts as the CPU time its threads take, its bytes enter
        the line at its own clock's time, and the table loop is woken by the link (the app's
        way) instead of polling. A driver acts on the tablet inside `acting()`. tablet_free (in
        lockstep): the tablet's work takes none of the chips' time (its clock stands where they
        stand while it works, as if it were infinitely fast): its frames go where the protocol
        and the line put them, whatever the machine's load, and not after a CPU time that varies
        from run to run (and jumped by tens of ms in single stops on a loaded machine).
        snapshots: where the boxes' states after boot are kept and taken from (EmuTable)."""
        self.tablet_free = tablet_free
        self.hold_ms = hold_ms  # how long a key is held (and released before the next one)
        self.master: LinkMaster | None = None
        self._ready = False
        self.emu = EmuTable(workdir / "emu", seats, bus=bus, frames=frames, extra_config=extra_config,
                            display=display, bridge_ms=bridge_ms, lockstep=self if lockstep else None,
                            snapshots=snapshots)
        ports = dict(self.emu.ports)
        if bus:
            ports.update({s: ports[seats[0]] for s in absent})
        self.master = LinkMaster(ports, ack_on_commit=True, clock=ChipClock(self.emu),
                                 open_port=self._open_port if lockstep else self._open_counted)
        self.ctl = Controller(workdir / "journal.db")
        self._session = {**SESSION, **(session or {})}
        self._round = int(self._session["round"])
        self.ctl.setup(self._session)
        link = self.master if len(seats) == 4 else _SomeSeats(self.master, seats)
        self.runner = TableRunner(self.ctl, link=link)
        # the table loop in a thread: the demo's (a 5 ms poll), or woken by the link
        self._loop: RunnerThread | _WokenLoop = (_WokenLoop(self.runner, self.master) if lockstep
                                                 else RunnerThread(self.runner))
        self.lock = self._loop.lock
        self._ready = True

    def _open_counted(self, path: str, baud: int) -> CountedSerial:
        return CountedSerial(self.emu, path, baud)

    def _open_port(self, path: str, baud: int) -> EmuPort:
        """Lockstep: the line's port for the LinkMaster, saying what the emulated bridge's latency
        timer is (the LinkMaster reads a real bridge's from the driver)."""
        port = self.emu.open_port(path, baud)
        ms = self.emu.bridge_ms
        port.latency = Latency(path, round(ms) if ms else None, "the emulated bridge (hardware/emu/bridge.js)",
                               not ms or ms <= 1)
        return port

    # -- the tablet as hardware/emu/lockstep.py sees it ------------------------------------------
    def settled(self) -> float | None:
        """The table loop is out of its step and the link has settled (LinkMaster.settled):
        when the tablet will next act by itself, else None."""
        if not self._ready or self.master is None or not self.lock.acquire(blocking=False):
            return None
        try:
            return self.master.settled()
        finally:
            self.lock.release()

    def threads(self) -> list[threading.Thread]:
        """The tablet's own threads: the link's and the table loop's."""
        if not self._ready or self.master is None or self.tablet_free:
            return []
        out = [self.master.thread]
        if isinstance(self._loop, _WokenLoop):
            out.append(self._loop.thread)
        return out

    def wake(self) -> None:
        if self.master is not None:
            self.master.wake()

    @contextlib.contextmanager
    def acting(self):
        """A driver acting on the tablet (another seat's call into the controller, the next
        board): with the table loop paused and, in lockstep, the chips standing, so that what
        the tablet sends because of it enters the line at the tablet's own time: the views it
        changed are pushed before the chips go on (the table loop takes a turn only for a box's
        event: _WokenLoop)."""
        with self.emu.stopped(), self.lock:
            yield
            if isinstance(self._loop, _WokenLoop) and self._loop.held is None:
                self.runner.step(0)

    def next_board(self) -> None:
        """The auction is over: a result is entered and East-West confirm it; the next board of
        the round, or the next round (hardware.sim.table.Tablet.new_board does the same)."""
        with self.lock:
            c = self.ctl
            passed = c.estate.get("status") == "passed_out"
            level = 0 if passed else int(str(c.estate["contract"])[0])
            c.enter_result(None if passed else 6 + level, None if passed else "SA")
            c.ew_confirm(True)
            if c.phase == "round_end":
                self._round += 1
                c.setup({**self._session, "round": self._round})

    @contextlib.contextmanager
    def paused(self):
        with self.lock:
            yield

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """In lockstep, the tablet takes the boxes' events as they come but journals none, and
        so acknowledges none (ack_on_commit), until the block ends; then it journals them. As
        `paused()` does out of lockstep, which in lockstep would hold the chips too: they run
        only while the table loop can settle, out of its step (lockstep.py)."""
        loop = self._loop
        assert isinstance(loop, _WokenLoop), "holding() is for a rig in lockstep"
        with self.lock:
            loop.held = []
        try:
            yield
        finally:
            with self.lock:
                held, loop.held = loop.held, None
                if held:
                    self.runner.handle(held)

    def calls(self) -> list[str]:
        with self.lock:
            return [c["call"] for c in self.ctl.estate.get("calls", [])]

    def wait_calls(self, want: list[str], timeout: float = 120.0) -> None:
        """Until the tablet's engine has exactly `want`, within `timeout` seconds of chip time."""
        budget = ChipBudget(self.emu, timeout, f"tablet calls {want}")
        while self.calls() != want:
            try:
                budget.check()
            except TimeoutError as exc:
                raise TimeoutError(f"{exc}; the tablet has {self.calls()}\n" + self.story()) from None
            time.sleep(0.05)

    def call(self, seat: str, call: str, timeout: float = 120.0) -> None:
        """Wait until `seat`'s box says it is its turn, key `call` on its matrix, wait until the
        tablet's engine has it."""
        before = self.calls()
        self.emu.wait_screen(seat, lambda s: "YOUR TURN" in s.status, timeout)
        self.emu.press(seat, " ".join(tokens(call)), hold_ms=self.hold_ms, gap_ms=self.hold_ms)
        self.wait_calls(before + [call], timeout)

    def wait_shown(self, seat: str, want: list[str], status: str, timeout: float = 120.0) -> Screen:
        """Wait until the box's display shows the latest round of the auction `want` and `status`
        on its status line; the error names what it shows instead."""
        with self.lock:
            dealer = self.ctl.estate["dealer"]
        cells = last_round(want, dealer)
        return self.emu.wait_screen(
            seat, lambda s: round_shown(s) == cells and status in s.status, timeout)

    def story(self) -> str:
        """What the table did, for a failure message: each box's screen, keys and last console
        lines, what the tablet refused, the link's counters."""
        out = [f"chip time {self.emu.sim_us} us"]
        for seat in self.emu.seats:
            try:
                text = self.emu.screen(seat).text.replace("\n", " | ")
            except TimeoutError:
                text = "(no answer)"
            out.append(f"box {seat}: screen [{text}]; keys down at chip us "
                       f"{[t for t, _, _ in self.emu.key_downs[seat]][-6:]}; resets "
                       f"{self.emu.resets[seat]}; console {[t for _, t in self.emu.console[seat]][-4:]}")
        with self.lock:
            refused = [b for _, k, b in self.ctl.journal.records() if k == "refused"]
        link = self.master.stats() if self.master is not None else "not opened"
        out.append(f"tablet refused: {refused}; link: {link}")
        return "\n".join(out)

    def close(self) -> None:
        if self.emu.one is not None:
            self.emu.one.attach(None)  # the clock lets go of the threads before they end
        self._loop.stop()
        if self.master is not None:
            self.master.close()
        self.ctl.close()
        self.emu.close()
