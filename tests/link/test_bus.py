"""RS-485 multidrop: four boxes (bus=True endpoints) and LinkMaster as bus master on ONE shared
simulated line. Boxes talk only when granted, so nobody collides; faults are recovered."""
import time

import pytest

from hardware.sim.link import EndpointBox, SimBus
from protocol import calls
from protocol import messages as M
from shared_rules.types import SEATS
from tablet_app.link import LinkMaster


def wait(cond, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)
    return cond()


@pytest.fixture
def bus():
    b = SimBus(seed=3).start()
    boxes = {s: EndpointBox(s, b.box_ports[s], bus=True) for s in SEATS}
    lm = LinkMaster({s: b.tablet_port for s in SEATS})
    yield b, boxes, lm
    lm.close()
    for x in boxes.values():
        x.close()
    b.close()


def test_bus_boxes_connect_only_through_grants_without_talking_over_each_other(bus):
    b, boxes, lm = bus
    for s in SEATS:
        lm.send_state(s, {"turn": "N", "message": "seat " + s})
    assert wait(lambda: all(x.view for x in boxes.values()), 5)
    assert all(boxes[s].view["message"] == "seat " + s for s in SEATS)  # addressed, not broadcast
    assert all(lm.connected(s) for s in SEATS)
    assert {e.seat for e in lm.poll(0.1) if e.kind == "hello"} == set(SEATS)
    # Zero on an idle machine; with the CPU loaded, a box thread can miss the master's reply
    # timeout (see the next test) and meet the next grant: 2 seen in ~375 frames on the line.
    # Boxes talking unasked would collide on a good part of the handshake, far above 2 %.
    st = b.stats()
    assert st["collisions"] * 50 <= st["relayed"]


def test_bus_auction_arrives_in_order_with_faults_and_no_collisions(bus):
    b, boxes, lm = bus
    for s in SEATS:
        lm.send_state(s, {"turn": "N"})
    assert wait(lambda: all(x.view for x in boxes.values()), 5)
    lm.poll(0.05)
    b.set_faults(corrupt=0.01, drop=0.005)
    sent = []
    got = []
    for i in range(80):
        seat = SEATS[i % 4]
        c = calls.NAMES[i % 38]
        boxes[seat].submit(M.CALL, calls.code(c))
        sent.append((seat, c))
        deadline = time.monotonic() + 5
        while len(got) < len(sent) and time.monotonic() < deadline:
            for e in lm.poll(0.05):
                if e.kind == "call":
                    got.append((e.seat, e.call))
        for s in SEATS:
            lm.send_state(s, {"turn": SEATS[(i + 1) % 4], "auction": [{"call": x} for _, x in got[-20:]]})
    assert got == sent
    b.set_faults(corrupt=0.0, drop=0.0)
    want = [x for _, x in got[-20:]]
    assert wait(lambda: all([a["call"] for a in x.view["auction"]] == want for x in boxes.values()), 5)
    st = b.stats()
    # Without faults the grant discipline gives zero collisions (test above). Here the four
    # boxes, the relay and the master are threads of ONE process sharing the GIL: now and then a
    # box answers after the master's 7.5 ms reply timeout (a real box is its own MCU) and meets
    # the next grant. Measured: a few per thousand frames; a collision is just more garbage the
    # protocol recovers from, which the in-order assertion above shows.
    frames = sum(v["frames"] for v in lm.stats().values())
    assert st["collisions"] * 50 <= frames and st["corrupted"] > 0  # under 2 % of the replies


def test_a_missing_box_on_the_bus_does_not_stop_the_others():
    with SimBus(seed=4) as b:
        boxes = {s: EndpointBox(s, b.box_ports[s], bus=True) for s in "NES"}  # West is absent
        lm = LinkMaster({s: b.tablet_port for s in SEATS})
        try:
            for s in SEATS:
                lm.send_state(s, {"turn": "N"})
            assert wait(lambda: all(x.view for x in boxes.values()), 5)
            assert not lm.connected("W")
            got = []
            for s in "NES":
                boxes[s].submit(M.CALL, calls.code("P"))
            assert wait(lambda: (got.extend(e.seat for e in lm.poll(0.02) if e.kind == "call"),
                                 len(got) == 3)[1], 5)
            assert sorted(got) == ["E", "N", "S"]
        finally:
            lm.close()
            for x in boxes.values():
                x.close()


def test_bus_grants_the_box_in_turn_every_other_time_and_starves_no_one(bus):
    """South is to call: its box is granted every other time, so its call waits at most one
    other box's grant and reply instead of a whole round; the other three still get the slots
    between (a TD call, an undo or a call out of turn is taken within 2 * 3 grants)."""
    b, boxes, lm = bus
    for s in SEATS:
        lm.send_state(s, {"turn": "S", "message": "S to call"})
    assert wait(lambda: all(x.view for x in boxes.values()) and all(lm.connected(s) for s in SEATS), 5)
    before = {s: v["grants"] for s, v in lm.stats().items()}
    time.sleep(0.6)
    g = {s: v["grants"] - before[s] for s, v in lm.stats().items()}
    total = sum(g.values())
    assert total >= 20, g
    assert g["S"] * 2 >= total - 2, f"the box in turn got {g['S']} of {total} grants: {g}"
    for s in "NEW":
        assert g[s] * 7 >= total - 6, f"box {s} got {g[s]} of {total} grants: {g}"
    # a call out of turn (West) still arrives
    lm.poll(0.01)
    boxes["W"].submit(M.CALL, calls.code("P"))
    got = []
    assert wait(lambda: (got.extend(e.seat for e in lm.poll(0.02) if e.kind == "call"), "W" in got)[1], 2)
