"""Four boxes on emulated RP2040s behind the API the demo drives the unix-port boxes with
(hardware.sim.boxes.Boxes: press, screen, wait_screen, stop), so `make run BOXES=rp2040` runs the
same table with the flashed firmware on the chip. The emulated chips run slower than real time,
so the waits are budgets of the chips' own time, and the tablet's link runs on the chip clock too
(rig.py): to the tablet and to the demo, a box is exactly as fast as it is."""
from __future__ import annotations

import pathlib
import threading
from collections.abc import Callable, Iterable

from hardware.emu.harness import EmuTable
from hardware.emu.harness import Screen as EmuScreen
from hardware.emu.rig import ChipClock


class ChipScreen:
    """What the chip's 4-line display shows (firmware/render.py), with the names the demo reads
    from a unix-port box's screen (hardware.sim.boxes.Screen): `text`, `lines`, `status`. Its
    auction is the latest round only (`round`, suits as letters)."""

    def __init__(self, sc: EmuScreen):
        self.text = sc.text
        self.lines = sc.lines
        self.status = sc.status
        self.round = sc.auction.split()


class EmuBoxes:
    def __init__(self, workdir: pathlib.Path, seats: str = "NESW"):
        self.emu = EmuTable(workdir, seats)
        self.ports = self.emu.ports
        self.workdir = pathlib.Path(workdir)
        self.clock = ChipClock(self.emu)  # the LinkMaster's (LinkMaster(clock=...)): chip time
        self._stop = threading.Event()
        self._mirror: threading.Thread | None = None

    def press(self, seat: str, keys: str | Iterable[str]) -> None:
        self.emu.press(seat, keys if isinstance(keys, str) else " ".join(keys))

    def screen(self, seat: str) -> ChipScreen:
        return ChipScreen(self.emu.screen(seat))

    def wait_screen(self, seat: str, pred: Callable[[ChipScreen], bool],
                    timeout: float = 5.0) -> ChipScreen:
        """A whole picture `pred` holds for, within `timeout` seconds of the chips' time."""
        sc = self.emu.wait_screen(seat, lambda s: pred(ChipScreen(s)), timeout)
        return ChipScreen(sc)

    def mirror(self, every: float = 0.5) -> None:
        """Keep each box's display in workdir/box-<seat>.png and .txt (the windowed demo's view
        of the boxes: they have no terminal of their own)."""
        def run() -> None:
            last: dict[str, str] = {}
            while not self._stop.wait(every):
                for s in self.emu.seats:
                    try:
                        sc = self.emu.screen(s)
                    except TimeoutError:
                        continue
                    if last.get(s) != sc.text:
                        last[s] = sc.text
                        sc.png(self.workdir / f"box-{s}.png")
                        (self.workdir / f"box-{s}.txt").write_text(sc.text + "\n")

        self._mirror = threading.Thread(target=run, name="emu-mirror", daemon=True)
        self._mirror.start()

    def stop(self) -> None:
        self._stop.set()
        if self._mirror is not None:
            self._mirror.join(2)
        self.emu.close()
