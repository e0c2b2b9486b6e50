"""The venue's results station for the demo, and a board's game from its PBN export."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import threading

from demo.common import ROOT


class DemoStation:
    """The venue's results station (`python -m station`) for the demo, in its own process on
    loopback with its own database, and the tablet's outbox deliverer pointed at it: the results
    of the demo reach a real station the way they do at a club."""

    def __init__(self, work: pathlib.Path, tablet_db: pathlib.Path):
        import re

        from tablet_app.outbox import Deliverer

        db = work / "station.db"
        for suffix in ("", "-wal", "-shm"):
            pathlib.Path(str(db) + suffix).unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "station", "--db", str(db), "--port", "0", "--host", "127.0.0.1",
             "--event", "demo-club", "--tables", "A:1-4", "--insecure-http"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        text = ""
        assert self.proc.stdout is not None
        while "director page" not in text:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the results station did not start:\n" + text)
            text += line
        # keep reading so a chatty station never blocks on a full pipe
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        self.url = re.search(r"listening on (http://\S+?)/?\s", text).group(1)  # type: ignore[union-attr]
        self.token = re.search(r"token=(\S+)", text).group(1)  # type: ignore[union-attr]
        key = dict(re.findall(r"table (\S+)  key (\S+)", text))["demo-club/A/1"]
        self.deliverer = Deliverer(str(tablet_db), self.url, "demo-club/A/1", key).start()

    @property
    def director_page(self) -> str:
        return f"{self.url}/director?token={self.token}"

    def pbn(self) -> str:
        import urllib.request

        with urllib.request.urlopen(f"{self.url}/export/pbn?token={self.token}", timeout=10) as r:
            return r.read().decode()

    def close(self) -> None:
        self.deliverer.stop()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def pbn_game(pbn: str, board: int) -> str:
    """One board's game from a PBN export (games start at an [Event tag; blank lines vary)."""
    import re

    games = re.split(r"\n(?=\[Event )", pbn)
    return next((g.strip() for g in games if f'[Board "{board}"]' in g), "")
