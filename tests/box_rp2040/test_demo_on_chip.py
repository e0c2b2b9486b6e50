"""`make run-headless BOXES=rp2040`: the demo prints what a box's display shows, and on the
emulated chips (1/8 of real time) that must be the tablet's latest view, not the one before it.
Found by a user: after board 1's final pass East's display read "W to call". The demo is run up
to that display (board 1, about a minute) and then interrupted."""
import os
import pathlib
import select
import signal
import subprocess
import sys
import time

import pytest

from hardware.emu.harness import SNAPSHOTS_ENV
from tests.conftest import ROOT


def demo_until(marker: str, then_lines: int, snapshots: pathlib.Path, timeout: float = 1500.0) -> list[str]:
    """The demo's stdout up to `then_lines` lines after the first line holding `marker`; the
    demo (and the emulator it started, in its own session) is interrupted after. The demo waits
    on the chips' clock; `timeout` (wall) only ends a hang. Its boxes start from the run's
    snapshots of boxes built as they are (hardware/emu/harness.py SNAPSHOTS_ENV), if any."""
    env = {**os.environ, SNAPSHOTS_ENV: str(snapshots)}
    p = subprocess.Popen([sys.executable, "-m", "demo", "--headless", "--boxes", "rp2040"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True, env=env)
    out: list[str] = []
    stdout = p.stdout
    assert stdout is not None
    try:
        deadline = time.monotonic() + timeout
        after = None
        while after is None or len(out) < after + then_lines:
            if time.monotonic() > deadline:
                raise AssertionError("demo did not get there in time:\n" + "\n".join(out))
            if not select.select([stdout], [], [], 1.0)[0]:
                continue
            line = stdout.readline()
            if not line:
                raise AssertionError(f"demo ended ({p.wait()}) before that:\n" + "\n".join(out))
            out.append(line.rstrip("\n"))
            if after is None and marker in line:
                after = len(out)
        return out
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGINT)  # the demo's own process group only
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        stdout.close()


@pytest.mark.timeout(1800)
def test_the_display_printed_after_the_final_pass_shows_the_auction_over(rp2040_emulator, micropython_bin,
                                                                          emu_snapshots):
    out = demo_until("box E's display:", 4, emu_snapshots)
    shown = [line.removeprefix("    : ") for line in out[-4:]]
    # after West's final pass: the status, and the last four calls in time order with West's
    # pass the newest, bottom right (before it, "W P  N 4H / E P  S P" and "TURN: WEST")
    assert shown[0] == "AUCTION OVER", "\n".join(out)
    assert shown[2:] == ["N 4\u2665   E P", "S P    W P"], "\n".join(out)
