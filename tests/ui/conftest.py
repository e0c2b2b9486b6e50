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


ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
# The tests' screenshots (English, Swedish, Danish) go to build/, never into the tree: `make
# screenshots` runs these tests and then copies them to docs/screenshots.
SHOTS = ROOT / "build" / "screenshots"


def run_driver(script, out, display, *args, timeout=600):
    """Run a UI driver (tests/ui/drive_*.py) under `display`: the real app, driven by its buttons;
    returns the checks it wrote to OUT/checks.json (screenshots go to build/screenshots)."""
    import json
    import sys

    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(out / "kivy"), "KIVY_NO_ARGS": "1"}
    module = "tests.ui." + script.removesuffix(".py")  # a module: its imports start at the repository's root
    proc = subprocess.run([sys.executable, "-m", module, str(out), str(SHOTS), *map(str, args)],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    checks_file = out / "checks.json"
    assert checks_file.exists(), f"the app did not finish:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    checks = json.loads(checks_file.read_text())
    assert "error" not in checks, checks["error"]
    return checks
