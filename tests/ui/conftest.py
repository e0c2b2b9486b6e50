"""Xvfb for the UI tests: started on a free display number, stopped at the end of the session."""
import os
import shutil
import subprocess

import pytest


@pytest.fixture(scope="session")
def xvfb_display():
    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip("Xvfb is not installed (scripts/setup-system.sh installs it): the Kivy app cannot start")
    r, w = os.pipe()
    # -displayfd: Xvfb picks a free display number itself and writes it to the pipe when ready.
    proc = subprocess.Popen([exe, "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        pytest.skip("Xvfb did not start")
    yield f":{number}"
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
