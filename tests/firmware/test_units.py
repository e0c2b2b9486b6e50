"""Firmware logic (call entry, refusals, keypad debounce, display, pin map) run on the real
MicroPython interpreter, and on CPython to show the same files behave the same on both."""
import subprocess
import sys

import pytest

from tests.conftest import ROOT

MODULES = ["fw_entry_checks", "fw_hw_checks", "fw_fuzz_checks", "fw_bus_checks"]
MP_ONLY = ["fw_rp2_checks"]  # the rp2 backend with a stand-in `machine` (framebuf is MicroPython's)


def _run(interp, modules=MODULES):
    r = subprocess.run([interp, str(ROOT / "tests/firmware/mp/harness.py"), str(ROOT), *modules],
                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    return r


@pytest.mark.micropython
def test_firmware_logic_on_micropython(micropython_bin):
    r = _run(micropython_bin, MODULES + MP_ONLY)
    lines = r.stdout.splitlines()
    assert r.returncode == 0, r.stdout + r.stderr
    assert len([x for x in lines if x.startswith("PASS")]) >= 24, r.stdout


def test_firmware_logic_on_cpython():
    r = _run(sys.executable)
    assert r.returncode == 0, r.stdout + r.stderr
