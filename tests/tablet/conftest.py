import contextlib
import os
import subprocess

import pytest


class Clock:
    """A hand-wound clock: tests decide how long each player thinks."""

    def __init__(self, t: float = 1_763_800_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, s: float) -> None:
        self.t += s


@pytest.fixture
def clock():
    return Clock()


class BootClock(Clock):
    """The boot clock the PIN's lockout runs on (tablet_app/pin_lockout.py), and this boot's id:
    setting the wall clock does not move it; a reboot starts it again under another id."""

    def __init__(self) -> None:
        super().__init__(5_000.0)
        self.id = "boot-1"

    def reboot(self, up_s: float = 20.0) -> None:
        self.t = up_s
        self.id = f"boot-{int(self.id.split('-')[1]) + 1}"


@pytest.fixture
def boot():
    return BootClock()


SESSION = {
    "event": "club-2026-11-22", "section": "A", "table": 3, "round": 2, "boards": [1, 2, 3],
    "ns_pair": 1, "ew_pair": 8, "profile": "dbf-2017", "td_pin": "4321", "tables": 5,
}


@pytest.fixture
def make_controller(tmp_path, clock, boot):
    from tablet_app.controller import Controller

    made = []

    def make(db=None, **kw):
        # the real engine (shared_rules.table), profiles and outbox: the controller's defaults
        kw = {"boot_clock": boot, "boot_id": lambda: boot.id, **kw}
        c = Controller(db or tmp_path / "journal.db", clock=clock, **kw)
        made.append(c)
        return c

    yield make
    for c in made:
        try:
            c.close()
        except Exception:
            pass


@pytest.fixture
def station(tmp_path):
    """A real station over HTTP with the club's director PIN and regulations."""
    from tests.station.conftest import StationProcess

    st = StationProcess(str(tmp_path / "station.db"), tmp_path,
                        ["--director-pin", "97531", "--profile", "dbf-2017"]).start()
    yield st
    st.stop()


# -- a full disk, on a real small tmpfs (test_journal.py, test_storage_alarm.py) ----------------------
@pytest.fixture
def small_disk(tmp_path):
    mnt = tmp_path / "disk"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], capture_output=True, text=True)
    assert r.returncode == 0, f"the full-disk test mounts a 1 MB tmpfs and must run as root: {r.stderr}"
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def fill(mnt):
    """Fill the disk to the last byte; returns the filler to delete."""
    filler = mnt / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
    return filler
