"""Where a storage episode is remembered across a restart, although nothing can be written
while it lasts: a small file (`<journal>.storage`) made, at its full size, while there is
still space, and afterwards only overwritten in place, which needs no new blocks. It holds
the episode's start (`Controller.storage_since`) or nothing. Best effort: if the file cannot
be made or written (a filesystem that allocates on overwrite), the episode is not remembered
and the station's call stays open until the TD closes it; nothing else depends on it."""
from __future__ import annotations

import json
import os
from typing import Any

SIZE = 512


class StorageMark:
    def __init__(self, path: str):
        self.path = path
        try:
            if os.path.getsize(path) != SIZE:
                raise FileNotFoundError(path)
        except OSError:
            try:
                self._put(b"")
            except OSError:
                pass

    def read(self) -> dict[str, Any] | None:
        try:
            with open(self.path, "rb") as f:
                text = f.read(SIZE).rstrip(b"\0 ")
            since = json.loads(text) if text else None
        except (OSError, ValueError):
            return None
        ok = isinstance(since, dict) and isinstance(since.get("seq"), int) and isinstance(since.get("place"), list)
        return since if ok else None

    def write(self, since: dict[str, Any] | None) -> None:
        text = b"" if since is None else json.dumps(since, separators=(",", ":")).encode()
        if len(text) > SIZE:
            return
        try:
            self._put(text)
        except OSError:
            pass

    def _put(self, text: bytes) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.pwrite(fd, text.ljust(SIZE, b"\0"), 0)
            os.fsync(fd)
        finally:
            os.close(fd)
