"""An emulated table's close (hardware/emu/harness.py EmuTable.close) ends the thread that reads
the tablet's bytes from the ptys before it closes them: a thread still reading would read
whatever the process opened next under the same descriptor number. It once read a snapshot file
the test had just written (tests/box_rp2040/test_snapshot.py found it empty) and sent it on to
the boxes as the tablet's bytes."""
import threading

import pytest

from hardware.emu.harness import PTY_PUMP, EmuTable

pytestmark = [pytest.mark.timeout(600)]  # only ends a hang


def test_close_ends_the_pty_reader_before_it_closes_the_ptys(tmp_path, rp2040_emulator):
    with EmuTable(tmp_path, "N"):
        pumps = [th for th in threading.enumerate() if th.name == PTY_PUMP]
        assert len(pumps) == 1
    assert not pumps[0].is_alive(), "the pty reader still runs after close: its descriptors may be anyone's"
