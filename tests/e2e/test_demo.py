"""`make run` without a display: one line saying so, then the headless demo runs a whole round."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.micropython


def test_make_run_without_display_falls_back_to_the_headless_demo(repo_root, micropython_bin):
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    p = subprocess.run([sys.executable, "-m", "tablet_app.demo"], cwd=repo_root, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    assert lines[0].startswith("No display ($DISPLAY is unset)")
    out = p.stdout
    assert "N-S +420, queued for the station" in out
    assert "Insufficient bid: South 1\u2660  (2017 L27)" in out
    assert "wrong director PIN: nothing was changed" in out
    assert "DIRECTOR: wait" in out  # what the West box showed while the table was frozen
    assert "passed out, N-S +0" in out
    assert out.count('"pending"]') == 3  # three results in the outbox
