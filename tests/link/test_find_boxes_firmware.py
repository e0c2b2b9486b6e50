"""The tablet finds the real box firmware (MicroPython unix port) by the seat it is jumpered as,
over the simulated serial link (tests/link/test_find_boxes.py does it with the protocol's own box
endpoint, point-to-point and on a bus)."""
import pytest

from hardware.sim.boxes import Boxes
from hardware.sim.link import SimLink
from tablet_app.link.discover import describe, find_boxes

from .test_find_boxes import HANG_S, QUIET_S, shuffled

pytestmark = [pytest.mark.link, pytest.mark.micropython]  # the simulated link; the firmware on MicroPython


def test_firmware_boxes_on_the_micropython_unix_port_are_found_by_their_jumpered_seat(micropython_bin, tmp_path):
    """The real box firmware (MicroPython unix port) on the simulated link: four boxes found by
    their seat; then East's box jumpered as North makes two Norths and no East."""
    with SimLink() as link:
        with Boxes(link.box_ports, tmp_path / "table", link=link, interp=micropython_bin) as boxes:
            boxes.start()
            found = find_boxes(shuffled(link), listen_s=HANG_S)
        assert found.complete() and found.ports() == link.tablet_ports
        link.flush_box("E")
        wrong = {"N": link.box_ports["N"]}, {"N": link.box_ports["E"]}
        with Boxes(wrong[0], tmp_path / "a", link=link, interp=micropython_bin) as a, \
                Boxes(wrong[1], tmp_path / "b", link=link, interp=micropython_bin) as b:
            a.start()
            b.start()
            found = find_boxes([link.tablet_ports[s] for s in "NE"], listen_s=QUIET_S)
    assert found.clashes() == {"N": sorted([link.tablet_ports["N"], link.tablet_ports["E"]])}
    assert found.missing() == ["E", "S", "W"]
    assert describe(found, "en")[0].startswith("Two boxes say they are North")
