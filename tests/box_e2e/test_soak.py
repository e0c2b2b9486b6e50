"""The fault soak (bounded): 2,000 calls keyed on real firmware boxes, the real tablet on the other
end (controller, laws engine, journal, runner: a result entered after each auction), with 1% of the bytes
corrupted and 0.5% dropped in both directions, cables pulled and boxes rebooted (half of the
reboots straight after the box's own call, while it may be in flight): no call lost, duplicated
or reordered, and after every board every box shows the auction the tablet holds. The boxes run
the code a board is flashed with (scripts/box_image.py: compiled, constants folded), not the
sources the other end-to-end tests run."""
import sys

import pytest

from hardware.sim import soak
from tests.conftest import ROOT

pytestmark = [pytest.mark.micropython, pytest.mark.slow]


def test_fault_soak_2000_calls_no_loss_no_duplicate_no_reorder(tmp_path, micropython_bin):
    sys.path.insert(0, str(ROOT / "scripts"))
    import box_image

    box_image.stage(tmp_path / "image", unix=True)
    r = soak.run(tmp_path / "run", calls=2000, tables=4, corrupt=0.01, drop=0.005, pull_every=60,
                 reboot_every=45, seed=7, main=tmp_path / "image/main.py")
    assert r.errors == []
    assert r.keyed == 2000
    assert (r.lost, r.duplicated, r.reordered) == (0, 0, 0)
    assert r.delivered == 2000
    assert r.bad_screens == 0
    assert r.reboots >= 20 and r.pulls >= 20 and r.boards >= 100
