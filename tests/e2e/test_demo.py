"""`make run` without a display: one line saying so, then the headless demo runs a whole round."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.micropython


def test_make_run_without_display_falls_back_to_the_headless_demo(repo_root, micropython_bin):
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    p = subprocess.run([sys.executable, "-m", "demo"], cwd=repo_root, env=env,
                       capture_output=True, text=True, timeout=600)  # only ends a hang
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    assert lines[0].startswith("No display ($DISPLAY is unset)")
    out = p.stdout
    assert "board 1: 4\u2665 by North, 10 tricks, N-S +420, queued for the station" in out
    assert "Insufficient bid: South 1\u2660  (2017 L27)" in out
    assert "wrong director PIN: nothing was changed" in out
    assert "DIRECTOR: wait" in out  # what the West box showed while the table was frozen...
    assert "~ S 1S: wait TD" in out  # ...with the call the table is ruling on
    # the Law's options name the seats, never "LHO"
    assert "option: West accepts the insufficient bid" in out and "LHO" not in out
    assert "passed out, N-S +0" in out
    # the three results reached the real station process the demo started, and its PBN export
    # shows board 2 as the table bid it (the TD's L27B1(a) ruling let 2S stand)
    # a table of the results and their delivery, not Python lists or JSON
    assert out.count(" delivered ") == 3 and "[[" not in out and "{" not in out.split("== At the station")[0]
    pbn = out.split("== At the station")[1]
    assert '[Board "2"]' in pbn and '[Contract "2S"]' in pbn and '[Declarer "S"]' in pbn
    assert '[Board "1"]' not in pbn and '[Board "3"]' not in pbn  # board 2 only, as announced
    # the dealer marked in words; "*" on the tablet means what it means on a box: alerted
    assert "East (D)" in out and "(D)*" not in out
