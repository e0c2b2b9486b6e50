"""Four virtual boxes: the real firmware on the real MicroPython interpreter (unix backend).

Each box is `micropython firmware/main.py --seat S --port <box-side pty> --screen-file F
--store F --no-draw`, fed key tokens on its stdin (one line per press), its display read from its
screen file. The box-side ptys come from the simulated link (hardware/sim/link.py), or from any
pty the caller gives.

    boxes = Boxes({"N": "/dev/pts/5", ...}, workdir)
    boxes.start()
    boxes.press("N", "1 NT OK")       # or a list of tokens
    boxes.screen("N")                 # the display's text lines
    boxes.wait_screen("E", lambda s: "1NT" in s.auction_text)
    boxes.reboot("S")                 # kill -9 and start again: RAM lost, the flash (store) kept
    boxes.stop()
"""
from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable

from hardware.sim import box_flash

ROOT = pathlib.Path(__file__).resolve().parents[2]
AUCTION_HEAD = "W   N   E   S"  # the box's screen file (firmware/textview.py)
# A file's mtime is stamped from the kernel's coarse clock, which lags the real time by up to one
# tick (<= 10 ms): two redraws of a box within one tick can leave two versions of its screen file
# with the same mtime (and, on ext4, the same inode number: the rename frees the old one for the
# next). A write that happens SETTLE_NS after a version's mtime cannot carry that mtime again.
SETTLE_NS = 20_000_000
# How long a wait looks before it gives up: it only ends a hang (a busy machine makes the boxes
# slow, not wrong), so it is far longer than anything takes.
HANG_S = 60.0


def micropython_path() -> str:
    cand = pathlib.Path(sys.executable).parent / "micropython"
    if cand.exists():
        return str(cand)
    cand = ROOT / ".venv/bin/micropython"
    return str(cand)


class Screen:
    """What one box shows, parsed: the raw lines, the status line and the auction as seen."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines()
        self.status = self.lines[1] if len(self.lines) > 1 else ""
        self.selection = self.lines[2] if len(self.lines) > 2 else ""
        self.calls: list[str] = []  # in auction order, marks (*, !, +) kept
        if AUCTION_HEAD in self.lines:
            rows = self.lines[self.lines.index(AUCTION_HEAD) + 1:]
            first = True
            for row in rows:
                if not row or row[0] not in " PX1234567-":
                    break
                cells = [row[i:i + 4].strip() for i in range(0, len(row), 4)]
                if first:
                    while cells and cells[0] == "":
                        cells.pop(0)  # the cells before the dealer
                    first = False
                self.calls.extend(cells)

    @property
    def plain_calls(self) -> list[str]:
        return [c.rstrip("*!+") for c in self.calls]

    def __repr__(self) -> str:
        return f"Screen({self.text!r})"


class ScreenWatch:
    """Follows one box's screen file cheaply: `poll()` reads and parses it only when it may have
    changed since the last read, for a watcher that must not burn the CPU it measures (the
    latency bench). An unchanged (inode, mtime, size) does not prove the text unchanged: a
    version younger than SETTLE_NS is read again on every poll, as a second redraw within the
    same tick of the file clock keeps its stamp."""

    def __init__(self, path: str | os.PathLike):
        self.path = pathlib.Path(path)
        self.stamp: tuple[int, int, int] | None = None
        self.text = ""
        self.screen = Screen("")

    def poll(self) -> Screen | None:
        """The screen when it changed since the last poll, else None."""
        now = time.time_ns()  # before the stat: a write after this gets a later mtime
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        if stamp == self.stamp and now - st.st_mtime_ns > SETTLE_NS:
            return None
        self.stamp = stamp
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return None
        if text == self.text:
            return None
        self.text = text
        self.screen = Screen(text)
        return self.screen


class Box:
    def __init__(self, seat: str, port: str, workdir: pathlib.Path, interp: str, extra: list[str],
                 main: pathlib.Path | None = None):
        self.seat = seat
        self.main = main or ROOT / "firmware/main.py"
        self.port = port
        self.screen_file = workdir / f"screen-{seat}.txt"
        self.store_file = workdir / f"flash-{seat}.bin"
        self.log_file = workdir / f"box-{seat}.log"
        self.interp = interp
        self.extra = extra
        self.proc: subprocess.Popen | None = None
        self.boots = 0

    def start(self) -> None:
        try:
            self.screen_file.unlink()
        except FileNotFoundError:
            pass
        log = open(self.log_file, "ab")
        self.proc = subprocess.Popen(
            [self.interp, str(self.main), "--seat", self.seat, "--port", self.port,
             "--screen-file", str(self.screen_file), "--store", str(self.store_file), "--no-draw",
             *self.extra],
            stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        log.close()
        self.boots += 1

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        if self.proc is not None and self.proc.stdin:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        self.proc = None

    def press(self, tokens: str | Iterable[str]) -> None:
        if isinstance(tokens, str):
            tokens = tokens.split()
        line = (" ".join(tokens) + "\n").encode()
        if self.proc is None or self.proc.stdin is None:
            raise RuntimeError(f"box {self.seat} is not running")
        self.proc.stdin.write(line)
        self.proc.stdin.flush()

    def journal_records(self) -> int:
        """How many record pages the box's flash journal holds, read with the box's own reader
        (box_flash.py). It grows by one each time the box keeps its list of calls; a new journal
        (at boot, or idle and nearly full) starts again at one. The file exists from boot, so its
        size says nothing of a call."""
        try:
            data = self.store_file.read_bytes()
        except OSError:
            return 0
        return box_flash.JOURNAL.records(data)

    def screen_text(self) -> str:
        try:
            return self.screen_file.read_text()
        except FileNotFoundError:
            return ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


class Boxes:
    def __init__(self, ports: dict[str, str], workdir: str | os.PathLike, extra_args: list[str] | None = None,
                 interp: str | None = None, link=None, main: pathlib.Path | None = None):
        """main: the box's main.py; firmware/main.py (the sources) unless given, such as the
        compiled image of scripts/box_image.py stage_unix (what a board is flashed with)."""
        self.link = link  # hardware.sim.link.SimLink: a restarted box must not read old bytes
        self.workdir = pathlib.Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        interp = interp or micropython_path()
        self.boxes = {s: Box(s, ports[s], self.workdir, interp, list(extra_args or []), main)
                      for s in ports}

    def start(self, wait: float = HANG_S) -> None:
        for b in self.boxes.values():
            b.start()
        deadline = time.monotonic() + wait
        for s in self.boxes:
            while not self.boxes[s].screen_text():
                if not self.boxes[s].alive():
                    raise RuntimeError(f"box {s} died at start: {self.log(s)}")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"box {s} drew nothing in {wait} s")
                time.sleep(0.005)

    def press(self, seat: str, keys: str | Iterable[str]) -> None:
        self.boxes[seat].press(keys)

    def screen(self, seat: str) -> Screen:
        return Screen(self.boxes[seat].screen_text())

    def wait_screen(self, seat: str, pred: Callable[[Screen], bool], timeout: float = HANG_S,
                    poll: float = 0.002) -> Screen:
        deadline = time.monotonic() + timeout
        while True:
            s = self.screen(seat)
            if s.text and pred(s):
                return s
            if time.monotonic() > deadline:
                raise TimeoutError(f"box {seat}: condition not met in {timeout} s; screen:\n{s.text}")
            time.sleep(poll)

    def reboot(self, seat: str, wait: bool = True) -> None:
        """Power cycle: the process dies at once (RAM lost), the store file is its flash."""
        b = self.boxes[seat]
        b.kill()
        if self.link is not None:
            self.link.flush_box(seat)
        b.start()
        if wait:
            self.wait_screen(seat, lambda s: True)

    def alive(self, seat: str) -> bool:
        return self.boxes[seat].alive()

    def log(self, seat: str) -> str:
        try:
            return self.boxes[seat].log_file.read_text()
        except FileNotFoundError:
            return ""

    def stop(self) -> None:
        for b in self.boxes.values():
            b.kill()

    def __enter__(self) -> Boxes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
