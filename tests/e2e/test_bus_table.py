"""The table on an RS-485 bus: four real firmware boxes on MicroPython started with --bus, ONE
shared simulated half-duplex line (hardware.sim.link.SimBus), the LinkMaster as bus master
(grants in turn) and the tablet's controller. The same Laws, the same boxes' screens as
point-to-point (tests/e2e/test_table.py)."""
import pytest

from tests.e2e.conftest import SESSION
from tests.e2e.harness import E2ETable, Rig

pytestmark = [pytest.mark.micropython, pytest.mark.link]


@pytest.fixture(scope="module")
def bus_rig(tmp_path_factory, micropython_bin):
    r = Rig(tmp_path_factory.mktemp("busboxes"), bus=True)
    yield r
    r.close()


def test_2017_normal_board_over_the_bus_every_box_shows_the_auction(bus_rig, tmp_path):
    t = E2ETable(bus_rig, tmp_path / "j.db", {**SESSION, "policy": "record"})
    try:
        t.auction("N", ["1NT", "P", "3NT", "P", "P", "P"])
        t.all_boxes_show(["1NT", "P", "3NT", "P", "P", "P"])
        assert (t.state()["contract"], t.state()["declarer"]) == ("3NT", "N")
        st = bus_rig.link.stats()
        # Boxes talk only when granted: a collision is a rare late reply under CPU load (the
        # sim's threads share one process), never the norm.
        assert st["collisions"] * 50 <= st["relayed"], st
    finally:
        t.close()


def test_2017_L27_insufficient_bid_over_the_bus_freezes_every_box_until_the_td_rules(bus_rig, tmp_path):
    t = E2ETable(bus_rig, tmp_path / "j.db", {**SESSION, "policy": "record"})
    try:
        t.call("N", "1NT")
        t.call("E", "1S")  # insufficient over 1NT: the table waits for the director (2017 L27)
        t.wait(lambda c: c.phase == "frozen", what="table frozen")
        for s in "NESW":
            t.boxes.wait_screen(s, lambda sc: "DIRECTOR" in sc.text)
        with t.lock:
            t.ctl.td_decide(SESSION["td_pin"], "accept")  # L27A1: LHO accepts
        t.call("S", "P")
        t.all_boxes_show(["1NT", "1S", "P"])
        assert [i["law"] for i in t.state()["irregularities"]][:1] == ["2017 L27"]
    finally:
        t.close()
