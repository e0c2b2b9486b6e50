"""The tablet finds its boxes by the seat each box reports (protocol/SPEC.md section 2: a box's
frames carry its seat in the address byte), over the simulated serial link: pyserial on real
pseudo-terminals, the protocol's own box endpoint at the far end. Nobody types which port is which
seat; a seat claimed twice or claimed by no box is told in the players' language."""
import time

import pytest

from hardware.sim.link import EndpointBox, SimBus, SimLink
from protocol import calls
from protocol import messages as M
from tablet_app.link import LinkMaster
from tablet_app.link.discover import describe, find_boxes

pytestmark = pytest.mark.link  # runs the simulated serial link in real time

HANG_S = 60  # ends a hang only: find_boxes returns as soon as every seat is heard
QUIET_S = 3.0  # a wrong table is known only after listening this long (boxes talk every 100-200 ms)


def shuffled(link):
    """The tablet's ports in an order that is not the seats' (as /dev/ttyACM* numbers are)."""
    return [link.tablet_ports[s] for s in "WSEN"]


def test_four_boxes_found_by_their_seat_and_the_table_plays():
    with SimLink() as link:
        boxes = {s: EndpointBox(s, link.box_ports[s]) for s in "NESW"}
        try:
            found = find_boxes(shuffled(link), listen_s=HANG_S)
            assert found.complete() and describe(found, "sv") == []
            assert found.ports() == link.tablet_ports
            # the map is the one a table runs on: a call keyed on East's box arrives as East's
            with LinkMaster(found.ports()) as lm:
                end = time.monotonic() + HANG_S
                while not boxes["E"].linked() and time.monotonic() < end:
                    lm.poll(0.02)
                boxes["E"].submit(M.CALL, calls.code("1C"))
                got = []
                while not got and time.monotonic() < end:
                    got = [e for e in lm.poll(0.05) if e.kind == "call"]
                assert [(e.seat, e.call) for e in got] == [("E", "1C")]
        finally:
            for b in boxes.values():
                b.close()


def test_two_boxes_claiming_one_seat_and_a_missing_seat_are_told_in_swedish():
    with SimLink() as link:
        # East's box was jumpered as North: two Norths, no East
        boxes = [EndpointBox(claim, link.box_ports[port]) for port, claim in
                 (("N", "N"), ("E", "N"), ("S", "S"), ("W", "W"))]
        try:
            found = find_boxes(shuffled(link), listen_s=QUIET_S)
        finally:
            for b in boxes:
                b.close()
    assert not found.complete()
    assert found.clashes() == {"N": sorted([link.tablet_ports["N"], link.tablet_ports["E"]])}
    assert found.missing() == ["E"]
    assert "N" not in found.ports() and found.ports() == {"S": link.tablet_ports["S"],
                                                          "W": link.tablet_ports["W"]}
    lines = describe(found, "sv")
    assert lines[0].startswith("Två budlådor säger att de är Nord")
    assert lines[1].startswith("Ingen budlåda hittad för Öst")
    assert describe(found, "da")[1].startswith("Ingen meldeboks fundet for Øst")


def test_a_port_that_cannot_be_opened_is_noted_and_the_others_searched(tmp_path):
    with SimLink(seats="N") as link:
        box = EndpointBox("N", link.box_ports["N"])
        try:
            found = find_boxes([str(tmp_path / "no-such-port"), link.tablet_ports["N"]], listen_s=QUIET_S)
        finally:
            box.close()
    assert list(found.unopened) == [str(tmp_path / "no-such-port")]
    assert found.ports() == {"N": link.tablet_ports["N"]}
    assert found.missing() == ["E", "S", "W"]


def test_boxes_on_one_rs485_bus_answer_the_search_grants():
    """Bus boxes talk only when granted (SPEC.md section 1): the search grants each seat in turn,
    so one port reports four seats."""
    with SimBus() as bus:
        boxes = [EndpointBox(s, bus.box_ports[s], bus=True) for s in "NESW"]
        try:
            found = find_boxes([bus.tablet_port], listen_s=HANG_S)
        finally:
            for b in boxes:
                b.close()
    assert found.complete()
    assert found.ports() == dict.fromkeys("NESW", bus.tablet_port)


def test_the_tablet_command_line_takes_ports_without_seats():
    """`--ports /dev/x,/dev/y` (or the default `auto`) names no seat: the tablet finds them."""
    from tablet_app.app import box_ports

    with SimLink() as link:
        boxes = [EndpointBox(s, link.box_ports[s]) for s in "NES"]  # West's box is off
        try:
            ports, trouble = box_ports(",".join(shuffled(link)), "sv")
        finally:
            for b in boxes:
                b.close()
    assert ports == {s: link.tablet_ports[s] for s in "NES"}
    assert trouble == {"W": {"missing": True}}
    # the director console says it in its language (and again after a language change)
    from tablet_app import present

    assert any("Ingen budlåda hittad för Väst" in line for line in present.box_lines(trouble, "sv"))
    assert any("Ingen meldeboks fundet for Vest" in line for line in present.box_lines(trouble, "da"))
    assert box_ports("none", "sv") == ({}, {})
    assert box_ports("N=/dev/a,E=/dev/b", "sv") == ({"N": "/dev/a", "E": "/dev/b"}, {})
