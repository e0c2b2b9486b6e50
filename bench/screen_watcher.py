"""The eyes of the tablet latency bench (bench/app_latency_child.py), in a process of their own.

    python bench/screen_watcher.py BOX_DIR [--poll]

The four simulated boxes draw their screens into BOX_DIR (screen-N.txt and so on, replaced by
rename). The bench's driver, a thread of the app it measures, must not wait for those files
itself: each wake-up would need the app's GIL, which the Kivy thread can hold for several
milliseconds in one C call while it draws, so a box that showed the call in time would be
*seen* late. This process has no GIL to share.

Stdin, one line per call: `{"calls": N}`. The watcher reads the four screens as they are
now, answers `armed`, and then, when every box shows N + 1 calls, answers
`{"seen": {"N": t, ...}}` with the `time.monotonic()` of each box's first screen that did (the
same clock as the driver's, CLOCK_MONOTONIC, on Linux), or `{"timeout": [seats]}` after 5 s.
It sleeps in the kernel until a box renames a screen file into place (Linux inotify through
ctypes); `--poll` reads the files every 0.5 ms instead (for comparison, and where there is no
inotify).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import pathlib
import select
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hardware.sim.boxes import ScreenWatch  # noqa: E402
from shared_rules.calls import SEATS  # noqa: E402  (types' letters; the baseline tree has only calls)

TIMEOUT_S = 5.0


class DirChanges:
    """Sleeps until a file is renamed into a directory (inotify). Without inotify, wait() sleeps
    `fallback` seconds."""

    IN_MOVED_TO = 0x80

    def __init__(self, path: pathlib.Path, fallback: float = 0.0005, use_inotify: bool = True):
        self.fallback = fallback
        self.fd = -1
        if not use_inotify:
            return
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
            if fd >= 0 and libc.inotify_add_watch(fd, str(path).encode(), self.IN_MOVED_TO) >= 0:
                self.fd = fd
            elif fd >= 0:
                os.close(fd)
        except (OSError, AttributeError):
            self.fd = -1

    def wait(self, timeout: float) -> None:
        if self.fd < 0:
            time.sleep(self.fallback)
            return
        r, _, _ = select.select([self.fd], [], [], timeout)
        if r:
            try:
                os.read(self.fd, 65536)
            except BlockingIOError:
                pass


def watch_call(box_dir: pathlib.Path, changes: DirChanges, calls: int, answer) -> dict:
    """Arm on the screens as they are, say so, then wait until each shows `calls` + 1 calls."""
    changes.wait(0)  # what was renamed before now is read below
    watch = {s: ScreenWatch(box_dir / f"screen-{s}.txt") for s in SEATS}
    for w in watch.values():
        w.poll()
    answer("armed")
    seen: dict[str, float] = {}
    end = time.monotonic() + TIMEOUT_S
    while len(seen) < len(SEATS):
        for seat, w in watch.items():
            if seat in seen:
                continue
            sc = w.poll()
            if sc is not None and len(sc.calls) == calls + 1:
                seen[seat] = time.monotonic()
        if len(seen) == len(SEATS):
            break
        if time.monotonic() > end:
            return {"timeout": [s for s in SEATS if s not in seen]}
        # a screen version younger than the file clock's tick is read again (ScreenWatch): a
        # short timeout keeps that re-read going even when no rename wakes us
        changes.wait(0.005)
    return {"seen": seen}


def main() -> None:
    box_dir = pathlib.Path(sys.argv[1])
    changes = DirChanges(box_dir, use_inotify="--poll" not in sys.argv[2:])

    def answer(obj) -> None:
        sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            calls = int(json.loads(line)["calls"])
        except (ValueError, KeyError, TypeError):
            answer({"error": f"not a watch request: {line.strip()[:80]!r}"})
            continue
        answer(watch_call(box_dir, changes, calls, answer))


if __name__ == "__main__":
    main()
