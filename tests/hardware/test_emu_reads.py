"""The emulator harness reads a box's panel only as a whole picture and waits on the chip's clock
(hardware/emu/harness.py), checked against a scripted panel: no emulator is started."""
import pytest

from hardware.emu.harness import STILL_US, ChipBudget, EmuTable, Screen


class ScriptedTable(EmuTable):
    """An EmuTable whose chip time and panel follow a script: `pictures` is a list of (chip us
    from which it shows, ram)."""

    def __init__(self, pictures):  # no emulator process
        self.sim_us = 0
        self.pictures = pictures
        self.reads = 0

    def screen(self, seat):
        self.reads += 1
        shown = [(t, ram) for t, ram in self.pictures if t <= self.sim_us]
        changed, ram = shown[-1]
        return Screen(ram, {}, True, changed, self.sim_us)

    def wait_chip(self, ms):
        self.sim_us += int(ms * 1000)


OLD, HALF, NEW = bytes(1024), b"\x01" * 512 + bytes(512), b"\x01" * 1024


def test_a_read_between_two_pages_of_a_push_is_not_returned():
    # the push: half the pages at 10 ms, the rest at 14 ms; a predicate that the half-pushed
    # picture already meets (its top half is new) must still get the whole new picture
    t = ScriptedTable([(0, OLD), (10_000, HALF), (14_000, NEW)])
    t.sim_us = 11_000
    sc = t.wait_screen("N", lambda s: s.ram[:512] == NEW[:512])
    assert sc.ram == NEW and sc.still_us >= STILL_US


def test_a_picture_that_stood_still_is_returned_at_once():
    t = ScriptedTable([(0, OLD)])
    t.sim_us = STILL_US + 1
    assert t.wait_screen("N", lambda s: True).ram == OLD and t.reads == 1


def test_a_wait_fails_after_its_budget_of_chip_time_not_of_wall_time():
    t = ScriptedTable([(0, OLD)])
    budget = ChipBudget(t, 2.0, "the call")
    t.sim_us += 1_999_000
    budget.check()  # 1.999 s of chip time: still within
    t.sim_us += 2_000
    with pytest.raises(TimeoutError, match="2.0 s of chip time"):
        budget.check()
