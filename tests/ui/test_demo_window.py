"""`make run` on a display: the windowed demo starts the tablet window, four boxes in tmux and a
station; Ctrl-C in its terminal ends all of them and leaves no tmux session behind."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

pytestmark = pytest.mark.ui


def test_ctrl_c_ends_the_window_the_boxes_and_the_station(xvfb_display, repo_root, micropython_bin, tmp_path):
    tmux = shutil.which("tmux")
    assert tmux, "tmux is installed by scripts/setup-system.sh"
    session = f"bb-demo-test-{os.getpid()}"
    env = {**os.environ, "DISPLAY": xvfb_display, "KIVY_HOME": str(tmp_path / "kivy"),
           "BIDDING_BOX_TMUX_SESSION": session, "PATH": os.environ.get("PATH", "")}
    # no terminal emulator may open a window on the test display: the demo says how to attach
    p = subprocess.Popen([sys.executable, "-m", "demo"], cwd=repo_root, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = ""
    try:
        deadline = time.monotonic() + 60
        while "director page" not in out:
            line = p.stdout.readline()
            assert line and time.monotonic() < deadline, out
            out += line
        assert "keys:" in out.lower() or "Keys on a box" in out
        url = re.search(r"(http://127\.0\.0\.1:\d+)", out).group(1)
        assert subprocess.run([tmux, "has-session", "-t", session]).returncode == 0
        panes = subprocess.run([tmux, "list-panes", "-t", session, "-F", "#{pane_title}"],
                               capture_output=True, text=True).stdout
        assert panes.count("! stop, a alert, u undo, v review") == 4, panes  # each pane's legend
        # the window is up: Kivy's log (under KIVY_HOME) says its main loop has started
        while not any("Start application main loop" in f.read_text(errors="replace")
                      for f in (tmp_path / "kivy" / "logs").glob("*.txt")):
            assert time.monotonic() < deadline + 60 and p.poll() is None, out
            time.sleep(0.05)  # how often it looks, not how long it waits
        p.send_signal(signal.SIGINT)
        assert p.wait(120) == 0  # the limit only ends a hang
    finally:
        if p.poll() is None:
            p.kill()
    assert subprocess.run([tmux, "has-session", "-t", session], capture_output=True).returncode != 0
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=3)  # the station is gone too
