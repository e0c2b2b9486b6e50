"""CI must fail on a skipped test (`make test` installs what the tests need)."""
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # each runs pytest in a child process


def _run(tmp_path, body: str, **env: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_probe.py").write_text(body)
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.plugins.no_skips"]\n')
    environ = {k: v for k, v in os.environ.items() if k != "ALLOW_SKIPS"}
    environ.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=120)


def test_a_skip_for_a_missing_tool_fails_the_run(tmp_path):
    r = _run(tmp_path, "import pytest\n\ndef test_tool():\n    pytest.skip('tool missing')\n")
    assert r.returncode == 1, r.stdout
    assert "a skip under `make test` is a missing install step" in r.stdout


def test_a_run_without_skips_passes(tmp_path):
    r = _run(tmp_path, "def test_ok():\n    assert 1 + 1 == 2\n")
    assert r.returncode == 0, r.stdout


def test_allow_skips_accepts_them_on_a_partial_machine(tmp_path):
    r = _run(tmp_path, "import pytest\n\ndef test_tool():\n    pytest.skip('tool missing')\n", ALLOW_SKIPS="1")
    assert r.returncode == 0, r.stdout
