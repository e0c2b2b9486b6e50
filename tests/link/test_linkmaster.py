"""LinkMaster (pyserial, real ptys) against the protocol's own box endpoint over the simulated
link, with and without faults. Not a mock: EndpointBox is the box-side state machine the firmware
runs; the firmware itself is tested on top by the firmware tests."""
import os
import time

import pytest

from hardware.sim.link import EndpointBox, SimLink
from protocol import calls
from protocol import messages as M
from protocol.frame_tools import wire_from_payload
from shared_rules.types import SEATS
from tablet_app.link import LinkMaster

pytestmark = pytest.mark.link  # runs the simulated serial link in real time

HANG_S = 60  # a guard against a hang, never a speed requirement


def frames_heard(box) -> int:
    """Frames the box has taken off the line from the tablet."""
    with box.lock:
        return box.ep.deframer.frames


def wait(cond, seconds=HANG_S):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)  # how often it looks, not how long it waits
    return cond()


class Table:
    """A tablet loop: collects events per seat and pushes a new view to every box after each."""

    def __init__(self, lm):
        self.lm = lm
        self.got = {s: [] for s in SEATS}
        self.hellos = {s: 0 for s in SEATS}
        self.auction = []
        self.version = 0

    def view(self, seat):
        return {"turn": SEATS[len(self.auction) % 4], "dealer": "N", "board": 1,
                "auction": [{"call": c} for c in self.auction[-300:]],
                "message": f"v{self.version}"}

    def push(self):
        self.version += 1
        for s in SEATS:
            self.lm.send_state(s, self.view(s))

    def pump(self, timeout=0.02):
        evs = self.lm.poll(timeout)
        for e in evs:
            if e.kind == "hello":
                self.hellos[e.seat] += 1
            else:
                self.got[e.seat].append((e.kind, e.call, e.box_ms))
                if e.kind == "call":
                    self.auction.append(e.call)
        if evs:
            self.push()
        return evs


def diagnose(boxes, lm, link, n):
    out = [f"stuck after {n} events; link {link.stats()}; master {lm.stats()}"]
    for s, b in boxes.items():
        e = b.ep
        out.append(f"{s}: session={e.session} pending={e.pending()} head={e.head_seq} "
                   f"send={e.send_seq} next={e.next_seq} rx_next={e.rx_next} epoch={e.epoch} "
                   f"tablet_epoch={e.tablet_epoch} linked={b.linked()}")
    for s, e in lm._eps.items():
        out.append(f"tablet {s}: session={e.session} box_epoch={e.box_epoch} rx_next={e.rx_next} "
                   f"ack_next={e.ack_next} ser={lm._seat_port[s].ser is not None} "
                   f"state_unacked={e.state_unacked}")
    return "\n".join(out)


@pytest.fixture
def table():
    link = SimLink(seed=17).start()
    boxes = {s: EndpointBox(s, link.box_ports[s]) for s in SEATS}
    lm = LinkMaster(link.tablet_ports)
    t = Table(lm)
    t.push()
    yield link, boxes, lm, t
    lm.close()
    for b in boxes.values():
        b.close()
    link.close()


def test_four_boxes_connect_and_show_the_state(table):
    link, boxes, lm, t = table
    assert wait(lambda: (t.pump(), all(b.view for b in boxes.values()))[1])
    assert all(lm.connected(s) for s in SEATS)
    assert t.hellos == {s: 1 for s in SEATS}
    # each hello made the tablet push a newer view: every box ends on the latest one
    assert wait(lambda: (t.pump(), all(b.view["message"] == f"v{t.version}"
                                       for b in boxes.values()))[1])


def test_a_full_auction_from_four_boxes_arrives_in_order_and_every_box_shows_it(table):
    link, boxes, lm, t = table
    auction = ["1C", "P", "1H", "P", "2NT", "X", "XX", "P", "3NT", "P", "P", "P"]
    for i, c in enumerate(auction):
        seat = SEATS[i % 4]
        boxes[seat].submit(M.CALL, calls.code(c))
        assert wait(lambda n=i + 1: (t.pump(), len(t.auction) == n)[1])
    assert t.auction == auction
    want = [a["call"] for a in t.view("N")["auction"]]
    assert wait(lambda: all(b.view and [a["call"] for a in b.view["auction"]] == want
                            for b in boxes.values()))
    assert wait(lambda: all(lm.state_acked(s) for s in SEATS))


def test_link_loss_is_seen_on_both_ends_and_queued_events_arrive_after_the_cable_is_back(table):
    link, boxes, lm, t = table
    assert wait(lambda: (t.pump(), all(lm.connected(s) for s in SEATS))[1])
    link.pull("E", 3600)  # out until plugged back below, however long the machine takes
    boxes["E"].submit(M.TD, 0xFF)
    boxes["E"].submit(M.ALERT, 0)
    assert wait(lambda: (t.pump(), not lm.connected("E"))[1])
    assert wait(lambda: not boxes["E"].linked()) and lm.connected("N")
    assert t.got["E"] == []
    link.plug("E")
    assert wait(lambda: (t.pump(), len(t.got["E"]) == 2)[1])
    assert [k for k, _, _ in t.got["E"]] == ["td", "alert"] and lm.connected("E")


def test_a_rebooted_box_gets_the_full_state_back(table):
    link, boxes, lm, t = table
    boxes["S"].submit(M.CALL, calls.code("1S"))
    assert wait(lambda: (t.pump(), t.auction == ["1S"])[1])
    assert wait(lambda: boxes["S"].view and boxes["S"].view["auction"])
    boxes["S"].reboot()
    assert boxes["S"].view is None
    assert wait(lambda: (t.pump(), boxes["S"].view is not None)[1])
    assert [a["call"] for a in boxes["S"].view["auction"]] == ["1S"]
    assert t.hellos["S"] == 2


def test_bad_views_and_unknown_seats_are_refused_with_a_clear_error(table):
    link, boxes, lm, t = table
    with pytest.raises(ValueError, match="unknown call"):
        lm.send_state("N", {"allowed": ["9Z"]})
    with pytest.raises(ValueError, match="no box port"):
        lm.send_state("Q", {})
    with pytest.raises(ValueError, match="unknown seat"):
        LinkMaster({"Z": "/dev/null"})


@pytest.mark.slow
def test_fault_soak_over_the_sim_loses_duplicates_and_reorders_nothing(table):
    """1 % corrupted and 0.5 % dropped bytes both ways, cable pulls and box reboots (after the
    box's queue drained: the firmware keeps its queue in flash; EndpointBox keeps it in RAM)."""
    link, boxes, lm, t = table
    assert wait(lambda: (t.pump(), all(lm.connected(s) for s in SEATS))[1])
    link.set_faults(corrupt=0.01, drop=0.005)
    sent = {s: [] for s in SEATS}
    n = 0
    plan = {60: ("pull", "N"), 120: ("reboot", "E"), 180: ("pull", "W"), 240: ("reboot", "S")}
    deadline = time.monotonic() + 5 * HANG_S  # ends a hang; 320 events take seconds on a quiet machine
    while n < 320:
        assert time.monotonic() < deadline, diagnose(boxes, lm, link, n)
        seat = SEATS[n % 4]
        if n in plan:
            what, who = plan.pop(n)  # once: n stays put while a box's queue is full
            if what == "pull":
                link.pull(who, 1.2)
            else:
                assert wait(lambda b=boxes[who]: (t.pump(), b.pending() == 0)[1])
                boxes[who].reboot()
        b = boxes[seat]
        kind = (M.CALL, M.CALL, M.CALL, M.ALERT, M.STOP)[n % 5]
        arg = n % 38 if kind == M.CALL else 0xFF
        if b.pending() < 12:
            b.submit(kind, arg)
            sent[seat].append((M.EVENT_KINDS[kind], calls.NAMES[arg] if kind == M.CALL else None))
            n += 1
        t.pump(0.003)
    assert wait(lambda: (t.pump(), all(b.pending() == 0 for b in boxes.values()))[1]), \
        diagnose(boxes, lm, link, n)
    t.pump(0.1)
    for s in SEATS:
        assert [(k, c) for k, c, _ in t.got[s]] == sent[s], s
    link.set_faults(corrupt=0.0, drop=0.0)
    t.push()
    final = f"v{t.version}"
    assert wait(lambda: (t.pump(), all(b.view and b.view["message"] == final
                                       for b in boxes.values()))[1])
    assert lm.thread_errors == 0 and link.relay_errors == 0
    assert all(b.errors == 0 for b in boxes.values())
    st = link.stats()
    assert sum(st[s][d]["corrupted"] for s in SEATS for d in ("up", "down")) > 0
    assert sum(lm.stats()[s]["bad_crc"] + lm.stats()[s]["bad_cobs"] for s in SEATS) > 0


def test_a_missing_port_is_not_connected_and_retried_without_raising(tmp_path):
    lm = LinkMaster({"N": str(tmp_path / "no-such-tty")})
    try:
        assert not lm.connected("N")
        assert lm.poll(0.05) == []
        lm.send_state("N", {"turn": "N"})  # kept for when the box appears
        assert lm.stats()["N"]["port_errors"] >= 1 and not lm.state_acked("N")
    finally:
        lm.close()


def test_ack_on_commit_keeps_events_on_the_box_until_commit_and_a_restarted_tablet_gets_them():
    with SimLink(seats="N", seed=2) as link:
        box = EndpointBox("N", link.box_ports["N"])
        try:
            lm = LinkMaster(link.tablet_ports, ack_on_commit=True)
            lm.send_state("N", {"turn": "N"})
            assert wait(lambda: box.view is not None)
            box.submit(M.CALL, calls.code("1NT"))
            got = []
            assert wait(lambda: (got.extend(e for e in lm.poll(0.02) if e.kind == "call"), got)[1])
            # an ack sent on receipt would be at the box before the tablet's next two frames (its
            # heartbeats: one at least every 200 ms, in order on the line)
            heard = frames_heard(box)
            assert wait(lambda: frames_heard(box) >= heard + 2)
            assert box.pending() == 1  # delivered, not committed: the box keeps it
            lm.close()  # the tablet dies before its journal commit
            lm = LinkMaster(link.tablet_ports, ack_on_commit=True)
            again = []
            assert wait(lambda: (again.extend(e for e in lm.poll(0.02) if e.kind == "call"),
                                 again)[1])
            assert (again[0].call, again[0].epoch, again[0].seq, again[0].box_ms) == \
                (got[0].call, got[0].epoch, got[0].seq, got[0].box_ms)
            lm.commit()
            assert wait(lambda: box.pending() == 0)
            lm.close()
        finally:
            box.close()


def test_linkmaster_reports_box_naks_and_caps_and_fits_suits_to_a_box_without_them(table):
    """A box that could not use a frame says why (SPEC.md section 3b): LinkMaster hands the
    report to the application (and its log) instead of re-sending in silence; a box's CAPS (3c)
    is kept per seat, and a box without suit glyphs is sent letters."""
    link, boxes, lm, t = table
    assert wait(lambda: (t.pump(), all(lm.caps(s) is not None for s in SEATS))[1])
    reps = lm.reports()
    assert {r["seat"] for r in reps if r["kind"] == "caps"} == set(SEATS)
    assert lm.caps("E")["suits"] is False
    lm.send_state("E", {"turn": "E", "message": "1\u2665 alerted"})
    assert wait(lambda: boxes["E"].view and boxes["E"].view["message"] == "1H alerted")
    box = boxes["E"]
    with box.lock:
        nak = M.encode_payload({"type": "box_nak", "seat": "E", "epoch": box.ep.epoch, "seq": 0,
                                "ack": box.ep.rx_next, "reason": "bad_field", "of_type": M.STATE,
                                "of_seq": 7, "detail": M.S_DEALER})
    os.write(box.fd, wire_from_payload(nak))
    got = []

    def naks():
        got.extend(r for r in lm.reports() if r["kind"] == "nak")
        return got

    assert wait(naks)
    assert got == [{"kind": "nak", "seat": "E", "reason": "bad_field", "of_type": M.STATE,
                    "of_seq": 7, "detail": M.S_DEALER}]
    assert lm.stats()["E"]["box_naks"] == 1


def test_the_app_is_told_when_every_box_holds_its_new_view_and_not_before(table):
    # The app redraws its own screen when the boxes are served (tablet_app/ui/app.py): told too
    # early, its drawing competes with the boxes' STATEs; never told, it waits a fixed 30 ms.
    link, boxes, lm, t = table
    assert wait(lambda: all(b.view is not None for b in boxes.values()))
    assert wait(lambda: all(lm.state_acked(s) for s in SEATS))
    told = []
    lm.on_states_acked = lambda: told.append({s: boxes[s].view["message"] for s in SEATS})
    for round_ in range(3):
        t.push()
        want = f"v{t.version}"
        assert wait(lambda n=round_ + 1: len(told) == n), told
        assert told[-1] == {s: want for s in SEATS}  # every box had it when the app was told
        # heartbeats and their acks meanwhile (two more frames from every box, each handled as it
        # came): told once per push, not again
        frames = {s: lm.stats()[s]["frames"] for s in SEATS}
        assert wait(lambda frames=frames: all(lm.stats()[s]["frames"] >= frames[s] + 2 for s in SEATS))
        assert len(told) == round_ + 1


def test_the_tables_language_reaches_every_box_and_a_switch_resends_the_views(table):
    """The players' language rides on each box's STATE (protocol version 3, SPEC.md section 3):
    given at the start, and when the table switches language the boxes get their views again in
    the new one, without a new call."""
    link, boxes, lm, t = table
    assert wait(lambda: (t.pump(), all(b.view for b in boxes.values()))[1])
    assert all(b.view.get("lang") is None for b in boxes.values())  # none given: the box's own
    lm.set_lang("sv")
    assert wait(lambda: (t.pump(), all(b.view.get("lang") == "sv" for b in boxes.values()))[1])
    lm.set_lang("da")
    assert wait(lambda: (t.pump(), all(b.view.get("lang") == "da" for b in boxes.values()))[1])
    t.push()  # the next views keep it
    assert wait(lambda: (t.pump(), all(b.view["message"] == f"v{t.version}" and b.view["lang"] == "da"
                                       for b in boxes.values()))[1])
    with pytest.raises(ValueError):
        lm.set_lang("no")
    assert lm.lang == "da"
