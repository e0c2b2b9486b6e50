"""`make flash` (scripts/flash.sh): what it would copy to a board, checked with FLASH_DRY_RUN."""
import os
import subprocess

from tests.conftest import ROOT


def _flash(*args):
    env = dict(os.environ, FLASH_DRY_RUN="1")
    return subprocess.run(["bash", "scripts/flash.sh", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_flash_copies_compiled_firmware_pin_map_and_seat_then_resets():
    r = _flash("/dev/ttyACM7", "e")
    assert r.returncode == 0, r.stderr
    cmd = r.stdout.strip().splitlines()[-1]
    assert "connect /dev/ttyACM7" in cmd and cmd.rstrip().endswith("reset")
    for target in (":main.py", ":pinmap.json", ":config.json", ":app.mpy", ":hal_rp2.mpy",
                   ":protocol/session.mpy", ":protocol/messages.mpy"):
        assert target in cmd, target
    for absent in ("hal_unix", "manifest", "main.mpy"):
        assert absent not in cmd, absent
    assert (ROOT / "build/flash/config.json").read_text().strip() == '{"seat": "E"}'


def test_flash_refuses_a_bad_seat():
    r = _flash("/dev/ttyACM7", "Q")
    assert r.returncode == 2
    assert "SEAT must be one of N E S W" in r.stderr
