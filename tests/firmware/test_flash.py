"""`make flash` (scripts/flash.sh): what it would copy to a board, checked with FLASH_DRY_RUN."""
import os
import re
import subprocess

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # compiles box images with mpy-cross: seconds


def _flash(*args, **env_extra):
    env = dict(os.environ, FLASH_DRY_RUN="1", **env_extra)
    return subprocess.run(["bash", "scripts/flash.sh", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_flash_copies_compiled_firmware_pin_map_and_seat_then_resets():
    r = _flash("/dev/ttyACM7", "e")
    assert r.returncode == 0, r.stderr
    cmd = r.stdout.strip().splitlines()[-1]
    assert "connect /dev/ttyACM7" in cmd and cmd.rstrip().endswith("reset")
    for target in (":main.py", ":pinmap.json", ":config.json", ":app.mpy", ":hal_rp2.mpy",
                   ":protocol/session.mpy", ":protocol/layout.mpy"):
        assert target in cmd, target
    # the unix backend, the freeze manifest and the tablet's side of the protocol stay off
    for absent in ("hal_unix", "manifest", "main.mpy", "messages", "tablet_endpoint"):
        assert absent not in cmd, absent
    # the display on 4-wire SPI: the reference box's wiring (hardware/display.md)
    assert (ROOT / "build/flash/config.json").read_text().strip() == (
        '{"seat": "E", "bus": false, "display": "spi"}')


def test_reflash_keeps_bus_mode_with_BUS_1_and_reads_the_jumpers_without_a_seat(tmp_path):
    # a club re-flashed its RS-485 boxes with `make flash SEAT=...` and lost bus mode; without
    # SEAT the old seat stayed on the board instead of the jumpers being read
    r = _flash("/dev/ttyACM7", "S", BUS="1", FLASH_STAGE=str(tmp_path / "a"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "a/config.json").read_text().strip() == (
        '{"seat": "S", "bus": true, "display": "spi"}')
    r = _flash("/dev/ttyACM7", BUS="1", FLASH_STAGE=str(tmp_path / "b"))
    assert r.returncode == 0, r.stderr
    # written every time (so an old seat is overwritten) and without a seat: the jumpers decide
    assert (tmp_path / "b/config.json").read_text().strip() == '{"bus": true, "display": "spi"}'
    assert ":config.json" in r.stdout


def test_a_box_whose_module_is_wired_for_i2c_is_flashed_with_DISPLAY_BUS_i2c(tmp_path):
    r = _flash("/dev/ttyACM7", "W", DISPLAY_BUS="i2c", FLASH_STAGE=str(tmp_path / "a"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "a/config.json").read_text().strip() == (
        '{"seat": "W", "bus": false, "display": "i2c"}')
    r = _flash("/dev/ttyACM7", "W", DISPLAY_BUS="I2C-ish", FLASH_STAGE=str(tmp_path / "b"))
    assert r.returncode == 2
    assert "DISPLAY_BUS must be spi or i2c" in r.stderr


def test_flash_refuses_a_bad_seat():
    r = _flash("/dev/ttyACM7", "Q")
    assert r.returncode == 2
    assert "SEAT must be one of N E S W" in r.stderr


def test_flash_romfs_deploys_one_image_and_clears_old_module_files():
    r = _flash("/dev/ttyACM7", "N", ROMFS="1")
    assert r.returncode == 0, r.stderr
    cmd = r.stdout.strip().splitlines()[-1]
    assert "romfs deploy build/box.romfs" in cmd and cmd.rstrip().endswith("reset")
    assert "os.remove" in cmd  # module files on / would shadow /rom
    for target in (":main.py", ":pinmap.json", ":config.json"):
        assert target in cmd, target
    assert not re.findall(r"fs cp \S+\.mpy", cmd)  # modules only in the image
    image = (ROOT / "build/box.romfs").read_bytes()
    assert image[:3] == bytes([0xD2, 0xCD, 0x31])  # the ROMFS magic
    for name in (b"app.mpy", b"session.mpy", b"layout.mpy"):
        assert name in image
    for name in (b"hal_unix", b"tablet_endpoint", b"messages.mpy"):
        assert name not in image
