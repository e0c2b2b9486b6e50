"""The director PIN's lockout: wrong tries in a row and the wait they impose, on a clock the
tablet's user cannot move, and counted across a restart, a reboot and a full disk.

- **The clock**: the system's boot clock (`CLOCK_BOOTTIME`, else `time.monotonic`), which
  setting the tablet's date and time does not move; the wall clock is never read here, so
  setting the tablet a day ahead does not end a wait.
- **A restart**: the boot clock goes on counting while the app is stopped, so the end of the wait
  (a time on that clock) still holds when the same boot's app starts again.
- **A reboot**: the boot clock starts again from zero. The kernel's boot id
  (`/proc/sys/kernel/random/boot_id`) tells a reboot; the wait then left is taken from the mark,
  which notes it every few seconds while the tablet waits: a reboot keeps what was left.
- **A full disk**: each wrong try is also written to the mark, `<journal>.pinlock`, a small file
  made at its full size while there is space and afterwards only overwritten in place, which
  needs no new blocks (as `storage_mark.py`): a wrong try the full journal could not take still
  counts after a restart.

The journal's `pin_wrong` and `pin_ok` records stay what the count is rebuilt from when the mark
is missing or damaged (the whole last wait is then taken again: never less than was owed).
The mark holds `n` (wrong tries in a row), `jn` (how many of them the journal held when it was
written), `boot`, `until` (the end of the wait on that boot's clock) and `left` (the wait left
when it was last noted).
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

from tablet_app import pin

SIZE = 512
NOTE_EVERY_S = 5.0
BOOT_ID = "/proc/sys/kernel/random/boot_id"


def boot_clock() -> float:
    """Seconds on a clock that only runs forward and counts a suspended tablet's sleep too."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    if boottime is not None:
        try:
            return time.clock_gettime(boottime)
        except OSError:
            pass
    return time.monotonic()


def boot_id() -> str | None:
    """The kernel's id of this boot (Linux, Android); None where there is none (every start is
    then taken as a new boot: the wait left is what the mark last noted)."""
    try:
        with open(BOOT_ID) as f:
            return f.read().strip() or None
    except OSError:
        return None


class PinLockout:
    def __init__(self, path: str | None, clock: Callable[[], float] = boot_clock,
                 boot: Callable[[], str | None] = boot_id):
        self.path = path
        self.clock = clock
        self.boot = boot()
        self.wrong = 0  # wrong tries in a row, journalled or not
        self.until = 0.0  # on `clock`: no try is looked at before it
        self._journalled = 0  # of `wrong`, how many the journal holds
        self._noted = float("-inf")
        if path is not None:
            try:
                if os.path.getsize(path) != SIZE:
                    raise FileNotFoundError(path)
            except OSError:
                self._put(b"")

    # -- what the controller asks -----------------------------------------------------------------
    def wait_s(self) -> float:
        """Seconds before the next try is looked at (0: now). While waiting, the wait left is
        noted in the mark every NOTE_EVERY_S, for a reboot."""
        now = self.clock()
        left = max(0.0, self.until - now)
        if left and now - self._noted >= NOTE_EVERY_S:
            self._write(now)
        return left

    def restore(self, journalled: int) -> None:
        """At start, after the journal's replay: `journalled` wrong tries in a row it holds."""
        now = self.clock()
        mark = self._read()
        if mark is None:
            # no mark (or a damaged one): the journal's count, and its whole last wait again
            self.wrong, self._journalled = journalled, journalled
            self.until = now + pin.lockout_s(journalled)
        else:
            n, jn = mark["n"], mark["jn"]
            # tries journalled after the mark was last written count on top of it; a journal
            # holding fewer than the mark says was reset by a `pin_ok` the mark missed
            self.wrong = n + journalled - jn if journalled >= jn else journalled
            self._journalled = journalled
            if self.wrong != n:
                self.until = now + pin.lockout_s(self.wrong)
            elif self.boot is not None and mark["boot"] == self.boot:
                self.until = min(mark["until"], now + pin.lockout_s(n))
            else:
                self.until = now + min(mark["left"], pin.lockout_s(n))  # a reboot: what was left
        self._write(now)

    def wrong_try(self, journalled: bool) -> None:
        """One more wrong try (`journalled`: the journal took its record)."""
        now = self.clock()
        self.wrong += 1
        if journalled:
            self._journalled += 1
        self.until = max(self.until, now + pin.lockout_s(self.wrong))
        self._write(now)

    def reset(self, journalled: bool) -> None:
        """The right PIN: the count starts again (`journalled`: the journal took the `pin_ok`)."""
        self.wrong, self.until = 0, 0.0
        if journalled:
            self._journalled = 0
        self._write(self.clock())

    # -- the mark ------------------------------------------------------------------------------------
    def _write(self, now: float) -> None:
        self._noted = now
        mark = {"n": self.wrong, "jn": self._journalled, "boot": self.boot, "until": self.until,
                "left": max(0.0, self.until - now)}
        try:
            self._put(json.dumps(mark, separators=(",", ":")).encode())
        except OSError:
            pass  # best effort: the journal still holds every try it could take

    def _read(self) -> dict[str, Any] | None:
        if self.path is None:
            return None
        try:
            with open(self.path, "rb") as f:
                text = f.read(SIZE).rstrip(b"\0 ")
            mark = json.loads(text) if text else None
        except (OSError, ValueError):
            return None
        if not isinstance(mark, dict):
            return None
        ints = all(isinstance(mark.get(k), int) and not isinstance(mark.get(k), bool) and mark[k] >= 0
                   for k in ("n", "jn"))
        nums = all(isinstance(mark.get(k), int | float) and not isinstance(mark.get(k), bool)
                   for k in ("until", "left"))
        boot_ok = mark.get("boot") is None or isinstance(mark.get("boot"), str)
        return mark if ints and nums and boot_ok and mark["left"] >= 0 else None

    def _put(self, text: bytes) -> None:
        if self.path is None or len(text) > SIZE:
            return
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        except OSError:
            return
        try:
            os.pwrite(fd, text.ljust(SIZE, b"\0"), 0)
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)
