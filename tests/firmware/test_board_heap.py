"""The board's own code (hal_rp2 from the pin map, store, app, protocol), imported from the ROMFS
image `make flash ROMFS=1` deploys, on the real MicroPython interpreter with only `machine`
stood in: it boots, links to a tablet endpoint, follows a 30-call auction, and its idle poll loop
(heartbeats both ways, keypad scans) allocates nothing and leaves no heap growth. The heap sizes
themselves are `make bench` figures (bench/bench_box.py); this keeps the probe honest and the
idle loop allocation-free."""
import contextlib
import io
import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def box_image():
    """scripts/box_image.py (it compiles the board's modules itself)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import box_image

    return box_image


@pytest.fixture(scope="module")
def image(box_image, tmp_path_factory):
    out = tmp_path_factory.mktemp("rom") / "bench.romfs"
    with contextlib.redirect_stdout(io.StringIO()):
        box_image.romfs(out, with_tablet=True)
    return out


def test_board_code_from_romfs_boots_follows_an_auction_and_idles_without_allocating(image, tmp_path,
                                                                                     micropython_bin):
    r = subprocess.run([micropython_bin, str(ROOT / "bench/mp_box_heap.py"), str(image),
                        str(ROOT / "hardware/pinmap.json"), str(tmp_path / "outbox.bin")],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    x = json.loads(r.stdout.strip().splitlines()[-1])
    assert x["linked"] and x["oled"]  # the session is up; the OLED driver was built
    assert x["idle_alloc_1000"] == 0 and x["idle_retained_1000"] == 0
    assert x["idle_redraws"] == 0  # nothing changed, nothing drawn
    # the code ran from the image: far less heap than its bytecode would take if copied
    assert 0 < x["modules"] < image.stat().st_size


@pytest.mark.slow  # compiles the board's image
def test_the_board_image_holds_what_the_board_imports_and_nothing_of_the_tablet(box_image, tmp_path):
    names = set(box_image.stage(tmp_path / "board"))
    assert {"app.mpy", "hal_rp2.mpy", "store.mpy", "protocol/session.mpy",
            "protocol/layout.mpy", "render.mpy", "font16.mpy"} <= names
    assert not names & {"hal_unix.mpy", "textview.mpy", "main.mpy", "manifest.mpy",
                        "protocol/messages.mpy",
                        "protocol/tablet_endpoint.mpy", "protocol/frame_tools.mpy"}
