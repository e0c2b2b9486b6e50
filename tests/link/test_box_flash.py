"""The simulated boxes read a box's flash journal with the box's own reader: hardware/sim/box_flash.py
compiles `parse` and the page layout out of firmware/store.py's source, so the harness and the
firmware cannot disagree about the layout. The firmware's Store runs here under CPython (as the
box's tests run it) and writes the journal the harness then reads."""
import importlib.util
import sys

import pytest

from hardware.sim import box_flash
from hardware.sim.boxes import Box
from tests.conftest import ROOT

FIRMWARE = str(ROOT / "firmware")


@pytest.fixture(scope="module")
def store():
    """firmware/store.py as the box runs it (it imports the box's modules by their bare names)."""
    sys.path.insert(0, FIRMWARE)
    try:
        import store
    finally:
        sys.path.remove(FIRMWARE)
    return store


def firmware_module(name, path):
    sys.path.insert(0, FIRMWARE)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(FIRMWARE)
    return module


def test_the_harness_counts_the_records_the_box_has_written(store, tmp_path):
    box = Box("N", "/dev/null", tmp_path, "micropython", [])
    assert box.journal_records() == 0  # no flash yet
    s = store.Store(str(box.store_file))
    s.restore(None)  # at boot: a new journal holding the kept calls (none)

    def count():
        """(the harness's count, the Store's, the box's reader's)"""
        return box.journal_records(), s.used, store.parse(box.store_file.read_bytes())[1]

    counts = [count()]
    for i in range(store.PAGES):  # more calls than the journal has pages: the last wait (stale)
        s.add(5, i, 1)
        counts.append(count())
    assert all(a == b == c for a, b, c in counts), counts
    assert counts[0][0] == 1 and counts[-1][0] == store.PAGES - 1 and s.stale
    s.maintain()  # idle and full: a new journal whose first record is the list
    assert box.journal_records() == s.used == 1
    data = box.store_file.read_bytes()
    assert box_flash.JOURNAL.parse(data) == store.parse(data)


def test_the_layout_is_the_firmwares_own(store):
    loaded = box_flash.load()
    for name in ("PAGE", "PAGES", "MAGIC", "HEAD", "REC", "MAX"):
        assert loaded[name] == getattr(store, name), name
    assert loaded["parse"].__code__.co_filename == str(ROOT / "firmware" / "store.py")


def test_a_layout_changed_in_the_firmware_is_the_layout_the_harness_reads(store, tmp_path):
    source = (ROOT / "firmware" / "store.py").read_text()
    assert "\nPAGE = 256 " in source
    changed = tmp_path / "store_128.py"
    changed.write_text(source.replace("\nPAGE = 256 ", "\nPAGE = 128 "))
    small = firmware_module("store_128", changed)
    s = small.Store(str(tmp_path / "flash.bin"))
    s.restore(None)
    for i in range(3):
        s.add(5, i, 1)
    data = (tmp_path / "flash.bin").read_bytes()
    assert len(data) == 128 * small.PAGES
    journal = box_flash.Journal(changed)
    assert journal.parse(data) == ([(5, 1, i) for i in range(3)], 4) == small.parse(data)
    assert journal.records(data) == 4 == s.used
    assert box_flash.JOURNAL.records(data) != 4  # the sources' layout would misread it


def test_a_store_without_its_reader_is_refused(tmp_path):
    broken = tmp_path / "store.py"
    broken.write_text((ROOT / "firmware" / "store.py").read_text().replace("def parse(", "def read_journal("))
    with pytest.raises(RuntimeError, match="no parse"):
        box_flash.load(broken)
