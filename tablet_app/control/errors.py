"""What the table refuses, and why: every refusal changes nothing and says so.

`tablet_app.controller` re-exports these (the screens and the tests import them from there)."""
from __future__ import annotations

from typing import Any


class Refused(ValueError):
    """An input the table does not take; the message says why. Nothing was journalled or changed.
    `key` and `params` say the same for a screen that translates (`tablet_app.i18n`)."""

    def __init__(self, message: str, key: str = "refused", **params: Any):
        super().__init__(message)
        self.key = key
        self.params = params


class PinError(Refused):
    """Wrong director PIN (journalled, and sent to the station's director page)."""

    def __init__(self, message: str = "wrong director PIN: nothing was changed", key: str = "pin.wrong",
                 **params: Any):
        super().__init__(message, key, **params)


class PinLocked(PinError):
    """Too many wrong PINs: no try is taken for `wait_s` seconds (the tablet's own lockout, or
    the station's: `station`). `until` is the wall clock's estimate of its end, for display."""

    def __init__(self, wait_s: float, now: float, station: bool = False):
        wait = max(1, int(wait_s + 0.999))
        super().__init__(f"too many wrong PINs: try again in {wait} s (nothing was changed)", "pin.locked",
                         until=now + wait, wait_s=wait, station=station)
        self.until = now + wait


class DiskFull(Refused):
    """The tablet's storage refused the write: nothing was recorded and nothing changed."""

    def __init__(self, message: str):
        super().__init__(message, "storage.full")
