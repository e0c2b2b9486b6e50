"""The MicroPython half of the protocol tests: every tests/**/mp/test_*.py on the real
MicroPython unix port, through scripts/mp_tests.py (golden vectors, codec, session soak, fuzzing,
heap growth of the idle poll loop)."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import mp_tests  # noqa: E402

FILES = sorted(ROOT.glob("tests/**/mp/test_*.py"))


@pytest.mark.micropython
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_micropython_file_passes(path, micropython_bin):
    rc, lines, out = mp_tests.run_file(path)
    assert rc == 0 and lines and all(ln.startswith("PASS") for ln in lines), out


def test_mp_runner_reports_a_failing_file_as_failed(tmp_path, micropython_bin):
    bad = tmp_path / "test_bad.py"
    bad.write_text("def test_ok():\n    pass\n\ndef test_broken():\n    assert 1 == 2\n")
    rc, lines, _ = mp_tests.run_file(bad)
    assert rc == 1 and sorted(lines) == ["FAIL test_broken AssertionError()", "PASS test_ok"]
