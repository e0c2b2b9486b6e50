"""A box started from a snapshot (hardware/emu/snapshot.js) is the box booted from reset: the
chip tests start most boxes so, to spare each test the half second of chip time the stock
MicroPython takes to start the firmware. The snapshot is taken when the firmware enables its
UART, before anything from outside can have reached the chip."""
import pytest

from hardware.emu.harness import EmuTable

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # the timeout only ends a hang

BOOT = r"box boot seat (\S) bus (\d) on (.+) heap (\d+) native (\d)"


def boot(workdir, snapshots, press_at_once=False):
    """One box to its boot line: (what it printed up to it, the snapshot time it started from)."""
    with EmuTable(workdir, "N", snapshots=snapshots) as t:
        if press_at_once:
            t.press("N", "P")  # a key down while the box boots: this boot is no snapshot's
        t.wait_console("N", BOOT, 120)
        return list(t.console["N"]), t.restored.get("N")


def test_a_box_from_its_snapshot_prints_what_the_booted_box_printed_at_the_same_chip_time(tmp_path, rp2040_emulator):
    snaps = tmp_path / "snapshots"
    snaps.mkdir()
    from_reset, restored = boot(tmp_path / "a", snaps)
    assert restored is None
    saved = list(snaps.iterdir())
    assert len(saved) == 1, saved
    again, restored = boot(tmp_path / "b", snaps)
    # it joined at the moment its firmware enabled the UART, before its boot line
    assert restored is not None and 0 < restored < again[-1][0]
    # the same lines at the same chip microseconds, the heap in use to the byte
    assert again == from_reset
    # a snapshot that cannot be laid down (here: not one at all) is not used: the box boots from
    # reset, as before; and a boot that something reached before its UART was enabled (a key
    # down at once) is no snapshot: the file is left as it was
    saved[0].write_bytes(b"{}\nnot a snapshot")
    third, restored = boot(tmp_path / "c", snaps, press_at_once=True)
    assert restored is None and third == from_reset
    assert saved[0].read_bytes() == b"{}\nnot a snapshot" and list(snaps.iterdir()) == saved
