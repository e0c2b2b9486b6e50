"""Firmware logic (call entry, refusals, keypad debounce, display, pin map, receive-path fuzzing,
bus mode, the rp2 backend) run on the real MicroPython interpreter, and the portable part on
CPython too, to show the same files behave the same on both. Each check in tests/firmware/mp/
is one pytest test here; the interpreter runs them all once per session."""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from tests.conftest import ROOT

MP = ROOT / "tests/firmware/mp"
MODULES = ["fw_entry_checks", "fw_hw_checks", "fw_frame_checks", "fw_fuzz_checks", "fw_bus_checks",
           "fw_call_path_checks", "fw_native_checks", "fw_store_checks"]
MP_ONLY = ["fw_rp2_checks"]  # the rp2 backend with a stand-in `machine` (framebuf is MicroPython's)


def _checks(modules):
    out = []
    for m in modules:
        src = pathlib.Path(MP / f"{m}.py").read_text()
        out += [(m, n) for n in re.findall(r"^def (test_\w+)\(", src, re.M)]
    return out


_results: dict[str, dict[str, str]] = {}


def _run(interp: str, modules: list[str]) -> dict[str, str]:
    key = interp + " ".join(modules)
    if key not in _results:
        scratch = tempfile.mkdtemp(prefix="fw_checks_")  # the checks' files, this run's own
        try:
            r = subprocess.run([interp, str(MP / "harness.py"), str(ROOT), *modules],
                               capture_output=True, text=True, timeout=120, cwd=ROOT,
                               env={**os.environ, "FW_SCRATCH": scratch})
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        res = {}
        for line in r.stdout.splitlines():
            m = re.match(r"(PASS|FAIL) (test_\w+):?(.*)", line)
            if m:
                res[m.group(2)] = m.group(1) + m.group(3)
        res["__output__"] = r.stdout + r.stderr
        _results[key] = res
    return _results[key]


@pytest.mark.parametrize("module,check", _checks(MODULES + MP_ONLY))
def test_on_micropython(module, check, micropython_bin):
    res = _run(micropython_bin, MODULES + MP_ONLY)
    assert res.get(check, "").startswith("PASS"), res.get(check) or res["__output__"]


@pytest.mark.parametrize("module,check", _checks(MODULES))
def test_on_cpython(module, check):
    res = _run(sys.executable, MODULES)
    assert res.get(check, "").startswith("PASS"), res.get(check) or res["__output__"]
