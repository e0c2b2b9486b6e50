"""The table loop on the real link: TableRunner + LinkMaster over the simulated serial link,
with the protocol's own box endpoint at each seat (hardware.sim.link.EndpointBox) and the real
controller, journal and engine behind it."""
import os
import time

import pytest

from hardware.sim.link import EndpointBox, SimLink
from protocol import VERSION_MAX, VERSION_MIN, calls
from protocol import messages as M
from protocol.frame_tools import wire_from_payload
from shared_rules.types import SEATS
from tablet_app import present
from tablet_app.controller import Controller
from tablet_app.link import LinkMaster
from tablet_app.runner import TableRunner
from tests.link.test_linkmaster import HANG_S, wait

pytestmark = pytest.mark.link  # runs the simulated serial link in real time
SESSION = {"event": "club", "section": "A", "table": 1, "round": 1, "boards": [1, 2],
           "ns_pair": 1, "ew_pair": 2, "profile": "dbf-2017", "td_pin": "4321"}


@pytest.fixture
def table(tmp_path):
    link = SimLink(seed=5).start()
    boxes = {s: EndpointBox(s, link.box_ports[s]) for s in SEATS}
    lm = LinkMaster(link.tablet_ports, ack_on_commit=True)
    ctl = Controller(tmp_path / "journal.db")
    ctl.setup(SESSION)
    runner = TableRunner(ctl, link=lm)
    yield runner, boxes
    runner.close()
    for b in boxes.values():
        b.close()
    link.close()
    ctl.close()


def frames_seen(box):
    """Record (frame type, calls the box still holds, STATE seq it has) after each frame."""
    seen = []
    ep = box.ep
    handle = ep._frame

    def frame(p, n, now):
        r = handle(p, n, now)
        seen.append((p[1], ep.q_count, ep.state_seq))
        return r

    ep._frame = frame
    return seen


def test_a_call_is_acknowledged_by_the_state_that_shows_it_not_by_a_bare_frame_before_it(table):
    # The latency bench saw the calling box redraw twice per call: "sending" cleared by a bare
    # acknowledgement, then the new auction by the STATE right behind it on the same line.
    runner, boxes = table
    assert wait(lambda: all(b.view is not None for b in boxes.values()))
    auction = ["1C", "P", "1H", "P", "1S", "P", "2C", "P", "2D", "P", "2H", "P"]
    for i, call in enumerate(auction):
        seat = SEATS[i % 4]  # board 1: North deals
        box = boxes[seat]
        assert wait(lambda box=box, seat=seat: box.view["turn"] == seat)
        seen = frames_seen(box)
        with box.lock:
            before = box.ep.state_seq
        box.submit(M.CALL, calls.code(call))
        deadline = time.monotonic() + HANG_S
        while box.pending() or len(box.view["auction"]) < i + 1:
            runner.step(0.01)
            assert time.monotonic() < deadline, (seat, call, box.view, runner.events[-1:])
        released = next(k for k, (_t, held, _s) in enumerate(seen) if held == 0)
        t, _held, state = seen[released]
        assert t == M.STATE and state != before, (seat, call, seen)
        assert [c["call"] for c in box.view["auction"]][-1] == call


def test_a_frame_a_box_could_not_read_reaches_the_director_console_in_the_players_language(table):
    # protocol v2 (SPEC.md section 3b): a box NAKs a frame it cannot use. Logged alone, a box on
    # a bad cable or with old firmware goes unseen; the runner keeps it for the director console.
    runner, boxes = table
    assert wait(lambda: all(b.view is not None for b in boxes.values()))
    box = boxes["E"]
    with box.lock:
        nak = M.encode_payload({"type": "box_nak", "seat": "E", "epoch": box.ep.epoch, "seq": 0,
                                "ack": box.ep.rx_next, "reason": "bad_field", "of_type": M.STATE,
                                "of_seq": 7, "detail": M.S_DEALER})
    for _ in range(2):
        os.write(box.fd, wire_from_payload(nak))
    assert wait(lambda: (runner.step(0.01), runner.box_trouble.get("E", {}).get("naks") == 2)[1]), \
        runner.box_trouble
    assert runner.box_trouble["E"]["reason"] == "bad_field"
    assert present.box_lines(runner.box_trouble, "sv") == [
        "Boxen Öst kunde inte läsa 2 meddelande(n) (senast: bad_field): kontrollera kabeln."]


def test_a_box_speaking_another_protocol_is_shown_in_red_until_it_links_up():
    trouble = {"W": {"version": (3, 4)}}
    [line] = present.box_lines(trouble, "da")
    assert line.startswith("[color=") and f"Boksen Vest taler protokol 3..4, tabletten {VERSION_MIN}..{VERSION_MAX}" in line
