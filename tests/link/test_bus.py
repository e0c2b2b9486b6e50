"""RS-485 multidrop: four boxes (bus=True endpoints) and LinkMaster as bus master on ONE shared
simulated line. Boxes talk only when granted; faults are recovered.

What is asserted is what the protocol guarantees whatever the machine's load (protocol/SPEC.md
section 1): a box sends only in reply to a grant addressed to it, one frame per grant; the poll
schedule's order of grants; every call arrives once and in order. Here the four boxes, the relay
and the master are threads of one process: a box answering after the master's 7.5 ms reply
window (a real box is its own MCU) meets the next grant on the line, and how often that happens
depends on the scheduler, so the collision rate is a figure of `make bench` (bench_protocol),
not a test. Deadlines below only keep a hang from lasting forever."""
import time

import pytest

from hardware.sim.link import EndpointBox, SimBus
from protocol import calls
from protocol import messages as M
from protocol.layout import FROM_BOX
from tablet_app.link import LinkMaster

pytestmark = pytest.mark.link  # runs the simulated serial link in real time

SEATS = "NESW"
HANG_S = 60  # a guard against a hang, never a speed requirement


def wait(cond, seconds=HANG_S):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)
    return cond()


def grants(frames):
    """The seats the tablet granted (a PING, WELCOME or NAK to the seat; a STATE is no grant),
    in order."""
    return [SEATS[p[0] & 3] for node, p in frames if node == "tablet" and not p[0] & FROM_BOX and p[1] != M.STATE]


def unasked(frames):
    """The box frames on the line that no grant asked for: a box may send only in reply to a
    grant to its own seat, at most one frame per grant (SPEC.md section 1). A late reply still
    answers its grant; it is the master's reply window it missed, not the rule."""
    owed = dict.fromkeys(SEATS, 0)
    out = []
    for k, (node, p) in enumerate(frames):
        if node == "tablet":
            if not p[0] & FROM_BOX and p[1] != M.STATE:
                owed[SEATS[p[0] & 3]] += 1
        elif owed[node]:
            owed[node] -= 1
        else:
            out.append((k, node, hex(p[1])))
    return out


@pytest.fixture
def bus():
    b = SimBus(seed=3, record=True).start()
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
    assert wait(lambda: all(x.view for x in boxes.values()))
    assert all(boxes[s].view["message"] == "seat " + s for s in SEATS)  # addressed, not broadcast
    assert all(lm.connected(s) for s in SEATS)
    assert {e.seat for e in lm.poll(0.1) if e.kind == "hello"} == set(SEATS)
    frames = b.line_frames()
    assert {node for node, _ in frames} == set(SEATS) | {"tablet"}  # every box has talked
    assert unasked(frames) == []


def test_bus_auction_arrives_in_order_with_faults_and_no_collisions(bus):
    b, boxes, lm = bus
    for s in SEATS:
        lm.send_state(s, {"turn": "N"})
    assert wait(lambda: all(x.view for x in boxes.values()))
    lm.poll(0.05)
    b.set_faults(corrupt=0.01, drop=0.005)
    sent = []
    got = []
    for i in range(80):
        seat = SEATS[i % 4]
        c = calls.NAMES[i % 38]
        boxes[seat].submit(M.CALL, calls.code(c))
        sent.append((seat, c))
        deadline = time.monotonic() + HANG_S
        while len(got) < len(sent) and time.monotonic() < deadline:
            for e in lm.poll(0.05):
                if e.kind == "call":
                    got.append((e.seat, e.call))
        for s in SEATS:
            lm.send_state(s, {"turn": SEATS[(i + 1) % 4], "auction": [{"call": x} for _, x in got[-20:]]})
    assert got == sent
    b.set_faults(corrupt=0.0, drop=0.0)
    want = [x for _, x in got[-20:]]
    assert wait(lambda: all([a["call"] for a in x.view["auction"]] == want for x in boxes.values()))
    assert b.stats()["corrupted"] > 0  # the faults were on: the order above survived them
    # 80 calls, each sent by its box in a reply to a grant: whatever collided or was corrupted on
    # the way, no box ever talked unasked
    assert unasked(b.line_frames()) == []


def test_a_missing_box_on_the_bus_does_not_stop_the_others():
    with SimBus(seed=4) as b:
        boxes = {s: EndpointBox(s, b.box_ports[s], bus=True) for s in "NES"}  # West is absent
        lm = LinkMaster({s: b.tablet_port for s in SEATS})
        try:
            for s in SEATS:
                lm.send_state(s, {"turn": "N"})
            assert wait(lambda: all(x.view for x in boxes.values()))
            assert not lm.connected("W")
            got = []
            for s in "NES":
                boxes[s].submit(M.CALL, calls.code("P"))
            assert wait(lambda: (got.extend(e.seat for e in lm.poll(0.02) if e.kind == "call"),
                                 len(got) == 3)[1])
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
    assert wait(lambda: all(x.view for x in boxes.values()) and all(lm.connected(s) for s in SEATS))
    start = len(grants(b.line_frames()))
    assert wait(lambda: len(grants(b.line_frames())) >= start + 60)
    g = grants(b.line_frames())[start:start + 60]
    # every other grant is South's, and no two in a row are (the others have the slots between)
    assert all((x == "S") != (y == "S") for x, y in zip(g, g[1:], strict=False)), "".join(g)
    # the three others in rotation: each at least once in every 2 x (4 - 1) grants
    for k in range(len(g) - 5):
        assert set(g[k:k + 6]) == set(SEATS), f"grants {k}..{k + 5}: {''.join(g)}"
    # a call out of turn (West) still arrives
    lm.poll(0.01)
    boxes["W"].submit(M.CALL, calls.code("P"))
    got = []
    assert wait(lambda: (got.extend(e.seat for e in lm.poll(0.02) if e.kind == "call"), "W" in got)[1])


def test_the_grant_check_sees_a_box_talking_unasked_or_twice_for_one_grant():
    grant = lambda seat: ("tablet", bytes([SEATS.index(seat), M.PING]))  # noqa: E731
    state = lambda seat: ("tablet", bytes([SEATS.index(seat), M.STATE]))  # noqa: E731
    reply = lambda seat: (seat, bytes([FROM_BOX | SEATS.index(seat), M.ACK]))  # noqa: E731
    assert unasked([grant("N"), reply("N"), grant("E"), grant("S"), reply("E"), reply("S")]) == []
    assert unasked([state("N"), reply("N")]) == [(1, "N", hex(M.ACK))]  # a STATE is no grant
    assert unasked([grant("N"), reply("N"), reply("N")]) == [(2, "N", hex(M.ACK))]
    assert grants([grant("N"), state("E"), grant("S")]) == ["N", "S"]
